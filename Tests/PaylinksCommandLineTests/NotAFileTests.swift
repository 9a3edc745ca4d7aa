import Foundation
import Testing

@testable import PaylinksCommandLine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths that are not files: paylinks refuses what could block it forever, and walks each
/// directory once however links loop. Nothing here may hang: a FIFO opened for reading
/// with no writer would.
@Suite("Files that are not files")
@MainActor
struct NotAFileTests {
    /// A fresh directory holding a FIFO, `pipe.json`.
    func directoryWithFIFO() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try #require(mkfifo(directory.appendingPathComponent("pipe.json").path, 0o600) == 0, "mkfifo: \(errno)")
        return directory
    }

    @Test("a FIFO as a scenario file, inside a scenario directory, or as the main key file is refused with 66")
    func fifos() throws {
        let directory = try directoryWithFIFO()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe.json").path
        let expected =
            "error: '\(fifo)' is not a regular file (a FIFO, a socket or a device); give a scenario file on disk\n"
        for operand in [fifo, directory.path] {
            let result = runCLI("run", operand)
            #expect(result.exitCode == .noInput)
            #expect(result.stderr == expected)
            #expect(result.stdout.isEmpty)
        }
        let key = runCLI(
            "purchase", "--sku", "starter_pack_001", "--award-url", "http://127.0.0.1:9/award", "--main-key-file", fifo)
        #expect(key.exitCode == .noInput)
        #expect(
            key.stderr.contains("is not a regular file (a FIFO, a socket or a device); give a main key file on disk"))
    }

    @Test("a directory reached again through a link is walked once: its scenario runs once")
    func linkLoops() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/scenarios/happy-path.json")
        try FileManager.default.copyItem(at: scenarios, to: directory.appendingPathComponent("happy-path.json"))
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("again"), withDestinationURL: directory)
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("twice"), withDestinationURL: directory)
        let result = runCLI("run", directory.path, "--seed", "7")
        #expect(result.exitCode == .success)
        #expect(result.stderr.components(separatedBy: "ok    happy path").count - 1 == 1, "\(result.stderr)")
        #expect(result.stderr.contains("1 passed, 0 failed"))
    }

    @Test("a key file over its limit says the limit in bytes")
    func keyLimitInBytes() throws {
        let key = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString)")
        try Data(repeating: 0x61, count: 5_000).write(to: key)
        defer { try? FileManager.default.removeItem(at: key) }
        let result = runCLI(
            "purchase", "--sku", "starter_pack_001", "--award-url", "http://127.0.0.1:9/award", "--main-key-file",
            key.path)
        #expect(result.stderr.contains("larger than the 4096-byte limit for main key files"), "\(result.stderr)")
    }
}

/// What `run` writes about a file quotes the file: its names and keys reach stderr escaped,
/// one line each.
@Suite("Run's lines cannot be forged")
@MainActor
struct RunLineTests {
    func scenario(named name: String, extraKey: String? = nil) throws -> URL {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/scenarios/happy-path.json")
        var text = try String(contentsOf: source, encoding: .utf8)
        text = text.replacingOccurrences(of: #""name": "happy path""#, with: #""name": "\#(name)""#)
        if let extraKey {
            text = text.replacingOccurrences(of: #""steps": ["#, with: #""\#(extraKey)": 1, "steps": ["#)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("forged-\(UUID().uuidString).json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("a scenario name with a line feed and an escape sequence is one escaped line")
    func scenarioName() throws {
        let file = try scenario(named: #"evil\u001b[31m\nok    forged  1 step"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = runCLI("run", file.path)
        #expect(result.exitCode == .success)
        #expect(result.stderr.contains(#"ok    evil\u{1B}[31m\u{A}ok    forged  1 step  3 steps"#), "\(result.stderr)")
        #expect(!result.stderr.contains("\nok    forged"))
        #expect(!result.stderr.unicodeScalars.contains("\u{1B}"))
    }

    @Test("with --trace, a scenario's name reaches every trace line escaped, bidirectional controls too")
    func traceEscaped() throws {
        let file = try scenario(named: #"evil\u001b[31m\u202e"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = runCLI("run", file.path, "--trace")
        #expect(result.exitCode == .success)
        #expect(result.stderr.contains(#"trace evil\u{1B}[31m\u{202E} +0.000s  "#), "\(result.stderr)")
        #expect(!result.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
    }

    @Test("an unknown key with control characters is named escaped in the error line")
    func unknownKey() throws {
        let file = try scenario(named: "fine", extraKey: #"confi\r\nerror: forged"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = runCLI("run", file.path)
        #expect(result.exitCode == .dataError)
        #expect(result.stderr.contains(#"confi\u{D}\u{A}error: forged"#), "\(result.stderr)")
        #expect(!result.stderr.contains("\nerror: forged"))
    }

    @Test("a scenario's seed takes the range of --seed, 0 to 2^64-1; a huge number is quoted by its start")
    func seedRange() throws {
        func run(seed: String) -> RunResult {
            runCLI(
                "run", "-",
                stdin: #"{"name": "s", "configuration": {"seed": \#(seed)}, "steps": [{"step": "initialize"}]}"#)
        }
        #expect(run(seed: "18446744073709551615").exitCode == .success)
        let past = run(seed: "18446744073709551616")
        #expect(past.exitCode == .dataError)
        #expect(past.stderr.contains("18446744073709551616 is out of range; expected 0 to 18446744073709551615"))
        let huge = run(seed: String(repeating: "9", count: 100_000))
        #expect(huge.exitCode == .dataError)
        #expect(
            huge.stderr.contains("999999999999... (a number of 100000 characters) is out of range"),
            "\(huge.stderr.prefix(300))")
        #expect(huge.stderr.utf8.count < 500)
    }
}
