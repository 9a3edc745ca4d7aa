import PaylinksSandbox
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

extension Invocation {
    /// The subcommand and options of a run; nil for help and the version.
    var run: (command: Command, options: RunOptions)? {
        if case .run(let command, let options) = self { return (command, options) }
        return nil
    }
}

/// Tier 1: argv in, invocation or error out.
@Suite("Argument parser")
@MainActor
struct ArgumentParserTests {
    private func parse(_ words: String...) throws -> Invocation {
        try ArgumentParser.parse(["paylinks"] + words)
    }

    private func options(_ words: String...) throws -> RunOptions {
        try #require(try ArgumentParser.parse(["paylinks"] + words).run).options
    }

    private func usageMessage(_ words: String...) -> String? {
        Self.usage(words)
    }

    /// The usage message of `words`, or nil when they parse.
    nonisolated static func usage(_ words: [String]) -> String? {
        do {
            _ = try ArgumentParser.parse(["paylinks"] + words)
            return nil
        } catch {
            guard case .usage(let message, _) = error else { return nil }
            return message
        }
    }

    @Test("defaults follow the SDK's documented example")
    func defaults() throws {
        let parsed = try options("purchase", "--sku", "starter_pack_001")
        #expect(parsed.sku == "starter_pack_001")
        #expect(parsed.customerId == "cust_98765")
        #expect(parsed.country == "US")
        #expect(parsed.environment == "sandbox")
        #expect(parsed.paymentMethod == "Visa")
        #expect(parsed.format == .text)
        #expect(parsed.seed == nil)
        #expect(parsed.now == nil)
    }

    @Test("each subcommand parses", arguments: Command.allCases)
    func subcommands(command: Command) throws {
        let words =
            switch command {
            case .purchase, .cancel: [command.rawValue, "--sku", "x"]
            case .run: [command.rawValue, "a.json"]
            case .completions: [command.rawValue, "bash"]
            case .checkAward: [command.rawValue, "http://127.0.0.1:8080/award"]
            case .checkEvents: [command.rawValue, "http://127.0.0.1:8080/events"]
            case .health: [command.rawValue, "http://127.0.0.1:4010"]
            case .checkLinks: [command.rawValue, "apple-app-site-association"]
            case .trigger: [command.rawValue, "order.refunded"]
            default: [command.rawValue]
            }
        #expect(try #require(try ArgumentParser.parse(["paylinks"] + words).run).command == command)
    }

    @Test(
        "help and the version are asked for the same way everywhere",
        arguments: [
            (["help"], Invocation.help(nil)), (["help", "help"], .help(nil)), (["help", "--help"], .help(nil)),
            (["help", "-h"], .help(nil)), (["help", "purchase", "--help"], .help(.purchase)),
            (["help", "-h", "cancel"], .help(.cancel)), (["purchase", "--sku", "x", "--help"], .help(.purchase)),
            (["run", "-h"], .help(.run)), (["--version"], .version), (["-V"], .version),
            (["purchase", "--version"], .version), (["errors", "3002", "-V"], .version),
        ])
    func helpAndVersion(words: [String], expected: Invocation) throws {
        #expect(try ArgumentParser.parse(["paylinks"] + words) == expected)
    }

    @Test("a misspelt help or version flag, or a value given to one, says what to type")
    func helpAndVersionMistakes() {
        #expect(usageMessage("-v") == "unknown option '-v'; did you mean '-V'?")
        #expect(usageMessage("--verison") == "unknown option '--verison'; did you mean '--version'?")
        #expect(usageMessage("--help=yes") == "--help takes no value; give it alone")
        #expect(usageMessage("purchase", "--sku", "x", "--version=2") == "--version takes no value; give it alone")
        #expect(usageMessage("--sku", "x") == "--sku must follow a command, as in 'paylinks purchase --sku SKU'")
        #expect(
            usageMessage("--payment-method", "PayPal")
                == "--payment-method must follow a command, as in 'paylinks purchase --sku starter_pack_001 --payment-method NAME'"
        )
        #expect(usageMessage("help", "purchase", "cancel") == "'help' takes one command, not 'cancel'")
    }

    @Test("--index and --count together stay within the unique order ids")
    func indexAndCount() throws {
        #expect(try options("purchase", "--sku", "a", "--index", "8999999999").index == 8_999_999_999)
        #expect(try options("purchase", "--sku", "a", "--index", "8999999998", "--count", "2").count == 2)
        #expect(
            usageMessage("purchase", "--sku", "a", "--index", "8999999999", "--count", "2")
                == "--index 8999999999 with --count 2 reaches checkout 9000000000, past the last one with a unique "
                + "order id (8999999999); lower --index or --count")
    }

    @Test("a value that names one of paylinks' choices is read in any case")
    func caseInsensitiveNames() throws {
        #expect(try options("purchase", "--sku", "a", "--outcome", "DECLINED").outcome == .declined)
        #expect(try options("cancel", "--sku", "a", "--via", "Browser").closeMethod == .browserControls)
        #expect(try options("init", "--format", "JSON").format == .json)
        #expect(try options("init", "--color", "Never").color == .never)
        #expect(try options("init", "--error", "2000", "--fail-at", "INIT").failAt == .initialize)
        #expect(usageMessage("init", "--format", "yaml") == "--format takes text, json, wire, not 'yaml'")
        #expect(try options("init", "--platform", "Unity").platform == .unity)
    }

    @Test("a value the SDK compares exactly is kept as given")
    func exactValues() throws {
        #expect(try options("init", "--environment", "Sandbox").environment == "Sandbox")
        #expect(try options("purchase", "--sku", "Starter_Pack_001").sku == "Starter_Pack_001")
        #expect(try options("purchase", "--sku", "a", "--payment-method", "visa").paymentMethod == "visa")
    }

    @Test("serve takes the command after --, whose words are never paylinks' options")
    func serveCommand() throws {
        let given = try options("serve", "--port", "0", "--", "sh", "-c", "exit 3", "--help", "--port", "1", "--")
        #expect(given.command == ["sh", "-c", "exit 3", "--help", "--port", "1", "--"])
        #expect(given.port == 0)
        #expect(try options("serve", "--port", "0").command.isEmpty)
        #expect(usageMessage("serve", "--")?.contains("'--' starts the command serve runs once it listens") == true)
        #expect(
            usageMessage("offers", "--", "ls")?.contains("offers takes no arguments, but 'ls' follows '--'") == true)
    }

    @Test("health takes one URL and --timeout in whole seconds")
    func health() throws {
        let given = try options("health", "http://127.0.0.1:4010", "--timeout", "2")
        #expect(given.operands == ["http://127.0.0.1:4010"] && given.healthTimeout == 2)
        #expect(try options("health", "http://127.0.0.1:4010").healthTimeout == 5)
        #expect(usageMessage("health", "http://a", "http://b")?.contains("health takes one URL, but got 2") == true)
        #expect(usageMessage("serve", "--timeout", "2")?.contains("it belongs to health") == true)
    }

    @Test("--sku takes a value in both spellings")
    func sku() throws {
        #expect(try options("cancel", "--sku", "a").sku == "a")
        #expect(try options("cancel", "--sku=b").sku == "b")
        #expect(usageMessage("purchase")?.contains("needs --sku") == true)
        #expect(usageMessage("purchase", "--sku")?.contains("--sku needs a value") == true)
        #expect(usageMessage("purchase", "--sku", "")?.contains("not empty") == true)
        #expect(usageMessage("init", "--sku", "a")?.contains("belongs to purchase and cancel") == true)
    }

    @Test("--customer-id may be empty, so the SDK can report 2003")
    func customerId() throws {
        #expect(try options("init", "--customer-id", "p1").customerId == "p1")
        #expect(try options("init", "--customer-id=").customerId == "")
    }

    @Test("--country is normalized to upper case and checked against ISO 3166-1")
    func country() throws {
        #expect(try options("price-points", "--country", "jp").country == "JP")
        #expect(usageMessage("price-points", "--country", "UK")?.contains("did you mean GB?") == true)
        #expect(usageMessage("price-points", "--country", "XX")?.contains("not an ISO 3166-1 alpha-2") == true)
        #expect(usageMessage("price-points", "--country", "USA") != nil)
    }

    @Test("--environment is passed through for the SDK to judge")
    func environment() throws {
        #expect(try options("init", "--environment", "production").environment == "production")
        #expect(try options("init", "--environment", "staging").environment == "staging")
    }

    @Test("--checkout-public-key is passed through, empty included")
    func checkoutPublicKey() throws {
        #expect(try options("init", "--checkout-public-key", "pk_live_1").checkoutPublicKey == "pk_live_1")
        #expect(try options("init", "--checkout-public-key=").checkoutPublicKey == "")
    }

    @Test("--payment-method names the order's payment method")
    func paymentMethod() throws {
        #expect(try options("purchase", "--sku", "a", "--payment-method", "PayPal").paymentMethod == "PayPal")
        #expect(
            usageMessage("price-points", "--payment-method", "PayPal")?.contains("not an option of price-points")
                == true)
    }

    @Test("--fixtures names a directory")
    func fixtures() throws {
        #expect(try options("init", "--fixtures", "/tmp/f").fixtures == "/tmp/f")
        #expect(usageMessage("init", "--fixtures", "") != nil)
    }

    @Test("--seed takes a 64-bit unsigned number")
    func seed() throws {
        #expect(try options("init", "--seed", "0").seed == 0)
        #expect(try options("init", "--seed", "18446744073709551615").seed == UInt64.max)
        #expect(usageMessage("init", "--seed", "18446744073709551616")?.contains("whole number from 0") == true)
        #expect(usageMessage("init", "--seed", "-1") != nil)
        #expect(usageMessage("init", "--seed", "0x10") != nil)
    }

    @Test("--rate-limit takes N/min, off by default")
    func rateLimit() throws {
        #expect(try options("serve").rateLimit == nil)
        #expect(try options("serve", "--rate-limit", "600/min").rateLimit == 600)
        #expect(try options("serve", "--rate-limit=1/min").rateLimit == 1)
        #expect(try options("serve", "--rate-limit", "1000000/min").rateLimit == 1_000_000)
        #expect(try options("serve", "--rate-limit", "5000/MIN").rateLimit == 5000)
        for bad in ["600", "0/min", "1000001/min", "600/s", "/min", "-1/min", "6e2/min"] {
            #expect(usageMessage("serve", "--rate-limit", bad)?.contains("--rate-limit takes N/min") == true, "\(bad)")
        }
        #expect(usageMessage("init", "--rate-limit", "600/min") != nil)
    }

    @Test("--now takes Unix seconds up to the year 9999")
    func now() throws {
        #expect(try options("init", "--now", "1718182312").now == 1_718_182_312)
        #expect(usageMessage("init", "--now", "253402300800") != nil)
        #expect(usageMessage("init", "--now", "-5") != nil)
        #expect(usageMessage("init", "--now", "soon") != nil)
    }

    @Test("--format and --json choose the output format")
    func format() throws {
        #expect(try options("init", "--format", "json").format == .json)
        #expect(try options("init", "--format=text").format == .text)
        #expect(try options("init", "--json").format == .json)
        #expect(usageMessage("init", "--format", "jsno")?.contains("did you mean 'json'?") == true)
        #expect(usageMessage("init", "--json=yes")?.contains("takes no value") == true)
        #expect(usageMessage("init", "--json", "--format", "text")?.contains("both given") == true)
    }

    @Test("-h and --help show help, at the top and on each subcommand")
    func help() throws {
        #expect(try parse("--help") == .help(nil))
        #expect(try parse("-h") == .help(nil))
        #expect(try parse("help") == .help(nil))
        #expect(try parse("help", "cancel") == .help(.cancel))
        #expect(try parse("purchase", "--help") == .help(.purchase))
        #expect(try parse("purchase", "--bogus", "-h") == .help(.purchase))
    }

    @Test("--version shows the version")
    func version() throws {
        #expect(try parse("--version") == .version)
    }

    @Test("unknown commands and options are named with the closest spelling")
    func unknownWords() {
        #expect(usageMessage() != nil)
        #expect(usageMessage("purchse")?.contains("did you mean 'purchase'?") == true)
        #expect(usageMessage("purchase", "--skus", "a")?.contains("did you mean '--sku'?") == true)
        #expect(usageMessage("--sku", "a")?.contains("must follow a command") == true)
        #expect(usageMessage("purchase", "starter_pack_001")?.contains("'--sku starter_pack_001'") == true)
    }

    @Test("run takes files, also after --, and errors takes one code")
    func operands() throws {
        #expect(try options("run", "a.json", "b.json").operands == ["a.json", "b.json"])
        #expect(try options("run", "--", "-odd.json").operands == ["-odd.json"])
        #expect(try options("errors", "3002").operands == ["3002"])
        #expect(usageMessage("errors", "3002", "3003")?.contains("takes one CODE|NAME") == true)
        #expect(usageMessage("run")?.contains("run needs FILE") == true)
    }

    @Test("--fault-rate takes a probability from 0 to 1")
    func faultRate() throws {
        #expect(try options("run", "a.json", "--fault-rate", "0.25").faultRate == 0.25)
        #expect(try options("run", "a.json", "--fault-rate", "1").faultRate == 1)
        for bad in ["1.5", "-0.1", "nan", "inf", "1e-3", ".5", "0."] {
            #expect(usageMessage("run", "a.json", "--fault-rate", bad) != nil, "\(bad)")
        }
        #expect(usageMessage("purchase", "--sku", "a", "--fault-rate", "0.5")?.contains("belongs to run") == true)
    }

    @Test("--fee-rate takes a percent from 0% to 100%, its sign required, for the commands that send awards or events")
    func feeRate() throws {
        #expect(try options("purchase", "--sku", "a", "--fee-rate", "12.5%").rates.fee.description == "12.5")
        #expect(try options("serve", "--fee-rate", "30%").rates.fee.description == "30")
        #expect(try options("trigger", "order.refunded", "--fee-rate", "0%").rates.fee.isZero)
        #expect(try options("run", "a.json", "--fee-rate", "100%").rates.exchangeCost.description == "1.5")
        // A bare number could be a fraction (0.2 for 20%) as well as a percent: refused.
        for bad in ["0.2", "15", "100.5%", "-1%", "1e1", "15%%", "%", "", "0.1234567", "fifteen"] {
            #expect(
                usageMessage("purchase", "--sku", "a", "--fee-rate", bad)?.contains(
                    "--fee-rate takes a percent from 0% to 100% with its sign, such as 15%") == true, "\(bad)")
        }
        #expect(usageMessage("offers", "--fee-rate", "15%")?.contains("--fee-rate") == true)
    }

    @Test("--exchange-cost-rate takes a percent from 0% to 100%, its sign required")
    func exchangeCostRate() throws {
        #expect(try options("serve", "--exchange-cost-rate", "2%").rates.exchangeCost.description == "2")
        #expect(try options("cancel", "--sku", "a", "--exchange-cost-rate", "0.75%").rates.fee.description == "15")
        #expect(usageMessage("serve", "--exchange-cost-rate", "0.75")?.contains("with its sign") == true)
        #expect(
            usageMessage("serve", "--exchange-cost-rate", "101%")?.contains(
                "--exchange-cost-rate takes a percent from 0% to 100% with its sign, such as 1.5%, not '101%'") == true)
    }

    @Test("an option given twice is an error")
    func repeated() {
        #expect(usageMessage("purchase", "--sku", "a", "--sku", "b")?.contains("given twice") == true)
    }

    @Test("-- ends the options and nothing may follow it")
    func doubleDash() throws {
        #expect(try options("init", "--").format == .text)
        #expect(usageMessage("init", "--", "x")?.contains("takes no arguments") == true)
    }

    @Test("values with control characters are refused")
    func controlCharacters() {
        #expect(usageMessage("init", "--customer-id", "a\nb")?.contains("U+000A") == true)
    }
}
