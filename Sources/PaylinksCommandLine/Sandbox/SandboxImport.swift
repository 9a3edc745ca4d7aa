import PaylinksFixtures
import PaylinksSandbox

/// `serve --import FILE`: a sandbox's state read from an export (or a journal), with the
/// reader a journal is read with at a start, a line at a time. Unlike a journal after a
/// crash, a file to import is given whole: any line that does not read, a last line cut
/// short among them, refuses all of it, with its line.
enum SandboxImport {
    /// Reads `path`, handing each record to what `restorer` makes of its seed once its first
    /// line names it; the seed, which `seed` (from `--seed`) must be when given, and the
    /// warnings to say once the sandbox starts: a virtual clock's time that a sandbox on the
    /// wall clock (not `virtual`) leaves aside.
    static func read(
        _ path: String, seed: UInt64?, virtual: Bool, restorer: (_ seed: UInt64) -> (Sandbox.Record) -> Void
    ) throws(CLIError) -> (seed: UInt64, warnings: [String]) {
        let shown = MessageText.sanitized(path)
        var reader = JournalReader()
        var problem: JournalReader.Problem?
        var clock: Int?
        do {
            _ = try System.readChunks(path) { chunk in
                do throws(JournalReader.Problem) {
                    // The clock's time is noted on the way, for a sandbox on the wall clock to say it.
                    try reader.feed(chunk) { seed in
                        let each = restorer(seed)
                        return { record in
                            if case .clock(let time) = record { clock = time }
                            each(record)
                        }
                    }
                    return true
                } catch {
                    problem = error
                    return false
                }
            }
        } catch {
            throw .noInput("--import '\(shown)' cannot be read: \(Inputs.describe(error))")
        }
        if let problem { throw refusal(problem, file: shown) }
        if reader.tornBytes > 0 {
            throw .invalidData(
                "\(shown):\(reader.lines + 1): the last line ends without a line feed, so it may be cut short; "
                    + "import a whole export (every line of one ends with a line feed)")
        }
        guard let fileSeed = reader.seed else {
            throw .invalidData(
                "\(shown):1: the file is empty; import what GET /control/v1/export gave, or a --data journal")
        }
        if let seed, seed != fileSeed {
            throw .usage(
                "--import '\(shown)' holds sessions whose ids come from --seed \(fileSeed), not \(seed); leave "
                    + "--seed out or give \(fileSeed)", command: .serve)
        }
        guard let clock, !virtual else { return (fileSeed, []) }
        return (
            fileSeed,
            [
                "warning: \(shown) holds a virtual clock at \(ClockText.iso8601(milliseconds: clock)), which the wall "
                    + "clock leaves aside; add --clock virtual to go on from it"
            ]
        )
    }

    /// The error a line that does not read is: the file, the line, what is wrong and what to do.
    private static func refusal(_ problem: JournalReader.Problem, file: String) -> CLIError {
        let export = "import what GET /control/v1/export gave, or a --data journal"
        return switch problem {
        case .notAJournal:
            .invalidData(
                "\(file):1: not a paylinks sandbox export (the first line names no format "
                    + "\"\(SandboxJournalFormat.name)\"); \(export)")
        case .noVersion: .invalidData("\(file):1: the first line has no format version; \(export)")
        case .newer(let version):
            .invalidData(
                "\(file):1: format version \(version) is newer than this paylinks reads "
                    + "(\(SandboxJournalFormat.version)); use a newer paylinks")
        case .noSeed: .invalidData("\(file):1: the first line has no seed; \(export)")
        case .damaged(let line, let column, let reason):
            .invalidData(
                "\(file):\(line):\(column.map { "\($0):" } ?? "") "
                    + MessageText.oneLine(String(String.UnicodeScalarView(reason.unicodeScalars.prefix(400))))
                    + "; mend or remove that line, or export the sandbox again")
        }
    }
}
