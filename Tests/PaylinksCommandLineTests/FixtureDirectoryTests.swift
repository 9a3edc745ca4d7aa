import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// Fixture directories given with --fixtures or PAYLINKS_FIXTURES.
@Suite("Fixture directories")
@MainActor
struct FixtureDirectoryTests {
    private func temporaryDirectory(_ files: [String: String]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("paylinks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return url.path
    }

    @Test("--fixtures replaces the built-in files it holds and keeps the others")
    func fixtureDirectory() throws {
        let offers = """
            {"offers": [{"sku": "test_offer", "name": "Test Offer", "basePriceInUSD": "0.99",
              "items": [{"name": "Coins", "sku": "coin_01", "quantity": "7"}]}]}
            """
        let directory = try temporaryDirectory(["offers.json": offers])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = runCLI("purchase", "--sku", "test_offer", "--fixtures", directory, "--json")
        #expect(result.exitCode == .success)
        #expect(result.stdout.contains(#""offerName":"Test Offer""#))
        #expect(runCLI("purchase", "--sku", "starter_pack_001", "--fixtures", directory).exitCode == .usage)
        let fromEnvironment = runCLI(
            "purchase", "--sku", "test_offer", "--json", environment: ["PAYLINKS_FIXTURES": directory])
        #expect(fromEnvironment.stdout == result.stdout)
    }

    /// Fixtures with a free tier, "0.00", priced 0 in every country, and an offer at it.
    static let freeFixtures = [
        "price-points.json": """
        {"tiers": ["0.00", "0.99"], "localizations": [{"country": "US", "currencyCode": "USD",
          "currencySymbol": "$", "fractionalSeparator": ".", "milSeparator": ",", "symbolPosition": "Left",
          "spacing": false, "multiplier": 100, "localizedPrices": {"0.00": "0", "0.99": "99"}}]}
        """,
        "offers.json": """
        {"offers": [{"sku": "daily_bonus", "name": "Daily Bonus", "basePriceInUSD": "0.00",
          "items": [{"name": "Coins", "sku": "coin_01", "quantity": "10"}]}]}
        """,
    ]

    @Test("an offer at the free tier 0.00 is a free order: the client's success, priced 0, with no payment method")
    func freeOffer() throws {
        let directory = try temporaryDirectory(Self.freeFixtures)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = runCLI("purchase", "--sku", "daily_bonus", "--fixtures", directory, "--json")
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(result.stdout.contains(#""callback":"onPurchaseSuccess""#), "\(result.stdout)")
        #expect(result.stdout.contains(#""price":0"#) && result.stdout.contains(#""paymentMethodName":"""#))
    }

    @Test(
        "trigger of an event a free order never has ends with the order as it stands, and says so",
        arguments: ["order.payment.resolved", "order.refunded", "order.dispute.opened"])
    func freeTrigger(event: String) throws {
        let directory = try temporaryDirectory(Self.freeFixtures)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = runCLI("trigger", event, "--sku", "daily_bonus", "--fixtures", directory)
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(
            result.stderr.contains("note: the story never reached \(event) (the order is charge_succeed)"),
            "\(result.stderr)")
    }

    @Test("a scenario buys a free offer: created and completed, no payment resolved, the order succeeded")
    func freeScenario() throws {
        let steps = """
            {"step": "initialize", "expect": {"callback": "onInitialized"}},
            {"step": "purchase", "sku": "daily_bonus", "expect": {"callback": "onPurchaseSuccess",
              "state": "charge_succeed", "events": ["order.created", "order.completed"]}}
            """
        let directory = try temporaryDirectory(Self.freeFixtures)
        let scenarios = try temporaryDirectory([
            "free.json": #"{"name": "free", "steps": [\#(steps)]}"#,
            "refund.json": #"{"name": "refund", "steps": [\#(steps), {"step": "refund"}]}"#,
        ])
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: scenarios)
        }
        let result = runCLI("run", scenarios + "/free.json", "--fixtures", directory)
        #expect(result.exitCode == .success, "\(result.stdout)\(result.stderr)")
        // A free order moved no money: the refund step is refused, as Initiate Refund's 422 refuses it.
        let refund = runCLI("run", scenarios + "/refund.json", "--fixtures", directory)
        #expect(refund.exitCode != .success)
        #expect(refund.stderr.contains("refund refused: the order is free"), "\(refund.stdout)\(refund.stderr)")
    }

    @Test("broken JSON in a fixture directory exits 65 naming the file and the place")
    func brokenFixtureDirectory() throws {
        let directory = try temporaryDirectory([
            "status-codes.json": "{\n  \"statusCodes\": [\n    {\"code\": 1,}\n  ]\n}\n"
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = runCLI("init", "--fixtures", directory)
        #expect(result.exitCode == .dataError)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "error: \(directory)/status-codes.json:3:16: unexpected '}'; expected an object key in double quotes\n"
        )
    }

    @Test("a misnamed fixture file is refused with the name meant")
    func misnamedFixture() throws {
        let directory = try temporaryDirectory(["offer.json": "{}"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = runCLI("init", "--fixtures", directory)
        #expect(result.exitCode == .dataError)
        #expect(result.stderr.contains("did you mean offers.json?"))
    }

    @Test("a fixture's words show in errors CODE with C0, C1 and bidirectional controls escaped")
    func fixtureWordsEscaped() throws {
        let codes = try String(
            contentsOf: DocumentedCommands.root.appendingPathComponent("Fixtures/status-codes.json"), encoding: .utf8
        )
        .replacingOccurrences(
            of: #""player closed the checkout interface""#, with: #""player closed\u001b[2J\u009b\u202e it""#
        )
        .replacingOccurrences(of: #"grant nothing.""#, with: #"grant nothing.\u0085\u2066""#)
        let directory = try temporaryDirectory(["status-codes.json": codes])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = runCLI("errors", "3002", "--fixtures", directory)
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(
            result.stdout.contains(#"  meaning    player closed\u{1B}[2J\u{9B}\u{202E} it"# + "\n"), "\(result.stdout)")
        #expect(result.stdout.contains(#"grant nothing.\u{85}\u{2066}"# + "\n"), "\(result.stdout)")
        #expect(!result.stdout.unicodeScalars.contains { ["\u{1B}", "\u{9B}", "\u{202E}", "\u{85}"].contains($0) })
    }

    @Test("a fixture directory that is missing, a file, or empty exits 66")
    func missingFixtureDirectory() throws {
        let empty = try temporaryDirectory([:])
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let missing = runCLI("init", "--fixtures", "/nonexistent/paylinks")
        #expect(missing.exitCode == .noInput)
        #expect(missing.stderr.contains("does not exist"))
        let file = runCLI("init", environment: ["PAYLINKS_FIXTURES": "/etc/hostname"])
        #expect(file.exitCode == .noInput)
        #expect(file.stderr.contains("PAYLINKS_FIXTURES"))
        #expect(runCLI("init", "--fixtures", empty).exitCode == .noInput)
    }
}
