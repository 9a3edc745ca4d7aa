import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// One input a user can get wrong, and what paylinks must answer.
struct BadInput: CustomTestStringConvertible, Sendable {
    /// How the binary is started.
    enum Launch: Sendable {
        /// Directly, as root (the test's own user).
        case direct
        /// As the unprivileged user `nobody`, for permission errors.
        case unprivileged
        /// Through `sh -c`, for arguments Foundation cannot pass (invalid UTF-8); the
        /// arguments are one shell command line after the binary's path.
        case shell
    }

    var name: String
    var arguments: [String]
    var environment: [String: String] = [:]
    /// Files made in a fresh directory, named by path relative to it; `$DIR` in the
    /// arguments and the environment stands for the directory.
    var files: [String: [UInt8]] = [:]
    var launch = Launch.direct
    var exitCode: ExitCode
    /// What the one `error:` line must say.
    var message: String

    var testDescription: String { name }

    init(
        _ name: String, _ arguments: [String], _ exitCode: ExitCode, _ message: String,
        environment: [String: String] = [:], files: [String: [UInt8]] = [:], launch: Launch = .direct
    ) {
        self.name = name
        self.arguments = arguments
        self.exitCode = exitCode
        self.message = message
        self.environment = environment
        self.files = files
        self.launch = launch
    }
}

/// Text as file contents.
private func text(_ string: String) -> [UInt8] { Array(string.utf8) }

private let validItem = #"{"name": "I", "sku": "i", "quantity": "1"}"#
private func offers(_ body: String) -> [UInt8] { text(#"{"offers": [\#(body)]}"#) }
private func offer(sku: String = "a", price: String = "0.99", items: String = validItem, extra: String = "") -> String {
    #"{"sku": "\#(sku)", "name": "A", "basePriceInUSD": "\#(price)", "items": [\#(items)]\#(extra)}"#
}
private func localization(
    country: String = "US", currency: String = "USD", multiplier: String = "100", price: String = "\"99\""
)
    -> String
{
    """
    {"country": "\(country)", "currencyCode": "\(currency)", "currencySymbol": "$", "fractionalSeparator": ".",
     "milSeparator": ",", "symbolPosition": "Left", "spacing": false, "multiplier": \(multiplier),
     "localizedPrices": {"0.99": \(price)}}
    """
}
private func prices(_ localizations: String) -> [UInt8] {
    text(#"{"tiers": ["0.99"], "localizations": [\#(localizations)]}"#)
}
private let requiredCodes = CatalogLoader.requiredCodes.map {
    #"{"code": \#($0), "name": "C\#($0)", "meaning": "m", "message": "m", "callbacks": ["onInitializeFailed"]}"#
}
/// `serve --import` of a file of one price point `record`, which the API would refuse:
/// exit 65 with `message` after the file's name, at the line and column. Were it taken, the sandbox would run
/// `true` and stop with 0.
private func pricePointImport(_ name: String, _ record: String, _ message: String) -> BadInput {
    BadInput(
        "an import of \(name)", ["serve", "--port", "0", "--import", "$DIR/export.jsonl", "--", "true"], .dataError,
        "export.jsonl" + message,
        files: [
            "export.jsonl": text(
                #"{"format":"paylinks-sandbox","version":1,"seed":"1"}"# + "\n" + #"{"pricePoint":"# + record + "}\n")
        ])
}
private func scenario(_ steps: String) -> [UInt8] { text(#"{"steps": [\#(steps)]}"#) }
private let deeplyNested = text(String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000))
private let oversized = text(#"{"offers": [], "x": ""# + String(repeating: "x", count: 1_100_000) + "\"}")

extension BadInput {
    static let usage: [BadInput] = [
        BadInput(
            "public URL that is not http", ["serve", "--public-url", "ftp://192.168.1.20"], .usage,
            "--public-url takes the base URL players reach the sandbox at, such as http://192.168.1.20:4010, not "
                + "'ftp://192.168.1.20'"),
        BadInput(
            "public URL with a query", ["serve", "--public-url", "http://x.example?a=1"], .usage,
            "--public-url takes the base URL"),
        BadInput(
            "an allowed host with a port", ["serve", "--allowed-host", "sandbox.local:4010"], .usage,
            "--allowed-host takes a host name as the browser's address bar has it, without a scheme or a port, "
                + "such as sandbox.local, not 'sandbox.local:4010'"),
        BadInput(
            "an allowed host as a URL", ["serve", "--allowed-host", "http://sandbox.local"], .usage,
            "--allowed-host takes a host name"),
        BadInput(
            "an allowed host on purchase", ["purchase", "--sku", "starter_pack_001", "--allowed-host", "x.example"],
            .usage, "--allowed-host"),
        BadInput(
            "a clock that is neither", ["serve", "--clock", "sometimes"], .usage,
            "--clock takes wall, virtual, not 'sometimes'"),
        BadInput(
            "a start on the wall clock", ["serve", "--now", "2026-12-01T10:00:00Z"], .usage,
            "--now sets where a virtual clock starts; the wall clock is always now: add --clock virtual"),
        BadInput(
            "a virtual clock that starts nowhere", ["serve", "--clock", "virtual", "--now", "yesterday"], .usage,
            "--now takes Unix seconds"),
        BadInput(
            "real pauses on a virtual clock",
            ["serve", "--clock", "virtual", "--award-url", "http://127.0.0.1:9/award", "--award-wait", "real"],
            .usage, "--clock virtual holds each retry until the clock passes it; leave --award-wait out"),
        BadInput(
            "a port file in no directory", ["serve", "--port", "0", "--port-file", "/nonexistent-dir/url"],
            .cannotCreate,
            "--port-file '/nonexistent-dir/url' cannot be written: its directory does not exist; give a path in a "
                + "directory that exists and that you may write to"),
        BadInput(
            "a command without its --", ["serve", "--port", "0", "npm", "test"], .usage,
            "serve takes no arguments, but got 'npm'; to run a command beside the sandbox, put it after '--': "
                + "paylinks serve [options] -- npm ..."),
        BadInput(
            "an import of nothing", ["serve", "--port", "0", "--import", "/nonexistent/export.jsonl"], .noInput,
            "--import '/nonexistent/export.jsonl' cannot be read: it does not exist"),
        BadInput(
            "an import of a directory", ["serve", "--port", "0", "--import", "$DIR"], .noInput,
            "cannot be read: it is a directory"),
        BadInput(
            "an import of another file", ["serve", "--port", "0", "--import", "$DIR/export.jsonl"], .dataError,
            "export.jsonl:1: not a paylinks sandbox export", files: ["export.jsonl": text("{}\n")]),
        BadInput(
            "an import cut short", ["serve", "--port", "0", "--import", "$DIR/export.jsonl"], .dataError,
            "export.jsonl:2: the last line ends without a line feed",
            files: ["export.jsonl": text(#"{"format":"paylinks-sandbox","version":1,"seed":"1"}"# + "\n{")]),
        BadInput(
            "an import of a newer format", ["serve", "--port", "0", "--import", "$DIR/export.jsonl"], .dataError,
            "export.jsonl:1: format version 2 is newer than this paylinks reads (1); use a newer paylinks",
            files: ["export.jsonl": text(#"{"format":"paylinks-sandbox","version":2,"seed":"1"}"# + "\n")]),
        pricePointImport(
            "a price point below the API's range", #"{"priceInUsdCents":79,"deleted":true}"#,
            ":2:34: priceInUsdCents is 79, outside 80 to 500000"),
        pricePointImport(
            "a price point past the API's range",
            #"{"priceInUsdCents":500001,"lastUpdate":0,"fromCatalog":false,"priceOverrides":[]}"#,
            ":2:34: priceInUsdCents is 500001, outside 80 to 500000"),
        pricePointImport(
            "an override of 0",
            #"{"priceInUsdCents":1299,"lastUpdate":0,"fromCatalog":false,"#
                + #""priceOverrides":[{"countryCode2":"DE","price":0}]}"#,
            ":2:92: priceOverrides: price is missing or not a decimal above 0"),
        pricePointImport(
            "a country overridden twice",
            #"{"priceInUsdCents":1299,"lastUpdate":0,"fromCatalog":false,"priceOverrides":["#
                + #"{"countryCode2":"DE","price":9.99},{"countryCode2":"DE","price":8.99}]}"#,
            ":2:127: priceOverrides: DE is given twice"),
        BadInput(
            "more players blocked than the list holds",
            ["serve", "--port", "0"] + (0...10_000).flatMap { ["--block-player", "player_\($0)"] } + ["--", "true"],
            .usage, "--block-player is given more than 10000 times"),
        BadInput("an empty import", ["serve", "--import", ""], .usage, "--import"),
        BadInput(
            "a clock on purchase", ["purchase", "--sku", "starter_pack_001", "--clock", "virtual"], .usage, "--clock"),
        BadInput(
            "a '--' with no command after it", ["serve", "--port", "0", "--"], .usage,
            "'--' starts the command serve runs once it listens, but none follows"),
        BadInput(
            "a command not on PATH", ["serve", "--port", "0", "--", "paylinks-no-such-command", "--port", "1"],
            .commandNotFound,
            "'paylinks-no-such-command', the command after '--', is not found on PATH; check its name, or give its path"
        ),
        BadInput(
            "a command path that does not exist", ["serve", "--port", "0", "--", "$DIR/missing"], .commandNotFound,
            "the command after '--', does not exist; check its path"),
        BadInput(
            "a command that is a directory", ["serve", "--port", "0", "--", "$DIR"], .cannotExecute,
            "the command after '--', is a directory; give the program to run"),
        BadInput(
            "a command that is not executable", ["serve", "--port", "0", "--", "$DIR/script.sh"], .cannotExecute,
            "script.sh', the command after '--', cannot be executed: permission denied; make it executable (chmod +x)",
            files: ["script.sh": text("echo hello\n")]),
        BadInput(
            "a health URL that is not http", ["health", "ftp://127.0.0.1:4010"], .usage,
            "give the sandbox's base URL, such as http://127.0.0.1:4010, not 'ftp://127.0.0.1:4010'"),
        BadInput("a health check with no URL", ["health"], .usage, "health needs URL, as in 'paylinks health URL'"),
        BadInput(
            "a health URL with a query", ["health", "http://127.0.0.1:4010/?a=1"], .usage,
            "give the sandbox's base URL, such as http://127.0.0.1:4010, without a query"),
        BadInput(
            "a health timeout of 0", ["health", "http://127.0.0.1:4010", "--timeout", "0"], .usage,
            "--timeout takes a whole number from 1 to 300, not '0'"),
        BadInput(
            "a health check of a closed port", ["health", "http://127.0.0.1:1"], .unavailable,
            "no sandbox answers at http://127.0.0.1:1: connection refused"),
        BadInput(
            "no session budget", ["serve", "--session-budget", "0"], .usage,
            "--session-budget takes a whole number from 1 to 65536, not '0'"),
        BadInput(
            "a session budget with a unit", ["serve", "--session-budget", "16MiB"], .usage,
            "--session-budget takes a whole number from 1 to 65536, not '16MiB'"),
        BadInput(
            "a rate limit without its unit", ["serve", "--rate-limit", "600"], .usage,
            "--rate-limit takes N/min, a whole number of requests a minute from 1 to 1000000, such as 600/min, not '600'"
        ),
        BadInput(
            "a rate limit of none", ["serve", "--rate-limit", "0/min"], .usage,
            "--rate-limit takes N/min, a whole number of requests a minute from 1 to 1000000, such as 600/min, not '0/min'"
        ),
        BadInput(
            "a session budget on purchase", ["purchase", "--sku", "starter_pack_001", "--session-budget", "16"],
            .usage, "--session-budget"),
        BadInput(
            "misspelled platform", ["init", "--platform", "androd"], .usage,
            "--platform takes ios, android, unity, not 'androd'; did you mean 'android'?"),
        BadInput(
            "SDK version no platform has", ["init", "--sdk-version", "3.1"], .usage,
            "--sdk-version: iOS SDK 3.1 is not a version paylinks knows; known: 1.5-1.7 (G1), 1.8-1.9 (G2), 2.0 (G3)"),
        BadInput(
            "Unity version between generations", ["init", "--platform", "unity", "--sdk-version", "2.9"], .usage,
            "known: 1.0-2.4 (G1), 2.5-2.6 (G2), 3.0 (G3)"),
        BadInput(
            "SDK version that is not a number", ["purchase", "--sku", "starter_pack_001", "--sdk-version", "v1.9"],
            .usage, "--sdk-version: 'v1.9' is not a version number such as 1.9 or 2.0.0"),
        BadInput(
            "platform on a command without callbacks", ["countries", "--platform", "unity"], .usage,
            "--platform is not an option of countries"),
        BadInput("misspelled command", ["purchse"], .usage, "unknown command 'purchse'; did you mean 'purchase'?"),
        BadInput("unknown command", ["refund"], .usage, "unknown command 'refund'"),
        BadInput("command in capitals", ["PURCHASE"], .usage, "did you mean 'purchase'?"),
        BadInput("no command", [], .usage, "no command given"),
        BadInput("option before the command", ["--sku", "x"], .usage, "must follow a command"),
        BadInput("misspelled option", ["purchase", "--skus", "a"], .usage, "did you mean '--sku'?"),
        BadInput("single-dash option", ["purchase", "-s", "a"], .usage, "options start with '--'"),
        BadInput("missing value at the end", ["purchase", "--sku"], .usage, "--sku needs a value"),
        BadInput("missing value before an option", ["purchase", "--sku", "--json"], .usage, "--sku needs a value"),
        BadInput("missing required option", ["cancel"], .usage, "cancel needs --sku"),
        BadInput("empty SKU", ["purchase", "--sku", ""], .usage, "--sku needs a value that is not empty"),
        BadInput("empty payment method", ["purchase", "--sku", "a", "--payment-method="], .usage, "not empty"),
        BadInput("repeated option", ["purchase", "--sku", "a", "--sku", "b"], .usage, "--sku is given twice"),
        BadInput("--json with --format", ["init", "--json", "--format", "json"], .usage, "are both given"),
        BadInput("newline in a value", ["init", "--customer-id", "a\nb"], .usage, "control character U+000A"),
        BadInput("bell in a value", ["init", "--environment", "sand\u{7}box"], .usage, "control character U+0007"),
        BadInput("escape in a value", ["purchase", "--sku", "\u{1B}[31m"], .usage, "control character U+001B"),
        BadInput(
            "invalid UTF-8 in a value", ["init --customer-id \"$(printf 'a\\377b')\""], .usage, "not valid UTF-8",
            launch: .shell),
        BadInput("seed overflow", ["init", "--seed", "18446744073709551616"], .usage, "--seed takes a whole number"),
        BadInput("negative seed", ["init", "--seed", "-1"], .usage, "--seed takes a whole number"),
        BadInput("seed in hex", ["init", "--seed", "0x1F"], .usage, "--seed takes a whole number"),
        BadInput(
            "now overflow", ["init", "--now", "99999999999999999999"], .usage,
            "--now takes Unix seconds (0 to 253402300799), an ISO 8601 time"),
        BadInput("negative now", ["init", "--now=-5"], .usage, "--now takes Unix seconds (0 to 253402300799)"),
        BadInput(
            "now past 9999", ["init", "--now", "253402300800"], .usage,
            "--now takes Unix seconds (0 to 253402300799), an ISO 8601 time such as 2024-06-12T08:51:52Z "
                + "or 2024-06-12T10:51:52+02:00, or a date such as 2024-06-12, not '253402300800'"),
        BadInput(
            "now without a zone", ["init", "--now", "2024-06-12T08:51:52"], .usage,
            "--now: '2024-06-12T08:51:52' has no time zone; add Z (UTC) or an offset such as +02:00"),
        BadInput(
            "now in milliseconds", ["init", "--now", "1718182312000"], .usage,
            "--now takes Unix seconds; '1718182312000' looks like Unix milliseconds (2024-06-12 08:51:52 UTC); "
                + "did you mean 1718182312?"),
        BadInput("count overflow", ["purchase", "--sku", "a", "--count", "99999999999999999999"], .usage, "--count"),
        BadInput("negative count", ["purchase", "--sku", "a", "--count", "-3"], .usage, "--count takes"),
        BadInput(
            "zero count", ["purchase", "--sku", "a", "--count", "0"], .usage, "--count takes a whole number from 1"),
        BadInput("index out of range", ["purchase", "--sku", "a", "--index", "9000000000"], .usage, "--index takes"),
        BadInput("argument after --", ["init", "--", "extra"], .usage, "takes no arguments, but 'extra' follows '--'"),
        BadInput("option after --", ["purchase", "--sku", "a", "--", "--json"], .usage, "'--json' follows '--'"),
        BadInput(
            "stray argument", ["purchase", "starter_pack_001"], .usage, "give the offer as '--sku starter_pack_001'"),
        BadInput("option of another command", ["init", "--sku", "x"], .usage, "belongs to purchase and cancel"),
        BadInput(
            "purchase option on cancel", ["cancel", "--sku", "a", "--outcome", "declined"], .usage,
            "belongs to purchase"),
        BadInput(
            "cancel option on purchase", ["purchase", "--sku", "a", "--via", "browser"], .usage, "belongs to cancel"),
        BadInput("flow option on offers", ["offers", "--customer-id", "x"], .usage, "not an option of offers"),
        BadInput(
            "--error with --outcome", ["purchase", "--sku", "a", "--error", "3003", "--outcome", "declined"], .usage,
            "give either --error or --outcome"),
        BadInput(
            "--before-order with --via", ["cancel", "--sku", "a", "--before-order", "--via", "browser"], .usage,
            "give either --before-order or --via"),
        BadInput("--fail-at alone", ["init", "--fail-at", "init"], .usage, "give --error CODE too"),
        BadInput("code of another step", ["init", "--error", "3002"], .usage, "which init does not reach"),
        BadInput("unknown code", ["init", "--error", "9998"], .usage, "unknown status code 9998; the nearest are"),
        BadInput(
            "code of G1 and G3 only", ["init", "--error", "9999"], .usage,
            "9999 is a code of G1 and G3 (UNKNOWN_ERROR; G3 is SDK 2.0 and later, Unity 3.0): give --sdk-version 2.0"),
        BadInput(
            "misspelled code name", ["init", "--error", "BOOT_TOKEN_EROR"], .usage, "did you mean BOOT_TOKEN_ERROR?"),
        BadInput(
            "--fail-at a step not reached", ["init", "--error", "1000", "--fail-at", "purchase"], .usage,
            "init does not reach that step"),
        BadInput("unknown step", ["init", "--error", "1000", "--fail-at", "checkout"], .usage, "--fail-at takes init"),
        BadInput(
            "misspelled SKU", ["purchase", "--sku", "starter_pak_001"], .usage, "did you mean 'starter_pack_001'?"),
        BadInput("UK for GB", ["price-points", "--country", "UK"], .usage, "did you mean GB?"),
        BadInput("unassigned country", ["price-points", "--country", "ZZ"], .usage, "not an ISO 3166-1 alpha-2"),
        BadInput("three-letter country", ["price-points", "--country", "USA"], .usage, "not an ISO 3166-1 alpha-2"),
        BadInput("unknown format", ["init", "--format", "yaml"], .usage, "--format takes text, json"),
        BadInput("value on a flag", ["init", "--json=yes"], .usage, "--json takes no value"),
        BadInput(
            "unknown outcome", ["purchase", "--sku", "a", "--outcome", "declind"], .usage, "did you mean 'declined'?"),
        BadInput("help for an unknown command", ["help", "refund"], .usage, "unknown command 'refund'"),
        BadInput("help for two commands", ["help", "purchase", "cancel"], .usage, "'help' takes one command"),
        BadInput("errors with two codes", ["errors", "3002", "3003"], .usage, "takes one CODE|NAME, but got 2"),
        BadInput("errors for an unknown code", ["errors", "7"], .usage, "unknown status code 7"),
        BadInput("run without files", ["run"], .usage, "run needs FILE"),
        BadInput("fault rate above 1", ["run", "a.json", "--fault-rate", "2"], .usage, "probability from 0 to 1"),
        BadInput(
            "fee rate above 100%", ["purchase", "--sku", "a", "--fee-rate", "150%"], .usage,
            "--fee-rate takes a percent from 0% to 100% with its sign, such as 15%, not '150%'"),
        BadInput(
            "fee rate without its percent sign", ["purchase", "--sku", "a", "--fee-rate", "0.2"], .usage,
            "--fee-rate takes a percent from 0% to 100% with its sign, such as 15%, not '0.2'"),
        BadInput(
            "exchange-cost rate not a number", ["serve", "--exchange-cost-rate", "x"], .usage,
            "--exchange-cost-rate takes a percent from 0% to 100% with its sign, such as 1.5%, not 'x'"),
    ]

    static let fixtures: [BadInput] = [
        BadInput(
            "fixture with invalid JSON", ["init", "--fixtures", "$DIR"], .dataError, "offers.json:1:13: unexpected",
            files: ["offers.json": text(#"{"offers": [,]}"#)]),
        BadInput(
            "empty fixture file", ["init", "--fixtures", "$DIR"], .dataError, "the file is empty",
            files: ["offers.json": []]),
        BadInput(
            "fixture of the wrong type", ["init", "--fixtures", "$DIR"], .dataError,
            "offers: expected an array, got a string",
            files: ["offers.json": text(#"{"offers": "none"}"#)]),
        BadInput(
            "fixture with a missing field", ["init", "--fixtures", "$DIR"], .dataError, #"missing required key "sku""#,
            files: ["offers.json": offers(#"{"name": "A", "basePriceInUSD": "0.99", "items": [\#(validItem)]}"#)]),
        BadInput(
            "fixture with an unknown field", ["init", "--fixtures", "$DIR"], .dataError, #"unknown key "colour""#,
            files: ["offers.json": offers(offer(extra: #", "colour": "red""#))]),
        BadInput(
            "fixture with a misspelled field", ["init", "--fixtures", "$DIR"], .dataError, #"did you mean "items"?"#,
            files: ["offers.json": offers(#"{"sku": "a", "name": "A", "basePriceInUSD": "0.99", "itmes": []}"#)]),
        BadInput(
            "duplicate SKUs", ["init", "--fixtures", "$DIR"], .dataError, #"duplicate SKU "a""#,
            files: ["offers.json": offers(offer() + ", " + offer())]),
        BadInput(
            "duplicate status codes", ["init", "--fixtures", "$DIR"], .dataError, "duplicate code 2000",
            files: [
                "status-codes.json": text(
                    #"{"statusCodes": [\#((requiredCodes + [requiredCodes[0]]).joined(separator: ","))]}"#)
            ]),
        BadInput(
            "a required status code missing", ["init", "--fixtures", "$DIR"], .dataError, "is missing code 4002",
            files: [
                "status-codes.json": text(#"{"statusCodes": [\#(requiredCodes.dropLast().joined(separator: ","))]}"#)
            ]),
        BadInput(
            "negative price", ["init", "--fixtures", "$DIR"], .dataError, "positive whole number",
            files: ["price-points.json": prices(localization(price: "\"-99\"")), "offers.json": offers(offer())]),
        BadInput(
            "overflowing price", ["init", "--fixtures", "$DIR"], .dataError, "positive whole number",
            files: [
                "price-points.json": prices(localization(price: "\"99999999999999999999999\"")),
                "offers.json": offers(offer()),
            ]),
        BadInput(
            "price as a number", ["init", "--fixtures", "$DIR"], .dataError, "expected a string, got a number",
            files: ["price-points.json": prices(localization(price: "99")), "offers.json": offers(offer())]),
        BadInput(
            "overflowing multiplier", ["init", "--fixtures", "$DIR"], .dataError, "is too large",
            files: [
                "price-points.json": prices(localization(multiplier: "100000000000000000000000")),
                "offers.json": offers(offer()),
            ]),
        BadInput(
            "multiplier not a power of ten", ["init", "--fixtures", "$DIR"], .dataError, "must be a power of ten",
            files: ["price-points.json": prices(localization(multiplier: "50")), "offers.json": offers(offer())]),
        BadInput(
            "offer price not a tier", ["init", "--fixtures", "$DIR"], .dataError, #""3.33" is not a price tier"#,
            files: ["offers.json": offers(offer(price: "3.33"))]),
        BadInput(
            "built-in offers without their tier", ["init", "--fixtures", "$DIR"], .dataError,
            #"has no tier "4.99", which the built-in offer starter_pack_001 uses"#,
            files: ["price-points.json": prices(localization())]),
        BadInput(
            "invalid currency", ["init", "--fixtures", "$DIR"], .dataError, #""EURO" is not an ISO 4217 currency code"#,
            files: ["price-points.json": prices(localization(currency: "EURO")), "offers.json": offers(offer())]),
        BadInput(
            "invalid country", ["init", "--fixtures", "$DIR"], .dataError, #""XX" is not an ISO 3166-1 alpha-2"#,
            files: ["price-points.json": prices(localization(country: "XX")), "offers.json": offers(offer())]),
        BadInput(
            "offer with no items", ["init", "--fixtures", "$DIR"], .dataError, "an offer needs at least one item",
            files: ["offers.json": offers(offer(items: ""))]),
        BadInput(
            "fixture with invalid UTF-8", ["init", "--fixtures", "$DIR"], .dataError, "invalid UTF-8",
            files: ["offers.json": text(#"{"offers": [{"sku": "a", "name": ""#) + [0xC3, 0x28] + text(#""}]}"#)]),
        BadInput(
            "deeply nested fixture", ["init", "--fixtures", "$DIR"], .dataError, "nesting deeper than 64 levels",
            files: ["offers.json": deeplyNested]),
        BadInput(
            "oversized fixture", ["init", "--fixtures", "$DIR"], .dataError, "larger than the 1 MiB limit",
            files: ["offers.json": oversized]),
        BadInput(
            "duplicate key in a fixture", ["init", "--fixtures", "$DIR"], .dataError, #"duplicate key "offers""#,
            files: ["offers.json": text(#"{"offers": [], "offers": []}"#)]),
        BadInput(
            "trailing comma in a fixture", ["init", "--fixtures", "$DIR"], .dataError, "expected an object key",
            files: ["offers.json": text(#"{"offers": [],}"#)]),
        BadInput(
            "misnamed fixture file", ["init", "--fixtures", "$DIR"], .dataError, "did you mean offers.json?",
            files: ["offer.json": text("{}")]),
    ]

    static let environment: [BadInput] = [
        BadInput(
            "PAYLINKS_FIXTURES pointing at nothing", ["init"], .noInput,
            "fixture directory '/nonexistent/fixtures' (PAYLINKS_FIXTURES) does not exist",
            environment: ["PAYLINKS_FIXTURES": "/nonexistent/fixtures"]),
        BadInput(
            "PAYLINKS_FIXTURES pointing at a file", ["init"], .noInput, "is a file, not a directory",
            environment: ["PAYLINKS_FIXTURES": "$DIR/offers.json"], files: ["offers.json": text("{}")]),
        BadInput(
            "PAYLINKS_FIXTURES pointing at an empty directory", ["init"], .noInput, "holds none of offers.json",
            environment: ["PAYLINKS_FIXTURES": "$DIR/empty"], files: ["empty/.keep": []]),
        BadInput(
            "PAYLINKS_FIXTURES pointing at an unreadable directory", ["init"], .noInput,
            "cannot be read: permission denied",
            environment: ["PAYLINKS_FIXTURES": "$DIR/locked"], files: ["locked/offers.json": text("{}")],
            launch: .unprivileged),
        BadInput(
            "an unreadable fixture file", ["init", "--fixtures", "$DIR/shared"], .noInput, "permission denied",
            files: ["shared/offers.json": text("{}")], launch: .unprivileged),
        BadInput("--fixtures pointing at nothing", ["init", "--fixtures", "/nonexistent"], .noInput, "does not exist"),
    ]

    static let scenarios: [BadInput] = [
        BadInput(
            "scenario with invalid JSON", ["run", "$DIR/s.json"], .dataError, "s.json:1:12: unexpected",
            files: ["s.json": text(#"{"steps": [}"#)]),
        BadInput("empty scenario", ["run", "$DIR/s.json"], .dataError, "the file is empty", files: ["s.json": []]),
        BadInput(
            "unknown step kind", ["run", "$DIR/s.json"], .dataError, #"unknown step "refnd"; did you mean "refund"?"#,
            files: ["s.json": scenario(#"{"step": "refnd"}"#)]),
        BadInput(
            "scenario with an unknown platform", ["run", "$DIR/s.json"], .dataError,
            #"expected a platform (ios, android, unity), got "unty"; did you mean "unity"?"#,
            files: ["s.json": text(#"{"configuration": {"platform": "unty"}, "steps": [{"step": "initialize"}]}"#)]),
        BadInput(
            "scenario with an SDK version its platform never had", ["run", "$DIR/s.json"], .dataError,
            "Android SDK 3.0 is not a version paylinks knows; known: 1.0-1.5 (G1), 1.6-1.x (G2), 2.0 (G3)",
            files: [
                "s.json": text(
                    #"{"configuration": {"platform": "android", "sdkVersion": "3.0"}, "steps": [{"step": "initialize"}]}"#
                )
            ]),
        BadInput(
            "scenario expecting another platform's callback name", ["run", "$DIR/s.json"], .dataError,
            #""OnInitialized" is not a result of this step (onInitialized or onInitializeFailed)"#,
            files: ["s.json": scenario(#"{"step": "initialize", "expect": {"callback": "OnInitialized"}}"#)]),
        BadInput(
            "misspelled step kind", ["run", "$DIR/s.json"], .dataError, #"did you mean "purchase"?"#,
            files: ["s.json": scenario(#"{"step": "purchse"}"#)]),
        BadInput(
            "misspelled scenario field", ["run", "$DIR/s.json"], .dataError, #"did you mean "outcome"?"#,
            files: ["s.json": scenario(#"{"step": "purchase", "sku": "starter_pack_001", "outcom": "declined"}"#)]),
        BadInput(
            "scenario field of the wrong type", ["run", "$DIR/s.json"], .dataError, "expected a string, got a number",
            files: ["s.json": scenario(#"{"step": "purchase", "sku": 7}"#)]),
        BadInput(
            "scenario without steps", ["run", "$DIR/s.json"], .dataError, #"missing required key "steps""#,
            files: ["s.json": text(#"{"name": "x"}"#)]),
        BadInput(
            "step without its SKU", ["run", "$DIR/s.json"], .dataError, #"missing required key "sku""#,
            files: ["s.json": scenario(#"{"step": "cancel"}"#)]),
        BadInput(
            "scenario with an unknown SKU", ["run", "$DIR/s.json"], .dataError, #"unknown SKU "nope""#,
            files: ["s.json": scenario(#"{"step": "purchase", "sku": "nope"}"#)]),
        BadInput(
            "scenario code of another step", ["run", "$DIR/s.json"], .dataError, "not at this init step",
            files: ["s.json": scenario(#"{"step": "initialize", "error": 3002}"#)]),
        BadInput(
            "scenario with invalid UTF-8", ["run", "$DIR/s.json"], .dataError, "invalid UTF-8",
            files: ["s.json": text(#"{"name": ""#) + [0xFF] + text(#"", "steps": []}"#)]),
        BadInput(
            "deeply nested scenario", ["run", "$DIR/s.json"], .dataError, "nesting deeper than 64 levels",
            files: ["s.json": deeplyNested]),
        BadInput(
            "oversized scenario", ["run", "$DIR/s.json"], .dataError, "larger than the 1 MiB limit",
            files: ["s.json": oversized]),
        BadInput("missing scenario file", ["run", "/nonexistent/s.json"], .noInput, "does not exist"),
        BadInput(
            "directory without scenarios", ["run", "$DIR/folder"], .noInput, "holds no .json scenario files",
            files: ["folder/a.txt": text("{}")]),
        BadInput(
            "standard input twice", ["run", "-", "-"], .usage, "'-' (standard input) is given twice; give it once"),
        BadInput(
            "report in an unknown format", ["run", "s.json", "--report", "junt=r.xml"], .usage,
            "--report takes FORMAT=FILE with a format of junit, json, not 'junt=r.xml'; as in '--report junit=report.xml'; did you mean 'junit'?"
        ),
        BadInput(
            "report without a file", ["run", "s.json", "--report", "junit"], .usage,
            "--report takes FORMAT=FILE with a format of junit, json, not 'junit'"),
        BadInput(
            "matrix key misspelt", ["run", "s.json", "--matrix", "contry=US"], .usage,
            "--matrix has no key 'contry'; keys: country, platform, sdkVersion, generation, paymentMethod, environment; did you mean 'country'?"
        ),
        BadInput(
            "matrix key twice", ["run", "s.json", "--matrix", "country=US", "--matrix", "country=DE"], .usage,
            "--matrix gives country twice; list all its values in one, as in 'country=A,B'"),
        BadInput(
            "matrix without values", ["run", "s.json", "--matrix", "country"], .usage,
            "--matrix takes KEY=V1,V2,... with a key of country, platform, sdkVersion, generation, paymentMethod, environment"
        ),
        BadInput(
            "matrix country that is no code", ["run", "s.json", "--matrix", "country=US,Germany"], .usage,
            "--matrix country: 'Germany' is not an ISO 3166-1 alpha-2 country code; use two letters such as US, GB, DE or JP"
        ),
        BadInput(
            "matrix version its platform never had",
            ["run", "$DIR/s.json", "--matrix", "platform=unity", "--matrix", "sdkVersion=2.9"],
            .usage, "--matrix sdkVersion: Unity SDK 2.9 is not a version paylinks knows",
            files: ["s.json": scenario(#"{"step": "initialize"}"#)]),
        BadInput(
            "two reports to one file", ["run", "s.json", "--report", "junit=r", "--report", "json=r"], .usage,
            "--report names 'r' twice; give each report its own file"),
        BadInput(
            "filter matching no scenario", ["run", "$DIR/s.json", "--filter", "check*"], .usage,
            "no scenario is named like 'check*'; the names are s",
            files: ["s.json": scenario(#"{"step": "initialize"}"#)]),
        BadInput(
            "PAYLINKS_SEED that is not a number", ["init"], .usage,
            "PAYLINKS_SEED is '-3': give a number from 0 to 18446744073709551615, or unset it",
            environment: ["PAYLINKS_SEED": "-3"]),
        BadInput(
            "SOURCE_DATE_EPOCH past the last date", ["purchase", "--sku", "starter_pack_001"], .usage,
            "SOURCE_DATE_EPOCH is '253402300800': give Unix seconds from 0 to 253402300799, or unset it",
            environment: ["SOURCE_DATE_EPOCH": "253402300800"]),
        BadInput(
            "unreadable scenario", ["run", "$DIR/s.json"], .noInput, "permission denied",
            files: ["s.json": scenario(#"{"step": "initialize"}"#)], launch: .unprivileged),
    ]

    static let all = usage + fixtures + environment + scenarios
}

/// Every input a user can get wrong, against the built binary: one `error:` line on
/// stderr that names the problem, the documented exit code, and nothing on stdout.
@Suite("Bad input")
@MainActor
struct BadInputTests {
    /// Whether this process can run a command as `nobody`: only root can drop to it, and
    /// only root's files can be locked away from it.
    nonisolated static let canDropPrivileges =
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    @Test(
        "each bad input gets one error line, its exit code and an empty stdout",
        arguments: BadInput.all.filter { $0.launch != .unprivileged })
    func badInput(_ input: BadInput) throws {
        try check(input)
    }

    @Test(
        "each unreadable input, as the user nobody, gets one error line, its exit code and an empty stdout",
        .enabled(if: canDropPrivileges, "needs root and /usr/bin/setpriv to run as nobody"),
        arguments: BadInput.all.filter { $0.launch == .unprivileged })
    func unreadableInput(_ input: BadInput) throws {
        try check(input)
    }

    private func check(_ input: BadInput) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "paylinks-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, bytes) in input.files {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        let substitute = { (text: String) in text.replacingOccurrences(of: "$DIR", with: directory.path) }
        var arguments = input.arguments.map(substitute)
        let environment = input.environment.mapValues(substitute)
        let executable = try BinaryTests.builtExecutable().path
        var launcher: String?
        switch input.launch {
        case .direct:
            break
        case .shell:
            launcher = "/bin/sh"
            arguments = ["-c", "exec '\(executable)' " + arguments.joined(separator: " ")]
        case .unprivileged:
            // Lock the files away from `nobody`; the directory itself stays reachable.
            for name in input.files.keys {
                let path = directory.appendingPathComponent(name).path
                chmod(path, 0o600)
                chmod(
                    directory.appendingPathComponent(name).deletingLastPathComponent().path,
                    name.contains("locked/") ? 0o700 : 0o755)
            }
            chmod(directory.path, 0o755)
            // `nobody` may not reach the build folder: run a copy from the open directory. The
            // copy is written by cp, not by this process: a child another test forks meanwhile
            // would inherit this process's open copy and make its exec fail as busy (ETXTBSY).
            let copy = directory.appendingPathComponent("paylinks-copy")
            let copied = try BinaryTests.run([executable, copy.path], launcher: "/bin/cp")
            #expect(copied.status == 0, "cp: \(copied.stderr)")
            chmod(copy.path, 0o755)
            launcher = "/usr/bin/setpriv"
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", copy.path] + arguments
        }
        let outcome = try BinaryTests.run(arguments, environment: environment, launcher: launcher)
        #expect(outcome.status == input.exitCode.rawValue, "stderr: \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "stdout: \(outcome.stdout.prefix(200))")
        #expect(outcome.stderr.hasPrefix("error: "))
        #expect(outcome.stderr.hasSuffix("\n") && outcome.stderr.filter { $0 == "\n" }.count == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(input.message), "\(outcome.stderr)")
    }
}
