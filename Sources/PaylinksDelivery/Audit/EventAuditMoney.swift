import PaylinksAppcharge
import PaylinksHTTP
import PaylinksKit

/// The money cases of `check-events`: an order granted through the game's award endpoint,
/// then refunded or disputed, and the player's balances read from its ledger before and
/// after. What the balances mean is ``EventAuditVerdicts``'s to say.
extension EventAudit {
    /// A money case's start: a player, the orders granted to them, and what the ledger
    /// showed once it showed the grants.
    struct MoneyStage {
        var player: String
        /// The orders granted, the one the case acts on first.
        var granted: [OrderResponseModel]
        /// What the player held before the case's events.
        var before: AuditBalances

        /// The order the case refunds or disputes.
        var order: OrderResponseModel { granted[0] }
        /// What that order granted.
        var products: AuditBalances { .products(of: order) }
    }

    /// Runs the money case `auditCase`: grants its orders, sends its events, and judges
    /// what the ledger shows after them.
    func money(_ auditCase: EventAuditCase) throws(AuditCannotRun) -> AuditFinding {
        guard let ledger else { return notChecked(auditCase) }
        let stage: MoneyStage
        switch try grantedStage(auditCase, ledger: ledger) {
        case .success(let granted): stage = granted
        case .failure(let heldFinding): return heldFinding.finding
        }
        if auditCase != .refundFirst {
            for order in stage.granted { _ = send(event(.completed, of: order)) }
        }
        let name = auditCase.name
        switch auditCase {
        case .refund: return try refund(name, stage, ledger: ledger)
        case .duplicate, .duplicateRace: return try duplicateRefund(auditCase, stage, ledger: ledger)
        case .refundFirst: return try refundFirst(name, stage, ledger: ledger)
        case .refundUngranted: return try refundUngranted(name, stage, ledger: ledger)
        case .disputeLost, .disputeWon: return try dispute(auditCase, stage, ledger: ledger)
        case .partialRefund: return try partialRefund(name, stage, ledger: ledger)
        default: return notChecked(auditCase)
        }
    }

    /// A money case kept from running, and the finding that says so.
    struct Held: Error {
        var finding: AuditFinding
    }

    /// A new player with the case's orders granted (two for the duplicate cases), once the
    /// ledger shows the grants; else the finding of a case held.
    private func grantedStage(_ auditCase: EventAuditCase, ledger: AuditLedger) throws(AuditCannotRun)
        -> Result<MoneyStage, Held>
    {
        let name = auditCase.name
        let player = newPlayer()
        let grants = [.duplicate, .duplicateRace].contains(auditCase) ? 2 : 1
        var granted: [OrderResponseModel] = []
        for _ in 0..<grants {
            let order = orders.fresh(player: player)
            if let problem = try grant(order) {
                return .failure(
                    Held(
                        finding: held(
                            name, "the award endpoint did not grant: \(problem)",
                            what: "the award endpoint \(award.map { "\($0.url)" } ?? "") did not grant an order "
                                + "(\(problem))",
                            fix: "point --award-url at the game's award endpoint (check-award audits it)")))
            }
            granted.append(order)
        }
        let grantedTotal = granted.reduce(into: AuditBalances()) { total, order in
            for (sku, amount) in AuditBalances.products(of: order) { total.add(amount, to: sku) }
        }
        // A ledger that credits grants from a queue shows them a moment after the award's answer.
        let before = try ledger.balances(of: player, within: ledger.wait) { held in
            grantedTotal.allSatisfy { held[$0.key, default: 0] >= $0.value }
        }.balances
        guard grantedTotal.allSatisfy({ before[$0.key, default: 0] >= $0.value }) else {
            return .failure(
                Held(
                    finding: held(
                        name, "the ledger does not show what the award granted (it shows \(before.shown))",
                        what: "the ledger \(ledger.url) does not show what the award endpoint "
                            + "\(award.map { "\($0.url)" } ?? "") granted (it shows \(before.shown) for the "
                            + "player)",
                        fix: "point --award-url and --ledger-url at the same game's server")))
        }
        return .success(MoneyStage(player: player, granted: granted, before: before))
    }

    private func refund(_ name: String, _ stage: MoneyStage, ledger: AuditLedger) throws(AuditCannotRun)
        -> AuditFinding
    {
        let exchange = send(event(.refunded, of: stage.order))
        return judge(
            name, sent: "\(called(.completed)), then \(called(.refunded)), of a granted order", exchange, stage,
            after: try ledger.settled(stage.player, from: stage.before, changing: true), ledger: ledger,
            EventAuditVerdicts.MoneyExpectation(
                expected: stage.before.minus(stage.products),
                keeps: "the player keeps the items and their money back: revoke the order's products on a refund"))
    }

    private func duplicateRefund(_ auditCase: EventAuditCase, _ stage: MoneyStage, ledger: AuditLedger)
        throws(AuditCannotRun) -> AuditFinding
    {
        let refund = event(.refunded, of: stage.order)
        let exchange: AuditExchange
        if auditCase == .duplicate {
            _ = send(refund)
            exchange = send(refund)
        } else {
            exchange = handler.sendTogether(body: refund.body, headers: headers(signing: refund.body)).1
        }
        let how = auditCase == .duplicate ? "one after the other" : "at the same moment, over two connections"
        let products = stage.products
        return judge(
            auditCase.name, sent: "one \(called(.refunded)) delivered twice, \(how), as Appcharge retries", exchange,
            stage, after: try ledger.settled(stage.player, from: stage.before, changing: true), ledger: ledger,
            EventAuditVerdicts.MoneyExpectation(
                expected: stage.before.minus(products),
                keeps: "the refund took nothing back: revoke the order's products on a refund",
                twice: stage.before.minus(products).minus(products),
                twiceWhy: version == .v2
                    ? (auditCase == .duplicate
                        ? "a retry takes the items again: remember each eventId and give a second copy no effect"
                        : "two copies in flight at once both take the items: make the check-and-record of an eventId "
                            + "atomic")
                    : "a resend takes the items again: give a second copy of an event of an order no effect"))
    }

    private func refundFirst(_ name: String, _ stage: MoneyStage, ledger: AuditLedger) throws(AuditCannotRun)
        -> AuditFinding
    {
        let exchange = send(event(.refunded, of: stage.order))
        _ = send(event(.completed, of: stage.order))
        return judge(
            name,
            sent: "\(called(.refunded)) before \(called(.completed)), as when the completion's first delivery failed",
            exchange, stage, after: try ledger.settled(stage.player, from: stage.before, changing: true),
            ledger: ledger,
            EventAuditVerdicts.MoneyExpectation(
                expected: stage.before.minus(stage.products),
                keeps: "a refund that arrives before the completion is dropped: events come in any order; "
                    + "revoke on the refund whatever came before it"))
    }

    private func refundUngranted(_ name: String, _ stage: MoneyStage, ledger: AuditLedger) throws(AuditCannotRun)
        -> AuditFinding
    {
        // One order of the player who holds a grant, one of a player who holds nothing.
        let newcomer = newPlayer()
        let strangers = [orders.fresh(player: stage.player), orders.fresh(player: newcomer)]
        var exchange = AuditExchange()
        for stranger in strangers {
            _ = send(event(.created, of: stranger))
            let answer = send(event(.refunded, of: stranger))
            if exchange.status == nil || !answer.accepted { exchange = answer }
        }
        var finding = judge(
            name,
            sent: "\(called(.refunded)) of two orders never granted (Charge Failed): one of a player who holds "
                + "another order's items, one of a player who holds nothing",
            exchange, stage, after: try ledger.settled(stage.player, from: stage.before, changing: false),
            ledger: ledger,
            EventAuditVerdicts.MoneyExpectation(
                expected: stage.before, keeps: "", tooMuch: "took items the order never granted",
                tooMuchWhy: "the handler takes items the player never got for that order, and may drive a balance "
                    + "negative: revoke only what the order's own grant gave, found by its purchaseId"))
        let held = try ledger.balances(of: newcomer)
        if let negative = held.first(where: { $0.value < 0 }) {
            finding.summary =
                (finding.verdict == .fail ? finding.summary + "; and " : "")
                + "a player who held nothing went to \(negative.value) \(negative.key)"
            finding.verdict = .fail
            finding.why =
                "a refund of an order never granted took what the player never had, below zero: revoke "
                + "only what the order's own grant gave, and clamp at zero"
        }
        return finding
    }

    private func dispute(_ auditCase: EventAuditCase, _ stage: MoneyStage, ledger: AuditLedger)
        throws(AuditCannotRun) -> AuditFinding
    {
        let lost = auditCase == .disputeLost
        _ = send(event(.disputeOpened, of: stage.order))
        let ending: OrderEvent.Name = lost ? .disputeLost : .disputeWon
        let exchange = send(event(ending, of: stage.order))
        let expectation =
            lost
            ? EventAuditVerdicts.MoneyExpectation(
                expected: stage.before.minus(stage.products),
                keeps: "the player won the chargeback and keeps the items: revoke on a dispute lost")
            : EventAuditVerdicts.MoneyExpectation(
                expected: stage.before, keeps: "", tooMuch: "the items were not given back",
                tooMuchWhy: "the studio won the dispute and the player lost the items: revoke on a dispute lost, not "
                    + "on one opened, or restore what was taken when it is won")
        return judge(
            auditCase.name, sent: "\(called(.disputeOpened)), then \(called(ending))", exchange, stage,
            after: try ledger.settled(stage.player, from: stage.before, changing: lost), ledger: ledger, expectation)
    }

    private func partialRefund(_ name: String, _ stage: MoneyStage, ledger: AuditLedger) throws(AuditCannotRun)
        -> AuditFinding
    {
        guard version == .v2 else {
            return EventAuditVerdicts.notChecked(name, "a V1 refund carries no amount, so it cannot be partial")
        }
        let order = stage.order
        let half = order.price / 2
        let exchange = send(event(.refunded, of: order, refundAmount: half))
        let reading = try ledger.settled(order.customerId, from: stage.before, changing: false)
        return EventAuditVerdicts.partialRefund(
            name, sent: "a refund of half of a granted order", exchange.answer, order: order, half: half,
            before: stage.before, after: reading, products: stage.products)
    }

    /// The finding of a money case the award endpoint or the ledger kept from running:
    /// not checked, saying `why`; the first such `what` and its `fix` are the run's
    /// ``hold``.
    private func held(_ name: String, _ why: String, what: String, fix: String) -> AuditFinding {
        if hold == nil { hold = AuditHold(what: what, fix: fix, cases: 0) }
        hold?.cases += 1
        return EventAuditVerdicts.notChecked(name, why)
    }

    /// The verdict of a money case, with the ledger's wait.
    private func judge(
        _ name: String, sent: String, _ exchange: AuditExchange, _ stage: MoneyStage, after reading: LedgerReading,
        ledger: AuditLedger, _ expectation: EventAuditVerdicts.MoneyExpectation
    ) -> AuditFinding {
        EventAuditVerdicts.money(
            name, sent: sent, exchange.answer, before: stage.before, after: reading, expectation,
            ledgerWait: ledger.wait)
    }

    /// Grants `order` through the award endpoint; nil when granted, else why not.
    private func grant(_ order: OrderResponseModel) throws(AuditCannotRun) -> String? {
        guard let destination = award, let awardPeer else { return "no --award-url" }
        _ = send(event(.created, of: order))
        _ = send(event(.paymentSucceeded, of: order))
        let callback = GrantAward(order: order, money: AuditOrders.money(of: order))
        let exchange = awardPeer.send(
            body: callback.body,
            headers: [
                HTTPHeader("Content-Type", "application/json"),
                HTTPHeader("x-publisher-token", destination.publisherToken),
                HTTPHeader(
                    "signature", GrantAward.signature(body: callback.body, milliseconds: clock(), key: destination.key)
                ),
            ])
        if let failure = exchange.failure, failure.meansNothingListens {
            throw AuditCannotRun(reason: "nothing answers at the award endpoint \(destination.url): \(failure)")
        }
        guard let status = exchange.status else { return "no answer: \(exchange.error ?? "nothing came")" }
        let answer = AwardAnswer(status: status, body: exchange.body)
        return answer.grantId == nil ? answer.problem : nil
    }

    /// A money case not checked for want of an endpoint.
    func notChecked(_ auditCase: EventAuditCase) -> AuditFinding {
        EventAuditVerdicts.notChecked(auditCase.name, missingEndpoints ?? "")
    }
}
