import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// Facts that paylinks states in more than one place are derived from one, and each
/// statement is checked against what paylinks really does.
@Suite("One source for every fact")
@MainActor
struct OneSourceTests {
    /// The options whose help shows a value as their default, with a command that takes it.
    nonisolated static let valueDefaults: [(option: String, value: String, command: Command)] = OptionSpec.all
        .compactMap {
            spec in
            // "sandbox; give production ...": the default is the first word, without the punctuation after it.
            let word = spec.defaultText?.split(separator: " ").first
            guard spec.placeholder != nil, let word,
                case let value = String(word.hasSuffix(",") || word.hasSuffix(";") ? word.dropLast() : word),
                !value.hasPrefix("--"), !value.hasPrefix("$"), !["none", "random", "the"].contains(value),
                // They only say how awards are sent, and a purchase takes them with --award-url alone.
                !["--award-wait", "--concurrency"].contains(spec.name)
            else { return nil }
            // What shapes events shows in trigger's output, which purchase sends only with --events-url.
            let preferred: [Command] =
                spec.traits.contains(.eventsSending) || spec.commands == [.trigger]
                ? [.trigger] : [.purchase, .cancel, .pricePoints, .initialize, .offers, .countries, .errors]
            guard let command = preferred.first(where: spec.commands.contains) else { return nil }
            return (spec.name, value, command)
        }

    @Test("the help's default of each option is what the command does without it", arguments: valueDefaults)
    func helpDefaults(option: String, value: String, command: Command) {
        var base = [command.rawValue]
        if Command.checkouts.contains(command) { base += ["--sku", "starter_pack_001"] }
        if command == .trigger { base += ["order.payment.resolved"] }
        if Command.simulations.contains(command) { base += ["--seed", "7", "--now", "1718182312"] }
        let without = runCLI(base)
        let with = runCLI(base + [option, value])
        #expect(with.exitCode == without.exitCode)
        #expect(with.stdout == without.stdout, "\(option) \(value) changes the output of \(command.rawValue)")
        #expect(with.stderr == without.stderr)
    }

    @Test("the help shows a default for every option that has one")
    func everyDefaultShown() {
        let shown = Set(Self.valueDefaults.map(\.option))
        for name in ["--customer-id", "--country", "--environment", "--checkout-public-key", "--payment-method"] {
            #expect(shown.contains(name), "\(name)")
        }
    }

    @Test("a scenario starts from the same session as the command line")
    func scenarioDefaults() throws {
        // The documented defaults, in both the scenario's output and the command's.
        let options = (customerId: "cust_98765", country: "US", paymentMethod: "Visa")
        let path = try ScenarioTests.write([
            ("s.json", #"{"steps": [{"step": "initialize"}, {"step": "purchase", "sku": "starter_pack_001"}]}"#)
        ])
        let fromFile = runCLI("run", path[0], "--json", "--seed", "7", "--now", "1718182312").stdout
        let fromCommand = runCLI(
            "purchase", "--sku", "starter_pack_001", "--json", "--seed", "7", "--now", "1718182312")
        // The scenario tags its lines and seeds per scenario; the session's values are the same.
        #expect(
            fromFile.contains(
                #""customerId":"\#(options.customerId)","customerCountry":"\#(options.country)","paymentMethodName":"\#(options.paymentMethod)""#
            ))
        #expect(
            fromCommand.stdout.contains(
                #""customerId":"\#(options.customerId)","customerCountry":"\#(options.country)","paymentMethodName":"\#(options.paymentMethod)""#
            ))
    }

    @Test(
        "each code arrives where errors CODE says, with the exit code it says, and nowhere else",
        arguments: Catalog.builtIn.statusCodes)
    func arrives(code: StatusCode) throws {
        let explained = runCLI("errors", String(code.code)).stdout
        for step in Step.allCases {
            let command: [String] =
                switch step {
                case .initialize: ["init"]
                case .pricePoints: ["price-points"]
                case .purchase: ["purchase", "--sku", "starter_pack_001"]
                }
            let result = runCLI(command + ["--error", String(code.code), "--fail-at", step.rawValue, "--json"])
            if code.steps.contains(step) {
                let last = try #require(result.stdout.split(separator: "\n").last)
                #expect(
                    last.hasPrefix(#"{"callback":"\#(step.failureCallback.rawValue)","error":{"code":\#(code.code),"#))
                #expect(explained.contains(step.failureCallback.rawValue))
                #expect(explained.contains(String(result.exitCode.rawValue)), "\(code.code) at \(step.rawValue)")
            } else {
                #expect(result.exitCode == .usage, "\(code.code) at \(step.rawValue)")
            }
        }
    }

    @Test("the codes paylinks sends by itself are in every catalog, and their real causes reproduce them")
    func ownCodes() throws {
        // A status table that lacks one of them is refused, naming it: the simulator could not say it.
        for code in PaymentLinksSimulator.ownStatusCodes.sorted() {
            let table = try String(
                contentsOf: DocumentedCommands.root.appendingPathComponent("Fixtures/status-codes.json"),
                encoding: .utf8)
            let value = try #require(try JSONSerialization.jsonObject(with: Data(table.utf8)) as? [String: Any])
            let entries = try #require(value["statusCodes"] as? [[String: Any]])
            let without = entries.filter { $0["code"] as? Int != code }
            #expect(without.count == entries.count - 1, "\(code) is in the built-in table")
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("own-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: ["statusCodes": without]).write(
                to: directory.appendingPathComponent("status-codes.json"))
            let refused = runCLI("errors", "--fixtures", directory.path)
            #expect(refused.exitCode == .dataError, "a table without \(code)")
            #expect(refused.stderr.contains(String(code)), "\(refused.stderr)")
        }
        for (code, command) in Reproduction.realCauses {
            #expect(PaymentLinksSimulator.ownStatusCodes.contains(code), "\(code)")
            let words = command.split(separator: " ").dropFirst().map(String.init) + ["--json"]
            let last = try #require(runCLI(words).stdout.split(separator: "\n").last)
            #expect(last.contains(#""error":{"code":\#(code),"#), "\(command)")
        }
    }

    @Test("the README's table of real causes is the reproduction table")
    func readmeRealCauses() throws {
        let readme = try String(
            contentsOf: DocumentedCommands.root.appendingPathComponent("README.md"), encoding: .utf8)
        var rows: [Int: String] = [:]
        for line in readme.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, let code = Int(cells[0]), cells[2].hasPrefix("`paylinks ") else { continue }
            rows[code] = String(cells[2].dropFirst().dropLast())
        }
        #expect(rows == Reproduction.realCauses)
    }

    @Test("every environment variable is read through one table, which the manual page lists whole")
    func environmentVariables() throws {
        let sources = DocumentedCommands.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            // A variable's name as a literal, passed to a lookup, bypasses the table.
            #expect(text.firstMatch(of: /environment\("/) == nil, "\(file) reads a variable by its name")
            #expect(text.firstMatch(of: /getenv\("/) == nil, "\(file) reads a variable by its name")
        }
        let page = runCLI("man").stdout
        for variable in EnvironmentVariable.allCases {
            #expect(page.contains(".B \(ManPage.escape(variable.rawValue))\n\(ManPage.escape(variable.meaning))"))
        }
        for name in [
            "PAYLINKS_SEED", "SOURCE_DATE_EPOCH", "PAYLINKS_MAIN_KEY", "PAYLINKS_PUBLISHER_TOKEN", "GITHUB_ACTIONS",
        ] {
            #expect(EnvironmentVariable(rawValue: name) != nil, "\(name)")
        }
    }
}
