/// Why an audit could not run at all: nothing answers at a URL it needs, or the ledger
/// does not keep its contract.
public struct AuditCannotRun: Error, Sendable, CustomStringConvertible {
    /// What went wrong: "nothing answers at ...: connection refused", say.
    public var reason: String
    /// What to do about it, when the audit knows better than "start the server": a server
    /// that answers off its contract is running already.
    public var advice: String?

    /// Why the audit cannot run, and what to do about it when the audit knows.
    public init(reason: String, advice: String? = nil) {
        self.reason = reason
        self.advice = advice
    }

    /// The reason.
    public var description: String { reason }
}

/// An endpoint that stopped answering in the middle of an audit: the cases after it are
/// not checked.
public struct AuditStop: Sendable {
    /// What the audit calls the endpoint: "the endpoint", "the ledger".
    public var role: String
    /// Its URL.
    public var url: String
    /// When, as a finding says it: "after valid", "during refund".
    public var when: String
    /// Why nothing answers: "connection refused by 127.0.0.1:8080: is the server running?".
    public var reason: String
    /// Whether the endpoint still answers, but no more as it did: not in time, or off its
    /// contract (``reason`` says how), rather than not at all.
    public var answersWrongly = false

    /// The summary of each case not checked for it.
    public var summary: String {
        answersWrongly ? "not checked: the audit stopped \(when)" : "not checked: \(role) stopped answering \(when)"
    }
}

/// What kept the money cases of `check-events` from running although the audit was given
/// what they need: the award endpoint did not grant the order a case refunds, or the ledger
/// did not show the grant. The cases say "not checked" with why, and the run fails, as one
/// that checks nothing it was asked for must not pass.
public struct AuditHold: Sendable {
    /// What went wrong, as the `error:` line says it: "the award endpoint URL did not grant
    /// an order (answered 200 without a publisherPurchaseId ...)".
    public var what: String
    /// What to do about it: "point --award-url at the game's award endpoint".
    public var fix: String
    /// How many cases it kept from running.
    public var cases: Int
}
