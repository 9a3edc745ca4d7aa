import Testing

@testable import PaylinksAppcharge
@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// `purchase` and `cancel` with `--flow link-out`: what a game without the SDK receives
/// is the browser sent to its return URL with the order's status, and the exit code says
/// that status.
@Suite("Link Out flow")
@MainActor
struct LinkOutFlowTests {
    nonisolated static let url = "https://game.example/return"
    nonisolated static let linkOut = ["--flow", "link-out", "--redirect-url", url, "--seed", "1"]

    /// How each ending of a checkout maps to the status and the exit code.
    nonisolated static let endings: [(arguments: [String], status: LinkOutStatus, exitCode: ExitCode)] = [
        (["purchase", "--sku", "starter_pack_001"], .success, .success),
        (["purchase", "--sku", "starter_pack_001", "--outcome", "declined"], .fail, .purchaseFailed),
        (
            ["purchase", "--sku", "starter_pack_001", "--award-url", "http://127.0.0.1:1/award"], .fail,
            .purchaseFailed
        ),
        (["cancel", "--sku", "starter_pack_001"], .cancel, .purchaseCanceled),
        (["cancel", "--sku", "starter_pack_001", "--via", "checkout"], .cancel, .purchaseCanceled),
        (["cancel", "--sku", "starter_pack_001", "--via", "browser"], .fail, .purchaseFailed),
        (["cancel", "--sku", "starter_pack_001", "--before-order"], .fail, .purchaseFailed),
    ]

    @Test(
        "each ending sends the browser back with its status, one JSON line, and exits with its code", arguments: 0..<7)
    func ending(index: Int) {
        let ending = Self.endings[index]
        let result = runCLI(ending.arguments + Self.linkOut + ["--json"])
        #expect(result.exitCode == ending.exitCode, "\(result.stderr)")
        let redirects = result.stdout.split(separator: "\n").filter { $0.contains(#""event":"redirect""#) }
        #expect(
            redirects == [
                #"{"event":"redirect","status":"\#(ending.status.rawValue)","url":"\#(Self.url)?status=\#(ending.status.rawValue)"}"#
            ])
        #expect(!result.stdout.contains("callback"))
    }

    @Test("text shows the return URL and the status in words, and no callback of the SDK")
    func text() {
        let result = runCLI(["purchase", "--sku", "starter_pack_001"] + Self.linkOut)
        #expect(result.exitCode == .success)
        #expect(
            result.stdout
                == "redirect  https://game.example/return?status=success\n"
                + "  status  success: the order is paid and its award granted\n\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("an award the game's server refuses is still sent, each attempt shown before the return")
    func awardsStillSent() {
        let result = runCLI(
            ["purchase", "--sku", "starter_pack_001", "--award-url", "http://127.0.0.1:1/award"] + Self.linkOut)
        #expect(result.exitCode == .purchaseFailed)
        #expect(result.stdout.components(separatedBy: "award attempt").count - 1 == 3)
        #expect(
            result.stdout.hasSuffix(
                "redirect  https://game.example/return?status=fail\n  status  fail: an error, or the player closed the checkout's window\n\n"
            ))
    }

    @Test("every checkout of a --count run ends in its own return")
    func count() {
        let result = runCLI(["purchase", "--sku", "starter_pack_001", "--count", "3", "--json"] + Self.linkOut)
        #expect(result.exitCode == .success)
        #expect(result.stdout.split(separator: "\n").count == 3)
    }

    @Test(
        "options that link-out cannot take are refused with exit 64 and one line saying what to do",
        arguments: [
            (["--flow", "link-out"], "add --redirect-url URL"),
            (["--flow", "link-out", "--redirect-url", "/return"], "is not an absolute URL with a scheme"),
            (["--flow", "link-out", "--redirect-url", "game.example/return"], "is not an absolute URL with a scheme"),
            (["--flow", "link-out", "--redirect-url", "https://game.example/a b"], "holds a space"),
            (["--flow", "link-out", "--redirect-url", "javascript:alert(1)"], "has the scheme javascript:"),
            (["--flow", "link-out", "--redirect-url", "DATA:text/html,x"], "has the scheme data:"),
            (
                [
                    "--flow", "link-out", "--redirect-url",
                    "https://game.example/" + String(repeating: "a", count: 2030),
                ],
                "more than 2048"
            ),
            (
                ["--flow", "link-out", "--redirect-url", "mygame://r", "--error", "3003"],
                "--error delivers one of the SDK's"
            ),
            (
                ["--flow", "link-out", "--redirect-url", "mygame://r", "--error", "4001"],
                "--error delivers one of the SDK's"
            ),
            (
                ["--flow", "link-out", "--redirect-url", "mygame://r", "--outcome", "pending"],
                "validation timeout (3004)"
            ),
            (["--flow", "link-out", "--redirect-url", "mygame://r", "--customer-id="], "initialize fail with 2003"),
            (
                ["--flow", "link-out", "--redirect-url", "mygame://r", "--environment", "staging"],
                "initialize fail with 2001"
            ),
            (
                ["--flow", "link-out", "--redirect-url", "mygame://r", "--order-customer-id", "x"],
                "--order-customer-id tries"
            ),
            (
                ["--flow", "link-out", "--redirect-url", "https://game.example/r", "--browser-mode", "external"],
                "--browser-mode picks the browser the SDK opens"
            ),
            (
                ["--flow", "link-out", "--redirect-url", "https://game.example/r", "--lose-session"],
                "--lose-session picks the browser the SDK opens, and --flow link-out has no SDK"
            ),
            (
                [
                    "--flow", "link-out", "--redirect-url", "https://game.example/r", "--lose-session",
                    "--browser-mode",
                    "external",
                ],
                "--browser-mode picks the browser the SDK opens, and --flow link-out has no SDK"
            ),
            (["--flow", "sideways"], "--flow takes sdk, link-out"),
        ])
    func refused(arguments: [String], words: String) {
        let result = runCLI(["purchase", "--sku", "starter_pack_001"] + arguments)
        #expect(result.exitCode == .usage)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(words), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("--redirect-url's help says what it is for link-out and for check-links, beside the SDK's universal link")
    func redirectHelp() {
        for command in ["purchase", "check-links"] {
            let help = runCLI([command, "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
                .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            #expect(help.contains("fails with 2004"), "\(help)")
            #expect(help.contains("With --flow link-out: the game's return URL, an app link allowed"), "\(help)")
            #expect(help.contains("check-links: the return URL"), "\(help)")
        }
    }

    @Test("a custom scheme's return URL is taken, with no SDK to refuse it with 2004")
    func appLink() {
        let result = runCLI(
            [
                "cancel", "--sku", "starter_pack_001", "--flow", "link-out", "--redirect-url",
                "mygame://return?from=shop",
            ])
        #expect(result.exitCode == .purchaseCanceled)
        #expect(result.stdout.hasPrefix("redirect  mygame://return?from=shop&status=cancel\n"))
    }

    @Test("the sdk flow is the default and is unchanged by --redirect-url's new use")
    func sdkUnchanged() {
        let plain = runCLI("purchase", "--sku", "starter_pack_001", "--seed", "1")
        let explicit = runCLI("purchase", "--sku", "starter_pack_001", "--seed", "1", "--flow", "sdk")
        #expect(plain.stdout == explicit.stdout && plain.exitCode == explicit.exitCode)
        #expect(plain.stdout.hasPrefix("onInitialized"))
    }

    /// A link-out scenario around `steps`, with `configuration`'s members first.
    nonisolated static func scenario(_ steps: String, configuration: String = #""redirectUrl": "mygame://return""#)
        -> String
    {
        #"{"configuration": {"flow": "link-out", "#
            + configuration + #", "seed": 3}, "steps": ["# + steps + "]}"
    }

    @Test(
        "a link-out scenario the loader refuses, the schema refuses too where it can say so, each with its reason",
        arguments: [
            (
                scenario(#"{"step": "purchase", "sku": "starter_pack_001"}"#, configuration: #""country": "US""#),
                "add \"redirectUrl\"", false
            ),
            (
                scenario(
                    #"{"step": "purchase", "sku": "starter_pack_001"}"#, configuration: #""redirectUrl": "/return""#),
                "not an absolute URL", false
            ),
            (scenario(#"{"step": "initialize"}"#), "has no SDK to initialize", false),
            (scenario(#"{"step": "purchase", "sku": "starter_pack_001", "error": 3003}"#), "\"error\" delivers", false),
            (
                scenario(#"{"step": "purchase", "sku": "starter_pack_001", "outcome": "pending"}"#),
                "\"outcome\": \"pending\" ends in the SDK's validation timeout (3004), and a link-out scenario has no SDK",
                false
            ),
            (
                scenario(
                    #"{"step": "purchase", "sku": "starter_pack_001", "attempts": [{"outcome": "pending"}]}"#),
                "\"outcome\": \"pending\" ends in the SDK's validation timeout", false
            ),
            (
                scenario(#"{"step": "purchase", "sku": "starter_pack_001", "orderCustomerId": "x"}"#),
                "\"orderCustomerId\" tries a check of the SDK's", false
            ),
            (
                scenario(#"{"step": "cancel", "sku": "starter_pack_001", "sessionEnvironment": "staging"}"#),
                "\"sessionEnvironment\" tries a check of the SDK's", false
            ),
            (
                scenario(#"{"step": "purchase", "sku": "starter_pack_001", "delivery": "twice"}"#),
                "\"delivery\": \"twice\" delivers the SDK's result twice", false
            ),
            (
                scenario(
                    #"{"step": "purchase", "sku": "starter_pack_001", "expect": {"callback": "onPurchaseSuccess"}}"#),
                "expect \"redirect\"", false
            ),
            (
                scenario(#"{"step": "purchase", "sku": "starter_pack_001", "expect": {"redirect": "sucess"}}"#),
                "expected a Link Out status", true
            ),
            (
                #"{"configuration": {"flow": "linkout"}, "steps": [{"step": "purchase", "sku": "starter_pack_001"}]}"#,
                "link-out", true
            ),
        ])
    func refusedScenario(text: String, reason: String, schemaRefuses: Bool) throws {
        let path = try ScenarioTests.write([("s.json", text)])[0]
        let result = runCLI("run", path)
        #expect(result.exitCode == .dataError)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        let validator = try SchemaValidator(
            file: SchemaTests.callbackSchema.deletingLastPathComponent()
                .appendingPathComponent("scenario.schema.json"))
        let errors = validator.errors(in: try SchemaTests.parse(text))
        #expect(errors.isEmpty != schemaRefuses, "\(errors)")
    }

    @Test("run checks a step's redirect: a status other than the expected one fails the step and says both")
    func redirectExpectation() throws {
        let path = try ScenarioTests.write([
            (
                "s.json",
                Self.scenario(
                    #"{"step": "cancel", "sku": "starter_pack_001", "via": "browser", "expect": {"redirect": "cancel"}}"#
                )
            )
        ])[0]
        let result = runCLI("run", path)
        #expect(result.exitCode == .expectationsFailed)
        #expect(result.stderr.contains("step 1 (cancel): redirect: expected cancel, got fail"), "\(result.stderr)")
        #expect(result.stdout.hasPrefix("redirect  mygame://return?status=fail  [s, step 1]\n"))
    }

    @Test("an sdk scenario that expects a redirect fails the step: only link-out returns one")
    func redirectInSDKFlow() throws {
        let text =
            #"{"steps": [{"step": "initialize"}, {"step": "purchase", "sku": "starter_pack_001", "expect": {"redirect": "success"}}]}"#
        let result = runCLI("run", try ScenarioTests.write([("s.json", text)])[0])
        #expect(result.exitCode == .expectationsFailed)
        #expect(result.stderr.contains("redirect: expected success, got no redirect (the flow is sdk)"))
    }

    @Test("the loader's statuses are Link Out's")
    func statuses() {
        #expect(PaymentFlow.statuses == LinkOutStatus.allCases.map(\.rawValue))
    }

    @Test("bash completes --flow with its values")
    func completion() {
        let result = runCLI("completions", "bash")
        #expect(result.stdout.contains(#"--flow) _paylinks_words "sdk link-out""#))
    }
}
