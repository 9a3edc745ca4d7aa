import PaylinksAppcharge
import PaylinksKit

/// The help texts, made from the same tables the parser reads.
package enum Help {
    /// paylinks' version; CHANGELOG.md names it first.
    package static let version = "0.1.0"
    /// The day the version was released, as the manual page shows it.
    package static let releaseDate = "2026-11-30"

    /// The overview: `paylinks --help`.
    package static func overview() -> String {
        var text = """
            paylinks \(version): a checkout simulator for Appcharge's Payment Links SDK.
            It prints the callbacks your delegate receives, with realistic payloads, as iOS,
            Android or Unity (--platform) and any SDK generation (--sdk-version) deliver them.

            USAGE
              paylinks <command> [options]

            COMMANDS

            """
        let names = Command.allCases.map(\.rawValue) + ["help"]
        let width = names.map(\.count).max() ?? 0
        for command in Command.allCases {
            text += "  " + padded(command.rawValue, to: width) + command.summary + "\n"
        }
        text += "  " + padded("help", to: width) + "Show the help of a command: paylinks help purchase.\n"
        text += """

            Run 'paylinks <command> --help' for a command's options.

            OPTIONS
              -h, --help     Show this help.
              -V, --version  Show the version.


            """
        text += exitCodes()
        text += "\nEXAMPLES\n"
        for example in examples {
            text += "  \(example.command)\n"
        }
        return text
    }

    /// A command the help and the manual page show, and the exit code it ends with; the
    /// test suite runs each.
    package struct Example: Sendable {
        /// The command line.
        package var command: String
        /// How it ends.
        package var exitCode: ExitCode
    }

    /// The examples of the help and the manual page.
    package static let examples = [
        Example(command: "paylinks purchase --sku starter_pack_001", exitCode: .success),
        Example(command: "paylinks cancel --sku starter_pack_001 --json", exitCode: .purchaseCanceled),
        Example(command: "paylinks price-points --country JP", exitCode: .success),
        Example(
            command: "paylinks purchase --sku builders_bundle --seed 7 --now 1718182312 --json", exitCode: .success),
        Example(command: "paylinks purchase --sku starter_pack_001 --error 3004 --trace", exitCode: .purchaseFailed),
        Example(command: "paylinks run Fixtures/scenarios/*.json", exitCode: .success),
        Example(command: "paylinks errors 3002", exitCode: .success),
        Example(command: "paylinks trigger order.refunded --json", exitCode: .success),
        Example(
            command: #"paylinks serve --port 0 -- sh -c 'paylinks health "$PAYLINKS_SANDBOX_URL"'"#, exitCode: .success),
        Example(
            command: "paylinks cancel --sku starter_pack_001 --platform unity --sdk-version 3.0 --format wire",
            exitCode: .purchaseCanceled),
    ]

    /// A subcommand's help: `paylinks purchase --help`.
    package static func command(_ command: Command) -> String {
        let options = OptionSpec.options(for: command)
        var text = """
            \(command.summary)

            USAGE
              \(command.usage)

            \(command == .trigger ? triggerEvents : "")\(command == .serve ? commandAfterOptions : "")\(cases(of: command))OPTIONS

            """
        let labels = options.map { spec in spec.placeholder.map { "\(spec.name) \($0)" } ?? spec.name }
        let width = max(labels.map(\.count).max() ?? 0, "-h, --help".count)
        for (spec, label) in zip(options, labels) {
            text += "  " + padded(label, to: width) + spec.summary + "\n"
            if let defaultText = spec.defaultText {
                text += "  " + String(repeating: " ", count: width + 2) + "Default: \(defaultText)\n"
            }
        }
        text += "  " + padded("-h, --help", to: width) + "Show this help.\n\n"
        text += "EXIT CODES\n  'paylinks --help' and 'man paylinks' list them.\n"
        return text
    }

    /// The cases of an audit, `check-award` or `check-events`, each with what it checks, in
    /// the order they run; nothing for another command.
    private static func cases(of command: Command) -> String {
        let cases: [(name: String, summary: String)]
        var text = "CASES\n"
        switch command {
        case .checkAward: cases = AwardAuditCase.allCases.map { ($0.name, $0.summary) }
        case .checkEvents:
            cases = EventAuditCase.allCases.map { ($0.name, $0.summary) }
            let money = EventAuditCase.allCases.filter(\.followsMoney).map(\.name)
            text = "CASES (\(money.first ?? "") to \(money.last ?? "") need --award-url and --ledger-url)\n"
        case .checkLinks:
            cases = LinkFileRules.rules
            text = "RULES (exit 0 none broken, 1 one broken, 64 usage, 65 not JSON, 66 missing, 69 not answering)\n"
        default: return ""
        }
        let width = cases.map(\.name.count).max() ?? 0
        for (name, summary) in cases { text += "  " + padded(name, to: width) + summary + "\n" }
        return text + "\n"
    }

    /// What `serve -- CMD` does with CMD.
    private static let commandAfterOptions = """
        COMMAND
          After --, a command to run once the sandbox listens, with PAYLINKS_SANDBOX_URL (its
          base URL) and PAYLINKS_PUBLISHER_TOKEN in its environment. SIGINT, SIGTERM and SIGHUP
          go to it and what it started; when it ends the sandbox stops as on SIGTERM, and
          paylinks exits with its status
          (128 + N when signal N killed it). Not found: 127; cannot be executed: 126.


        """

    /// The events `trigger` takes, each with the results it takes.
    private static var triggerEvents: String {
        var text = "EVENTS\n"
        for name in OrderEvent.Name.v2Names {
            let results = OrderEvent.Name.results(of: name)
            text += "  \(name)" + (results.isEmpty ? "" : " (--result \(results.joined(separator: "|")))") + "\n"
        }
        return text + "\n"
    }

    /// The exit-code table.
    package static func exitCodes() -> String {
        var text = "EXIT CODES\n"
        for code in ExitCode.allCases {
            text += "  " + padded(String(code.rawValue), to: 3) + code.meaning + "\n"
        }
        return text + "  serve -- CMD ends with CMD's own status, whatever it is.\n"
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count) + 2)
    }
}
