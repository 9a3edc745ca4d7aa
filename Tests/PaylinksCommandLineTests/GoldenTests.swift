import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// One recorded invocation: its arguments, and the exit code it must end with.
struct GoldenCase: CustomTestStringConvertible, Sendable {
    let name: String
    let arguments: [String]
    let exitCode: ExitCode

    var testDescription: String { name }

    /// The fixed seed and clock every golden run uses, so its bytes never change.
    static let seeded = ["--seed", "7", "--now", "1718182312"]

    init(_ name: String, _ arguments: [String], _ exitCode: ExitCode = .success, seeded: Bool = true) {
        self.name = name
        self.arguments = seeded ? arguments + Self.seeded : arguments
        self.exitCode = exitCode
    }

    /// The path of an example scenario.
    static func scenario(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/scenarios/\(name)").path
    }

    /// A checkout by Link Out, back to a return URL with a query of its own.
    static let linkOut = ["--flow", "link-out", "--redirect-url", "https://game.example/return?from=shop"]

    static let all: [GoldenCase] = [
        GoldenCase("init", ["init"]),
        GoldenCase("init-json", ["init", "--json"]),
        GoldenCase("init-no-customer", ["init", "--customer-id", ""], .initializeFailed),
        GoldenCase("init-no-customer-json", ["init", "--customer-id=", "--json"], .initializeFailed),
        GoldenCase("price-points", ["price-points"]),
        GoldenCase("price-points-json", ["price-points", "--json"]),
        GoldenCase("price-points-de", ["price-points", "--country", "DE"]),
        GoldenCase("price-points-jp-json", ["price-points", "--country", "JP", "--format", "json"]),
        GoldenCase("price-points-error-json", ["price-points", "--error", "1001", "--json"], .pricePointsFailed),
        GoldenCase("purchase", ["purchase", "--sku", "starter_pack_001"]),
        GoldenCase("purchase-json", ["purchase", "--sku", "starter_pack_001", "--json"]),
        GoldenCase("purchase-bundle-fr", ["purchase", "--sku", "builders_bundle", "--country", "FR"]),
        GoldenCase(
            "purchase-mega-jp-json",
            ["purchase", "--sku", "dragon_hoard_mega", "--country", "JP", "--payment-method", "PayPal", "--json"]),
        GoldenCase("cancel", ["cancel", "--sku", "starter_pack_001"], .purchaseCanceled),
        GoldenCase("cancel-json", ["cancel", "--sku", "starter_pack_001", "--json"], .purchaseCanceled),
        GoldenCase(
            "purchase-external-lost-session",
            [
                "purchase", "--sku", "starter_pack_001", "--browser-mode", "external", "--redirect-url",
                "https://game.example/return", "--lose-session",
            ],
            .purchaseCanceled),
        GoldenCase(
            "purchase-external-lost-session-json",
            [
                "purchase", "--sku", "starter_pack_001", "--browser-mode", "external", "--redirect-url",
                "https://game.example/return", "--lose-session", "--json",
            ],
            .purchaseCanceled),
        GoldenCase(
            "purchase-declined", ["purchase", "--sku", "starter_pack_001", "--outcome", "declined"], .purchaseFailed),
        GoldenCase(
            "purchase-error-1000-json", ["purchase", "--sku", "starter_pack_001", "--error", "1000", "--json"],
            .purchaseFailed),
        // Link Out: no SDK, so no callbacks; the browser goes back to the return URL.
        GoldenCase("purchase-link-out", ["purchase", "--sku", "starter_pack_001"] + linkOut),
        GoldenCase("purchase-link-out-json", ["purchase", "--sku", "starter_pack_001", "--json"] + linkOut),
        GoldenCase(
            "purchase-link-out-declined", ["purchase", "--sku", "starter_pack_001", "--outcome", "declined"] + linkOut,
            .purchaseFailed),
        GoldenCase(
            "purchase-link-out-declined-json",
            ["purchase", "--sku", "starter_pack_001", "--outcome", "declined", "--json"] + linkOut, .purchaseFailed),
        GoldenCase("cancel-link-out", ["cancel", "--sku", "starter_pack_001"] + linkOut, .purchaseCanceled),
        GoldenCase(
            "cancel-link-out-json", ["cancel", "--sku", "starter_pack_001", "--json"] + linkOut, .purchaseCanceled),
        GoldenCase("errors", ["errors"], seeded: false),
        GoldenCase("errors-json", ["errors", "--json"], seeded: false),
        GoldenCase("errors-3002", ["errors", "3002"], seeded: false),
        GoldenCase("errors-charge-failed-json", ["errors", "charge_failed", "--json"], seeded: false),
        GoldenCase("offers", ["offers"], seeded: false),
        GoldenCase("offers-de", ["offers", "--country", "DE"], seeded: false),
        GoldenCase("offers-jp-json", ["offers", "--country", "jp", "--json"], seeded: false),
        GoldenCase("countries", ["countries"], seeded: false),
        GoldenCase("countries-json", ["countries", "--json"], seeded: false),
        GoldenCase("run-retries", ["run", scenario("retries.json")]),
        GoldenCase("run-cancels-json", ["run", scenario("cancels.json"), "--json"]),
        // Android and Unity (G2): the platform's callback names, error type and item count.
        GoldenCase("init-android", ["init", "--platform", "android"]),
        GoldenCase("init-unity-json", ["init", "--platform", "unity", "--json"]),
        GoldenCase("price-points-unity", ["price-points", "--platform", "unity"]),
        GoldenCase(
            "price-points-error-android-json",
            ["price-points", "--error", "1001", "--platform", "android", "--json"], .pricePointsFailed),
        GoldenCase(
            "price-points-error-unity", ["price-points", "--error", "1001", "--platform", "unity"], .pricePointsFailed),
        GoldenCase("purchase-android", ["purchase", "--sku", "starter_pack_001", "--platform", "android"]),
        GoldenCase("purchase-unity-json", ["purchase", "--sku", "builders_bundle", "--platform", "unity", "--json"]),
        GoldenCase(
            "cancel-android-json", ["cancel", "--sku", "starter_pack_001", "--platform", "android", "--json"],
            .purchaseCanceled),
        GoldenCase("cancel-unity", ["cancel", "--sku", "starter_pack_001", "--platform", "unity"], .purchaseCanceled),
        GoldenCase("errors-3002-unity", ["errors", "3002", "--platform", "unity"], seeded: false),
        GoldenCase("errors-android-json", ["errors", "--platform", "android", "--json"], seeded: false),
        GoldenCase("offers-unity-json", ["offers", "--platform", "unity", "--json"], seeded: false),
        GoldenCase("run-retries-unity-json", ["run", scenario("retries.json"), "--platform", "unity", "--json"]),
        GoldenCase("run-cancels-android", ["run", scenario("cancels.json"), "--platform", "android"]),
        // --format wire: a Swift call, a Java method with its fields, Unity's bridge message.
        GoldenCase("purchase-wire", ["purchase", "--sku", "starter_pack_001", "--format", "wire"]),
        // --language objc: the Objective-C delegate's messages, and its selectors in text.
        GoldenCase(
            "cancel-wire-objc", ["cancel", "--sku", "starter_pack_001", "--language", "objc", "--format", "wire"],
            .purchaseCanceled),
        GoldenCase("price-points-objc", ["price-points", "--language", "objc"]),
        GoldenCase(
            "price-points-wire-android",
            ["price-points", "--country", "JP", "--platform", "android", "--format", "wire"]
        ),
        GoldenCase(
            "purchase-declined-wire-unity",
            [
                "purchase", "--sku", "starter_pack_001", "--outcome", "declined", "--platform", "unity", "--format",
                "wire",
            ],
            .purchaseFailed),
        GoldenCase(
            "init-no-customer-wire-unity", ["init", "--customer-id=", "--platform", "unity", "--format", "wire"],
            .initializeFailed),
        GoldenCase(
            "run-cancels-wire-unity", ["run", scenario("cancels.json"), "--platform", "unity", "--format", "wire"]),
        // G1 and G3: each generation's callbacks, arguments and status table.
        GoldenCase("init-g1-no-customer", ["init", "--sdk-version", "1.5.1", "--customer-id="], .initializeFailed),
        GoldenCase(
            "cancel-g1-json", ["cancel", "--sku", "starter_pack_001", "--sdk-version", "1.7", "--json"],
            .purchaseCanceled),
        GoldenCase(
            "purchase-declined-g1-wire-android",
            [
                "purchase", "--sku", "starter_pack_001", "--outcome", "declined", "--platform", "android",
                "--sdk-version", "1.4", "--format", "wire",
            ], .purchaseFailed),
        GoldenCase(
            "price-points-g1-unity-json",
            ["price-points", "--error", "1006", "--platform", "unity", "--sdk-version", "2.3", "--json"],
            .pricePointsFailed),
        GoldenCase("errors-g1", ["errors", "--sdk-version", "1.7"], seeded: false),
        GoldenCase("cancel-g3", ["cancel", "--sku", "starter_pack_001", "--sdk-version", "2.0.0"], .purchaseCanceled),
        GoldenCase(
            "cancel-g3-unity-wire",
            [
                "cancel", "--sku", "starter_pack_001", "--via", "browser", "--platform", "unity", "--sdk-version",
                "3.0", "--format", "wire",
            ],
            .purchaseCanceled),
        GoldenCase(
            "purchase-g3-no-customer-json",
            ["purchase", "--sku", "starter_pack_001", "--sdk-version", "2.0", "--customer-id=", "--json"],
            .purchaseFailed),
        GoldenCase("init-g3", ["init", "--sdk-version", "2.0"]),
        GoldenCase(
            "errors-g3-json", ["errors", "--platform", "android", "--sdk-version", "2.0", "--json"], seeded: false),
        GoldenCase("run-cancels-g3-json", ["run", scenario("cancels.json"), "--sdk-version", "2.0", "--json"]),
        // trigger: the story's events as they would be sent, headers and body.
        GoldenCase("trigger-refunded", ["trigger", "order.refunded"]),
        GoldenCase("trigger-dispute-won-json", ["trigger", "order.dispute.resolved", "--result", "won", "--json"]),
        GoldenCase(
            "trigger-payment-failed-v1-json",
            ["trigger", "order.payment.resolved", "--result", "failed", "--events-version", "v1", "--json"],
            .purchaseFailed),
        GoldenCase("trigger-canceled-wire", ["trigger", "order.canceled", "--format", "wire"], .purchaseCanceled),
        GoldenCase("help", ["--help"], seeded: false),
        GoldenCase("help-purchase", ["purchase", "--help"], seeded: false),
        GoldenCase("help-trigger", ["trigger", "--help"], seeded: false),
        GoldenCase("help-check-award", ["check-award", "--help"], seeded: false),
        GoldenCase("help-check-events", ["check-events", "--help"], seeded: false),
        GoldenCase("help-check-links", ["check-links", "--help"], seeded: false),
        // check-links: the README's bad files, one line per finding and a summary.
        GoldenCase(
            "check-links-bad",
            [
                "check-links", "Examples/links/bad/apple-app-site-association", "Examples/links/bad/assetlinks.json",
                "--redirect-url", "https://game.example/return",
            ],
            .expectationsFailed, seeded: false),
    ]
}

/// Tier 3: the exact output of real invocations, checked in beside the tests.
///
/// Re-record after an intended change with `make golden` (`PAYLINKS_RECORD_GOLDEN=1`),
/// then review the diff; a recording run writes the files and fails, so that it can
/// never pass unnoticed.
@Suite("Golden output")
@MainActor
struct GoldenTests {
    private static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden")

    @Test("output matches the golden file byte for byte", arguments: GoldenCase.all)
    func golden(testCase: GoldenCase) throws {
        let result = runCLI(testCase.arguments)
        #expect(result.exitCode == testCase.exitCode)
        if testCase.arguments.first == "run" {
            #expect(result.stderr.hasPrefix("ok    ") && result.stderr.contains(" 0 failed"))
        } else if testCase.arguments.first == "trigger" && !testCase.arguments.contains("--help") {
            // The demo key signs the events shown, and the note says so, once.
            #expect(
                result.stderr.hasPrefix("note: events use the demo main key")
                    && result.stderr.split(separator: "\n").count == 1)
        } else {
            #expect(result.stderr == "")
        }
        let file = Self.directory.appendingPathComponent(testCase.name + ".out")
        if ProcessInfo.processInfo.environment["PAYLINKS_RECORD_GOLDEN"] == "1" {
            try Data(result.stdout.utf8).write(to: file)
            Issue.record(
                "re-recorded \(testCase.name).out; review the diff and run again without PAYLINKS_RECORD_GOLDEN")
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(result.stdout == expected, "re-record with PAYLINKS_RECORD_GOLDEN=1 if the change is intended")
    }

    private static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")

    @Test("the README's exit-code table is the help's, code for code and word for word")
    func readmeExitCodes() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let section = try #require(
            readme.components(separatedBy: "## Exit codes\n").last?
                .components(separatedBy: "\n## ").first)
        let rows = section.split(separator: "\n").compactMap { line -> (Int32, String)? in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2, let code = Int32(cells[0]) else { return nil }
            return (code, cells[1].replacingOccurrences(of: "`", with: ""))
        }
        #expect(rows.map(\.0) == ExitCode.allCases.map(\.rawValue))
        for (code, meaning) in rows {
            #expect(meaning == ExitCode(rawValue: code)?.meaning, "exit code \(code)")
        }
    }
}
