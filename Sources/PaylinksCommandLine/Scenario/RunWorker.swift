import PaylinksFixtures
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// What a scenario run came to, however many processes ran it: every scenario loaded with
/// its result or skipped, whether the run's seed decided something, and the highest exit
/// code the scenarios' last callbacks mean (which decides when nothing was expected).
struct RunOutcome {
    var entries: [RunReport.Entry]
    var usedRunSeed: Bool
    var finalExit: ExitCode?

    /// 1 when an expectation failed; 0 when some held; else the highest of the scenarios'
    /// final exit codes, so that the order of the files does not matter.
    func exitCode() throws(CLIError) -> ExitCode {
        if entries.contains(where: { $0.ran && !$0.result.passed }) { return .expectationsFailed }
        if entries.contains(where: { $0.ran && $0.result.met > 0 }) { return .success }
        guard let finalExit else { throw .internal("the scenarios delivered no callback") }
        return finalExit
    }

    /// The higher of two final exit codes.
    static func higher(_ one: ExitCode?, _ other: ExitCode?) -> ExitCode? {
        guard let one, let other else { return one ?? other }
        return one.rawValue >= other.rawValue ? one : other
    }
}

/// How `run --jobs` hands scenarios to copies of paylinks and takes their results back.
/// A copy runs with `PAYLINKS_RUN_WORKER` set to the place of its first scenario in the
/// whole run, and writes everything into its standard output as frames, in the order it
/// happened: what was for standard output, what was for standard error, a mark where its
/// scenarios start (the notes before it are said once for the whole run), and last its
/// outcome, as the JSON report.
enum RunWorker {
    static let variable = EnvironmentVariable.runWorker.rawValue

    /// What a frame holds.
    enum Tag: UInt8 {
        case output = 79  // O
        case error = 69  // E
        case scenarios = 77  // M
        case outcome = 82  // R
    }

    /// A sink that frames what is written to one stream into the copy's standard output.
    final class FramedOutput: OutputSink {
        private let tag: Tag
        private let sink: any OutputSink

        init(_ tag: Tag, into sink: any OutputSink) {
            self.tag = tag
            self.sink = sink
        }

        func write(_ text: String) throws(OutputError) {
            try sink.write(RunWorker.frame(tag, text))
        }
    }

    /// `context` with both streams framed, in the order written, into `sink`: how a share
    /// of `run --jobs` writes, on a copy or in the run that started the copies.
    static func framing(_ context: RunContext, into sink: BufferedOutput) -> RunContext {
        var context = context
        context.standardOutput = FramedOutput(.output, into: sink)
        context.standardError = FramedOutput(.error, into: sink)
        return context
    }

    static func frame(_ tag: Tag, _ text: String) -> String {
        String(UnicodeScalar(tag.rawValue)) + "\(text.utf8.count)\n" + text
    }

    static func record(_ outcome: RunOutcome) -> String {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("usedRunSeed", outcome.usedRunSeed)
        writer.key("finalExit")
        if let exit = outcome.finalExit { writer.int(Int(exit.rawValue)) } else { writer.null() }
        writer.key("report")
        writer.json(Array(RunReport.json(outcome.entries, handedBack: true).utf8.dropLast()))
        writer.closeObject()
        return frame(.outcome, writer.output)
    }

    /// Hands `body` each frame of `bytes` in order: a tag byte, the payload's length in
    /// decimal, a newline, the payload. Stops at the first frame `body` refuses, or at one
    /// that is not whole.
    static func forEachFrame(in bytes: UnsafeRawBufferPointer, _ body: (UInt8, UnsafeRawBufferPointer) -> Bool) {
        var position = 0
        while position < bytes.count {
            let tag = bytes[position]
            var cursor = position + 1
            var length = 0
            // At most 18 digits, so that the length cannot overflow.
            while cursor < bytes.count, cursor - position <= 18, (48...57).contains(bytes[cursor]) {
                length = length * 10 + Int(bytes[cursor] - 48)
                cursor += 1
            }
            guard cursor > position + 1, cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\n"),
                bytes.count - cursor - 1 >= length
            else { return }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(cursor + 1)..<(cursor + 1 + length)])
            guard body(tag, payload) else { return }
            position = cursor + 1 + length
        }
    }

    /// The notes a share's frames say before its scenarios.
    static func notes(in frames: UnsafeRawBufferPointer) -> String {
        var notes = ""
        forEachFrame(in: frames) { tag, payload in
            switch Tag(rawValue: tag) {
            case .scenarios: return false
            case .error: notes += String(decoding: payload, as: UTF8.self)
            default: break
            }
            return true
        }
        return notes
    }

    /// A copy's notes and outcome; nil when it has none (it ended on an error it reported).
    static func summary(of frames: UnsafeRawBufferPointer) -> (notes: String, outcome: RunOutcome)? {
        var record: [UInt8]?
        forEachFrame(in: frames) { tag, payload in
            if Tag(rawValue: tag) == .outcome { record = Array(payload) }
            return true
        }
        let notes = notes(in: frames)
        guard let record, let value = try? JSONParser.parse(record), case .object(let members) = value.kind,
            let report = members.first(where: { $0.key == "report" })?.value,
            let entries = RunReport.entries(fromJSON: report)
        else { return nil }
        var usedRunSeed = false
        var finalExit: ExitCode?
        for member in members {
            if member.key == "usedRunSeed", case .bool(let flag) = member.value.kind { usedRunSeed = flag }
            if member.key == "finalExit", case .number(let text) = member.value.kind {
                finalExit = Int32(text).flatMap(ExitCode.init(rawValue:))
            }
        }
        return (notes, RunOutcome(entries: entries, usedRunSeed: usedRunSeed, finalExit: finalExit))
    }

    /// Writes what a copy wrote for its scenarios to the two streams, interleaved as it
    /// wrote it: the frames of one stream in a row gathered into one write.
    static func replay(_ frames: UnsafeRawBufferPointer, to context: RunContext) throws(OutputError) {
        var started = false
        var failure: OutputError?
        var pending: [UInt8] = []
        var pendingTag = Tag.output
        pending.reserveCapacity(1 << 18)
        func flush() throws(OutputError) {
            guard !pending.isEmpty else { return }
            try (pendingTag == .output ? context.standardOutput : context.standardError).write(contentsOf: pending)
            pending.removeAll(keepingCapacity: true)
        }
        forEachFrame(in: frames) { tag, payload in
            do throws(OutputError) {
                switch Tag(rawValue: tag) {
                case .scenarios: started = true
                case let stream? where started && (stream == .output || stream == .error):
                    if stream != pendingTag || pending.count + payload.count > 1 << 18 { try flush() }
                    pendingTag = stream
                    pending.append(contentsOf: payload)
                default: break
                }
            } catch {
                failure = error
                return false
            }
            return true
        }
        if let failure { throw failure }
        try flush()
    }
}
