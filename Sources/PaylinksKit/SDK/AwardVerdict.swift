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
