import PaylinksAppcharge
import PaylinksFixtures
import PaylinksJSON

/// What `serve --data DIR` keeps: one journal, `DIR/sandbox.jsonl`, of JSON lines that
/// `jq` reads. The first line names the format and its version and the seed the
/// sessions' ids come from; each later line is a record: `{"session": {...}}`, the whole
/// of one session as it stood after a change (a session's last record is the one that
/// counts), or `{"delivery": {...}}`, a delivery to the game's server that ended. Each record is on the disk before the answer that reports its change is sent;
/// the journal is rewritten with only the last record of each session held once it grows
/// past four times that (and past 1 MiB). `DIR/lock` keeps a second sandbox out.
final class SandboxStore {
    /// The format's name and the version this build writes and reads.
    static let format = "paylinks-sandbox"
    static let version = 1
    /// The journal's and the lock's names in the directory.
    static let journalName = "sandbox.jsonl"
    static let lockName = "lock"
    /// The largest journal read at start.
    static let readLimit = 1 << 30

    let directory: String
    let seed: UInt64
    private let path: String
    private var file: AppendFile
    /// The journal's size after it was last rewritten, from which the next rewrite is due.
    private var compactedSize: Int

    /// What the journal held at start.
    struct Contents {
        var sessions: [CheckoutSessions.Session] = []
        var deliveries: [DeliveryHistory.Delivery] = []
        /// Said once on stderr: a torn last record cut off.
        var warnings: [String] = []
    }

    /// The store in `directory`, created when missing, locked for this process, and what
    /// it held. `seed` (from `--seed`) must be the journal's when it has one.
    static func open(_ directory: String, seed: UInt64?, newSeed: () -> UInt64) throws(CLIError) -> (
        SandboxStore, Contents
    ) {
        let shown = MessageText.sanitized(directory)
        do {
            try System.makeDirectories(directory)
        } catch {
            throw .cannotCreate(
                error == .wrongKind
                    ? "--data '\(shown)' is a file, not a directory; give a directory (it is created when missing)"
                    : "--data '\(shown)' cannot be created: \(Inputs.describe(error))")
        }
        let path = directory + "/" + journalName
        let entries = (try? System.directoryEntries(directory)) ?? []
        let ours: Set<String> = [journalName, lockName, journalName + ".new"]
        if !entries.contains(journalName), let stranger = entries.first(where: { !ours.contains($0) }) {
            throw .invalidData(
                "--data '\(shown)' holds '\(MessageText.sanitized(stranger))' and no \(journalName): it is another "
                    + "program's directory; give an empty or new one")
        }
        do {
            guard try System.lockForever(directory + "/" + lockName) else {
                throw CLIError.unavailable(
                    "--data '\(shown)' is in use by another sandbox; stop it, or give another directory")
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw .cannotCreate("--data '\(shown)' cannot be written: \(error)")
        }
        var contents = Contents()
        var journalSeed: UInt64?
        if System.isDirectory(path) == false {
            let bytes: [UInt8]
            do {
                bytes = try System.readFile(path, limit: readLimit)
            } catch {
                throw .invalidData("\(shown)/\(journalName) cannot be read: \(Inputs.describe(error))")
            }
            let read = try Self.read(bytes, shown: "\(shown)/\(journalName)")
            journalSeed = read.seed
            contents.sessions = read.sessions
            contents.deliveries = read.deliveries
            if let torn = read.tornBytes {
                do {
                    try System.truncate(path, to: bytes.count - torn)
                } catch {
                    throw .cannotCreate("\(shown)/\(journalName) cannot be written: \(Inputs.describe(error))")
                }
                contents.warnings.append(
                    "warning: \(shown)/\(journalName): its last record was cut short (the sandbox stopped while "
                        + "writing it, before answering); \(torn) bytes dropped")
            }
        }
        if let journalSeed, let seed, seed != journalSeed {
            throw .usage(
                "--data '\(shown)' holds sessions whose ids come from --seed \(journalSeed), not \(seed); leave "
                    + "--seed out or give \(journalSeed), or give another directory", command: .serve)
        }
        let storeSeed = journalSeed ?? seed ?? newSeed()
        do {
            let file = try AppendFile(path: path)
            if journalSeed == nil {
                try file.append(header(seed: storeSeed))
                System.syncDirectory(of: path)
            }
            return (SandboxStore(directory: directory, path: path, file: file, seed: storeSeed), contents)
        } catch {
            throw .cannotCreate("\(shown)/\(journalName) cannot be written: \(Inputs.describe(error))")
        }
    }

    private init(directory: String, path: String, file: AppendFile, seed: UInt64) {
        self.directory = directory
        self.path = path
        self.file = file
        self.seed = seed
        compactedSize = file.size
    }

    /// What a journal holds: sessions as they now stand, and deliveries.
    typealias Held = (sessions: [CheckoutSessions.Session], deliveries: [DeliveryHistory.Delivery])

    /// Keeps `changed`; nil when it is on the disk, else why not. `live` gives everything
    /// held, for a rewrite once the journal has grown.
    func keep(_ changed: Held, live: () -> Held) -> String? {
        var lines: [UInt8] = []
        Self.append(changed, to: &lines)
        do {
            try file.append(lines)
        } catch {
            return "\(MessageText.sanitized(directory))/\(Self.journalName): \(Inputs.describe(error))"
        }
        if file.size > max(1 << 20, 4 * compactedSize) {
            return compact(live())
        }
        return nil
    }

    /// Rewrites the journal with one record of each session and delivery held; nil when done.
    func compact(_ held: Held) -> String? {
        var bytes = Self.header(seed: seed)
        Self.append(held, to: &bytes)
        do {
            try System.replaceDurably(path, with: bytes)
            file.close()
            file = try AppendFile(path: path)
        } catch {
            return "\(MessageText.sanitized(directory))/\(Self.journalName): \(Inputs.describe(error))"
        }
        compactedSize = file.size
        return nil
    }

    private static func header(seed: UInt64) -> [UInt8] {
        Array(#"{"format":"\#(format)","version":\#(version),"seed":"\#(seed)"}"#.utf8) + [10]
    }

    private static func append(_ held: Held, to bytes: inout [UInt8]) {
        for session in held.sessions {
            bytes += Array(#"{"session":"#.utf8) + session.record + Array("}\n".utf8)
        }
        for delivery in held.deliveries {
            bytes += Array(#"{"delivery":"#.utf8) + delivery.json + Array("}\n".utf8)
        }
    }

    /// The journal's seed, sessions (the last record of each) and deliveries; `tornBytes`
    /// when its end is a record cut short.
    static func read(_ bytes: [UInt8], shown: String) throws(CLIError) -> (
        seed: UInt64, sessions: [CheckoutSessions.Session], deliveries: [DeliveryHistory.Delivery], tornBytes: Int?
    ) {
        var lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
        // The part after the last line feed: empty when the journal ends cleanly.
        var tornBytes = lines.removeLast().count
        guard let first = lines.first,
            let header = try? JSONParser.parse(first), case .object(let members) = header.kind,
            members.contains(where: { $0.key == "format" && $0.value.kind.text == format })
        else {
            throw .invalidData("\(shown) is not a paylinks sandbox journal; give an empty or new --data directory")
        }
        guard let versionValue = members.first(where: { $0.key == "version" })?.value,
            case .number(let versionText) = versionValue.kind, let version = Int(versionText)
        else { throw .invalidData("\(shown) has no format version on its first line") }
        guard version <= Self.version else {
            throw .invalidData(
                "\(shown) is of format version \(version), newer than this paylinks reads (\(Self.version)); "
                    + "use a newer paylinks, or another --data directory")
        }
        guard let seedText = members.first(where: { $0.key == "seed" })?.value.kind.text,
            let seed = UInt64(seedText)
        else { throw .invalidData("\(shown) has no seed on its first line") }
        var sessions: [String: CheckoutSessions.Session] = [:]
        var order: [String] = []
        var deliveries: [Int: DeliveryHistory.Delivery] = [:]
        for (number, line) in lines.enumerated().dropFirst() {
            do {
                let value = try JSONParser.parse(line)
                guard case .object(let members) = value.kind, members.count == 1 else {
                    throw CheckoutSessions.Session.RecordProblem(
                        description: "not a {\"session\": ...} or {\"delivery\": ...} record")
                }
                switch members[0].key {
                case "session":
                    let record = try CheckoutSessions.Session(record: members[0].value)
                    if sessions[record.token] == nil { order.append(record.token) }
                    sessions[record.token] = record
                case "delivery":
                    let delivery = try DeliveryHistory.Delivery(json: members[0].value)
                    deliveries[delivery.number] = delivery
                default:
                    throw CheckoutSessions.Session.RecordProblem(
                        description: "not a {\"session\": ...} or {\"delivery\": ...} record")
                }
            } catch {
                // A record cut short can only be the last: an earlier one is damage.
                if number == lines.count - 1 && tornBytes == 0 {
                    tornBytes = line.count + 1
                    break
                }
                throw .invalidData("\(shown):\(number + 1): \(error); the journal is damaged")
            }
        }
        return (
            seed, order.compactMap { sessions[$0] }, deliveries.keys.sorted().compactMap { deliveries[$0] },
            tornBytes == 0 ? nil : tornBytes
        )
    }
}

extension JSONValue.Kind {
    /// The string, when the value is one.
    fileprivate var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
