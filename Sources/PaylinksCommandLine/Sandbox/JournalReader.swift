import PaylinksAppcharge
import PaylinksFixtures
import PaylinksJSON
import PaylinksSandbox

/// A sandbox journal read as its bytes come, a line at a time, so that a start holds one
/// record in memory beside what the sandbox keeps, however long the journal has grown.
///
/// The first line names the format, its version and the seed; each later line is a record,
/// handed on as it is read. Only the bytes after the last line feed can be a record cut
/// short (the sandbox stopped while writing it, before answering): ``tornBytes`` counts
/// them. A whole line that does not read is damage, said with its line and column.
struct JournalReader {
    /// Why a journal cannot be read.
    enum Problem: Error, Equatable {
        /// Its first line is not a paylinks sandbox journal's.
        case notAJournal
        /// Its first line has no version.
        case noVersion
        /// It is of a newer format version than this build reads.
        case newer(Int)
        /// Its first line has no seed.
        case noSeed
        /// A line is not a record the sandbox writes: where, and why.
        case damaged(line: Int, column: Int?, reason: String)
    }

    /// The longest line a journal holds: the sandbox writes no record longer (a change
    /// whose record would be is refused before it is made), and a line longer is damage.
    static let recordLimit = SandboxJournalFormat.recordLimit

    /// The seed the journal's sessions take their ids from, once its first line is read.
    private(set) var seed: UInt64?
    /// Lines read whole so far, the first among them.
    private(set) var lines = 0
    /// Records handed over so far: sessions and deliveries, superseded ones among them.
    private(set) var records = 0
    /// Every record read so far: a clock, a price point or the blocked players too, which
    /// ``records`` does not count.
    private(set) var allRecords = 0
    /// The bytes after the last line feed so far.
    private var partial: [UInt8] = []

    /// Bytes after the last line feed: a record cut short, or nothing once the journal ends
    /// with a line feed.
    var tornBytes: Int { partial.count }

    /// Whether the journal has no whole first line, and what it has could be the start of
    /// one the sandbox writes: a journal whose start was cut short, which is as good as new.
    var isUnstarted: Bool {
        guard seed == nil, lines == 0 else { return false }
        let fixed = Array(#"{"format":"\#(SandboxStore.format)","version":\#(SandboxStore.version),"seed":""#.utf8)
        guard partial.count > fixed.count else { return fixed.starts(with: partial) }
        return partial.starts(with: fixed)
            && partial[fixed.count...].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Where the records go: what the restorer made of the seed.
    private var each: ((Sandbox.Record) -> Void)?
    /// Which session each id read so far is: its index, by its token's, purchase id's and
    /// order id's hash. A journal names each session by all four, and a file edited by hand
    /// could give two sessions one of them.
    private var owners = SessionOwners()

    /// Reads `bytes`, the journal's next, handing every record in them read whole to what
    /// `restorer` makes of the journal's seed, once its first line names it.
    mutating func feed(_ bytes: ArraySlice<UInt8>, restorer: (_ seed: UInt64) -> (Sandbox.Record) -> Void)
        throws(Problem)
    {
        var rest = bytes
        while let newline = rest.firstIndex(of: 10) {
            let piece = rest[..<newline]
            rest = rest[(newline + 1)...]
            lines += 1
            guard partial.count + piece.count <= Self.recordLimit else { throw tooLong(line: lines) }
            if partial.isEmpty {
                try take(Array(piece), restorer: restorer)
            } else {
                partial += piece
                let line = partial
                partial = []
                try take(line, restorer: restorer)
            }
        }
        guard partial.count + rest.count <= Self.recordLimit else { throw tooLong(line: lines + 1) }
        partial += rest
    }

    private func tooLong(line: Int) -> Problem {
        .damaged(
            line: line, column: nil,
            reason: "a line longer than \(Self.recordLimit >> 20) MiB, which the sandbox never writes")
    }

    /// Reads one whole line: the first names the journal, every later one is a record.
    private mutating func take(_ line: [UInt8], restorer: (_ seed: UInt64) -> (Sandbox.Record) -> Void)
        throws(Problem)
    {
        // A blank line is none: the sandbox writes none, and a hand that edits may leave one.
        guard !line.allSatisfy(Self.isBlank) else { return }
        guard let each else {
            let (seed, made) = try Self.header(line)
            self.seed = seed
            let restore = restorer(seed)
            if let made { restore(.made(made)) }
            each = restore
            return
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            // A record is one line: where the parser saw the text end, the line did.
            let ending = "unexpected end of file"
            let reason =
                error.reason.hasPrefix(ending)
                ? "unexpected end of the line" + error.reason.dropFirst(ending.count) : error.reason
            throw .damaged(line: lines, column: error.position.column, reason: reason)
        }
        allRecords += 1
        do throws(CheckoutSessions.Session.RecordProblem) {
            guard case .object(let members) = value.kind, members.count == 1 else {
                throw .init(description: #"not a {"session": ...} or {"delivery": ...} record"#)
            }
            switch members[0].key {
            case "session":
                records += 1
                let session = try CheckoutSessions.Session(record: members[0].value)
                try owners.claim(session)
                each(.session(session))
            case "delivery":
                records += 1
                each(.delivery(try DeliveryHistory.Delivery(json: members[0].value)))
            case "clock":
                // Where a virtual clock stood; the latest wins, and a rewrite keeps one.
                guard case .object(let fields) = members[0].value.kind, fields.count == 1, fields[0].key == "now",
                    case .number(let text) = fields[0].value.kind, let now = Int(text),
                    (0...SandboxClock.latest).contains(now)
                else { throw .init(description: #"a clock record is {"now": MILLISECONDS}"#) }
                each(.clock(now))
            case "pricePoint":
                // Not counted: a rewrite at the start is due for superseded sessions and deliveries.
                each(.pricePoint(try PricePointBook.Record(json: members[0].value)))
            case "blockedPlayers":
                // The whole list; the latest wins.
                guard case .object(let fields) = members[0].value.kind, fields.count == 1, fields[0].key == "ids",
                    case .array(let ids) = fields[0].value.kind, ids.count <= BlockedPlayers.limit
                else { throw .init(description: #"a blockedPlayers record is {"ids": ["PLAYER", ...]}"#) }
                var players: [String] = []
                var seen: Set<[UInt8]> = []
                for id in ids {
                    guard case .string(let player) = id.kind, BlockedPlayers.problem(player) == nil,
                        seen.insert(Array(player.utf8)).inserted
                    else {
                        throw .init(
                            description: "blockedPlayers holds something other than a player's id, once each",
                            offset: id.offset)
                    }
                    players.append(player)
                }
                each(.blockedPlayers(players))
            default:
                throw .init(
                    description:
                        #"not a {"session": ...}, {"delivery": ...}, {"clock": ...}, {"pricePoint": ...} or {"blockedPlayers": ...} record"#
                )
            }
        } catch {
            let column = error.offset.map { TextPosition(offset: $0, in: line).column }
            throw .damaged(line: lines, column: column, reason: error.description)
        }
    }

    /// Ends the journal: a first line whole but for its line feed (a hand that wrote it)
    /// is taken as the first line; true when it was, so that the line feed is added before
    /// anything is appended.
    mutating func finish(restorer: (_ seed: UInt64) -> (Sandbox.Record) -> Void) -> Bool {
        guard seed == nil, !partial.isEmpty, let (seed, made) = try? Self.header(partial) else { return false }
        self.seed = seed
        let restore = restorer(seed)
        if let made { restore(.made(made)) }
        each = restore
        partial = []
        lines += 1
        return true
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    /// The seed the first line names, and how many sessions had been made when it was
    /// written, when it says.
    private static func header(_ line: [UInt8]) throws(Problem) -> (seed: UInt64, made: Int?) {
        guard let header = try? JSONParser.parse(line), case .object(let members) = header.kind,
            members.contains(where: { member in
                guard case .string(let name) = member.value.kind else { return false }
                return member.key == "format" && name == SandboxStore.format
            })
        else { throw .notAJournal }
        guard let versionValue = members.first(where: { $0.key == "version" })?.value,
            case .number(let versionText) = versionValue.kind, let version = Int(versionText)
        else { throw .noVersion }
        guard version >= 1 else { throw .noVersion }
        guard version <= SandboxStore.version else { throw .newer(version) }
        guard let seedValue = members.first(where: { $0.key == "seed" })?.value,
            case .string(let seedText) = seedValue.kind, let seed = UInt64(seedText)
        else { throw .noSeed }
        guard let madeValue = members.first(where: { $0.key == "sessionsMade" })?.value else { return (seed, nil) }
        guard case .number(let madeText) = madeValue.kind, let made = Int(madeText), (0...(1 << 40)).contains(made)
        else { throw .damaged(line: 1, column: nil, reason: "sessionsMade is not a count of sessions") }
        return (seed, made)
    }
}

/// The ids of the sessions a journal named, so that two sessions sharing one are refused:
/// each id's hash, which is enough to tell sessions apart, and the session's index; a
/// few machine words a session, however many the journal holds.
private struct SessionOwners {
    /// The index of the session each id is, by the id's hash with its kind.
    private var owners: [Int: Int] = [:]
    /// The hash of each session's three ids, by its index: a later record of it must name the same.
    private var sessions: [Int: Int] = [:]

    /// Notes `session`'s ids; refused when one of them is another session's, or when a
    /// later record of a session names other ids than its first.
    mutating func claim(_ session: CheckoutSessions.Session) throws(CheckoutSessions.Session.RecordProblem) {
        let ids = [("token", session.token), ("purchaseId", session.purchaseId), ("orderId", session.orderId)]
        let keys = ids.map { kind, value in
            var hasher = Hasher()
            hasher.combine(kind)
            hasher.combine(value)
            return hasher.finalize()
        }
        var all = Hasher()
        for key in keys { all.combine(key) }
        let combined = all.finalize()
        if let earlier = sessions[session.index] {
            guard earlier == combined else {
                throw .init(
                    description: "session \(session.index) was named with other ids on an earlier line; a session "
                        + "keeps its token, purchaseId and orderId")
            }
            return
        }
        for ((kind, value), key) in zip(ids, keys) {
            if let owner = owners[key] {
                throw .init(
                    description: "\(kind) '\(MessageText.sanitized(value))' is session \(owner)'s already; each "
                        + "session has ids of its own")
            }
        }
        sessions[session.index] = combined
        for key in keys { owners[key] = session.index }
    }
}
