import Foundation

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// The outcome of one in-process run of the CLI.
struct RunResult {
    var exitCode: ExitCode
    var stdout: String
    var stderr: String
}

/// Runs `paylinks` in process with captured output, a fixed clock and fixed entropy.
@MainActor
func runCLI(
    _ arguments: String..., environment: [String: String] = [:], clock: Int = 1_718_182_312, entropy: UInt64 = 42,
    stdin: String = ""
) -> RunResult {
    runCLI(arguments, environment: environment, clock: clock, entropy: entropy, stdin: stdin)
}

/// Runs `paylinks` in process with captured output, a fixed clock and fixed entropy.
@MainActor
func runCLI(
    _ arguments: [String], environment: [String: String] = [:], clock: Int = 1_718_182_312, entropy: UInt64 = 42,
    stdin: String = ""
) -> RunResult {
    let stdout = CapturedOutput()
    let stderr = CapturedOutput()
    var context = RunContext(
        environment: { environment[$0] }, standardOutput: stdout, standardError: stderr, clock: { clock },
        entropy: { entropy })
    context.readStandardInput = { _ throws(FileSystemError) in Array(stdin.utf8) }
    let code = PaylinksCLI.run(["paylinks"] + arguments, context: context)
    return RunResult(exitCode: code, stdout: stdout.text, stderr: stderr.text)
}

/// The catalog built into paylinks.
func builtInCatalog() throws -> Catalog {
    Catalog.builtIn
}

/// Runs `executable` with `arguments`, its standard output and error together; returns
/// its exit status and what it printed.
func runProgram(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

/// Type-checks Swift `source` against the package's built modules, warnings as errors.
func typecheckSwift(_ source: String) throws -> (status: Int32, output: String) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString).swift")
    try Data(source.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let modules = DocumentedCommands.root.appendingPathComponent(".build/debug/Modules").path
    return try runProgram(
        "/usr/bin/env",
        ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", modules, file.path])
}

/// Whether the tests run in CI (`CI=true`), where every tool they use is installed: a test
/// that would skip for a missing tool runs there, and fails.
let runningInCI = ProcessInfo.processInfo.environment["CI"] == "true"
