/// The verdicts of `check-award`, from values alone: what an award endpoint's answers
/// mean. The audit sends; these decide.
package enum AwardAuditVerdicts {
    /// A valid callback must be granted, at once.
    package static func grant(_ name: String, _ answer: AuditAnswer, sent: String) -> AuditFinding {
        guard let id = answer.grantId else {
            return finding(
                name, .fail, "a valid callback was not granted: \(answer.problem)", sent, answer,
                "the player paid and gets nothing (\"Failed (Charged)\"): \(AwardAnswer.grantShape)")
        }
        if answer.milliseconds > 2000 {
            return finding(
                name, .warn, "granted as \(id), but only after \(answer.milliseconds) ms", sent, answer,
                "Appcharge gives an attempt 10 s; a slow grant is close to a retry and a second grant")
        }
        return finding(name, .pass, "granted as \(id) in \(answer.milliseconds) ms", sent, answer, "")
    }

    /// Two copies of one callback must both be answered with the same grant; `why` says
    /// what two grants mean.
    package static func sameGrant(
        _ name: String, _ first: AuditAnswer, _ second: AuditAnswer, sent: String, why: String
    ) -> AuditFinding {
        guard let one = first.grantId, let two = second.grantId else {
            return grant(name, first.grantId == nil ? first : second, sent: sent)
        }
        return one == two
            ? finding(name, .pass, "both answered with the same grant, \(one)", sent, second, "")
            : finding(name, .fail, "granted twice: \(one), then \(two)", sent, second, why)
    }

    /// Two orders must get two grants.
    package static func differentOrders(_ name: String, _ first: AuditAnswer, _ second: AuditAnswer) -> AuditFinding {
        let sent = "two valid callbacks for two orders"
        guard let one = first.grantId, let two = second.grantId else {
            return grant(name, first.grantId == nil ? first : second, sent: sent)
        }
        return one != two
            ? finding(name, .pass, "two orders got two ids", sent, second, "")
            : finding(
                name, .fail, "two different orders got the same publisherPurchaseId", sent, second,
                "the second order is treated as a resend of the first: its player paid and gets nothing")
    }

    /// A forged, altered or replayed callback must be refused with a 4xx and a
    /// `publisherErrorMessage`.
    package static func refusal(_ name: String, _ answer: AuditAnswer, sent: String) -> AuditFinding {
        if let failure = answer.refusalFailure(accepting: "forge or replay awards") {
            return finding(name, .fail, failure.summary, sent, answer, failure.why)
        }
        let status = answer.status ?? 0
        if !answer.hasErrorMessage {
            return finding(
                name, .warn, "refused (\(status)) without a publisherErrorMessage", sent, answer,
                "the dashboard shows publisherErrorMessage to whoever investigates a failed award")
        }
        return finding(name, .pass, "refused (\(status))", sent, answer, "")
    }

    /// A valid callback that differs from the plain one in one way must be granted as the
    /// plain one was; `suspect` says what a verifier that refuses it hashes.
    package static func acceptance(_ name: String, _ answer: AuditAnswer, sent: String, suspect: String)
        -> AuditFinding
    {
        guard let id = answer.grantId else {
            // The valid case was granted: any refusal of this one, a 4xx or a 5xx (a verifier
            // that throws), points at the verifier; no answer, or a 2xx that is not a grant,
            // at something else.
            guard let status = answer.status, status >= 300 else { return grant(name, answer, sent: sent) }
            let serverError =
                status >= 500 ? "; and a refusal is a 4xx: Appcharge retries a 5xx and alerts the studio" : ""
            return finding(
                name, .fail, "a valid callback was refused (\(status))", sent, answer,
                "one plain valid callback was granted and this one was not: the verifier hashes something other "
                    + "than the raw bytes received (\(suspect)), and the player paid and gets nothing\(serverError)")
        }
        return finding(name, .pass, "granted as \(id)", sent, answer, "")
    }

    /// A callback with a wrong or no `x-publisher-token` should be refused with a 4xx.
    package static func token(_ name: String, _ answer: AuditAnswer, sent: String) -> AuditFinding {
        guard let status = answer.status else {
            return finding(
                name, .fail, "no answer: \(answer.error ?? "")", sent, answer,
                "a bad request should be refused with 4xx, not break the connection")
        }
        if (200..<300).contains(status) {
            return finding(
                name, .warn, "accepted (\(status))", sent, answer,
                "the endpoint does not check x-publisher-token, a second line of defence after the signature")
        }
        if status >= 500 {
            return finding(
                name, .fail, "answered \(status), a server error", sent, answer,
                "Appcharge retries a 5xx and alerts the studio: refuse a wrong token with 4xx")
        }
        return finding(name, .pass, "refused (\(status))", sent, answer, "")
    }

    private static func finding(
        _ name: String, _ verdict: AuditFinding.Verdict, _ summary: String, _ sent: String, _ answer: AuditAnswer,
        _ why: String
    ) -> AuditFinding {
        answer.finding(name, verdict, summary, sent: sent, why: why)
    }
}
