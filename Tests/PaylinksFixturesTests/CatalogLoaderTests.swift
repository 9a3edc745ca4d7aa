import Foundation
import Testing

@testable import PaylinksFixtures
@testable import PaylinksKit

/// The built-in fixtures, and the checks that refuse broken ones.
@Suite("Fixtures and catalog")
struct CatalogLoaderTests {
    @Test("starter_pack_001 is exactly the documented example")
    func starterPack() throws {
        let offer = try #require(try builtInCatalog().offer(sku: "starter_pack_001"))
        #expect(offer.name == "Starter Pack")
        #expect(offer.items == [.init(name: "Gems", sku: "gem_01", quantity: "100")])
        #expect(offer.basePriceInUSD == "4.99")
    }

    @Test("the store has bundles, a cheap offer and an expensive one, each at one of the tiers")
    func offers() throws {
        let catalog = try builtInCatalog()
        #expect(catalog.offers.contains { $0.items.count >= 3 })
        #expect(catalog.offers.contains { $0.basePriceInUSD == "0.99" })
        #expect(catalog.offers.contains { $0.basePriceInUSD == "99.99" })
        for offer in catalog.offers { #expect(catalog.tiers.contains(offer.basePriceInUSD)) }
    }

    @Test("every code of the contract's current table is in the catalog, on its callbacks")
    func statusCodes() throws {
        let catalog = try builtInCatalog()
        let table: [Int: String] = [
            1000: "SERVER_ERROR", 1001: "GENERAL_SERVER_ERROR", 1007: "TOKEN_VALIDATION_ERROR",
            2000: "BOOT_INITIALIZATION_ERROR", 2001: "BOOT_ENVIRONMENT_ERROR", 2002: "BOOT_TOKEN_ERROR",
            2003: "BOOT_CUSTOMER_ID_ERROR", 2004: "REDIRECT_URL_CONFIG_ERROR", 3000: "BROWSER_CLOSED",
            3002: "CHARGE_CANCELED", 3003: "CHARGE_FAILED", 3004: "VALIDATE_ORDER_TIMEOUT", 3005: "PURCHASE_NOT_FOUND",
            3006: "VALIDATE_ORDER_ENV_FAILED", 3007: "CUSTOMER_VALIDATION_FAILED",
            4000: "BROWSER_DISABLED_OR_NOT_AVAILABLE", 4002: "BROWSER_COULD_NOT_BE_OPENED",
        ]
        #expect(Set(catalog.statusCodes.map(\.code)) == Set(table.keys))
        for code in catalog.statusCodes {
            #expect(table[code.code] == code.name)
            if code.code >= 3000 { #expect(code.callbacks == [.onPurchaseFailed]) }
            // 2000 also answers a request made before initialize succeeded, on that request's callback.
            if (2001..<3000).contains(code.code) { #expect(code.callbacks == [.onInitializeFailed]) }
            if code.code == 2000 { #expect(code.callbacks.first == .onInitializeFailed) }
        }
        #expect(
            catalog.statusCode(3002)?.message == "Purchase canceled because the user closed the checkout interface.")
    }

    @Test("price points are localized for countries with different conventions")
    func localizations() throws {
        let catalog = try builtInCatalog()
        for country in ["US", "GB", "DE", "FR", "JP", "BR", "IN", "KR"] {
            #expect(catalog.localizations[country] != nil, "\(country)")
        }
        let formatted = { (country: String) in
            catalog.pricePoints(for: country)?.pricingPoints.first { $0.basePriceInUSD == "99.99" }?.formattedPrice
        }
        #expect(formatted("US") == "$99.99")
        #expect(formatted("DE") == "109,99 €")
        #expect(formatted("FR") == "109,99 €")
        #expect(formatted("JP") == "¥15,800")
        #expect(formatted("BR") == "R$ 549,90")
        #expect(formatted("KR") == "₩149,000")
        #expect(formatted("CH") == "CHF 100.00")
        #expect(catalog.pricePoints(for: "IN")?.pricingPoints.last?.formattedPrice == "₹8,999.00")
    }

    @Test("a missing country falls back to the US localization")
    func fallback() throws {
        let catalog = try builtInCatalog()
        #expect(catalog.pricePoints(for: "NZ") == catalog.pricePoints(for: "US"))
    }

    @Test(
        "broken fixtures are refused with the file, the place and the reason",
        arguments: [
            (FixtureFile.offers, "{\"offers\": [}", "1:13", "expected a value"),
            (.offers, "", "1:1", "empty"),
            (.offers, "{\"offers\": []}", "1:12", "at least one offer"),
            (
                .offers,
                "{\"offers\": [{\"sku\": \"a\", \"name\": \"A\", \"basePriceInUSD\": \"4.99\", \"items\": [], \"color\": 1}]}",
                "1:78", "unknown key \"color\""
            ),
            (
                .offers,
                "{\"offers\": [{\"sku\": \"a\", \"nmae\": \"A\", \"basePriceInUSD\": \"4.99\", \"items\": []}]}",
                "1:26", "did you mean \"name\"?"
            ),
            (
                .offers,
                "{\"offers\": [{\"sku\": \"a\", \"name\": \"A\", \"basePriceInUSD\": \"4.99\", \"items\": []}]}",
                "1:74", "at least one item"
            ),
            (
                .offers,
                "{\"offers\": [{\"sku\": \"a\", \"name\": \"A\", \"basePriceInUSD\": \"5.00\", \"items\": [{\"name\": \"G\", \"sku\": \"g\", \"quantity\": \"1\"}]}]}",
                "1:57", "not a price tier"
            ),
            (
                .offers, "{\"offers\": [{\"sku\": 5, \"name\": \"A\", \"basePriceInUSD\": \"4.99\", \"items\": []}]}",
                "1:21", "expected a string, got a number"
            ),
            (
                .offers, "{\"offers\": [{\"name\": \"A\", \"basePriceInUSD\": \"4.99\", \"items\": []}]}", "1:13",
                "missing required key \"sku\""
            ),
            (
                .offers,
                "{\"offers\": [{\"sku\": \"a\", \"name\": \"A\", \"basePriceInUSD\": \"4.99\", \"items\": [{\"name\": \"G\", \"sku\": \"g\", \"quantity\": \"-1\"}]}]}",
                "1:113", "positive whole number"
            ),
            (
                .statusCodes,
                "{\"statusCodes\": [{\"code\": 3002, \"name\": \"X\", \"meaning\": \"m\", \"message\": \"m\", \"callbacks\": [\"onPurchaseFail\"]}]}",
                "1:92", "did you mean \"onPurchaseFailed\"?"
            ),
            (.statusCodes, "{\"statusCodes\": []}", "1:17", "missing code 2000"),
            (.pricePoints, "{\"tiers\": [\"4.99\", \"0.99\"], \"localizations\": []}", "1:20", "ascending"),
            (
                .pricePoints,
                "{\"tiers\": [\"4.99\"], \"localizations\": [{\"country\": \"US\", \"currencyCode\": \"USD\", \"currencySymbol\": \"$\", \"fractionalSeparator\": \".\", \"milSeparator\": \",\", \"symbolPosition\": \"Left\", \"spacing\": false, \"multiplier\": 100, \"localizedPrices\": {}}]}",
                "1:234", "no price for the tier \"4.99\""
            ),
            (
                .pricePoints,
                "{\"tiers\": [\"4.99\"], \"localizations\": [{\"country\": \"US\", \"currencyCode\": \"USX\", \"currencySymbol\": \"$\", \"fractionalSeparator\": \".\", \"milSeparator\": \",\", \"symbolPosition\": \"Left\", \"spacing\": false, \"multiplier\": 100, \"localizedPrices\": {\"4.99\": \"499\"}}]}",
                "1:73", "not an ISO 4217"
            ),
        ])
    func brokenFixtures(file: FixtureFile, text: String, position: String, reason: String) throws {
        let error = try #require(fixtureError(replacing: file, with: text))
        #expect(error.file == file.rawValue)
        // Among the file's problems, the one meant, at its place.
        let problem = error.problems.first { $0.reason.contains(reason) }
        #expect(problem?.position?.description == position, "\(error)")
    }

    @Test("every problem in a fixture file is reported in one run, each at its place, the unknown key at the key")
    func everyProblem() throws {
        let text = """
            {"offers": [
              {"sku": "a", "name": "", "basePriceInUSD": "4.99", "items": [{"name": "I", "sku": "i", "quantity": "1"}]},
              {"sku": "b", "name": "B", "basePriceInUSD": "5.00", "items": [{"name": "I", "sku": "i", "quantity": "1"}]},
              {"sku": "c", "name": "C", "basePriceInUSD": "4.99", "itmes": []}
            ]}
            """
        let error = try #require(fixtureError(replacing: .offers, with: text))
        #expect(
            error.problems.map { "\($0.position?.description ?? "-") \($0.path ?? "")" } == [
                "2:24 offers[0].name", "3:47 offers[1].basePriceInUSD", "4:55 offers[2].itmes",
            ], "the missing items follow from the misspelling and are not reported again")
    }

    @Test(
        "the tier 0.00 is free, priced 0 in every country; any other tier's price is more than 0",
        arguments: [
            (#"{"0.00": "5", "0.99": "99"}"#, "the tier 0.00 is free"),
            (#"{"0.00": "0", "0.99": "0"}"#, "positive whole number"),
        ])
    func freeTier(prices: String, reason: String) throws {
        let text = #"""
            {"tiers": ["0.00", "0.99"], "localizations": [{"country": "US", "currencyCode": "USD", "currencySymbol": "$",
              "fractionalSeparator": ".", "milSeparator": ",", "symbolPosition": "Left", "spacing": false,
              "multiplier": 100, "localizedPrices": \#(prices)}]}
            """#
        let error = try #require(fixtureError(replacing: .pricePoints, with: text))
        #expect(error.reason.contains(reason), "\(error.reason)")
    }

    @Test("a localization that cannot be read is not reported again as a missing fallback")
    func noCascade() throws {
        let text = #"""
            {"tiers": ["0.99"], "localizations": [{"country": "US", "currencyCode": "USD", "currencySymbol": "$",
              "fractionalSeparator": ".", "milSeparator": ",", "symbolPosition": "Left", "spacing": false,
              "multiplier": 100, "localizedPrices": {"0.99": "-99"}}]}
            """#
        let error = try #require(fixtureError(replacing: .pricePoints, with: text))
        #expect(error.problems.count == 1)
        #expect(error.reason.contains("positive whole number"))
    }

    @Test(
        "a localization's tax model, tax rate and dollar rate are read exactly, and a wrong one is refused at its place",
        arguments: [
            (#""taxModel": "Inclusive""#, "expected \"Included\" or \"Excluded\", got \"Inclusive\""),
            (#""taxRate": 101"#, "101 is out of range; expected 0 to 100"),
            (#""taxRate": "19""#, "expected a tax rate in percent"),
            (#""usdExchangeRateOnCalc": 0"#, "must be more than 0"),
            (#""usdExchangeRateOnCalc": 1e3"#, "the local units one US dollar buys"),
            (#""usdExchangeRateOnCalc": 0.1234567"#, "at most 6 digits after the point"),
        ])
    func taxTerms(field: String, reason: String) throws {
        let text = #"""
            {"tiers": ["0.99"], "localizations": [{"country": "US", "currencyCode": "USD", "currencySymbol": "$",
              "fractionalSeparator": ".", "milSeparator": ",", "symbolPosition": "Left", "spacing": false,
              "multiplier": 100, "localizedPrices": {"0.99": "99"}, \#(field)}]}
            """#
        let error = try #require(fixtureError(replacing: .pricePoints, with: text))
        #expect(error.problems.count == 1)
        #expect(error.reason.contains(reason), "\(error)")
        #expect(error.problems.first?.path?.hasSuffix(String(field.dropFirst().prefix { $0 != "\"" })) == true)
    }

    @Test("the built-in fixtures give each country its tax and dollar rate, figured exactly")
    func builtInTaxTerms() throws {
        let catalog = try builtInCatalog()
        let germany = try #require(catalog.localizations["DE"])
        #expect(germany.taxModel == .included)
        #expect(germany.taxRate == ExactDecimal(significand: 19, scale: 0))
        #expect(germany.usdExchangeRate == ExactDecimal("0.95"))
        let states = try #require(catalog.localizations["US"])
        #expect(states.taxModel == .excluded)
        #expect(states.taxRate.description == "8.875")
        #expect(ExactDecimal("1.50") == ExactDecimal("1.5"))
        #expect(ExactDecimal("-1") == nil && ExactDecimal("1.") == nil && ExactDecimal(".5") == nil)
    }

    @Test("past twenty problems, the rest are counted, not listed")
    func problemLimit() throws {
        // Two problems an offer: the name and the items.
        let offers = (0..<25).map { #"{"sku": "s\#($0)", "name": "", "basePriceInUSD": "4.99", "items": []}"# }
        let error = try #require(
            fixtureError(replacing: .offers, with: #"{"offers": [\#(offers.joined(separator: ","))]}"#))
        #expect(error.problems.count == 20)
        #expect(error.uncounted == 30)
    }

    @Test("a status code's order rule and data template are checked")
    func statusCodeRules() throws {
        func entry(_ extra: String) -> String {
            """
            {"statusCodes": [{"code": 3002, "name": "CHARGE_CANCELED", "meaning": "m", "message": "m",
              "callbacks": ["onPurchaseFailed"]\(extra)}]}
            """
        }
        let rule = try #require(fixtureError(replacing: .statusCodes, with: entry(#", "orderAtFailure": "partial""#)))
        #expect(rule.reason.contains("expected one of none, checkout, payment"))
        let placeholder = try #require(
            fixtureError(replacing: .statusCodes, with: entry(#", "data": "{\"a\":\"${nope}\"}""#)))
        #expect(placeholder.reason.contains("unknown placeholder ${nope}"))
        let invalid = try #require(fixtureError(replacing: .statusCodes, with: entry(#", "data": "{\"a\":""#)))
        #expect(invalid.reason.contains("not valid JSON"))
    }

    @Test("data placeholders are filled with JSON-escaped values")
    func dataEscaping() {
        let code = StatusCode(
            code: 3007, name: "X", meaning: "m", message: "m", callbacks: [.onPurchaseFailed],
            dataTemplate: #"{"id":"${orderCustomerId}"}"#)
        #expect(code.error(details: ["orderCustomerId": "a\"b\\c"]).data == #"{"id":"a\"b\\c"}"#)
    }

    @Test("duplicate keys and SKUs are refused")
    func duplicates() throws {
        let item = "[{\"name\": \"G\", \"sku\": \"g\", \"quantity\": \"1\"}]"
        let offer = "{\"sku\": \"a\", \"name\": \"A\", \"basePriceInUSD\": \"4.99\", \"items\": \(item)}"
        #expect(
            fixtureError(replacing: .offers, with: "{\"offers\": [\(offer), \(offer)]}")?.reason.contains(
                "duplicate SKU") == true)
        #expect(
            fixtureError(replacing: .offers, with: "{\"offers\": [], \"offers\": []}")?.reason.contains("duplicate key")
                == true)
        #expect(fixtureError(replacing: .offers, with: "{\"offers\": [\(offer)]}") == nil)
    }
}
