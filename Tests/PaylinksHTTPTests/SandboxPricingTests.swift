import Foundation
import PaylinksAppcharge
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit
import PaylinksSandbox
import Testing

/// The Price Localization API of the sandbox, request by request, without a socket: the
/// lookup, the price points' CRUD, their errors in Appcharge's words, the rate limit, and
/// Create Session's warning when its price is not the lookup's.
@MainActor
@Suite("Sandbox price localization")
struct SandboxPricingTests {
    final class Recorder {
        var now = 1_780_000_000_000
        var logs: [String] = []
    }

    let recorder = Recorder()
    let sandbox: Sandbox

    init() {
        sandbox = Self.sandbox(catalog: .builtIn, recorder: recorder)
    }

    static func sandbox(catalog: Catalog, recorder: Recorder, rateLimit: Int? = nil) -> Sandbox {
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
        settings.rateLimit = rateLimit
        let sandbox = Sandbox(catalog: catalog, settings: settings, clock: { recorder.now })
        sandbox.onLog = { recorder.logs.append($0) }
        return sandbox
    }

    /// The catalog of the documented lookup: Germany in euros at 0.95 a dollar, and no tier
    /// at 6.99, 45.50 or 99.99, so that each is the conversion (PL/get-price-points-for-a-country).
    static let documentedCatalog = Catalog(
        offers: [], statusCodes: [], tiers: ["4.99"],
        localizations: [
            "DE": PriceLocalization(
                country: "DE",
                data: PricePoints.PricingPointData(
                    currencyCode: "EUR", currencySymbol: "€", fractionalSeparator: ",", milSeparator: ".",
                    symbolPosition: "Right", spacing: true, multiplier: 100),
                localizedPrices: ["4.99": 549], taxModel: .included, taxRate: ExactDecimal(significand: 19, scale: 0),
                usdExchangeRate: ExactDecimal("0.95"))
        ])

    static func request(
        _ sandbox: Sandbox, _ method: HTTPMethod, _ path: String, _ body: String = "", token: String? = "token-1"
    ) -> HTTPServerResponse {
        var headers = [HTTPHeader("Content-Type", "application/json")]
        if let token { headers.append(HTTPHeader("x-publisher-token", token)) }
        return sandbox.handleChecked(
            HTTPRequest(
                method: method, path: path, query: "", headers: headers, body: Array(body.utf8), keepAlive: true))
    }

    func request(_ method: HTTPMethod, _ path: String, _ body: String = "", token: String? = "token-1")
        -> HTTPServerResponse
    {
        Self.request(sandbox, method, path, body, token: token)
    }

    static let lookup = "/v1/price-points/localized/lookup"

    @Test("the documented lookup, 699, 4550 and 9999 US cents in Germany, gives the documented euros, byte for byte")
    func documentedExample() {
        let sandbox = Self.sandbox(catalog: Self.documentedCatalog, recorder: recorder)
        let response = Self.request(
            sandbox, .post, Self.lookup, #"{"pricesInUsdCents": [699, 4550, 9999], "countryCode2": "DE"}"#)
        #expect(response.status == 200)
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"{"currencyCode":"EUR","pricePoints":{"699":{"price":664,"displayPrice":"6,64 €"},"#
                + #""4550":{"price":4323,"displayPrice":"43,23 €"},"9999":{"price":9499,"displayPrice":"94,99 €"}}}"#)
    }

    @Test(
        "every documented error of the lookup, and the undocumented cases, byte for byte",
        arguments: [
            (#"[1]"#, 400, "Invalid request body"),
            (#"{"pricesInUsdCents": [699]}"#, 400, "Invalid request body"),
            (#"{"pricesInUsdCents": 699, "countryCode2": "DE"}"#, 400, "Invalid request body"),
            (
                #"{"pricesInUsdCents": [\#((1...51).map(String.init).joined(separator: ","))], "countryCode2": "DE"}"#,
                400, "Too many price points used, maximum is 50"
            ),
            (
                #"{"pricesInUsdCents": [699, 0, "12", 4.5, 699.5, -1], "countryCode2": "DE"}"#, 400,
                #"Invalid priceInUsdCents value: must be a positive integer [0, \"12\", 4.5, 699.5, -1]."#
            ),
            (
                #"{"pricesInUsdCents": [699], "countryCode2": "de"}"#, 400,
                "Invalid countryCode2: must be ISO 3166-1 alpha-2."
            ),
            (
                #"{"pricesInUsdCents": [699], "countryCode2": 49}"#, 400,
                "Invalid countryCode2: must be ISO 3166-1 alpha-2."
            ),
            (#"{"pricesInUsdCents": [699], "countryCode2": "XX"}"#, 400, "countryCode2 XX is not supported."),
        ])
    func lookupErrors(body: String, status: Int, message: String) {
        let response = request(.post, Self.lookup, body)
        #expect(response.status == status)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"message":"\#(message)"}"#)
        // The log says why, in the answer's words (unescaped from the JSON above).
        let words = message.replacingOccurrences(of: #"\""#, with: #"""#)
        #expect(
            recorder.logs.contains { $0.hasPrefix("warning: POST \(Self.lookup) refused: \(words)") },
            "\(recorder.logs)")
    }

    @Test(
        "an Invalid request body keeps Appcharge's words, and the log says what was wrong",
        arguments: [
            (#"{"pricesInUsdCents": [699]}"#, "countryCode2 is missing"),
            (#"{"priceInUsdCents": [699], "countryCode2": "DE"}"#, "pricesInUsdCents is missing or not an array"),
            (#"[699]"#, "the body is not a JSON object"),
            (#"{"pricesInUsdCents": [699], "#, "the body is not JSON: "),
            ("", "the body is empty"),
        ])
    func lookupDetail(body: String, detail: String) {
        let response = request(.post, Self.lookup, body)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"message":"Invalid request body"}"#)
        let line = "warning: POST \(Self.lookup) refused: Invalid request body (\(detail)"
        // What to send follows, but for a text that is not JSON, where the parser's reason does.
        let shape = #"; send {"pricesInUsdCents": [US cents, such as 499], "countryCode2": "DE"})"#
        let showsShape = !detail.hasPrefix("the body is not JSON")
        #expect(
            recorder.logs.contains { $0.hasPrefix(line) && (!showsShape || $0.hasSuffix(shape)) }, "\(recorder.logs)")
    }

    @Test("no prices is no currency; duplicates are one key; a country without a localization is answered in dollars")
    func lookupEdges() {
        #expect(
            String(
                decoding: request(.post, Self.lookup, #"{"pricesInUsdCents": [], "countryCode2": "DE"}"#).body,
                as: UTF8.self)
                == #"{"currencyCode":"","pricePoints":{}}"#)
        #expect(
            String(
                decoding: request(.post, Self.lookup, #"{"pricesInUsdCents": [499, 499, 1250], "countryCode2": "AR"}"#)
                    .body, as: UTF8.self)
                == #"{"currencyCode":"USD","pricePoints":{"499":{"price":499,"displayPrice":"$4.99"},"#
                + #""1250":{"price":1250,"displayPrice":"$12.50"}}}"#)
    }

    @Test(
        "each of the six endpoints answers 401 Unauthorized without the publisher token, or with another",
        arguments: [
            (HTTPMethod.post, "/v1/price-points/localized/lookup"), (.post, "/v1/price-points"),
            (.get, "/v1/price-points"),
            (.get, "/v1/price-points/999"), (.put, "/v1/price-points/999"), (.delete, "/v1/price-points/999"),
        ], ["", "token-2"])
    func unauthorized(endpoint: (method: HTTPMethod, path: String), token: String) {
        let response = request(endpoint.method, endpoint.path, "{}", token: token.isEmpty ? nil : token)
        #expect(response.status == 401)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"message":"Unauthorized"}"#)
    }

    @Test(
        "each documented error of the price points' CRUD, with its status and Appcharge's words",
        arguments: [
            (
                HTTPMethod.post, "/v1/price-points", #"{"priceInUsdCents": 999}"#, 409,
                "Cannot create new pricing. The price point already exists."
            ),
            (.post, "/v1/price-points", #"{"priceInUsdCents": 1299, "extra": 1}"#, 400, "Invalid request body"),
            (.post, "/v1/price-points", #"{"priceInUsdCents": 79}"#, 400, "Invalid request body"),
            (.post, "/v1/price-points", #"{"priceInUsdCents": 12.5}"#, 400, "Invalid request body"),
            (
                .post, "/v1/price-points",
                #"{"priceInUsdCents": 1299, "priceOverrides": [{"countryCode2": "ZZ", "price": 9.99}]}"#,
                400, "Country code ZZ not found in existing custom pricing."
            ),
            (.get, "/v1/price-points/1999999", "", 404, "Price point 1999999 not found."),
            (.get, "/v1/price-points/", "", 404, "Price point not found."),
            (.put, "/v1/price-points/1299", #"{}"#, 404, "Price point 1299 not found."),
            (.put, "/v1/price-points/999", #"{"priceInUsdCents": 1099}"#, 400, "Invalid request body"),
            (
                .put, "/v1/price-points/999", #"{"updatedPriceInUsdCents": 499}"#, 409,
                "Cannot create new pricing. The price point already exists."
            ),
            (.delete, "/v1/price-points/1234", "", 404, "Price point 1234 not found."),
        ])
    func crudErrors(method: HTTPMethod, path: String, body: String, status: Int, message: String) {
        let response = request(method, path, body)
        #expect(response.status == status)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"message":"\#(message)"}"#)
    }

    @Test(
        "a point is created, read, moved, overridden and deleted; the lookup follows it, and the catalog's tiers are points"
    )
    func crud() throws {
        let all = try Self.json(request(.get, "/v1/price-points"))
        let listed = try #require(all["pricePoints"] as? [[String: Any]]).compactMap { $0["priceInUsdCents"] as? Int }
        #expect(listed == [99, 199, 299, 499, 999, 1999, 4999, 9999])
        recorder.now += 1500
        let created = request(
            .post, "/v1/price-points",
            #"{"priceInUsdCents": 1299, "priceOverrides": [{"countryCode2": "BR", "price": 59.9}]}"#)
        #expect(created.status == 201)
        let point = try Self.json(created)
        #expect(point["lastUpdate"] as? String == "2026-05-28T20:26:41.500Z")
        let rows = try #require(point["priceByCountry"] as? [[String: Any]])
        let germany = try #require(rows.first { $0["countryCode2"] as? String == "DE" })
        #expect(germany["price"] as? Double == 12.34)
        #expect(germany["taxModel"] as? String == "Included")
        #expect(germany["usdExchangeRateOnCalc"] as? Double == 0.95)
        #expect(germany["exchangeRateDrift"] as? String == "0%")
        #expect(germany["isOverridden"] as? Bool == false)
        let brazil = try #require(rows.first { $0["countryCode2"] as? String == "BR" })
        #expect(brazil["price"] as? Double == 59.9)
        #expect(brazil["isOverridden"] as? Bool == true)
        #expect(
            String(
                decoding: request(.post, Self.lookup, #"{"pricesInUsdCents": [1299], "countryCode2": "BR"}"#).body,
                as: UTF8.self)
                == #"{"currencyCode":"BRL","pricePoints":{"1299":{"price":5990,"displayPrice":"R$ 59,90"}}}"#)
        let moved = request(.put, "/v1/price-points/1299", #"{"updatedPriceInUsdCents": 1399}"#)
        #expect(moved.status == 200)
        #expect(request(.get, "/v1/price-points/1299").status == 404)
        #expect(request(.get, "/v1/price-points/1399").status == 200)
        let deleted = request(.delete, "/v1/price-points/1399")
        #expect(deleted.status == 200)
        #expect(try Self.json(deleted)["priceInUsdCents"] as? Int == 1399)
        #expect(request(.get, "/v1/price-points/1399").status == 404)
    }

    @Test(
        "an override that is not a whole number of its currency's minor units, or is below one, is 400 and changes nothing",
        arguments: [
            (HTTPMethod.post, #"{"priceInUsdCents":7000,"priceOverrides":[{"countryCode2":"DE","price":0.004}]}"#),
            (.post, #"{"priceInUsdCents":7000,"priceOverrides":[{"countryCode2":"DE","price":0.001}]}"#),
            (.post, #"{"priceInUsdCents":7000,"priceOverrides":[{"countryCode2":"BR","price":29.999}]}"#),
            (.post, #"{"priceInUsdCents":7000,"priceOverrides":[{"countryCode2":"JP","price":1500.5}]}"#),
            (.put, #"{"priceOverrides":[{"countryCode2":"US","price":0.004}]}"#),
        ])
    func inexactOverride(method: HTTPMethod, body: String) throws {
        let path = method == .post ? "/v1/price-points" : "/v1/price-points/9999"
        let refused = request(method, path, body)
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self) == #"{"message":"Invalid request body"}"#)
        // No point priced 0: the created one does not exist, the updated one keeps the catalog's price.
        #expect(request(.get, "/v1/price-points/7000").status == 404)
        #expect(
            String(
                decoding: request(.post, Self.lookup, #"{"pricesInUsdCents": [9999], "countryCode2": "US"}"#).body,
                as: UTF8.self)
                == #"{"currencyCode":"USD","pricePoints":{"9999":{"price":9999,"displayPrice":"$99.99"}}}"#)
    }

    @Test(
        "an override's price is read exactly however JSON spells it, an exponent too",
        arguments: [
            ("30", 3000), ("30.0", 3000), ("3e1", 3000), ("3E+1", 3000), ("300e-1", 3000), ("0.3e2", 3000),
            ("29.99", 2999), ("2999e-2", 2999), ("2.999e1", 2999), ("29.990000000", 2999),
        ])
    func overrideSpellings(price: String, minorUnits: Int) throws {
        let updated = request(
            .put, "/v1/price-points/9999", #"{"priceOverrides":[{"countryCode2":"BR","price":\#(price)}]}"#)
        #expect(updated.status == 200, "\(String(decoding: updated.body, as: UTF8.self))")
        let looked = try Self.json(request(.post, Self.lookup, #"{"pricesInUsdCents": [9999], "countryCode2": "BR"}"#))
        let point = try #require((looked["pricePoints"] as? [String: Any])?["9999"] as? [String: Any])
        #expect(point["price"] as? Int == minorUnits)
    }

    @Test(
        "an override of zero, below zero, or past a cent however spelled is Appcharge's 400 Invalid request body",
        arguments: ["0", "0.0", "0e5", "-0", "-30", "-3e1", "2999e-3", "1e-999999", "1e999999999", "-1e999999999"])
    func overrideRefused(price: String) {
        let refused = request(
            .put, "/v1/price-points/9999", #"{"priceOverrides":[{"countryCode2":"BR","price":\#(price)}]}"#)
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self) == #"{"message":"Invalid request body"}"#)
    }

    @Test("an override of whole yen, a currency without minor digits, is taken as it is given")
    func yenOverride() throws {
        let created = request(
            .post, "/v1/price-points",
            #"{"priceInUsdCents":7000,"priceOverrides":[{"countryCode2":"JP","price":1500}]}"#)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        let looked = try Self.json(
            request(.post, Self.lookup, #"{"pricesInUsdCents": [7000], "countryCode2": "JP"}"#))
        let point = try #require((looked["pricePoints"] as? [String: Any])?["7000"] as? [String: Any])
        #expect(point["price"] as? Int == 1500)
    }

    @Test("an override the fixtures no longer take, of a country they lack or below a cent, is dropped at a restart")
    func overrideDroppedOnRestore() throws {
        let text =
            #"{"priceInUsdCents":1299,"lastUpdate":1780000000000,"fromCatalog":false,"priceOverrides":["#
            + #"{"countryCode2":"ZZ","price":9.99},{"countryCode2":"DE","price":0.004},{"countryCode2":"BR","price":59.9}]}"#
        let record = try PricePointBook.Record(json: try JSONParser.parse(Array(text.utf8)))
        sandbox.restore(.pricePoint(record))
        #expect(sandbox.snapshot.pricePoints.first?.point?.overrides.map(\.country) == ["BR"])
        // Germany is priced from the exchange rate again, 12.99 × 0.95, not 0.
        #expect(
            String(
                decoding: request(.post, Self.lookup, #"{"pricesInUsdCents": [1299], "countryCode2": "DE"}"#).body,
                as: UTF8.self)
                == #"{"currencyCode":"EUR","pricePoints":{"1299":{"price":1234,"displayPrice":"12,34 €"}}}"#)
        #expect(
            String(
                decoding: request(.post, Self.lookup, #"{"pricesInUsdCents": [1299], "countryCode2": "BR"}"#).body,
                as: UTF8.self)
                == #"{"currencyCode":"BRL","pricePoints":{"1299":{"price":5990,"displayPrice":"R$ 59,90"}}}"#)
    }

    @Test("a tier of whole dollars, \"5.00\", is priced as the fixture prices it, not converted")
    func wholeDollarTier() {
        let catalog = Catalog(
            offers: [], statusCodes: [], tiers: ["5.00"],
            localizations: [
                "DE": PriceLocalization(
                    country: "DE",
                    data: PricePoints.PricingPointData(
                        currencyCode: "EUR", currencySymbol: "€", fractionalSeparator: ",", milSeparator: ".",
                        symbolPosition: "Right", spacing: true, multiplier: 100),
                    localizedPrices: ["5.00": 549], taxModel: .included,
                    taxRate: ExactDecimal(significand: 19, scale: 0), usdExchangeRate: ExactDecimal("0.95"))
            ])
        let sandbox = Self.sandbox(catalog: catalog, recorder: recorder)
        let looked = Self.request(sandbox, .post, Self.lookup, #"{"pricesInUsdCents": [500], "countryCode2": "DE"}"#)
        // Converted, it would be 5.00 × 0.95: 475.
        #expect(
            String(decoding: looked.body, as: UTF8.self)
                == #"{"currencyCode":"EUR","pricePoints":{"500":{"price":549,"displayPrice":"5,49 €"}}}"#)
    }

    @Test("a price point made through the API replaces the catalog's tier for the lookup")
    func createdOverridesTier() {
        #expect(request(.delete, "/v1/price-points/999").status == 200)
        #expect(request(.post, "/v1/price-points", #"{"priceInUsdCents": 999}"#).status == 201)
        // 9.99 × 0.95 = 9.4905 euros, not the fixture's 10.99.
        #expect(
            String(
                decoding: request(.post, Self.lookup, #"{"pricesInUsdCents": [999], "countryCode2": "DE"}"#).body,
                as: UTF8.self)
                == #"{"currencyCode":"EUR","pricePoints":{"999":{"price":949,"displayPrice":"9,49 €"}}}"#)
    }

    @Test("the price points go into the journal and come back from it, and a reset forgets them")
    func journal() throws {
        let journal = InMemorySandboxJournal(seed: 7)
        sandbox.persist = { [sandbox] in journal.keep($0, live: { sandbox.journalContents }) }
        #expect(request(.post, "/v1/price-points", #"{"priceInUsdCents": 1299}"#).status == 201)
        #expect(request(.delete, "/v1/price-points/499").status == 200)
        journal.refusal = "the disk is full"
        #expect(request(.delete, "/v1/price-points/999").status == 503)
        #expect(request(.get, "/v1/price-points/999").status == 200)
        let again = Self.sandbox(catalog: .builtIn, recorder: recorder)
        journal.restore(into: again)
        #expect(Self.request(again, .get, "/v1/price-points/1299").status == 200)
        #expect(Self.request(again, .get, "/v1/price-points/499").status == 404)
        #expect(Self.request(again, .get, "/v1/price-points/999").status == 200)
        #expect(again.snapshot.pricePoints.count == 2)
        #expect(Self.request(again, .post, "/control/v1/reset", "{}").status == 200)
        #expect(Self.request(again, .get, "/v1/price-points/499").status == 200)
        #expect(Self.request(again, .get, "/v1/price-points/1299").status == 404)
    }

    @Test("a price point change the journal cannot keep is 503 and changes nothing, then or after a restart")
    func changeNotKept() {
        let journal = InMemorySandboxJournal(seed: 7)
        sandbox.persist = { [sandbox] in journal.keep($0, live: { sandbox.journalContents }) }
        journal.refusal = "the disk is full"
        #expect(request(.post, "/v1/price-points", #"{"priceInUsdCents": 1299}"#).status == 503)
        #expect(request(.put, "/v1/price-points/499", #"{"updatedPriceInUsdCents": 599}"#).status == 503)
        #expect(request(.delete, "/v1/price-points/999").status == 503)
        for (cents, status) in [(1299, 404), (499, 200), (599, 404), (999, 200)] {
            #expect(request(.get, "/v1/price-points/\(cents)").status == status, "\(cents)")
        }
        #expect(sandbox.snapshot.pricePoints.isEmpty)
        #expect(!recorder.logs.contains { $0.hasPrefix("price point") }, "\(recorder.logs)")
        // The next change that is kept carries nothing of the refused ones.
        journal.refusal = nil
        #expect(request(.post, "/v1/price-points", #"{"priceInUsdCents": 1399}"#).status == 201)
        let again = Self.sandbox(catalog: .builtIn, recorder: recorder)
        journal.restore(into: again)
        #expect(again.snapshot.pricePoints.map(\.cents) == [1399])
        for (cents, status) in [(1299, 404), (499, 200), (599, 404), (999, 200), (1399, 200)] {
            #expect(Self.request(again, .get, "/v1/price-points/\(cents)").status == status, "\(cents)")
        }
    }

    @Test("past --rate-limit a token is refused 429 on every API the game's server calls, until its minute slides by")
    func rateLimit() {
        let sandbox = Self.sandbox(catalog: .builtIn, recorder: recorder, rateLimit: 3)
        let body = #"{"pricesInUsdCents": [499], "countryCode2": "DE"}"#
        for _ in 0..<2 { #expect(Self.request(sandbox, .post, Self.lookup, body).status == 200) }
        recorder.now += 30_000
        #expect(Self.request(sandbox, .get, "/v1/price-points").status == 200)
        for path in [Self.lookup, "/checkout/v1/session", "/reporting/reports/orders"] {
            let refused = Self.request(sandbox, .post, path, body)
            #expect(refused.status == 429)
            #expect(String(decoding: refused.body, as: UTF8.self) == #"{"message":"Rate limit exceeded."}"#)
            #expect(
                !refused.headers.contains { $0.name.lowercased().hasPrefix("x-ratelimit") || $0.name == "Retry-After" })
            // The log says why, and what to change.
            #expect(
                recorder.logs.contains(
                    "warning: POST \(path) refused 429: past --rate-limit's 3 requests in 60 seconds of the sandbox's "
                        + "clock; send fewer, or raise --rate-limit"))
        }
        // A token the sandbox does not know is refused for that, not counted; the control API is never limited.
        #expect(Self.request(sandbox, .post, Self.lookup, body, token: "token-2").status == 401)
        #expect(Self.request(sandbox, .get, "/control/v1/health").status == 200)
        // The first two leave the window; the refused ones, counted, are still in it.
        recorder.now += 30_001
        #expect(Self.request(sandbox, .post, Self.lookup, body).status == 429)
        recorder.now += 30_000
        #expect(Self.request(sandbox, .post, Self.lookup, body).status == 200)
    }

    @Test("without --rate-limit nothing is limited")
    func noRateLimit() {
        for _ in 0..<200 {
            #expect(request(.get, "/v1/price-points").status == 200)
        }
    }

    static func session(currency: String, price: Int, country: String, pricePoint: Int?) -> String {
        let metadata = pricePoint.map { #", "pricePointMetadata": \#($0)"# } ?? ""
        return #"""
            {"priceDetails": {"price": \#(price), "currency": "\#(currency)"},
             "offer": {"name": "Starter Pack", "sku": "starter_pack_001"\#(metadata)},
             "items": [{"name": "Gems", "sku": "gem_01", "quantity": 100}],
             "customer": {"id": "cust_1"}, "countryCode2": "\#(country)"}
            """#
    }

    static func json(_ response: HTTPServerResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test(
        "Create Session warns, and still creates, when its price or currency is not the lookup's for its country",
        arguments: [
            ("USD", 499, "DE", 499, true), ("EUR", 499, "DE", 499, true), ("EUR", 549, "DE", 499, false),
            ("JPY", 1500, "JP", 999, false), ("USD", 499, "JP", nil, false), ("USD", 1250, "AR", 1250, false),
            // A free order is priced 0 on purpose, whatever its offer's price point.
            ("EUR", 0, "DE", 499, false),
            ("EUR", 1099, "DE", 0, false),
        ] as [(String, Int, String, Int?, Bool)])
    func sessionWarning(currency: String, price: Int, country: String, pricePoint: Int?, warns: Bool) throws {
        let created = request(
            .post, "/checkout/v1/session",
            Self.session(currency: currency, price: price, country: country, pricePoint: pricePoint))
        #expect(created.status == 201)
        let purchaseId = try #require(try Self.json(created)["purchaseId"] as? String)
        let state = try Self.json(request(.get, "/control/v1/sessions/\(purchaseId)"))
        let warnings = state["warnings"] as? [String] ?? []
        let logged = recorder.logs.filter { $0.hasPrefix("warning: session \(purchaseId):") }
        #expect(warnings.count == (warns ? 1 : 0))
        #expect(logged.count == (warns ? 1 : 0))
        if warns {
            let warning = try #require(warnings.first)
            #expect(warning.contains(#"{"price": 549, "currencyCode": "EUR"}, shown 5,49 €"#), "\(warning)")
            #expect(logged.first == "warning: session \(purchaseId): \(warning)")
            let page = sandbox.handleChecked(
                HTTPRequest(
                    method: .get, path: "/orders/\(purchaseId)", query: "",
                    headers: [HTTPHeader("Host", "127.0.0.1:4010")],
                    body: [], keepAlive: true))
            #expect(String(decoding: page.body, as: UTF8.self).contains("warning: priceDetails {&quot;price&quot;"))
        }
    }
}
