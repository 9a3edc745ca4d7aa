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
            (["--flow", "sideways"], "--flow takes sdk, link-out"),
        ])
    func refused(arguments: [String], words: String) {
        let result = runCLI(["purchase", "--sku", "starter_pack_001"] + arguments)
        #expect(result.exitCode == .usage)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(words), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
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
}
