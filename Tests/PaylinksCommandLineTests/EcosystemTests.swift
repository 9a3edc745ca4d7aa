import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// Help, completions, the manual page, colour and the changelog.
@Suite("At home in its ecosystem")
@MainActor
struct EcosystemTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `--options` a help text lists in its OPTIONS section.
    static func listedOptions(_ help: String) -> [String] {
        help.components(separatedBy: "\nOPTIONS\n").last?.components(separatedBy: "\n\n").first?
            .split(separator: "\n")
            .compactMap { line in
                let words = line.split(separator: " ")
                guard let first = words.first, first.hasPrefix("--") else { return nil }
                return String(first)
            } ?? []
    }

    @Test("help lists exactly the options the parser accepts, each with what it takes", arguments: Command.allCases)
    func helpCannotDrift(command: Command) throws {
        let help = runCLI(command.rawValue, "--help").stdout
        let listed = Self.listedOptions(help)
        let accepted = OptionSpec.options(for: command).map(\.name)
        #expect(listed == accepted)
        #expect(runCLI("help", command.rawValue).stdout == help)
        for spec in OptionSpec.options(for: command) {
            let words = [command.rawValue, spec.name] + (spec.placeholder == nil ? [] : ["x"])
            do {
                _ = try ArgumentParser.parse(["paylinks"] + words)
            } catch {
                guard case .usage(let message, _) = error else { continue }
                #expect(!message.contains("unknown option") && !message.contains("is not an option"), "\(message)")
            }
        }
        for spec in OptionSpec.all where !spec.commands.contains(command) {
            #expect(throws: CLIError.self) { try ArgumentParser.parse(["paylinks", command.rawValue, spec.name, "x"]) }
        }
    }

    @Test("options with a fixed set of values show them in the help")
    func acceptedValues() {
        let help = runCLI("purchase", "--help").stdout
        for fragment in [
            "succeeded; declined", "text; give json for scripts, wire", "ios; give android or unity",
            "auto (on a terminal",
            "init, price-points, purchase",
        ] {
            #expect(help.contains(fragment), "\(fragment)")
        }
    }

    @Test("a command's help offers no value the command refuses, and leaves the exit codes to the main help")
    func commandHelpOffersWhatWorks() {
        for command in Command.allCases {
            let help = Help.command(command)
            #expect(!help.contains("\n  141"), "\(command.rawValue) repeats the exit-code table")
            #expect(help.contains("'paylinks --help' and 'man paylinks' list them."))
            if !OptionSpec.callbackCommands.contains(command) {
                #expect(
                    !help.contains("wire:") && !help.contains("json, wire"),
                    "\(command.rawValue) offers --format wire, which it refuses")
            }
        }
        #expect(Help.overview().contains("\n  141"))
        #expect(runCLI("errors", "--format", "wire").exitCode == .usage)
    }

    // MARK: Completions

    /// The path of a program on this machine's usual search path, or nil.
    nonisolated static func installed(_ program: String) -> String? {
        ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"].map { "\($0)/\(program)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(
        "the bash completions load in bash and complete commands, options and values",
        .enabled(if: installed("bash") != nil || runningInCI, "bash is not installed"))
    func bashCompletions() throws { try checkCompletions(in: "bash") }

    @Test(
        "the zsh completions load in zsh and complete commands, options and values",
        .enabled(if: installed("zsh") != nil || runningInCI, "zsh is not installed (.ci/run installs it)"))
    func zshCompletions() throws { try checkCompletions(in: "zsh") }

    @Test(
        "the fish completions load in fish and complete commands, options and values",
        .enabled(if: installed("fish") != nil || runningInCI, "fish is not installed (.ci/run installs it)"))
    func fishCompletions() throws { try checkCompletions(in: "fish") }

    private func checkCompletions(in shell: String) throws {
        let (status, text) = try runProgram(
            "/bin/bash",
            [
                Self.root.appendingPathComponent("Tests/Shell/check-completions.sh").path,
                try BinaryTests.builtExecutable().path, shell,
            ])
        #expect(status == 0, "\(text)")
        #expect(text.components(separatedBy: "ok   \(shell):").count - 1 == 15, "\(text)")
    }

    /// What a user types, `\t` for Tab, and the words paylinks then receives, `END`
    /// typed after the Tab: a word that runs on into `END` took no space.
    nonisolated static let typedLines: [(typed: String, words: [String])] = [
        ("paylinks pur\\t", ["purchase", "END"]),
        ("paylinks purchase --sku sta\\t", ["purchase", "--sku", "starter_pack_001", "END"]),
        ("paylinks purchase --sku=sta\\t", ["purchase", "--sku=starter_pack_001", "END"]),
        ("paylinks purchase --award-wait=re\\t", ["purchase", "--award-wait=real", "END"]),
        ("paylinks run Fixt\\t", ["run", "Fixtures/END"]),
        ("paylinks run --fixtures Fix\\t", ["run", "--fixtures", "Fixtures/END"]),
        ("paylinks purchase --main-key-file ke\\t", ["purchase", "--main-key-file", "key.txt", "END"]),
        ("paylinks purchase --award-wait r\\t", ["purchase", "--award-wait", "real", "END"]),
        ("paylinks check-award http://x --case stal\\t", ["check-award", "http://x", "--case", "stale-t", "END"]),
        (
            "paylinks check-events http://x --case refund-u\\t",
            ["check-events", "http://x", "--case", "refund-ungranted", "END"]
        ),
        (
            "paylinks trigger order.refunded --fault dro\\t",
            ["trigger", "order.refunded", "--fault", "drop-first", "END"]
        ),
        ("paylinks init --platform UNI\\t", ["init", "--platform", "unity", "END"]),
        ("paylinks price-points --country jp\\t", ["price-points", "--country", "JP", "END"]),
        ("paylinks init --error charge_f\\t", ["init", "--error", "CHARGE_FAILED", "END"]),
        ("paylinks run x.json --report ju\\t", ["run", "x.json", "--report", "junit=END"]),
        ("paylinks run x.json --matrix gen\\t", ["run", "x.json", "--matrix", "generation=END"]),
    ]

    @Test(
        "completions work as a user types them in a real interactive shell on a terminal",
        .enabled(
            if: CompletionScript.Shell.allCases.allSatisfy { installed($0.rawValue) != nil } || runningInCI,
            "bash, zsh and fish are not all installed (.ci/run installs them)"),
        arguments: CompletionScript.Shell.allCases)
    func completionsAsTyped(shell: CompletionScript.Shell) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("typed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("Fixtures/scenarios"), withIntermediateDirectories: true)
        try Data("k\n".utf8).write(to: directory.appendingPathComponent("key.txt"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try runProgram(
            "/usr/bin/env",
            [
                "python3", Self.root.appendingPathComponent("Tests/Shell/complete_in_pty.py").path,
                try BinaryTests.builtExecutable().path, shell.rawValue, directory.path,
            ] + Self.typedLines.map(\.typed))
        #expect(status == 0, "\(output)")
        let results = output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(results.count == Self.typedLines.count, "\(output)")
        for (line, result) in zip(Self.typedLines, results) {
            #expect(
                result["words"] as? [String] == line.words,
                "\(shell): '\(line.typed)' gave \(result["words"] ?? "nothing")")
        }
    }

    @Test("completions offer the SKUs and codes of the fixtures in use", arguments: CompletionScript.Shell.allCases)
    func completionsFollowFixtures(shell: CompletionScript.Shell) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "paylinks-comp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let offers =
            #"{"offers": [{"sku": "custom_bundle_9", "name": "C", "basePriceInUSD": "0.99", "items": [{"name": "I", "sku": "i", "quantity": "1"}]}]}"#
        try Data(offers.utf8).write(to: directory.appendingPathComponent("offers.json"))
        let custom = runCLI("completions", shell.rawValue, "--fixtures", directory.path).stdout
        #expect(custom.contains("custom_bundle_9"))
        #expect(!custom.contains("dragon_hoard_mega"))
        let builtIn = runCLI("completions", shell.rawValue).stdout
        #expect(builtIn.contains("starter_pack_001") && builtIn.contains("CHARGE_FAILED"))
        for spec in OptionSpec.all { #expect(builtIn.contains(String(spec.name.dropFirst(2))), "\(spec.name)") }
    }

    @Test("an unknown shell is a usage error")
    func unknownShell() {
        let result = runCLI("completions", "bsh")
        #expect(result.exitCode == .usage)
        #expect(result.stderr.contains("did you mean 'bash'?"))
    }

    // MARK: The manual page

    @Test("the manual page documents every command, option and exit code, from the help's tables")
    func manPage() throws {
        let page = runCLI("man").stdout
        #expect(page.hasPrefix(".TH PAYLINKS 1 \"\(Help.releaseDate)\" \"paylinks \(Help.version)\""))
        for command in Command.allCases {
            #expect(page.contains(".B paylinks \(ManPage.escape(command.rawValue))"), "\(command)")
        }
        for spec in OptionSpec.all {
            #expect(page.contains("\\fB\(ManPage.escape(spec.name))\\fR"), "\(spec.name)")
            #expect(page.contains(ManPage.escape(spec.summary)), "\(spec.name)")
        }
        for code in ExitCode.allCases { #expect(page.contains(".B \(code.rawValue)\n\(ManPage.escape(code.meaning))")) }
    }

    @Test(
        "groff renders the manual page without a warning",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") || runningInCI, "groff is not installed")
    )
    func manPageRenders() throws {
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("paylinks-\(UUID().uuidString).1")
        try Data(runCLI("man").stdout.utf8).write(to: page)
        defer { try? FileManager.default.removeItem(at: page) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        process.arguments = ["-man", "-Tutf8", "-ww", "-z", page.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(warnings == "")
    }

    // MARK: Colour

    static func colored(_ arguments: [String], terminal: Bool, environment: [String: String] = [:]) -> String {
        let stdout = CapturedOutput()
        let context = RunContext(
            environment: { environment[$0] }, standardOutput: stdout, standardError: CapturedOutput(), clock: { 0 },
            entropy: { 0 }, standardOutputIsTerminal: terminal)
        _ = PaylinksCLI.run(["paylinks"] + arguments, context: context)
        return stdout.text
    }

    @Test("text is coloured on a terminal, and only there, unless NO_COLOR or TERM=dumb; --color decides")
    func colour() {
        let purchase = ["cancel", "--sku", "starter_pack_001"]
        let escape = "\u{1B}["
        #expect(Self.colored(purchase, terminal: true).contains("\u{1B}[1;31monPurchaseFailed\u{1B}[0m"))
        #expect(Self.colored(purchase, terminal: true).contains("\u{1B}[1;32monInitialized"))
        #expect(!Self.colored(purchase, terminal: false).contains(escape))
        #expect(!Self.colored(purchase, terminal: true, environment: ["NO_COLOR": "1"]).contains(escape))
        #expect(Self.colored(purchase, terminal: true, environment: ["NO_COLOR": ""]).contains(escape))
        #expect(!Self.colored(purchase, terminal: true, environment: ["TERM": "dumb"]).contains(escape))
        #expect(Self.colored(purchase + ["--color", "always"], terminal: false).contains(escape))
        #expect(
            Self.colored(purchase + ["--color", "always"], terminal: false, environment: ["NO_COLOR": "1"]).contains(
                escape))
        #expect(!Self.colored(purchase + ["--color", "never"], terminal: true).contains(escape))
        #expect(Self.colored(["errors", "--color", "always"], terminal: false).hasPrefix("\u{1B}[1mCODE"))
    }

    @Test("JSON is never coloured")
    func jsonNeverColoured() {
        let json = Self.colored(
            ["purchase", "--sku", "starter_pack_001", "--json", "--color", "always"], terminal: true)
        #expect(!json.contains("\u{1B}"))
        #expect(json.hasPrefix(#"{"callback":"onInitialized"}"#))
    }

    // MARK: Changelog

    @Test("--version matches the newest entry of the changelog")
    func changelog() throws {
        let changelog = try String(contentsOf: Self.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        // Unreleased changes are listed above the newest release.
        let newest = try #require(
            changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0 != "## Unreleased" })
        #expect(newest == "## \(Help.version) - \(Help.releaseDate)")
        #expect(runCLI("--version").stdout == "paylinks \(Help.version)\n")
    }
}
