public import PaylinksAppcharge

/// What changed since the last keep, to keep all at once or not at all: the price points
/// the Price Localization API created, changed or deleted, the list of blocked players,
/// whole, when it changed, sessions as they now stand, deliveries that ended, and a
/// virtual clock that moved. A journal writes them in that order.
public struct SandboxJournalChange: Sendable {
    /// The price points created, changed or deleted, oldest first.
    public var pricePoints: [PricePointBook.Record]
    /// The blocked players, the whole list, when it changed; nil when it did not.
    public var blocked: [String]?
    /// Sessions as they now stand, in the order they were created.
    public var sessions: [CheckoutSessions.Session]
    /// Deliveries to the game's server that ended.
    public var deliveries: [DeliveryHistory.Delivery]
    /// Where a virtual clock stands after it moved, Unix milliseconds; nil when it did not.
    public var clock: Int?

    /// A change of what is given; nothing else changed.
    public init(
        pricePoints: [PricePointBook.Record] = [], blocked: [String]? = nil, sessions: [CheckoutSessions.Session] = [],
        deliveries: [DeliveryHistory.Delivery] = [], clock: Int? = nil
    ) {
        self.pricePoints = pricePoints
        self.blocked = blocked
        self.sessions = sessions
        self.deliveries = deliveries
        self.clock = clock
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        pricePoints.isEmpty && blocked == nil && sessions.isEmpty && deliveries.isEmpty && clock == nil
    }
}

/// Everything the sandbox holds, taken at once, for a rewrite to read on another thread:
/// and a virtual clock's time, and the blocked players.
public typealias SandboxJournalContents = (
    sessions: CheckoutSessions.Held, deliveries: [DeliveryHistory.Delivery], clock: Int?, blocked: [String]
)

/// Where a sandbox keeps what it must find again after a restart: `serve --data`'s file,
/// or memory in a test.
///
/// What is kept: each session as it stood after a change (a later record of a session
/// replaces an earlier one), each delivery to the game's server that ended, and how many
/// sessions had been made, so that no id is handed out twice. A journal hands them back,
/// oldest first, as ``Sandbox/Record``s to ``Sandbox/restore(_:)``.
///
/// The format, on a disk: JSON lines. The first names the format, `paylinks-sandbox`, its
/// version and the seed the sessions' ids come from (and, once rewritten, `sessionsMade`);
/// each later line is `{"session": {...}}`, `{"delivery": {...}}`, `{"clock": {...}}`,
/// `{"pricePoint": {...}}`, a price point the Price Localization API created, changed or
/// deleted, or `{"blockedPlayers": {...}}`. ``SandboxJournalFormat`` writes them.
///
/// The contract an implementation keeps:
/// - ``keep(_:live:)`` keeps all of a change or none of it, and says why not: the sandbox
///   then undoes the change (sessions, price points and blocked players alike) and answers
///   503, so a record is kept before its answer goes;
/// - it keeps nothing it could not read back;
/// - compaction: a journal holds superseded records until it is rewritten with one record
///   of each session and delivery held. It is due once the journal has grown past four
///   times its size at the last rewrite and past 1 MiB (``isRewriteDue(size:rewrittenSize:)``),
///   and at a start that read more records than the sandbox holds; a rewrite runs while
///   the sandbox answers and ends in ``finishRewrite(waiting:)``, what was kept meanwhile
///   going after it;
/// - every member is called one at a time, by whoever serves the sandbox.
public protocol SandboxJournal: AnyObject {
    /// Where the journal is, as the log names it.
    var location: String { get }
    /// The records it held when the sandbox started, superseded and forgotten ones among them.
    var recordsRead: Int { get }
    /// What opening it found that the log says once the sandbox starts, a line each.
    var warnings: [String] { get }
    /// Says what went wrong with a rewrite, which the journal survives.
    var onWarning: (String) -> Void { get set }

    /// Keeps `changed`; nil when it is kept, else why not (and then nothing of it is).
    /// `live` gives everything held, for a rewrite once the journal has grown.
    func keep(_ changed: SandboxJournalChange, live: () -> SandboxJournalContents) -> String?

    /// Readies `changed` to be kept later, keeping nothing now: a change that waits while
    /// the disk refuses writes. Each later ``keep(_:live:)`` is handed it again, with
    /// whatever changed since; a journal that encodes records does this one's now, so that
    /// no one call pays for all that waited.
    func ready(_ changed: SandboxJournalChange)

    /// Starts rewriting the journal with `held`: one record of each session and delivery.
    func startRewrite(_ held: SandboxJournalContents)

    /// Puts a rewrite that has finished in the journal's place; with `waiting`, waits for
    /// one under way.
    func finishRewrite(waiting: Bool)

    /// Replaces all it keeps with `held`, at once, as a rewrite writes it: a reset's empty
    /// sandbox. Nil when it is kept; else why not, and then it keeps what it kept before.
    func replace(with held: SandboxJournalContents) -> String?
}

extension SandboxJournal {
    /// Nothing to ready: a journal that encodes nothing ahead, as one in memory.
    public func ready(_ changed: SandboxJournalChange) {}

    /// Whether a journal of `size` bytes, `rewrittenSize` after it was last rewritten, has
    /// grown enough to be rewritten: past four times that, and past 1 MiB.
    public static func isRewriteDue(size: Int, rewrittenSize: Int) -> Bool {
        size > max(1 << 20, 4 * rewrittenSize)
    }

    /// Whether a journal that held `recordsRead` records at the start holds more than the
    /// sandbox kept of them (`held` sessions and deliveries): the forgotten and the
    /// superseded are to go.
    public func isRewriteDueAtStart(held: Int) -> Bool {
        recordsRead > held
    }
}

/// A journal in memory, for tests: it keeps what it is handed as records, rewrites itself
/// at once, and refuses a change while ``refusal`` is set, as a full disk would.
public final class InMemorySandboxJournal: SandboxJournal {
    /// The seed of the sandbox whose records it keeps.
    public let seed: UInt64
    /// The records, oldest first, as a restart hands them back.
    public private(set) var records: [Sandbox.Record] = []
    /// Said as why a change is not kept, while set.
    public var refusal: String?
    /// Rewrites made so far.
    public private(set) var rewrites = 0
    /// Memory.
    public let location = "memory"
    /// The records it held at the start.
    public let recordsRead: Int
    /// None.
    public let warnings: [String] = []
    /// Never called: a rewrite in memory does not fail.
    public var onWarning: (String) -> Void = { _ in }

    /// An empty journal of a sandbox of `seed`.
    public init(seed: UInt64) {
        self.seed = seed
        recordsRead = 0
    }

    /// A journal holding `records`, as a start finds them.
    public init(seed: UInt64, records: [Sandbox.Record]) {
        self.seed = seed
        self.records = records
        recordsRead = records.count(where: {
            switch $0 {
            case .made, .clock, .pricePoint: false;
            default: true
            }
        })
    }

    /// Keeps `changed`, in the order a file journal writes it, unless ``refusal`` is set.
    public func keep(_ changed: SandboxJournalChange, live: () -> SandboxJournalContents) -> String? {
        if let refusal { return refusal }
        records += changed.pricePoints.map { .pricePoint($0) }
        if let blocked = changed.blocked { records.append(.blockedPlayers(blocked)) }
        records += changed.sessions.map { .session($0) } + changed.deliveries.map { .delivery($0) }
        if let clock = changed.clock { records.append(.clock(clock)) }
        return nil
    }

    /// Rewrites the records at once: how many sessions were made, then one record of each
    /// price point changed, session and delivery held.
    public func startRewrite(_ held: SandboxJournalContents) {
        rewrites += 1
        records =
            [.made(held.sessions.made)] + held.sessions.pricePoints.map { .pricePoint($0) }
            + held.sessions.all.map { .session($0) } + held.deliveries.map { .delivery($0) }
            + (held.clock.map { [.clock($0)] } ?? []) + (held.blocked.isEmpty ? [] : [.blockedPlayers(held.blocked)])
    }

    /// Nothing to wait for.
    public func finishRewrite(waiting: Bool) {}

    /// Replaces the records with `held`'s, as ``startRewrite(_:)`` does, unless ``refusal`` is set.
    public func replace(with held: SandboxJournalContents) -> String? {
        if let refusal { return refusal }
        startRewrite(held)
        return nil
    }

    /// Hands every record to `sandbox`, oldest first, as a start does.
    public func restore(into sandbox: Sandbox) {
        for record in records { sandbox.restore(record) }
    }
}
