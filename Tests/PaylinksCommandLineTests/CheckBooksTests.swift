import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksDelivery
@testable import PaylinksFixtures

/// `paylinks check-books` as a studio runs it, against the example game server: the correct
/// server's books balance, each money flaw is found and shrunk to a scenario that `run`
/// fails against the flaw and passes against the correct server, the same seed gives the
/// same bytes, and a mistake of usage or of the game's contract stops it with nothing on
/// standard output.
@Suite(
    "check-books against the example game server",
    .enabled(if: ExampleGameServer.python != nil || runningInCI, "python3 is not installed"))
struct CheckBooksTests {
    /// The built binary's run, awaited without holding a thread while it runs, so that runs
    /// against several game servers go on at once.
    static func paylinks(_ arguments: [String]) async throws -> BinaryTests.Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("paylinks-books-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout")
        let err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = try BinaryTests.builtExecutable()
        process.arguments = arguments
        process.environment = [:]
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return BinaryTests.Outcome(
            status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// The three endpoints of `server`, as check-books and run take them.
    static func urls(_ server: ExampleGameServer) -> [String] {
        let base = "http://127.0.0.1:\(server.port)"
        return ["--award-url", "\(base)/award", "--events-url", "\(base)/events", "--ledger-url", "\(base)/ledger"]
    }

    /// check-books of a history of `orders` over `players` from `seed`, against a fresh
    /// example server with `flaw`, waiting `ledgerWait` seconds for its ledger, and `more`
    /// options.
    static func checkBooks(
        flaw: String? = nil, seed: Int, orders: Int, players: Int, ledgerWait: Int = 1, _ more: [String] = []
    ) async throws -> BinaryTests.Outcome {
        let server = try ExampleGameServer(flaw: flaw)
        return try await paylinks(
            ["check-books"] + urls(server) + [
                "--seed", "\(seed)", "--orders", "\(orders)", "--players", "\(players)", "--ledger-wait",
                "\(ledgerWait)",
            ] + more)
    }

    /// `text` without how long each shrinking took on the wall clock, `(3.1 s)`: the one
    /// part of a report the seed does not decide.
    static func untimed(_ text: String) -> String {
        text.replacingOccurrences(of: #" replays? \([0-9.]+ m?s\)"#, with: " replays", options: .regularExpression)
    }

    /// Where a run writes its first scenario in `directory`.
    static func file(in directory: URL) -> String {
        directory.appendingPathComponent("books.json").path
    }

    /// A fresh temporary directory.
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("paylinks-books-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("the correct server's books balance, and the same seed against a fresh server says the same bytes")
    func correctBalances() async throws {
        async let first = Self.checkBooks(seed: 5, orders: 400, players: 40)
        async let second = Self.checkBooks(seed: 5, orders: 400, players: 40)
        async let firstJSON = Self.checkBooks(seed: 5, orders: 400, players: 40, ["--json"])
        async let secondJSON = Self.checkBooks(seed: 5, orders: 400, players: 40, ["--json"])
        let (text, again, json, jsonAgain) = try await (first, second, firstJSON, secondJSON)
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        let last = text.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("400 orders, 40 players, $"), "\(last)")
        #expect(last.contains(": books balance"), "\(last)")
        #expect(!text.stdout.contains("FAIL"))
        #expect(again.status == 0)
        #expect(again.stdout == text.stdout)
        #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
        #expect(json.stdout.split(separator: "\n").count == 1, "\(json.stdout)")
        #expect(json.stdout.hasPrefix(#"{"type":"summary","orders":400,"players":40,"#), "\(json.stdout)")
        #expect(json.stdout.contains(#""findings":0,"balance":true"#), "\(json.stdout)")
        #expect(jsonAgain.stdout == json.stdout)
    }

    @Test("a ledger that settles from a queue 300 ms after its answer balances, and check-books says how long it took")
    func asyncLedger() async throws {
        // A wait well past the queue's 300 ms: the example server's thread may be kept from
        // the processor for a while on a busy machine, and the figure is what is checked.
        let outcome = try await Self.checkBooks(flaw: "async-ledger", seed: 5, orders: 40, players: 4, ledgerWait: 5)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let last = outcome.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.contains(": books balance"), "\(last)")
        // How long the ledger took is said beside the verdict, or on standard error.
        let said = try #require(
            (outcome.stdout + outcome.stderr).split(separator: "\n").first { $0.contains(" change within ") },
            "\(outcome.stdout)\(outcome.stderr)")
        // "420 ms", or from a second on "1.2 s".
        let within = said.split(separator: " change within ").last?.split(separator: " ")
        let figure = try #require(within?.first.flatMap { Double($0) }, "\(said)")
        let unit = within?.dropFirst().first
        #expect(unit == "ms" || unit == "s", "\(said)")
        let milliseconds = unit == "s" ? figure * 1000 : figure
        #expect((300..<5000).contains(milliseconds), "\(said)")
    }

    /// A money flaw of the example server, the history that finds it, and the invariant its
    /// first finding breaks.
    struct Flaw: Sendable, CustomTestStringConvertible {
        var flaw: String
        var orders: Int
        var players: Int
        var seed: Int
        var invariant: String
        var testDescription: String { flaw }
    }

    static let flaws = [
        Flaw(flaw: "no-revoke", orders: 20, players: 2, seed: 1, invariant: "dispute lost but still held"),
        Flaw(flaw: "revoke-twice", orders: 200, players: 10, seed: 2, invariant: "revoked twice"),
        Flaw(flaw: "revoke-ungranted", orders: 40, players: 4, seed: 1, invariant: "below zero"),
        Flaw(flaw: "revoke-on-open", orders: 20, players: 2, seed: 2, invariant: "revoked while the dispute is open"),
        Flaw(flaw: "in-order", orders: 40, players: 4, seed: 1, invariant: "refunded but still held"),
        Flaw(flaw: "grant-on-partial", orders: 40, players: 4, seed: 1, invariant: "granted twice"),
        Flaw(flaw: "grant-after-refund", orders: 100, players: 10, seed: 2, invariant: "refunded but still held"),
        Flaw(flaw: "regrant-manual-retry", orders: 40, players: 4, seed: 1, invariant: "granted twice"),
        Flaw(flaw: "dedupe-by-player", orders: 20, players: 2, seed: 1, invariant: "refunded but still held"),
    ]

    @Test(
        "each money flaw is found, named by its invariant, and shrunk to a scenario of a few steps that run fails against the flaw alone, the same bytes from the same seed",
        arguments: flaws)
    func flawFound(flaw: Flaw) async throws {
        let (one, two) = (try Self.directory(), try Self.directory())
        defer {
            try? FileManager.default.removeItem(at: one)
            try? FileManager.default.removeItem(at: two)
        }
        async let first = Self.checkBooks(
            flaw: flaw.flaw, seed: flaw.seed, orders: flaw.orders, players: flaw.players,
            ["--write-scenario", Self.file(in: one)])
        async let second = Self.checkBooks(
            flaw: flaw.flaw, seed: flaw.seed, orders: flaw.orders, players: flaw.players,
            ["--write-scenario", Self.file(in: two)])
        let (found, again) = try await (first, second)
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        #expect(found.stdout.hasPrefix("FAIL  \(flaw.invariant): player books-"), "\(found.stdout)")
        #expect(found.stdout.contains("written to \(Self.file(in: one))"), "\(found.stdout)")
        let summary = found.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.contains(" \(flaw.invariant)"), "\(summary)")
        #expect(!summary.contains("books balance"), "\(summary)")
        // The same seed against another fresh server: the same verdict and the same files.
        #expect(
            Self.untimed(again.stdout) == Self.untimed(found.stdout.replacingOccurrences(of: one.path, with: two.path)))
        let written = try Data(contentsOf: URL(fileURLWithPath: Self.file(in: one)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: Self.file(in: two))) == written)
        let scenario = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        let steps = try #require(scenario["steps"] as? [[String: Any]])
        #expect(steps.count <= 6, "\(String(decoding: written, as: UTF8.self))")
        #expect((steps.last?["expect"] as? [String: Any])?["ledger"] != nil)
        #expect((scenario["description"] as? String)?.hasPrefix("\(flaw.invariant), shrunk by ") == true)
        // The scenario fails against a fresh server with the flaw, and passes against a correct one.
        let flawed = try ExampleGameServer(flaw: flaw.flaw)
        let correct = try ExampleGameServer()
        async let failing = Self.paylinks(["run", Self.file(in: one)] + Self.urls(flawed))
        async let passing = Self.paylinks(["run", Self.file(in: one)] + Self.urls(correct))
        let (fails, passes) = try await (failing, passing)
        #expect(fails.status == 1, "\(fails.stderr)")
        #expect(fails.stderr.contains(": ledger: expected "), "\(fails.stderr)")
        #expect(passes.status == 0, "\(passes.stderr)")
        #expect(!passes.stderr.contains("mismatch"), "\(passes.stderr)")
    }

    /// A game's server that the test talks to, and a use of check-books that breaks the usage
    /// or the game's contract.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        /// The example server's flaw, or nil for the correct server.
        var flaw: String?
        /// The arguments after `check-books`, `URLS` standing for the server's three.
        var arguments: [String]
        var status: Int32
        var says: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = {
        let all = ["--award-url", "A", "--events-url", "E", "--ledger-url", "L"]
        var refusals = (0..<3).map { missing in
            var arguments = all
            arguments.removeSubrange((2 * missing)...(2 * missing + 1))
            return Refusal(
                name: "no \(all[2 * missing])",
                arguments: arguments.map { $0.count == 1 ? "http://127.0.0.1:9/x" : $0 },
                status: 64, says: "give \(all[2 * missing]) (see 'paylinks check-books --help')")
        }
        refusals += [
            Refusal(
                name: "a misspelt fault", arguments: ["URLS", "--faults", "award-dorp"], status: 64,
                says: "--faults has no fault 'award-dorp'"),
            Refusal(name: "no orders", arguments: ["URLS", "--orders", "0"], status: 64, says: "--orders takes"),
            Refusal(name: "no players", arguments: ["URLS", "--players", "0"], status: 64, says: "--players takes"),
            Refusal(
                name: "a ledger where nothing listens",
                arguments: [
                    "--award-url", "AWARD", "--events-url", "EVENTS", "--ledger-url", "http://127.0.0.1:1/ledger",
                ],
                status: 69, says: "nothing answers at the ledger http://127.0.0.1:1/ledger"),
            Refusal(
                name: "an award endpoint that answers without a grant", flaw: "status-ok", arguments: ["URLS"],
                status: 69, says: "the award endpoint did not grant order pr_"),
            Refusal(
                name: "an award endpoint that answers a numeric id", flaw: "numeric-id", arguments: ["URLS"],
                status: 69, says: "the award endpoint did not grant order pr_"),
        ]
        return refusals
    }()

    @Test(
        "a mistake of usage or of the game's contract is one error line and its exit code, with nothing on standard output",
        arguments: refusals)
    func refused(refusal: Refusal) async throws {
        let server = try ExampleGameServer(flaw: refusal.flaw)
        let urls = Self.urls(server)
        let arguments = refusal.arguments.flatMap { argument -> [String] in
            switch argument {
            case "URLS": urls
            case "AWARD": [urls[1]]
            case "EVENTS": [urls[3]]
            default: [argument]
            }
        }
        let outcome = try await Self.paylinks(
            ["check-books"] + arguments + [
                "--seed", "3", "--orders", "10", "--players", "2", "--ledger-wait", "1", "--json",
            ])
        #expect(outcome.status == refusal.status, "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "\(outcome.stdout)")
        let errors = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1, "\(outcome.stderr)")
        #expect(errors.first?.contains(refusal.says) == true, "\(outcome.stderr)")
        if refusal.says.hasPrefix("--faults") {
            #expect(errors.first?.contains("did you mean 'award-drop'?") == true, "\(outcome.stderr)")
        }
    }

    @Test(
        "a seed played against a game once is refused the second time, as the game's ledger shows its players already")
    func seedPlayedBefore() async throws {
        let server = try ExampleGameServer()
        let arguments = ["check-books"] + Self.urls(server) + ["--seed", "3", "--orders", "10", "--players", "2"]
        let first = try await Self.paylinks(arguments)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let second = try await Self.paylinks(arguments + ["--json"])
        #expect(second.status == 69, "\(second.stderr)")
        #expect(second.stdout.isEmpty, "\(second.stdout)")
        #expect(second.stderr.contains("this seed was played against this game before"), "\(second.stderr)")
        #expect(second.stderr.hasSuffix("Give another --seed, or start the game's server afresh\n"), "\(second.stderr)")
    }

    @Test("run of a scenario that expects the game's ledger, given no --ledger-url, is a usage error")
    func runWithoutLedger() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("ledger.json")
        try Data(
            #"""
            {"name": "ledger", "steps": [{"step": "initialize"},
              {"step": "purchase", "sku": "starter_pack_001", "expect": {"ledger": {"gem_01": 100}}}]}
            """#.utf8
        ).write(to: file)
        let server = try ExampleGameServer()
        let outcome = try await Self.paylinks(["run", file.path] + Array(Self.urls(server).prefix(4)))
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "\(outcome.stdout)")
        #expect(outcome.stderr.contains("step 2 expects what the game's ledger shows; give --ledger-url URL"))
    }

    /// What `scenario` comes to, played as check-books plays a player's history against
    /// `server`: its books reconciled with the game's ledger after every step.
    @MainActor
    static func play(_ scenario: Scenario, on server: ExampleGameServer) throws -> ScenarioRunner.ScenarioResult {
        let options = try #require(try ArgumentParser.parse(["paylinks", "check-books"] + urls(server)).run).options
        let (award, events, ledger) = (
            try #require(options.awardUrl), try #require(options.eventsUrl), try #require(options.ledgerUrl)
        )
        let context = RunContext(
            environment: { _ in nil }, standardOutput: CapturedOutput(), standardError: CapturedOutput(),
            clock: { Int(Date().timeIntervalSince1970) }, entropy: { 1 })
        let signing = try Signing(options: options, context: context)
        var settings = ScenarioRunner.Settings(format: .json, trace: false, seed: 1, now: 0, faultRate: 0)
        settings.awards = signing.awards(to: award, options: options)
        settings.events = try EventSettings(options: options, signing: signing)
        settings.awardURLs[0] = award
        settings.eventURLs[0] = events
        settings.ledger = ScenarioLedger(AuditLedger(url: ledger, wait: 1000), checksBooks: true, rule: .keep)
        return try BooksPlay(catalog: .builtIn, settings: settings, wall: context.clock).run(scenario)
    }

    @Test(
        "a lost dispute the game keeps is found at the first reconciliation that sees it: after the dispute, or after the step whose end sent its held events",
        arguments: [(nil, 1, "4"), ("reorder", 2, "6"), ("reorder", 1, "5")] as [(String?, Int, String)])
    @MainActor
    func lostDispute(eventFault: String?, after purchases: Int, step: String) throws {
        let fault = eventFault.map { #", "eventFault": "\#($0)""# } ?? ""
        let more = Array(repeating: #", {"step": "purchase", "sku": "no_ads_forever"}"#, count: purchases).joined()
        let text = #"""
            {"name": "lost dispute", "configuration": {"customerId": "cust_lost", "seed": 9},
             "steps": [{"step": "initialize"}, {"step": "purchase", "sku": "starter_pack_001"},
              {"step": "purchase", "sku": "builders_bundle"}, {"step": "dispute", "outcome": "lost"\#(fault)}\#(more)]}
            """#
        let scenario = try ScenarioLoader.load(
            FixtureSource(name: "lost.json", bytes: Array(text.utf8)), catalog: .builtIn)
        let result = try Self.play(scenario, on: try ExampleGameServer(flaw: "no-revoke"))
        let finding = try #require(result.finding, "\(result.mismatches)")
        #expect(finding.invariant == .disputeLostButStillHeld)
        #expect(finding.step == step)
        #expect(finding.player == "cust_lost")
        #expect(finding.sku == "coin_01" && finding.expected == 0 && finding.held == 20000)
        // The correct server takes the lost dispute's products back: nothing to find.
        let correct = try Self.play(scenario, on: try ExampleGameServer())
        #expect(correct.finding == nil, "\(correct.mismatches)")
        #expect(correct.passed, "\(correct.mismatches)")
    }
}
