package import PaylinksKit

/// The verdicts of `check-events`, from values alone: what an answer to an event means,
/// and what a refund or a dispute did to a player's balances. The audit sends and reads;
/// these decide.
package enum EventAuditVerdicts {
    /// Why a case says nothing while the valid event is refused.
    package static let fixValidFirst =
        "not meaningful until the valid case passes: fix that first, then run the audit again"

    /// A failure of `valid` when the answer to it is an award endpoint's: a
    /// `publisherPurchaseId` (an award endpoint that grants whatever is signed), or a
    /// `publisherErrorMessage`.
    package static func awardLike(_ answer: AuditAnswer, sent: String) -> AuditFinding? {
        guard let status = answer.status else { return nil }
        let award = AwardAnswer(status: status, body: answer.body)
        let field = ["publisherPurchaseId", "publisherErrorMessage"].first { award.has($0) }
        guard let field else { return nil }
        return finding(
            "valid", .fail, "this URL answers like an award endpoint: \(status) with a \(field), to an order event",
            sent, answer,
            "check-events audits the game's events handler, where Appcharge sends order events; the award endpoint "
                + "takes Grant Award Callbacks: give check-events the events handler's URL, and this one as --award-url "
                + "(check-award audits it)")
    }

    /// A valid event must be accepted; only a refusal points at the handler's parsing, as
    /// the plain valid event was accepted.
    package static func tolerance(_ name: String, _ answer: AuditAnswer, sent: String, why: String) -> AuditFinding {
        guard let status = answer.status, !answer.accepted else { return acceptance(name, answer, sent: sent) }
        return finding(
            name, .fail, "a valid event was refused (\(status))", sent, answer,
            "a plain valid event was accepted and this one was not: \(why); a refused event is retried and then "
                + "lost, and a lost refund leaves the player their items")
    }

    /// A valid event must be accepted at once with a 2xx.
    package static func acceptance(_ name: String, _ answer: AuditAnswer, sent: String) -> AuditFinding {
        guard let status = answer.status else {
            return finding(
                name, .fail, "no answer: \(answer.error ?? "nothing came")", sent, answer,
                "every delivery times out and is retried, then lost: answer each verified event at once with 2xx")
        }
        guard answer.accepted else {
            return finding(
                name, .fail, "a valid event was refused (\(status))", sent, answer,
                "every event is retried and then lost, the refunds and lost disputes among them: check the key "
                    + "(the main key, or the separate events key), the signature over the raw body, t in milliseconds")
        }
        if answer.milliseconds > 2000 {
            return finding(
                name, .warn, "accepted (\(status)), but only after \(answer.milliseconds) ms", sent, answer,
                "a slow answer is close to a timeout and a retry: answer at once, and handle the event afterwards")
        }
        return finding(name, .pass, "accepted (\(status)) in \(answer.milliseconds) ms", sent, answer, "")
    }

    /// A verified event the handler cannot use must still be answered 2xx: a V2 non-2xx,
    /// or a V1 5xx, is only sent again.
    package static func businessFailure(
        _ name: String, _ answer: AuditAnswer, sent: String, version: OrderEvent.Version
    ) -> AuditFinding {
        guard let status = answer.status, !answer.accepted else { return acceptance(name, answer, sent: sent) }
        guard version == .v2 || status >= 500 else {
            return finding(name, .pass, "refused (\(status)), which V1 does not retry", sent, answer, "")
        }
        let retries = version == .v2 ? "3 more times over 15 minutes" : "up to 3 more times, 5 minutes apart"
        return finding(
            name, .warn, "answered \(status) to a verified event it could not use", sent, answer,
            "a non-2xx only makes Appcharge send it again (\(retries)): answer 2xx to every verified event, and "
                + "handle the failure yourself")
    }

    // MARK: The money

    /// What a money case's balances should be and what it means when they are not.
    package struct MoneyExpectation {
        /// The balances if the handler did right.
        package var expected: AuditBalances
        /// Why it matters when nothing was taken back; empty where nothing should be.
        package var keeps: String
        /// The balances if the order's products were taken twice, when a case can take them twice.
        package var twice: AuditBalances? = nil
        /// Why taking them twice matters.
        package var twiceWhy = ""
        /// What it is when something was taken and nothing should have been.
        package var tooMuch = ""
        /// Why that matters.
        package var tooMuchWhy = ""

        /// An expectation.
        package init(
            expected: AuditBalances, keeps: String, twice: AuditBalances? = nil, twiceWhy: String = "",
            tooMuch: String = "", tooMuchWhy: String = ""
        ) {
            self.expected = expected
            self.keeps = keeps
            self.twice = twice
            self.twiceWhy = twiceWhy
            self.tooMuch = tooMuch
            self.tooMuchWhy = tooMuchWhy
        }
    }

    /// The verdict of a money case: the balances `reading` shows against `expectation`;
    /// its summary says how long the ledger took, when the audit waited for it
    /// (`ledgerWait` milliseconds at most).
    package static func money(
        _ name: String, sent: String, _ answer: AuditAnswer, before: AuditBalances, after reading: LedgerReading,
        _ expectation: MoneyExpectation, ledgerWait: Int
    ) -> AuditFinding {
        var finding = money(name, sent: sent, answer, before: before, after: reading.balances, expectation)
        finding.summary += reading.note
        if reading.timedOut, finding.verdict == .fail, reading.balances.same(as: before) {
            finding.why +=
                ledgerWait == 0
                ? "; the ledger was read once, at the answer (--ledger-wait 0): a handler that revokes from a queue "
                    + "needs a wait"
                : "; the ledger was watched for \(LedgerReading.shown(milliseconds: ledgerWait)) after the answer: a "
                    + "handler that revokes from a queue more slowly needs a longer --ledger-wait"
        }
        return finding
    }

    /// The verdict of a money case from the balances `after` alone.
    package static func money(
        _ name: String, sent: String, _ answer: AuditAnswer, before: AuditBalances, after: AuditBalances,
        _ expectation: MoneyExpectation
    ) -> AuditFinding {
        let expected = expectation.expected
        let change = "\(before.shown) → \(after.shown)"
        if let harm = harm(after: after, before: before, limit: nil) {
            return finding(name, .fail, harm.summary, sent, answer, harm.why)
        }
        if after.same(as: expected) {
            guard answer.accepted else {
                return finding(
                    name, .warn,
                    "the balances are right (\(change)), but it answered "
                        + "\(answer.status.map { String($0) } ?? "nothing")", sent, answer,
                    "a non-2xx only makes Appcharge send the event again: answer 2xx to every verified event")
            }
            let what = before.same(as: expected) ? "nothing taken" : "taken back once"
            return finding(name, .pass, "\(what): \(change)", sent, answer, "")
        }
        if let twice = expectation.twice, after.same(as: twice) {
            return finding(name, .fail, "taken back twice: \(change)", sent, answer, expectation.twiceWhy)
        }
        if after.same(as: before) {
            return finding(name, .fail, "nothing taken back: \(change)", sent, answer, expectation.keeps)
        }
        if expected.same(as: before) {
            return finding(name, .fail, "\(expectation.tooMuch): \(change)", sent, answer, expectation.tooMuchWhy)
        }
        return finding(
            name, .fail, "the balances are wrong: \(change), where \(expected.shown) was right", sent, answer,
            expectation.keeps.isEmpty ? expectation.tooMuchWhy : expectation.keeps)
    }

    /// What is wrong beyond a balance's value: one below zero, one that rose, or more
    /// taken than `limit`.
    package static func harm(after: AuditBalances, before: AuditBalances, limit: AuditBalances?) -> (
        summary: String, why: String
    )? {
        if let negative = after.first(where: { $0.value < 0 }) {
            return (
                "a balance went negative: \(negative.key) \(negative.value)",
                "a player who spent the items owes them forever: clamp at zero and record the shortfall"
            )
        }
        if let risen = after.sorted(by: { $0.key < $1.key }).first(where: { $0.value > before[$0.key, default: 0] }) {
            return (
                "a balance rose: \(risen.key) \(before[risen.key, default: 0]) → \(risen.value)",
                "a refund or a dispute takes items back or leaves them; it never gives any"
            )
        }
        if let limit, before.minus(after).contains(where: { $0.value > limit[$0.key, default: 0] }) {
            return (
                "took more than the order gave: \(before.shown) → \(after.shown)",
                "a refund takes back at most what its order granted"
            )
        }
        return nil
    }

    /// The verdict of a refund of `half` of `order`'s price: whatever it revoked, within
    /// what the order gave, passes; it is answered 2xx.
    package static func partialRefund(
        _ name: String, sent: String, _ answer: AuditAnswer, order: OrderResponseModel, half: Int,
        before: AuditBalances, after reading: LedgerReading, products: AuditBalances
    ) -> AuditFinding {
        let after = reading.balances
        let taken = before.minus(after)
        if let harm = harm(after: after, before: before, limit: products) {
            return finding(name, .fail, harm.summary + reading.note, sent, answer, harm.why)
        }
        let amount =
            "\(OrderEvent.decimal(half, currency: order.currency)) of "
            + "\(OrderEvent.decimal(order.price, currency: order.currency)) \(order.currency)"
        let did =
            taken.values.allSatisfy({ $0 == 0 })
            ? "revoked nothing"
            : taken == products ? "revoked all of the order's products" : "revoked \(taken.shown)"
        let answered = answer.accepted ? "" : ", and answered \(answer.status.map { String($0) } ?? "nothing")"
        return finding(
            name, answer.accepted ? .pass : .warn,
            "a refund of \(amount): the handler \(did)\(answered)\(reading.note)",
            sent, answer,
            answer.accepted
                ? "" : "a non-2xx only makes Appcharge send the refund again: answer 2xx to every verified event")
    }

    /// A case not checked: `why` says what kept it.
    package static func notChecked(_ name: String, _ why: String) -> AuditFinding {
        AuditFinding(
            name: name, verdict: .notChecked, summary: "not checked: \(why)", sent: "nothing", received: "nothing",
            why: "")
    }

    private static func finding(
        _ name: String, _ verdict: AuditFinding.Verdict, _ summary: String, _ sent: String, _ answer: AuditAnswer,
        _ why: String
    ) -> AuditFinding {
        answer.finding(name, verdict, summary, sent: sent, why: why)
    }
}
