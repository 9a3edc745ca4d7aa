import PaylinksFixtures
import PaylinksKit

/// `paylinks completions SHELL`: the completion script for bash, zsh or fish.
enum CompletionsCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        let name = options.operands.first ?? ""
        guard let shell = CompletionScript.Shell.named(name) else {
            let shells = CompletionScript.Shell.allCases.map(\.rawValue)
            let hint = Suggestion.hint(for: name, among: shells, quoted: .single) ?? ""
            throw .usage(
                "no completions for '\(MessageText.sanitized(name))': choose \(shells.joined(separator: ", "))\(hint)",
                command: .completions)
        }
        try PaylinksCLI.write(CompletionScript.script(for: shell, catalog: catalog), to: context.standardOutput)
        return .success
    }
}
