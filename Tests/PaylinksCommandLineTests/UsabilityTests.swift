import Foundation
import Testing

@testable import PaylinksAppcharge
@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksHTTP
@testable import PaylinksKit

/// A scenario that fails on every platform and in every country: it expects a price no
/// offer has.
private let wrongPrice = """
    {"name": "wrong price", "steps": [
      {"step": "initialize"},
      {"step": "purchase", "sku": "starter_pack_001", "expect": {"order": {"price": 1}}}]}
    """

/// The `error:` lines of `text`.
private func errorLines(_ text: String) -> [Substring] {
    text.split(separator: "\n").filter { $0.hasPrefix("error:") }
}

/// `run --matrix`: every value checked as its option checks it, before anything runs, and
/// every report of a combination naming it.
@Suite("Matrix values and combinations")
@MainActor
struct MatrixValueTests {
    static let happyPath = ScenarioTests.examples.appendingPathComponent("happy-path.json").path

    @Test(
        "a matrix value its option refuses is refused as the option refuses it: one error line, exit 64",
        arguments: [
            (
                "country=UK,ZZ,xx",
                "--matrix country: 'UK' is not an ISO 3166-1 alpha-2 country code; did you mean GB?"
            ),
            ("country=US,ZZ", "--matrix country: 'ZZ' is not an ISO 3166-1 alpha-2 country code"),
            ("platform=ios,web", "--matrix platform takes ios, android, unity, not 'web'"),
            ("sdkVersion=1.9,9.9", "--matrix sdkVersion: iOS SDK 9.9 is not a version paylinks knows"),
            ("paymentMethod=Visa,a\tb", "--matrix paymentMethod contains the control character U+0009"),
            ("environment=sandbox,a\u{7F}", "--matrix environment contains the control character U+007F"),
        ])
    func refusedAsTheOption(matrix: String, message: String) {
        let result = runCLI("run", Self.happyPath, "--matrix", matrix)
        #expect(result.exitCode == .usage, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let errors = errorLines(result.stderr)
        #expect(errors.count == 1 && errors.count == result.stderr.split(separator: "\n").count, "\(result.stderr)")
        #expect(errors.first?.hasPrefix("error: \(message)") == true, "\(result.stderr)")
    }

    @Test("a matrix of more than 10,000 combinations is refused before anything runs, naming its product")
    func combinationLimit() {
        let many = (1...3000).map { "pm\($0)" }.joined(separator: ",")
        let environments = (1...4).map { "env\($0)" }.joined(separator: ",")
        let result = runCLI(
            "run", Self.happyPath, "--matrix", "paymentMethod=\(many)", "--matrix", "environment=\(environments)")
        #expect(result.exitCode == .usage, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "error: --matrix makes 12000 combinations (3000 × 4); one run takes at most 10000: split the matrix "
                    + "across runs"), "\(result.stderr)")
    }

    @Test("a mismatch line quotes a value with a C1 control escaped, as the FAIL line does")
    func mismatchEscaped() {
        let result = runCLI("run", Self.happyPath, "--matrix", "paymentMethod=\u{9B}31mRED", "--seed", "1")
        #expect(result.exitCode == .expectationsFailed, "\(result.stderr)")
        let mismatch = result.stderr.split(separator: "\n").first { $0.hasPrefix("mismatch: ") }
        #expect(mismatch?.hasSuffix(#"got "\u009B31mRED""#) == true, "\(result.stderr)")
        #expect(!result.stderr.unicodeScalars.contains("\u{9B}"))
    }

    @Test("a matrix version is checked on each platform the matrix names, whichever --matrix comes first")
    func versionOnEveryPlatform() {
        // 2.6 is a Unity version, not an iOS one.
        let refused = runCLI("run", Self.happyPath, "--matrix", "sdkVersion=2.6", "--matrix", "platform=unity,ios")
        #expect(refused.exitCode == .usage, "\(refused.stderr)")
        #expect(
            refused.stderr.hasPrefix("error: --matrix sdkVersion: iOS SDK 2.6 is not a version"), "\(refused.stderr)")
        let accepted = runCLI("run", Self.happyPath, "--matrix", "sdkVersion=2.6", "--matrix", "platform=unity")
        #expect(accepted.exitCode == .success, "\(accepted.stderr)")
    }

    @Test("a country of the matrix is read in any case and named as the option names it")
    func countryInAnyCase() {
        let result = runCLI("run", Self.happyPath, "--matrix", "country=de")
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(result.stderr.contains("ok    happy path[country=DE]"), "\(result.stderr)")
    }

    @Test("under --matrix, each mismatch line and each annotation names its combination")
    func mismatchesNameTheCombination() throws {
        let path = try ScenarioTests.write([("wrong-price.json", wrongPrice)])[0]
        let result = runCLI(
            ["run", path, "--matrix", "platform=ios,android,unity"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.exitCode == .expectationsFailed)
        let mismatches = result.stderr.split(separator: "\n").filter { $0.hasPrefix("mismatch:") }
        let annotations = result.stderr.split(separator: "\n").filter { $0.hasPrefix("::error") }
        #expect(mismatches.count == 3 && Set(mismatches).count == 3, "\(result.stderr)")
        #expect(annotations.count == 3 && Set(annotations).count == 3, "\(result.stderr)")
        for platform in ["ios", "android", "unity"] {
            #expect(
                mismatches.contains { $0.contains("[platform=\(platform)]") && $0.contains("order.price") },
                "\(result.stderr)")
            #expect(
                annotations.contains { $0.contains("[platform=\(platform)]") && $0.contains("order.price") },
                "\(result.stderr)")
        }
        // Without a matrix there is no combination to name.
        let plain = runCLI(["run", path], environment: ["GITHUB_ACTIONS": "true"])
        #expect(
            plain.stderr.contains("mismatch: \(path): step 2 (purchase): order.price: expected 1, got 499"),
            "\(plain.stderr)")
        #expect(plain.stderr.contains("::step 2 (purchase): order.price: expected 1, got 499\n"), "\(plain.stderr)")
    }

    @Test("the combinations' annotations are the same bytes when copies of paylinks run the scenarios")
    func combinationsAcrossCopies() throws {
        let paths = try ScenarioTests.write([("a.json", wrongPrice), ("b.json", wrongPrice)])
        var outcomes: [BinaryTests.Outcome] = []
        for jobs in ["1", "2"] {
            outcomes.append(
                try BinaryTests.run(
                    ["run"] + paths + ["--jobs", jobs, "--seed", "5", "--matrix", "country=US,DE"],
                    environment: ["GITHUB_ACTIONS": "true", "SOURCE_DATE_EPOCH": "1718182312"]))
        }
        #expect(outcomes[0].stderr == outcomes[1].stderr)
        let annotations = outcomes[1].stderr.split(separator: "\n").filter { $0.hasPrefix("::error") }
        #expect(annotations.count == 4 && Set(annotations).count == 4, "\(outcomes[1].stderr)")
        #expect(annotations.filter { $0.contains("[country=DE]") }.count == 2, "\(outcomes[1].stderr)")
    }

    @Test("a file wrong on its own is said once under a matrix, without a combination, in stderr and both reports")
    func brokenOnItsOwn() throws {
        let path = try ScenarioTests.write([
            (
                "two.json",
                #"{"steps": [{"step": "purchase", "sku": "nope"}, {"step": "purchase", "sku": "nada"}]}"#
            )
        ])[0]
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let result = runCLI(
            [
                "run", path, "--matrix", "platform=ios,android", "--report", "junit=\(directory)/r.xml", "--report",
                "json=\(directory)/r.json",
            ], environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.exitCode == .dataError)
        let errors = errorLines(result.stderr)
        #expect(errors.count == 2, "one line per problem: \(result.stderr)")
        #expect(!result.stderr.contains("--matrix"), "\(result.stderr)")
        #expect(!result.stderr.contains("platform="), "\(result.stderr)")
        let junit = try String(contentsOfFile: "\(directory)/r.xml", encoding: .utf8)
        #expect(!junit.contains("--matrix"), "\(junit)")
        #expect(junit.components(separatedBy: "<testcase ").count - 1 == 1, "\(junit)")
        #expect(junit.components(separatedBy: "<error ").count - 1 == 1, "one <error> holds both problems: \(junit)")
        #expect(junit.contains("unknown SKU &quot;nope&quot;") && junit.contains("unknown SKU &quot;nada&quot;"))
        let json = try String(contentsOfFile: "\(directory)/r.json", encoding: .utf8)
        #expect(!json.contains("--matrix"), "\(json)")
        #expect(json.contains(#""name":"two","#), "\(json)")
        try MatrixTests.expectValidReport(json)
    }

    @Test("a JUnit test case of a file with several problems holds one <error>, every problem in it")
    func oneErrorElement() throws {
        let paths = try ScenarioTests.write([
            ("two.json", #"{"steps": [{"step": "purchase", "sku": "nope"}, {"step": "purchase", "sku": "nada"}]}"#)
        ])
        let directory = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().path
        _ = runCLI("run", paths[0], "--report", "junit=\(directory)/r.xml")
        let junit = try String(contentsOfFile: "\(directory)/r.xml", encoding: .utf8)
        #expect(junit.components(separatedBy: "<error ").count - 1 == 1, "\(junit)")
        #expect(junit.contains(#"errors="1""#))
        #expect(junit.contains("steps[0].sku: unknown SKU") && junit.contains("steps[1].sku: unknown SKU"), "\(junit)")
    }
}

/// An event the game's server refused on every attempt is said on stderr, whichever command sent it.
@Suite("Refused events")
@MainActor
struct RefusedEventTests {
    @Test(
        "trigger, purchase and cancel say which event was refused, as run does, in one error line",
        arguments: [
            (["trigger", "order.created"], ExitCode.eventRefused),
            (["purchase", "--sku", "starter_pack_001"], ExitCode.eventRefused),
            (["cancel", "--sku", "starter_pack_001"], ExitCode.purchaseCanceled),
        ])
    func saidOnStderr(command: [String], exitCode: ExitCode) throws {
        let receiver = try EventReceiver { _, _ in 500 }
        let result = runCLI(command + ["--events-url", receiver.url, "--json"] + EventTests.seeded)
        #expect(result.exitCode == exitCode, "\(result.stderr)")
        let errors = errorLines(result.stderr)
        #expect(errors.count == 1, "\(result.stderr)")
        #expect(
            errors.first?.hasPrefix("error: order.created was refused on every attempt: the server answered 500")
                == true,
            "\(result.stderr)")
        // What run says of the same refusal.
        let scenario = try ScenarioTests.write([
            ("s.json", #"{"steps": [{"step": "initialize"}, {"step": "purchase", "sku": "starter_pack_001"}]}"#)
        ])[0]
        let run = runCLI(["run", scenario, "--events-url", receiver.url] + EventTests.seeded)
        #expect(run.stderr.contains("order.created was refused on every attempt: the server answered 500"))
    }

    @Test("an event accepted after a retry is no error")
    func acceptedLate() throws {
        let receiver = try EventReceiver { count, _ in count.isMultiple(of: 2) ? 200 : 503 }
        let result = runCLI(["trigger", "order.created", "--events-url", receiver.url] + EventTests.seeded)
        #expect(result.exitCode == .success)
        #expect(errorLines(result.stderr).isEmpty, "\(result.stderr)")
    }
}

/// `--now`: Unix seconds, an ISO 8601 time with Z or an offset, or a date.
@Suite("The clock option")
@MainActor
struct ClockOptionTests {
    static let purchase = ["purchase", "--sku", "starter_pack_001", "--seed", "7", "--json"]

    @Test(
        "an ISO 8601 UTC time, or a date alone for its midnight, is the same clock as its Unix seconds",
        arguments: [
            ("2024-06-12T08:51:52Z", "1718182312"), ("2024-06-12t08:51:52z", "1718182312"),
            ("2024-06-12T10:51:52+02:00", "1718182312"), ("2024-06-12", "1718150400"),
            ("1970-01-01T00:00:00Z", "0"), ("9999-12-31T23:59:59Z", "253402300799"),
        ])
    func isoTime(iso: String, seconds: String) {
        let iso = runCLI(Self.purchase + ["--now", iso])
        let unix = runCLI(Self.purchase + ["--now", seconds])
        #expect(iso.exitCode == .success, "\(iso.stderr)")
        #expect(iso.stdout == unix.stdout)
        #expect(iso.stdout.contains(#""date":\#(seconds)"#))
    }

    @Test(
        "a clock that is not one says what --now takes; milliseconds get their seconds suggested",
        arguments: [
            (
                "1718182312000",
                "--now takes Unix seconds; '1718182312000' looks like Unix milliseconds (2024-06-12 08:51:52 UTC); "
                    + "did you mean 1718182312?"
            ),
            ("1718182312345", "did you mean 1718182312?"),
            (
                "2024-06-12 08:51",
                "--now takes Unix seconds (0 to 253402300799), an ISO 8601 time such as 2024-06-12T08:51:52Z or "
                    + "2024-06-12T10:51:52+02:00, or a date such as 2024-06-12, not '2024-06-12 08:51'"
            ),
            ("2024-02-30", "not '2024-02-30'"), ("2024-06-12T25:00:00Z", "not '2024-06-12T25:00:00Z'"),
            ("-1", "--now takes Unix seconds"), ("1969-12-31T23:59:59Z", "--now takes Unix seconds"),
        ])
    func refused(value: String, message: String) {
        let result = runCLI(Self.purchase + ["--now", value])
        #expect(result.exitCode == .usage)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: \(message)") || result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("whole number"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}

/// Fixed names are read in any case, and a suggestion is made only when one is close.
@Suite("Names and suggestions")
@MainActor
struct NameTests {
    @Test("trigger takes an event's name in any case")
    func eventInAnyCase() {
        let upper = runCLI(["trigger", "ORDER.REFUNDED", "--json"] + EventTests.seeded)
        let lower = runCLI(["trigger", "order.refunded", "--json"] + EventTests.seeded)
        #expect(upper.exitCode == .success, "\(upper.stderr)")
        #expect(upper.stdout == lower.stdout)
        let resolved = runCLI(["trigger", "Order.Dispute.Resolved", "--result", "WON", "--json"] + EventTests.seeded)
        #expect(resolved.exitCode == .success, "\(resolved.stderr)")
        #expect(resolved.stdout.contains(#""result":"won""#), "\(resolved.stdout)")
        let v1 = runCLI(["trigger", "ORDER_REFUNDED"])
        #expect(v1.exitCode == .usage)
        #expect(v1.stderr.contains("is the V1 name of order.refunded"), "\(v1.stderr)")
    }

    @Test("a scenario's expected events are read in any case")
    func scenarioEventsInAnyCase() throws {
        let path = try ScenarioTests.write([
            (
                "s.json",
                #"{"steps": [{"step": "initialize"}, {"step": "purchase", "sku": "starter_pack_001"}, "#
                    + #"{"step": "refund", "expect": {"events": ["Order.Refunded"]}}]}"#
            )
        ])[0]
        let result = runCLI("run", path)
        #expect(result.exitCode == .success, "\(result.stderr)")
    }

    @Test("a value with nothing close gets the list of values, not a far-fetched suggestion")
    func noFarFetchedSuggestion() {
        let result = runCLI("trigger", "order.created", "--events-version", "v3")
        #expect(result.exitCode == .usage)
        #expect(result.stderr.hasPrefix("error: --events-version takes v1, v2, not 'v3'"), "\(result.stderr)")
        #expect(!result.stderr.contains("did you mean"), "\(result.stderr)")
        #expect(Suggestion.closest(to: "v3", among: ["v2", "v1"]) == nil)
        #expect(Suggestion.closest(to: "G4", among: ["G1", "G2", "G3"]) == nil)
        // What is close is still suggested.
        #expect(Suggestion.closest(to: "androd", among: ["ios", "android", "unity"]) == "android")
        #expect(Suggestion.closest(to: "jsno", among: ["text", "json", "wire"]) == "json")
    }

    @Test("a state named by its last word gets its full name suggested, when only one state ends so")
    func stateByItsLastWord() throws {
        #expect(Suggestion.closest(to: "refunded", among: OrderState.allCases.map(\.rawValue)) == "payment_refunded")
        #expect(Suggestion.closest(to: "lost", among: OrderState.allCases.map(\.rawValue)) == "payment_dispute_lost")
        #expect(Suggestion.closest(to: "pending", among: OrderState.allCases.map(\.rawValue)) == nil, "three end so")
        let path = try ScenarioTests.write([
            (
                "s.json",
                #"{"steps": [{"step": "initialize"}, {"step": "purchase", "sku": "starter_pack_001"}, "#
                    + #"{"step": "refund", "expect": {"state": "refunded"}}]}"#
            )
        ])[0]
        let result = runCLI("run", path)
        #expect(result.exitCode == .dataError)
        #expect(result.stderr.contains(#"got "refunded"; did you mean "payment_refunded"?"#), "\(result.stderr)")
    }
}

/// What the help promises, plainly, and what trigger shows.
@Suite("Help wording")
@MainActor
struct HelpWordingTests {
    @Test("no default in any help is written as 'X (or Y)': each says what it is and when the other applies")
    func plainDefaults() {
        for command in Command.allCases {
            let help = Help.command(command)
            for line in help.split(separator: "\n") where line.contains("Default:") {
                #expect(!line.contains(" (or "), "\(command.rawValue): \(line)")
            }
        }
        let purchase = Help.command(.purchase)
        #expect(purchase.contains("Default: sandbox; "), "\(purchase)")
        #expect(purchase.contains("Default: virtual, "), "\(purchase)")
    }

    @Test("trigger --format wire shows each event it does not send with its headers and body, as the help says")
    func wireShowsUnsentEvents() throws {
        let result = runCLI(["trigger", "order.created", "--format", "wire"] + EventTests.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("// signature: t=") }, "\(result.stdout)")
        #expect(lines.contains("// x-project-id: \(DemoCredentials.projectId)"), "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix(#"// {"eventName":"order.created","eventId":""#) }, "\(result.stdout)")
        #expect(Help.command(.trigger).contains("trigger shows them, headers and body"))
    }
}

/// `--trace` during an award's retries: every poll it names happened, showing the state
/// the order had then.
@Suite("Award trace")
@MainActor
struct AwardTraceTests {
    /// A receiver of awards that grants on the `grantAt`-th attempt (never when nil).
    static func awards(grantAt: Int?) throws -> EventReceiver {
        try EventReceiver { count, _ in
            guard count == grantAt else {
                return HTTPServerResponse(status: 500, contentType: "application/json", body: Array("{}".utf8))
            }
            return HTTPServerResponse(
                status: 200, contentType: "application/json", body: Array(#"{"publisherPurchaseId":"g1"}"#.utf8))
        }
    }

    /// The trace's lines of a purchase whose award goes to `receiver`.
    static func trace(_ receiver: EventReceiver) -> (result: RunResult, lines: [String]) {
        let result = runCLI(
            ["purchase", "--sku", "starter_pack_001", "--award-url", receiver.url, "--trace"] + EventTests.seeded)
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("trace") }.map(String.init)
        return (result, lines)
    }

    @Test("an award that fails on every attempt: polls show charge_pending through the retries, then charge_failed")
    func failedAward() throws {
        let (result, lines) = Self.trace(try Self.awards(grantAt: nil))
        #expect(result.exitCode == .purchaseFailed)
        #expect(!lines.contains { $0.contains("charge_succeed") }, "\(lines.joined(separator: "\n"))")
        let first = try #require(lines.firstIndex { $0.contains("award attempt 1: POST") })
        let failed = try #require(lines.firstIndex { $0.contains("every award attempt failed") })
        let between = lines[first..<failed].filter { $0.contains("poll") }
        #expect(!between.isEmpty, "the SDK polls while the retries wait: \(lines.joined(separator: "\n"))")
        #expect(between.allSatisfy { $0.contains("charge_pending") }, "\(lines.joined(separator: "\n"))")
        #expect(
            lines[failed...].contains { $0.contains("poll") && $0.contains("charge_failed") },
            "\(lines.joined(separator: "\n"))")
        #expect(!lines[..<first].contains { $0.contains("charge_failed") })
    }

    @Test("checkouts of a --count run each wait for their award under --trace, which claims no state they lacked")
    func countedCheckouts() throws {
        let receiver = try Self.awards(grantAt: nil)
        let result = runCLI(
            ["purchase", "--sku", "starter_pack_001", "--award-url", receiver.url, "--trace", "--count", "2"]
                + EventTests.seeded)
        #expect(result.exitCode == .purchaseFailed, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("trace") }
        #expect(!lines.contains { $0.contains("charge_succeed") || $0.contains("validated") }, "\(result.stderr)")
        #expect(lines.filter { $0.contains("poll #") && $0.contains("charge_failed") }.count == 2, "\(result.stderr)")
        let many = runCLI(
            [
                "purchase", "--sku", "starter_pack_001", "--award-url", receiver.url, "--trace", "--count", "2",
                "--concurrency", "4",
            ])
        #expect(many.exitCode == .usage)
        #expect(many.stderr.hasPrefix("error: --trace follows each award as it goes"), "\(many.stderr)")
    }

    @Test("an award granted on its second attempt: charge_succeed is polled only after the grant")
    func grantedOnRetry() throws {
        let (result, lines) = Self.trace(try Self.awards(grantAt: 2))
        #expect(result.exitCode == .success, "\(result.stderr)")
        let granted = try #require(lines.firstIndex { $0.contains("award attempt 2: granted") })
        let succeed = try #require(lines.firstIndex { $0.contains("charge_succeed") })
        #expect(succeed > granted, "\(lines.joined(separator: "\n"))")
        #expect(
            lines[..<granted].filter { $0.contains("poll") }.allSatisfy { !$0.contains("charge_succeed") },
            "\(lines.joined(separator: "\n"))")
        let times = lines.compactMap { line -> Double? in
            guard let plus = line.firstIndex(of: "+") else { return nil }
            return Double(line[line.index(after: plus)...].prefix { $0 != "s" })
        }
        #expect(times == times.sorted(), "the trace's times never go back: \(lines.joined(separator: "\n"))")
    }
}
