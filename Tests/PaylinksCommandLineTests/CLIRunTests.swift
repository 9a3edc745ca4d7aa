import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// Tier 2: the whole CLI in process, with captured output and exit code.
@Suite("CLI runs")
@MainActor
struct CLIRunTests {
    @Test("purchase prints onInitialized then onPurchaseSuccess and exits 0")
    func purchase() {
        let result = runCLI("purchase", "--sku", "starter_pack_001", "--json")
        #expect(result.exitCode == .success)
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first == #"{"callback":"onInitialized"}"#)
        #expect(lines.last?.hasPrefix(#"{"callback":"onPurchaseSuccess","order":{"date":1718182312,"#) == true)
    }

    @Test("cancel exits 13 with 3002")
    func cancel() {
        let result = runCLI("cancel", "--sku", "starter_pack_001", "--json")
        #expect(result.exitCode == .purchaseCanceled)
        #expect(
            result.stdout.contains(
                #""error":{"code":3002,"message":"Purchase canceled because the user closed the checkout interface."}"#)
        )
    }

    @Test("a code whose rule is payment gives the order the payment method, even on cancel")
    func paymentRuleOnCancel() throws {
        let result = runCLI(
            "cancel", "--sku", "starter_pack_001", "--error", "3003", "--payment-method", "PayPal", "--json", "--seed",
            "1", "--now", "1")
        #expect(result.exitCode == .purchaseFailed)
        let line = try #require(result.stdout.split(separator: "\n").last)
        #expect(line.contains(#""paymentMethodName":"PayPal""#))
        #expect(!line.contains(#""orderId":"""#))
    }

    @Test("the player closing the checkout before the order exists is a cancel: exit 13")
    func beforeOrderIsACancel() {
        #expect(runCLI("cancel", "--sku", "starter_pack_001", "--before-order").exitCode == .purchaseCanceled)
    }

    @Test(
        "a request before initialize fails with the catalog's 2000, on its own callback",
        arguments: [
            ("price-points", "getPricePoints", ExitCode.pricePointsFailed),
            ("purchase", "openCheckout", .purchaseFailed),
        ])
    func notInitialized(command: String, request: String, exitCode: ExitCode) throws {
        var arguments = [command, "--error", "2000", "--json"]
        if command == "purchase" { arguments += ["--sku", "starter_pack_001"] }
        let result = runCLI(arguments)
        #expect(result.exitCode == exitCode)
        let expected = try #require(Catalog.builtIn.statusCode(2000))
        #expect(result.stdout.contains(#""message":"\#(expected.message)""#))
        #expect(result.stdout.contains(#""data":"{\"request\":\"\#(request)\"}""#))
    }

    @Test(
        "a country without prices of its own says so on stderr, and stdout stays the callbacks",
        arguments: [["offers"], ["price-points"], ["purchase", "--sku", "starter_pack_001"]])
    func fallbackNote(command: [String]) {
        let fallback = runCLI(command + ["--country", "AU"])
        #expect(fallback.exitCode == .success)
        #expect(
            fallback.stderr
                == "note: AU has no prices of its own; it gets the US prices (USD). "
                + "'paylinks countries' lists the localized countries\n")
        #expect(!fallback.stdout.contains("note:"))
        #expect(runCLI(command + ["--country", "JP"]).stderr.isEmpty)
        #expect(runCLI(command).stderr.isEmpty)
    }

    @Test("countries lists exactly the localized countries, each with its currency and an example price")
    func countries() throws {
        let listed = runCLI("countries", "--json").stdout.split(separator: "\n")
        #expect(listed.count == Catalog.builtIn.localizations.count)
        for country in Catalog.builtIn.localizations.keys {
            #expect(listed.contains { $0.hasPrefix(#"{"country":"\#(country)","#) }, "\(country)")
        }
        let text = runCLI("countries").stdout
        #expect(text.contains("JP       JPY       ¥800 (price 800 JPY)"))
        #expect(text.hasSuffix("Any other country gets the US prices.\n"))
    }

    @Test("init prints onInitialized and exits 0")
    func initialize() {
        let result = runCLI("init")
        #expect(result.exitCode == .success)
        #expect(result.stdout == "onInitialized\n\n")
    }

    @Test("price points follow --country")
    func pricePoints() {
        let result = runCLI("price-points", "--country", "JP", "--json")
        #expect(result.exitCode == .success)
        #expect(result.stdout.contains(#"{"basePriceInUSD":"4.99","localizedPrice":"800","formattedPrice":"¥800"}"#))
        #expect(result.stdout.contains(#""currencyCode":"JPY""#))
    }

    @Test("a configuration the SDK refuses ends in onInitializeFailed and exit 10, without further requests")
    func initializeFailure() {
        let result = runCLI("purchase", "--sku", "starter_pack_001", "--customer-id", "", "--json")
        #expect(result.exitCode == .initializeFailed)
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stdout.contains(#""callback":"onInitializeFailed","error":{"code":2003"#))
        let environment = runCLI("price-points", "--environment", "staging", "--json")
        #expect(environment.exitCode == .initializeFailed)
        #expect(environment.stdout.contains(#""code":2001"#))
    }

    @Test("an unknown SKU is a usage error with the closest SKU, and nothing on stdout")
    func unknownSku() {
        let result = runCLI("purchase", "--sku", "starter_pack_01")
        #expect(result.exitCode == .usage)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "error: unknown SKU 'starter_pack_01'; did you mean 'starter_pack_001'? (see 'paylinks purchase --help')\n"
        )
    }

    @Test(
        "usage errors are one line on stderr and exit 64",
        arguments: [
            ["purchse"], ["purchase"], ["purchase", "--sku"], ["init", "--bogus"], ["init", "--country", "ZZ"],
            ["init", "--seed", "abc"], [], ["help", "nope"],
        ])
    func usageErrors(arguments: [String]) {
        let result = runCLI(arguments)
        #expect(result.exitCode == .usage)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test("help goes to stdout with exit 0 and lists every option the command accepts", arguments: Command.allCases)
    func help(command: Command) {
        let result = runCLI(command.rawValue, "--help")
        #expect(result.exitCode == .success)
        #expect(result.stderr == "")
        for spec in OptionSpec.options(for: command) {
            #expect(result.stdout.contains(spec.name), "\(spec.name) missing from help")
        }
        #expect(result.stdout.contains("EXIT CODES"))
    }

    @Test("the overview lists every command and every exit code")
    func overview() {
        let result = runCLI("--help")
        #expect(result.exitCode == .success)
        for command in Command.allCases { #expect(result.stdout.contains(command.rawValue)) }
        for code in ExitCode.allCases { #expect(result.stdout.contains("  \(code.rawValue) ")) }
    }

    @Test("--version prints the version")
    func version() {
        #expect(runCLI("--version").stdout == "paylinks \(Help.version)\n")
    }

    @Test("the same seed and clock give the same bytes; without --seed, runs differ")
    func determinism() {
        let first = runCLI("purchase", "--sku", "builders_bundle", "--seed", "9", "--json", entropy: 1)
        let second = runCLI("purchase", "--sku", "builders_bundle", "--seed", "9", "--json", entropy: 2)
        #expect(first.stdout == second.stdout)
        let unseededA = runCLI("purchase", "--sku", "builders_bundle", "--json", entropy: 1)
        let unseededB = runCLI("purchase", "--sku", "builders_bundle", "--json", entropy: 2)
        #expect(unseededA.stdout != unseededB.stdout)
    }

    @Test("--now sets the order's date; without it the clock does")
    func clock() {
        #expect(
            runCLI("purchase", "--sku", "starter_pack_001", "--now", "1700000000", "--json").stdout.contains(
                #""date":1700000000"#))
        #expect(
            runCLI("purchase", "--sku", "starter_pack_001", "--json", clock: 1_234).stdout.contains(#""date":1234,"#))
    }

    @Test("a write that fails exits 74 with a message; a reader that went away exits quietly")
    func outputFailures() {
        final class FailingOutput: OutputSink {
            let error: OutputError
            init(_ error: OutputError) { self.error = error }
            func write(_ text: String) throws(OutputError) { throw error }
        }
        for (error, code, message) in [
            (OutputError.failed("no space left on device"), ExitCode.ioError, true), (.brokenPipe, .brokenPipe, false),
        ] {
            let stderr = CapturedOutput()
            let context = RunContext(
                environment: { _ in nil }, standardOutput: FailingOutput(error), standardError: stderr, clock: { 0 },
                entropy: { 0 })
            #expect(PaylinksCLI.run(["paylinks", "purchase", "--sku", "starter_pack_001"], context: context) == code)
            #expect(stderr.text.isEmpty == !message)
        }
    }
}
