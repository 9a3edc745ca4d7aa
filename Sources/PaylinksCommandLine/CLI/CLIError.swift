package import PaylinksFixtures

/// Every way a paylinks invocation can fail before or outside the simulated flow.
///
/// ``message`` and ``exitCode`` are the one place where these become words and codes.
package enum CLIError: Error, Equatable, Sendable {
    /// The command line is wrong. `command` names the subcommand whose help to point at.
    case usage(String, command: Command?)
    /// Fixture data was refused.
    case invalidFixture(FixtureError)
    /// A named file or directory is missing or unreadable; the message says which and why.
    case noInput(String)
    /// Output could not be written.
    case output(OutputError)
    /// `serve` cannot listen, or `check-award` finds nothing at its URL: the message says
    /// where and what to do.
    case unavailable(String)
    /// A file paylinks was asked to write (a report) could not be: what and why.
    case cannotWrite(String)
    /// Data paylinks keeps (`serve --data`) is not in a shape it reads: what and why.
    case invalidData(String)
    /// A directory paylinks keeps data in cannot be created or written: what and why.
    case cannotCreate(String)
    /// The command `serve -- CMD` names is not found: which, and how to fix it.
    case commandNotFound(String)
    /// The command `serve -- CMD` names cannot be executed: which, why, and how to fix it.
    case cannotExecute(String)
    /// A copy of paylinks (`run --jobs`) ended with this code and has said why.
    case exited(ExitCode)
    /// A state paylinks should never reach.
    case `internal`(String)

    /// The exit code for this error.
    package var exitCode: ExitCode {
        switch self {
        case .usage: .usage
        case .invalidFixture, .invalidData: .dataError
        case .cannotCreate: .cannotCreate
        case .noInput: .noInput
        case .output(.brokenPipe): .brokenPipe
        case .output(.failed), .cannotWrite: .ioError
        case .unavailable: .unavailable
        case .commandNotFound: .commandNotFound
        case .cannotExecute: .cannotExecute
        case .internal: .software
        case .exited(let code): code
        }
    }

    /// What is written to standard error, or nil when paylinks should stop quietly: one
    /// line, or for a fixture one line per problem. Each line stays one whatever it quotes:
    /// a line feed or control character from a peer or a file is written as an escape.
    package var message: String? {
        lines?.map(MessageText.oneLine).joined(separator: "\n")
    }

    private var lines: [String]? {
        switch self {
        case .usage(let text, let command):
            let help = command.map { "paylinks \($0.rawValue) --help" } ?? "paylinks --help"
            return ["error: \(text) (see '\(help)')"]
        case .invalidFixture(let error):
            // One line per problem, so that one run shows everything to fix in a file.
            var lines = error.problems.map { "error: \($0)" }
            if error.uncounted > 0 {
                lines.append("error: \(error.file): \(error.uncounted) more problems not shown; fix these first")
            }
            return lines
        case .noInput(let text), .unavailable(let text), .cannotWrite(let text), .invalidData(let text),
            .cannotCreate(let text), .commandNotFound(let text), .cannotExecute(let text):
            return ["error: \(text)"]
        case .output(.brokenPipe), .exited:
            return nil
        case .output(.failed(let reason)):
            return ["error: could not write the output: \(reason); check the disk or the file it goes to"]
        case .internal(let text):
            return ["error: internal error: \(text); please report it with the command that caused it"]
        }
    }
}
