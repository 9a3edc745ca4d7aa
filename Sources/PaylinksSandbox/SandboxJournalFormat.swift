import PaylinksAppcharge
import PaylinksJSON

/// The sandbox journal's format, written in one place: its first line and its records, a
/// JSON object a line. A journal rewritten whole and the control API's export are the
/// same bytes, made by ``compacted(_:seed:)``.
public enum SandboxJournalFormat {
    /// The format's name, which the first line names.
    public static let name = "paylinks-sandbox"
    /// The version this build writes and reads.
    public static let version = 1
    /// The longest line a journal holds: no record longer is written, and a longer line
    /// is damage to a reader.
    public static let recordLimit = 16 << 20
    /// The media type of a journal or an export: JSON lines, one object a line.
    public static let mediaType = "application/x-ndjson"

    /// A record longer than a journal takes.
    public struct TooLong: Error {
        /// The length of its line, in bytes.
        public let bytes: Int
    }

    /// The first line: the format, its version, the seed and, in a journal written whole,
    /// how many sessions had been made, so that a restart hands out no id a forgotten one had.
    public static func header(seed: UInt64, made: Int? = nil) -> [UInt8] {
        let count = made.map { #","sessionsMade":\#($0)"# } ?? ""
        return Array(#"{"format":"\#(name)","version":\#(version),"seed":"\#(seed)"\#(count)}"#.utf8) + [10]
    }

    /// A virtual clock's record: `{"now": MILLISECONDS}`.
    public static func clockRecord(_ now: Int) -> [UInt8] {
        Array(#"{"now":\#(now)}"#.utf8)
    }

    /// The blocked players' record: `{"ids": ["cust_1", ...]}`, the whole list.
    public static func blockedPlayersRecord(_ players: [String]) -> [UInt8] {
        var writer = JSONWriter()
        writer.openObject()
        writer.key("ids")
        writer.openArray()
        for player in players { writer.string(player) }
        writer.closeArray()
        writer.closeObject()
        return writer.bytes
    }

    /// Adds `{"NAME":RECORD}` and a line feed to `bytes`, unless it is longer than a line of
    /// the journal may be.
    public static func append(record name: String, _ record: [UInt8], to bytes: inout [UInt8]) throws(TooLong) {
        let line = Array(#"{"\#(name)":"#.utf8)
        let length = line.count + record.count + 1
        guard length <= recordLimit else { throw TooLong(bytes: length) }
        bytes += line
        bytes += record
        bytes += Array("}\n".utf8)
    }

    /// The whole of `held` as a journal written anew holds it: the first line with the
    /// sessions made, a virtual clock's time, the blocked players, then a record of each
    /// session and delivery held, oldest first, after the price points the API changed. The clock comes before the sessions, so that a start reading them
    /// back judges their age by the time they were kept at, not by the time it starts at: a
    /// session an hour old on a clock days behind the wall is an hour old, not forgotten.
    /// Records too long for a journal were never kept, and are left out.
    public static func compacted(_ held: SandboxJournalContents, seed: UInt64) -> [UInt8] {
        var bytes = header(seed: seed, made: held.sessions.made)
        if let clock = held.clock { try? append(record: "clock", clockRecord(clock), to: &bytes) }
        for record in held.sessions.pricePoints { try? append(record: "pricePoint", record.json, to: &bytes) }
        if !held.blocked.isEmpty {
            try? append(record: "blockedPlayers", blockedPlayersRecord(held.blocked), to: &bytes)
        }
        for session in held.sessions.all { try? append(record: "session", session.record, to: &bytes) }
        for delivery in held.deliveries { try? append(record: "delivery", delivery.json, to: &bytes) }
        return bytes
    }
}
