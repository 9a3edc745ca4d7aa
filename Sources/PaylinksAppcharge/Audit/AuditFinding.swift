/// What one case of an audit (`check-award`, `check-events`) found.
public struct AuditFinding: Sendable {
    /// How bad it is.
    public enum Verdict: String, Sendable {
        /// The endpoint did the right thing.
        case pass
        /// Money or security at risk.
        case fail = "FAIL"
        /// Hygiene: worth fixing, nothing lost.
        case warn
        /// Says nothing yet: the case needs a valid request to be accepted first, and the
        /// `valid` case was not.
        case notMeaningful = "n/a"
        /// Not sent: the case needs an endpoint the audit was not given.
        case notChecked = "not checked"
    }

    /// The case's name, as `--case` takes it.
    public var name: String
    /// The verdict.
    public var verdict: Verdict
    /// What happened, in a phrase.
    public var summary: String
    /// What was sent.
    public var sent: String
    /// What came back: the status and the start of the body, or why nothing did.
    public var received: String
    /// Why it matters; empty for a pass.
    public var why: String

    /// A finding.
    public init(name: String, verdict: Verdict, summary: String, sent: String, received: String, why: String) {
        self.name = name
        self.verdict = verdict
        self.summary = summary
        self.sent = sent
        self.received = received
        self.why = why
    }
}
