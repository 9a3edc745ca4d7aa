import Testing

@testable import PaylinksCommandLine
@testable import PaylinksKit

/// `--browser-mode` and `--lose-session` on the commands that open a checkout.
@Suite("Browser mode options")
@MainActor
struct BrowserModeCommandTests {
    static let purchase = ["purchase", "--sku", "starter_pack_001", "--seed", "7", "--now", "1718182312"]
    static let universalLink = ["--redirect-url", "https://game.example/return"]

    @Test(
        "each mode of a platform pays as no mode does; the trace names the browser",
        arguments: [
            ("ios", "internal", "in an in-app Safari view (internal)"),
            ("ios", "external", "in Safari (external)"),
            ("unity", "external", "in Safari (external)"),
            ("android", "custom-tab", "in a Custom Tab (custom-tab)"),
            ("android", "trusted-web-activity", "in a Trusted Web Activity (trusted-web-activity)"),
            ("android", "external", "in the device's browser (external)"),
        ])
    func modePays(platform: String, mode: String, place: String) {
        let plain = runCLI(Self.purchase + ["--platform", platform] + Self.universalLink)
        let result = runCLI(
            Self.purchase + ["--platform", platform, "--browser-mode", mode, "--trace"] + Self.universalLink)
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(result.stdout == plain.stdout)
        #expect(
            result.stderr.contains("openCheckout: checkout opened \(place) for starter_pack_001"), "\(result.stderr)")
    }

    @Test("without --browser-mode the trace line is as it always was")
    func traceWithoutMode() {
        let result = runCLI(Self.purchase + ["--trace"])
        #expect(result.stderr.contains("openCheckout: checkout opened for starter_pack_001"), "\(result.stderr)")
    }

    @Test(
        "a mode the platform does not offer is one error line naming its modes, and 64",
        arguments: [
            ("ios", "custom-tab", "iOS opens the checkout in internal or external"),
            ("unity", "trusted-web-activity", "Unity opens the checkout in internal or external"),
            ("android", "internal", "Android opens the checkout in custom-tab or trusted-web-activity or external"),
        ])
    func refused(platform: String, mode: String, modes: String) {
        let result = runCLI(Self.purchase + ["--platform", platform, "--browser-mode", mode])
        #expect(result.exitCode == .usage)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr == "error: --browser-mode \(mode): \(modes) (see 'paylinks purchase --help')\n",
            "\(result.stderr)")
    }

    @Test("an unknown mode names every mode")
    func unknownMode() {
        let result = runCLI(Self.purchase + ["--browser-mode", "safari"])
        #expect(result.exitCode == .usage)
        #expect(
            result.stderr.hasPrefix("error: --browser-mode takes external, internal, custom-tab, trusted-web-activity"))
    }

    @Test("iOS external without --redirect-url ends initialize in onInitializeFailed 2004, exit 10")
    func externalNeedsRedirectUrl() {
        let result = runCLI(Self.purchase + ["--browser-mode", "external", "--json"])
        #expect(result.exitCode == .initializeFailed)
        #expect(result.stdout.contains(#""callback":"onInitializeFailed""#), "\(result.stdout)")
        #expect(result.stdout.contains(#""code":2004"#), "\(result.stdout)")
        #expect(!result.stdout.contains("onPurchase"))
        let android = runCLI(Self.purchase + ["--platform", "android", "--browser-mode", "external"])
        #expect(android.exitCode == .success, "Android needs no redirect URL: \(android.stderr)")
    }

    @Test("--lose-session ends an external purchase in onPurchaseFailed 3000 BROWSER_CLOSED")
    func lostSession() {
        let result = runCLI(
            Self.purchase + ["--browser-mode", "external", "--lose-session", "--json"] + Self.universalLink)
        #expect(result.exitCode == .purchaseCanceled, "\(result.stderr)")
        #expect(result.stdout.contains(#""callback":"onPurchaseFailed""#), "\(result.stdout)")
        #expect(result.stdout.contains(#""code":3000"#), "\(result.stdout)")
    }

    @Test("--lose-session needs the external browser", arguments: [[], ["--browser-mode", "internal"]])
    func lostSessionNeedsExternal(extra: [String]) {
        let result = runCLI(Self.purchase + ["--lose-session"] + extra)
        #expect(result.exitCode == .usage)
        #expect(
            result.stderr
                == "error: --lose-session happens in an external browser; add --browser-mode external "
                + "(see 'paylinks purchase --help')\n")
    }

    @Test(
        "--lose-session decides how the flow ends, as --outcome and --error do",
        arguments: [(["--outcome", "declined"], "--outcome"), (["--error", "3003"], "--error")])
    func lostSessionEndsFlow(extra: [String], other: String) {
        let result = runCLI(
            Self.purchase + ["--browser-mode", "external", "--lose-session"] + Self.universalLink + extra)
        #expect(result.exitCode == .usage)
        #expect(result.stderr.contains("give either \(other) or --lose-session"), "\(result.stderr)")
    }
}
