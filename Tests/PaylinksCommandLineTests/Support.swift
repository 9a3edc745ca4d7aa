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
    _ arguments: String..., environment: [String: String] = [:], clock: Int = 1_718_182_312, entropy: UInt64 = 42
) -> RunResult {
    runCLI(arguments, environment: environment, clock: clock, entropy: entropy)
}

/// Runs `paylinks` in process with captured output, a fixed clock and fixed entropy.
@MainActor
func runCLI(
    _ arguments: [String], environment: [String: String] = [:], clock: Int = 1_718_182_312, entropy: UInt64 = 42
) -> RunResult {
    let stdout = CapturedOutput()
    let stderr = CapturedOutput()
    let context = RunContext(
        environment: { environment[$0] }, standardOutput: stdout, standardError: stderr, clock: { clock },
        entropy: { entropy })
    let code = PaylinksCLI.run(["paylinks"] + arguments, context: context)
    return RunResult(exitCode: code, stdout: stdout.text, stderr: stderr.text)
}

/// The catalog built into paylinks.
func builtInCatalog() throws -> Catalog {
    Catalog.builtIn
}
