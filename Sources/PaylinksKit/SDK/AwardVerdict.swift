/// What the game's server answered to the award of one paid order, as the simulator
/// needs it: granted, or failed with the details the client's 3003 carries.
public struct AwardVerdict: Sendable {
    /// How the award ended.
    public enum Outcome: Sendable {
        /// The server granted it.
        case granted
        /// Every attempt failed; `data` is the raw JSON of `error.data`.
        case failed(data: String)
    }

    /// How the award ended.
    public var outcome: Outcome
    /// What happened, for the trace: each message after so many virtual milliseconds.
    public var events: [(after: Int, message: String)]

    /// A verdict.
    public init(outcome: Outcome, events: [(after: Int, message: String)]) {
        self.outcome = outcome
        self.events = events
    }
}

/// A fault on the way of an award to the game's server, or of its answer back: what a
/// scenario step's `awardFault` names.
///
/// Appcharge lives what it sees: an attempt lost, or whose answer is lost, is a timeout, and
/// it retries as its schedule says; when every attempt failed the order is Failed (Charged),
/// whatever the game did.
public enum AwardFault: String, CaseIterable, Sendable {
    /// The first attempt is lost on the way; the retry reaches the game.
    case dropFirst = "drop-first"
    /// Every attempt is lost on the way: the game never hears of the order, which ends
    /// Failed (Charged).
    case drop
    /// The first attempt reaches the game, but its answer is lost: the retry reaches a game
    /// that granted already.
    case answerLostFirst = "answer-lost-first"
    /// Every attempt reaches the game and every answer is lost: the order ends Failed
    /// (Charged), though the game granted it.
    case answerLost = "answer-lost"
    /// Every attempt is lost to Appcharge, and the first reaches the game late: after the
    /// next step's events (a refund's, say).
    case late

    /// Whether every attempt fails to Appcharge, so the order ends Failed (Charged).
    public var failsEveryAttempt: Bool { self == .drop || self == .answerLost || self == .late }
}
