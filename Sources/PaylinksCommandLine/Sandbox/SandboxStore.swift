import PaylinksAppcharge
import PaylinksFixtures
import PaylinksHTTP
import PaylinksSandbox

/// What `serve --data DIR` keeps: one journal, `DIR/sandbox.jsonl`, of JSON lines that
/// `jq` reads. The first line names the format and its version and the seed the
/// sessions' ids come from; each later line is a record: `{"session": {...}}`, the whole
/// of one session as it stood after a change (a session's last record is the one that
/// counts), `{"delivery": {...}}`, a delivery to the game's server that ended, or
/// `{"clock": {...}}` and `{"blockedPlayers": {...}}`, whose last record counts;
/// `{"pricePoint": {...}}`, a price point the Price Localization API created, changed or
/// deleted (the last of its cents counts).
///
/// The rules it keeps:
/// - each record is on the disk before the answer that reports its change is sent; an
///   append that fails leaves the journal as it was, and the change is not made;
/// - it writes nothing it could not read back: no record longer than
///   ``JournalReader/recordLimit``, none nested deeper than the parser reads;
/// - a start reads the journal as a stream, a line at a time, and only the bytes after the
///   last line feed count as a record cut short; any other line that does not read is
///   damage, which stops the start;
/// - once the journal grows past four times its size at the last rewrite (and past 1 MiB)
///   it is rewritten with the last record of each session held, on a thread of its own
///   while the sandbox goes on answering, then renamed over the old one;
/// - the directory itself is locked while a sandbox uses it, so that no second sandbox
///   writes to it, whatever happens to the files in it.
final class SandboxStore: SandboxJournal {
    /// The format's name and the version this build writes and reads.
    static let format = SandboxJournalFormat.name
    static let version = SandboxJournalFormat.version
    /// The journal's name in the directory, and its rewrite's while it is written.
    static let journalName = "sandbox.jsonl"
    static let rewriteName = journalName + ".new"

    let directory: String
    let seed: UInt64
    /// The directory, open and locked: its files are reached through it, so that they stay
    /// the locked directory's whatever becomes of its path.
    private let folder: Int32
    private var file: AppendFile
    /// The journal's size after it was last rewritten, from which the next rewrite is due.
    private var compactedSize: Int
    /// The rewrite under way, and what was appended to the journal since it began, which
    /// goes after what it writes.
    private var rewrite: BackgroundWork<Result<AppendFile, FileSystemError>>?
    private var appendedSinceRewrite: [UInt8] = []
    /// Says what went wrong with a rewrite, which the journal survives.
    var onWarning: (String) -> Void = { _ in }
    /// The lines of deliveries handed over and not on the disk yet, by number, with the
    /// attempts each held: a delivery is written once however often a full disk refuses it.
    private var deliveryLines: [Int: (attempts: Int, line: [UInt8])] = [:]
    /// The lines of sessions handed over and not on the disk yet, by token, with the
    /// revision each was written from.
    private var sessionLines: [String: (revision: Int, line: [UInt8])] = [:]

    /// What changed, to write: price points, the blocked players, sessions as they now
    /// stand, deliveries and a virtual clock.
    typealias Held = SandboxJournalChange
    /// The records the journal held at the start, superseded and forgotten ones among them.
    let recordsRead: Int
    /// What opening the journal found, said once the sandbox starts.
    private(set) var warnings: [String] = []

    /// Everything the sandbox holds, taken at once, for a rewrite to read on its own thread.
    typealias Snapshot = SandboxJournalContents

    /// The store in `directory`, created when missing and locked for this process, with
    /// every record it holds handed, in the order it was written, to what `restorer` makes
    /// once the first line names the journal's seed; also the warnings to say once. `seed` (from `--seed`) must be the journal's when it has one.
    /// `importing` names the file `--import` reads: the journal must then hold no records, and
    /// takes `seed`, the file's, for the state that ``replace(with:)`` writes next.
    static func open(
        _ directory: String, seed: UInt64?, importing: String? = nil, newSeed: () -> UInt64,
        restorer: (_ seed: UInt64) -> (Sandbox.Record) -> Void
    ) throws(CLIError) -> (store: SandboxStore, warnings: [String]) {
        // A write past a file-size limit then fails as on a full disk, instead of ending the process.
        System.ignoreFileSizeSignal()
        let shown = MessageText.sanitized(directory)
        let journal = "\(shown)/\(journalName)"
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
        // `lock` is what earlier versions locked; it may be left from one.
        let ours: Set<String> = [journalName, rewriteName, "lock"]
        // Hidden files (`.DS_Store`, `.gitkeep`) are a file manager's or a repository's, not a program's data.
        if !entries.contains(journalName),
            let stranger = entries.first(where: { !ours.contains($0) && !$0.hasPrefix(".") })
        {
            throw .invalidData(
                "--data '\(shown)' holds '\(MessageText.sanitized(stranger))' and no \(journalName): it is another "
                    + "program's directory; give an empty or new one")
        }
        let folder: Int32
        do {
            guard let locked = try System.lockDirectoryForever(directory) else {
                throw CLIError.unavailable(
                    "--data '\(shown)' is in use by another sandbox; stop it, or give another directory")
            }
            folder = locked
        } catch let error as CLIError {
            throw error
        } catch {
            throw .cannotCreate("--data '\(shown)' cannot be locked: \(error)")
        }
        if System.isSymbolicLink(path) {
            throw .invalidData(
                "\(journal) is a symbolic link; the journal is rewritten in place, so give the directory it is in as "
                    + "--data")
        }
        var warnings: [String] = []
        var reader = JournalReader()
        var size = 0
        var headerWithoutLineFeed = false
        if System.isDirectory(path) == false {
            var problem: JournalReader.Problem?
            do {
                size = try System.readChunks(path) { chunk in
                    do throws(JournalReader.Problem) {
                        try reader.feed(chunk, restorer: restorer)
                        return true
                    } catch {
                        problem = error
                        return false
                    }
                }
            } catch {
                throw .invalidData("\(journal) cannot be read: \(Inputs.describe(error))")
            }
            if let problem { throw Self.refusal(problem, journal: journal) }
            headerWithoutLineFeed = reader.finish(restorer: restorer)
            if reader.seed == nil && !reader.isUnstarted { throw Self.refusal(.notAJournal, journal: journal) }
        }
        // Any record counts: a clock, a price point or a blocked player is state too.
        if importing != nil, reader.allRecords > 0 {
            throw .usage(
                "--data '\(shown)' holds a journal of \(reader.allRecords) records, and --import starts anew; give an "
                    + "empty or new --data directory, or leave --import out to go on from the journal", command: .serve)
        }
        if importing == nil, let journalSeed = reader.seed, let seed, seed != journalSeed {
            throw .usage(
                "--data '\(shown)' holds sessions whose ids come from --seed \(journalSeed), not \(seed); leave "
                    + "--seed out or give \(journalSeed), or give another directory", command: .serve)
        }
        let torn = reader.tornBytes
        if torn > 0 {
            do {
                try System.truncate(path, to: size - torn)
            } catch {
                throw .cannotCreate("\(journal) cannot be written: \(Inputs.describe(error))")
            }
            if reader.seed != nil {
                warnings.append(
                    "warning: \(journal): its last record was cut short (the sandbox stopped while writing it, "
                        + "before answering); \(torn) bytes dropped")
            }
        }
        let storeSeed = importing == nil ? reader.seed ?? seed ?? newSeed() : seed ?? reader.seed ?? newSeed()
        do {
            let file = try AppendFile(path: journalName, in: folder)
            if headerWithoutLineFeed { try file.append([10]) }
            if reader.seed == nil {
                try file.append(SandboxJournalFormat.header(seed: storeSeed))
                System.syncDirectory(of: path)
            }
            let store = SandboxStore(
                directory: directory, folder: folder, file: file, seed: storeSeed, recordsRead: reader.records)
            store.warnings = warnings
            return (store, warnings)
        } catch {
            throw .cannotCreate("\(journal) cannot be written: \(Inputs.describe(error))")
        }
    }

    /// The error a journal that cannot be read is, in the words of every file error.
    private static func refusal(_ problem: JournalReader.Problem, journal: String) -> CLIError {
        switch problem {
        case .notAJournal:
            .invalidData("\(journal) is not a paylinks sandbox journal; give an empty or new --data directory")
        case .noVersion: .invalidData("\(journal) has no format version on its first line")
        case .newer(let version):
            .invalidData(
                "\(journal) is of format version \(version), newer than this paylinks reads (\(Self.version)); "
                    + "use a newer paylinks, or another --data directory")
        case .noSeed: .invalidData("\(journal) has no seed on its first line")
        case .damaged(let line, let column, let reason):
            .invalidData(
                "\(journal):\(line):\(column.map { "\($0):" } ?? "") "
                    + MessageText.oneLine(String(String.UnicodeScalarView(reason.unicodeScalars.prefix(400))))
                    + "; the journal is damaged: mend or remove that line, or give another --data directory")
        }
    }

    private init(directory: String, folder: Int32, file: AppendFile, seed: UInt64, recordsRead: Int) {
        self.directory = directory
        self.recordsRead = recordsRead
        self.folder = folder
        self.file = file
        self.seed = seed
        compactedSize = file.size
    }

    /// The journal's and its rewrite's paths, as messages show them.
    private var shown: String { "\(location)/\(Self.journalName)" }
    /// The directory, as messages show it.
    var location: String { MessageText.sanitized(directory) }

    /// Keeps `changed`; nil when it is on the disk, else why not (and then nothing of it
    /// is). `live` gives everything held, for a rewrite once the journal has grown.
    func keep(_ changed: Held, live: () -> Snapshot) -> String? {
        finishRewrite(waiting: false)
        let lines: [[UInt8]]
        do throws(TooLong) {
            lines = try encode(changed)
        } catch {
            return "a record of \(error.bytes) bytes is longer than the journal takes "
                + "(\(JournalReader.recordLimit >> 20) MiB)"
        }
        do {
            try file.append(parts: lines)
        } catch {
            return "\(shown): \(Inputs.describe(error))"
        }
        deliveryLines = [:]
        sessionLines = [:]
        if rewrite != nil {
            // Gathered into one buffer: a rewrite's tail is written in one go, not a part a keep.
            for part in lines { appendedSinceRewrite += part }
        } else if Self.isRewriteDue(size: file.size, rewrittenSize: compactedSize) {
            startRewrite(live())
        }
        return nil
    }

    /// Rewrites the journal with `held` (one record of each session and delivery) on a
    /// thread of its own; what is appended meanwhile is added to it before it replaces
    /// the journal.
    func startRewrite(_ held: Snapshot) {
        guard rewrite == nil else { return }
        appendedSinceRewrite = []
        let seed = seed
        let folder = folder
        rewrite = BackgroundWork.start {
            do throws(FileSystemError) {
                let file = try AppendFile(path: Self.rewriteName, in: folder, truncating: true)
                try file.append(SandboxJournalFormat.compacted(held, seed: seed))
                return .success(file)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Puts a finished rewrite in the journal's place, after adding what was appended
    /// since it began; with `waiting`, waits for one under way. A rewrite that failed
    /// leaves the journal as it was, and is tried again once it has grown as much again.
    func finishRewrite(waiting: Bool) {
        guard let work = rewrite, waiting || work.isFinished else { return }
        rewrite = nil
        let tail = appendedSinceRewrite
        appendedSinceRewrite = []
        do throws(FileSystemError) {
            let replacement = try work.join().get()
            if !tail.isEmpty { try replacement.append(tail) }
            try System.rename(Self.rewriteName, to: Self.journalName, in: folder)
            file.close()
            file = replacement
            compactedSize = replacement.size
        } catch {
            compactedSize = file.size
            System.removeFile(Self.rewriteName, in: folder)
            onWarning("warning: \(shown) could not be rewritten, it goes on growing: \(Inputs.describe(error))")
        }
    }

    /// Replaces the journal with `held`, written whole as a rewrite writes it, and waits
    /// until it is on the disk: a reset's empty sandbox, an import's state. A rewrite under
    /// way ends first. Nil when done; else why not, and then the journal is as it was.
    func replace(with held: Snapshot) -> String? {
        finishRewrite(waiting: true)
        var replacement: AppendFile?
        do throws(FileSystemError) {
            let written = try AppendFile(path: Self.rewriteName, in: folder, truncating: true)
            replacement = written
            try written.append(SandboxJournalFormat.compacted(held, seed: seed))
            try System.rename(Self.rewriteName, to: Self.journalName, in: folder)
            file.close()
            file = written
            compactedSize = written.size
            deliveryLines = [:]
            sessionLines = [:]
            return nil
        } catch {
            replacement?.close()
            System.removeFile(Self.rewriteName, in: folder)
            return "\(shown): \(Inputs.describe(error))"
        }
    }

    /// Encodes the lines of `changed`'s sessions and deliveries that are not encoded yet,
    /// writing nothing and forgetting none encoded before: a later ``keep(_:live:)`` writes
    /// them as they are.
    func ready(_ changed: Held) {
        // A record too long to keep is refused when the change is kept.
        try? readyLines(changed, forgettingOthers: false)
    }

    /// A record longer than the journal takes.
    private typealias TooLong = SandboxJournalFormat.TooLong

    /// Encodes the lines of `held`'s sessions and deliveries not encoded yet (each is
    /// encoded once, however often the disk refuses it) and, `forgettingOthers`, forgets
    /// those of any no longer handed over. Throws when a session's record is too long to
    /// read back. A delivery's that is too long is left out with a warning: it is history,
    /// already sent, and must not keep every later change off the disk.
    private func readyLines(_ held: Held, forgettingOthers: Bool) throws(TooLong) {
        for session in held.sessions {
            if let kept = sessionLines[session.token], kept.revision == session.revision, session.revision > 0 {
                continue
            }
            var line: [UInt8] = []
            try SandboxJournalFormat.append(record: "session", session.record, to: &line)
            sessionLines[session.token] = (session.revision, line)
        }
        for delivery in held.deliveries {
            if let kept = deliveryLines[delivery.number], kept.attempts == delivery.attempts.count { continue }
            var line: [UInt8] = []
            do throws(TooLong) {
                try SandboxJournalFormat.append(record: "delivery", delivery.json, to: &line)
            } catch {
                onWarning(
                    "warning: \(delivery.id) is not kept on the disk: its record of \(error.bytes) bytes is longer "
                        + "than the journal takes")
            }
            deliveryLines[delivery.number] = (delivery.attempts.count, line)
        }
        // Only those still handed over are kept for the next try.
        if forgettingOthers && sessionLines.count > held.sessions.count {
            let handed = Set(held.sessions.map(\.token))
            sessionLines = sessionLines.filter { handed.contains($0.key) }
        }
        if forgettingOthers && deliveryLines.count > held.deliveries.count {
            let handed = Set(held.deliveries.map(\.number))
            deliveryLines = deliveryLines.filter { handed.contains($0.key) }
        }
    }

    /// Lines of at least this many bytes are written from where they are kept; shorter ones
    /// are gathered, so that a change of a few records is one write.
    private static let gatheredLineLimit = 64 * 1024

    /// The lines of `held`, in the order ``SandboxJournalChange`` names them, as parts to
    /// write one after another: the short gathered, each long one where it is kept, so that
    /// what waited for room is written without being copied whole once more. None when a
    /// price point's, the blocked players' or a session's record is too long to read back.
    private func encode(_ held: Held) throws(TooLong) -> [[UInt8]] {
        try readyLines(held, forgettingOthers: true)
        var parts: [[UInt8]] = []
        var gathered: [UInt8] = []
        func add(_ line: [UInt8]) {
            guard line.count >= Self.gatheredLineLimit else {
                gathered += line
                return
            }
            if !gathered.isEmpty { parts.append(gathered) }
            gathered = []
            parts.append(line)
        }
        for record in held.pricePoints {
            try SandboxJournalFormat.append(record: "pricePoint", record.json, to: &gathered)
        }
        if let blocked = held.blocked {
            try SandboxJournalFormat.append(
                record: "blockedPlayers", SandboxJournalFormat.blockedPlayersRecord(blocked), to: &gathered)
        }
        for session in held.sessions {
            add(sessionLines[session.token]?.line ?? [])
        }
        for delivery in held.deliveries {
            add(deliveryLines[delivery.number]?.line ?? [])
        }
        if let clock = held.clock {
            try SandboxJournalFormat.append(record: "clock", SandboxJournalFormat.clockRecord(clock), to: &gathered)
        }
        if !gathered.isEmpty { parts.append(gathered) }
        return parts
    }
}
