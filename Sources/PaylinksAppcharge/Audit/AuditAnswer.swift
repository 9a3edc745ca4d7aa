/// What came back to one request of an audit, as its verdicts read it: the status and
/// body and how long they took, or why nothing came.
package struct AuditAnswer: Sendable {
    /// The status, or nil when no answer came.
    package var status: Int?
    /// The answer's body.
    package var body: [UInt8]
    /// How long the answer took, in milliseconds.
    package var milliseconds: Int
    /// Why no answer came, when none did.
    package var error: String?

    /// An answer; `error` says why there was none.
    package init(status: Int?, body: [UInt8] = [], milliseconds: Int = 0, error: String? = nil) {
        self.status = status
        self.body = body
        self.milliseconds = milliseconds
        self.error = error
    }

    /// Whether the answer is a 2xx.
    package var accepted: Bool { status.map { (200..<300).contains($0) } ?? false }

    /// What is wrong with the answer to a request that must be refused (forged, altered,
    /// replayed): nil for a 4xx; else the finding's summary and why it matters, where
    /// `accepting` says what an endpoint that takes such requests lets anyone do.
    package func refusalFailure(accepting: String) -> (summary: String, why: String)? {
        guard let status else {
            return ("no answer: \(error ?? "")", "a bad request should be refused with 4xx, not break the connection")
        }
        if (200..<300).contains(status) {
            return (
                "accepted (\(status))",
                "anyone who can reach the endpoint can \(accepting): verify v1 = HMAC-SHA256(key, t + \".\" + the raw "
                    + "body), t in milliseconds, and refuse a t older than 5 minutes"
            )
        }
        if status >= 500 {
            return (
                "answered \(status), a server error",
                "Appcharge retries a 5xx and alerts the studio: refuse a bad signature with a 4xx"
            )
        }
        return nil
    }

    /// The status and the start of the body, or why nothing came, as a finding shows it.
    package var shown: String {
        guard let status else { return error.map { "no response: \($0)" } ?? "nothing" }
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return "\(status) \(text)\(body.count > 200 ? "..." : "")"
    }

    /// The answer as an award's answer is read; nil when none came.
    private var award: AwardAnswer? { status.map { AwardAnswer(status: $0, body: body) } }

    /// The grant's id when the answer is a grant.
    package var grantId: String? { award?.grantId }

    /// Why the answer is not a grant.
    package var problem: String { award?.problem ?? "no answer: \(error ?? "nothing came")" }

    /// Whether the answer carries a `publisherErrorMessage`.
    package var hasErrorMessage: Bool { !(award?.string("publisherErrorMessage") ?? "").isEmpty }

    /// The finding of the case `name` whose answer this is.
    package func finding(
        _ name: String, _ verdict: AuditFinding.Verdict, _ summary: String, sent: String, why: String
    ) -> AuditFinding {
        AuditFinding(name: name, verdict: verdict, summary: summary, sent: sent, received: shown, why: why)
    }
}

/// What a verifier that refuses a valid request differing from the plain one in one way
/// hashes instead of the raw bytes, as a finding guesses it.
package enum AuditSuspect {
    package static let spaces = "the body without its spaces?"
    package static let slashes = #"re-serialized JSON, with '/' written '\/'?"#
    package static let unicode = #"re-serialized JSON, with non-ASCII letters written '\u00e9'?"#
    package static let numbers = "re-serialized JSON, with 100.0 written 100?"
}
