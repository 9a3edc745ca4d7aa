import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// A few runs of the built `paylinks` executable, for what only a real process shows:
/// exit statuses, the two streams, and the environment.
@Suite("Built binary")
@MainActor
struct BinaryTests {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `paylinks` executable: the test target depends on it, so `swift test` builds
    /// it into the products directory, beside the test bundle.
    nonisolated static func builtExecutable() throws -> URL {
        #if os(macOS)
            let products = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL
                .deletingLastPathComponent()
        #else
            let products = Bundle.main.executableURL?.deletingLastPathComponent()
        #endif
        let executable = products?.appendingPathComponent("paylinks")
        guard let executable, FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw MissingExecutable(products: products?.path ?? "?")
        }
        return executable
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        var products: String
        var description: String { "the paylinks executable is not in the products directory \(products)" }
    }

    nonisolated static func run(
        _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil, launcher: String? = nil
    ) throws -> Outcome {
        let process = Process()
        if let directory { process.currentDirectoryURL = directory }
        process.executableURL = try launcher.map { URL(fileURLWithPath: $0) } ?? builtExecutable()
        process.arguments = arguments
        process.environment = environment
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // A run that never ends (a server that should have refused to start) ends the test, not the suite.
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { if process.isRunning { process.terminate() } }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    @Test(
        "each exit code of the table comes from a real invocation",
        arguments: [
            (["purchase", "--sku", "starter_pack_001"], ExitCode.success),
            (["price-points", "--country", "BR"], .success),
            (["init", "--environment", "staging"], .initializeFailed),
            (["purchase", "--sku", "starter_pack_001", "--checkout-public-key="], .initializeFailed),
            (["cancel", "--sku", "starter_pack_001"], .purchaseCanceled),
            (["purchase", "--sku", "nope"], .usage),
            (["refund"], .usage),
            (["init", "--fixtures", "/nonexistent"], .noInput),
            (["--help"], .success),
        ])
    func exitStatus(arguments: [String], code: ExitCode) throws {
        let outcome = try Self.run(arguments)
        #expect(outcome.status == code.rawValue, "stderr: \(outcome.stderr)")
        if code.rawValue >= 64 {
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderr.hasPrefix("error: "))
        } else {
            #expect(outcome.stderr.isEmpty)
            #expect(!outcome.stdout.isEmpty)
        }
    }

    @Test("broken fixture data exits 65")
    func invalidFixture() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "paylinks-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{\"offers\": [".utf8).write(to: directory.appendingPathComponent("offers.json"))
        let outcome = try Self.run(["init"], environment: ["PAYLINKS_FIXTURES": directory.path])
        #expect(outcome.status == ExitCode.dataError.rawValue)
        #expect(outcome.stderr.contains("offers.json:1:13"))
    }

    @Test(
        "a full disk exits 74 with a message",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "this system has no /dev/full"))
    func fullDisk() throws {
        let process = Process()
        process.executableURL = try Self.builtExecutable()
        process.arguments = ["purchase", "--sku", "starter_pack_001"]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == ExitCode.ioError.rawValue)
        #expect(err.hasPrefix("error: could not write the output"))
    }

    @Test("the binary needs no fixture files beside it")
    func builtInFixtures() throws {
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent(
            "paylinks-cwd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let outcome = try Self.run(
            ["purchase", "--sku", "starter_pack_001", "--json", "--seed", "1"], directory: elsewhere)
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains(#""offerName":"Starter Pack""#))
    }

    @Test("a reader that goes away ends paylinks quietly")
    func closedPipe() throws {
        let process = Process()
        process.executableURL = try Self.builtExecutable()
        process.arguments = ["purchase", "--sku", "starter_pack_001", "--count", "200000", "--json"]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Read a little, as `head -1` would, then go away.
        _ = stdout.fileHandleForReading.readData(ofLength: 100)
        try stdout.fileHandleForReading.close()
        let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(err == "", "no error spew when the reader leaves")
        // Killed by SIGPIPE like standard tools, or, where SIGPIPE is ignored, exit 141.
        let quiet =
            (process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGPIPE)
            || process.terminationStatus == ExitCode.brokenPipe.rawValue
        #expect(quiet, "status \(process.terminationStatus), reason \(process.terminationReason.rawValue)")
    }
}
