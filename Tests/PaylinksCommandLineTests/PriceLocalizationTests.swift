import ContractChecks
import Foundation
import PaylinksAppcharge
import PaylinksHTTP
import PaylinksSandbox
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksKit

/// `serve`'s Price Localization API against the rest of paylinks: the lookup gives what
/// `paylinks price-points` gives the client, and the price points survive a restart
/// with `--data`.
@Suite("serve's price localization", .serialized)
struct PriceLocalizationTests {
    /// Every tier of `country` as `paylinks price-points --country COUNTRY --json` gives it,
    /// by its US cents: its minor units and its formatted price.
    @MainActor
    static func clientPrices(_ country: String) throws -> [Int: (price: Int, display: String)] {
        let run = runCLI("price-points", "--country", country, "--json")
        #expect(run.exitCode == .success)
        let line = try #require(run.stdout.split(separator: "\n").first { $0.contains("onPricePointsSuccess") })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let points = try #require(json["pricePoints"] as? [String: Any])
        let data = try #require(points["pricingPointData"] as? [String: Any])
        let multiplier = try #require(data["multiplier"] as? Int)
        let currency = try #require(data["currencyCode"] as? String)
        var scale = 1
        for _ in 0..<CurrencyCodes.minorUnitDigits(of: currency) { scale *= 10 }
        var prices: [Int: (Int, String)] = [:]
        for point in try #require(points["pricingPoints"] as? [[String: Any]]) {
            let tier = try #require(point["basePriceInUSD"] as? String)
            let base = try #require(ExactDecimal(tier))
            let cents = base.significand * 100 / base.denominator
            let localizedText = try #require(point["localizedPrice"] as? String)
            let localized = try #require(Int(localizedText))
            let formatted = try #require(point["formattedPrice"] as? String)
            prices[cents] = (localized * scale / multiplier, formatted)
        }
        return prices
    }

    @MainActor
    @Test(
        "for every tier and every localized country, the lookup gives the price and text price-points gives the client")
    func lookupIsTheClientsPrice() throws {
        let catalog = Catalog.builtIn
        let sandbox = Sandbox(
            catalog: catalog,
            settings: Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "t", seed: 1),
            clock: { 0 })
        let tiers = catalog.tiers.compactMap(ExactDecimal.init).map { $0.significand * 100 / $0.denominator }
        #expect(tiers.count == 8)
        for country in catalog.localizations.keys.sorted() {
            let client = try Self.clientPrices(country)
            #expect(client.count == tiers.count, "\(country)")
            let request = HTTPRequest(
                method: .post, path: "/v1/price-points/localized/lookup", query: "",
                headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "t")],
                body: Array(#"{"pricesInUsdCents": \#(tiers), "countryCode2": "\#(country)"}"#.utf8),
                keepAlive: true)
            let response = sandbox.handle(request)
            checkContract(request: request, response: response)
            #expect(response.status == 200)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            #expect(json["currencyCode"] as? String == catalog.localizations[country]?.data.currencyCode)
            let points = try #require(json["pricePoints"] as? [String: [String: Any]])
            for cents in tiers {
                let answered = try #require(points[String(cents)], "\(country) \(cents)")
                let expected = try #require(client[cents], "\(country) \(cents)")
                #expect(answered["price"] as? Int == expected.price, "\(country) \(cents)")
                #expect(answered["displayPrice"] as? String == expected.display, "\(country) \(cents)")
            }
        }
    }

    /// A fixture directory whose Germany, in euros at 0.95 a dollar, has no tier at 6.99,
    /// 45.50 or 99.99: the documented lookup's (PL/get-price-points-for-a-country).
    static let documentedFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/documented-lookup").path

    @Test("serve --fixtures with the documented lookup's fixture answers its example byte for byte")
    func documentedExample() throws {
        let sandbox = try SandboxProcess(["--fixtures", Self.documentedFixtures])
        let client = HTTPClient(
            url: try HTTPURL("http://127.0.0.1:\(sandbox.port)/v1/price-points/localized/lookup"), connectTimeout: 5,
            responseTimeout: 10)
        defer { client.close() }
        let response = try client.sendChecked(
            method: .post,
            headers: [
                HTTPHeader("Content-Type", "application/json"),
                HTTPHeader("x-publisher-token", SandboxDataTests.token),
            ],
            body: Array(#"{"pricesInUsdCents": [699, 4550, 9999], "countryCode2": "DE"}"#.utf8))
        #expect(response.status == 200)
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"{"currencyCode":"EUR","pricePoints":{"699":{"price":664,"displayPrice":"6,64 €"},"#
                + #""4550":{"price":4323,"displayPrice":"43,23 €"},"9999":{"price":9499,"displayPrice":"94,99 €"}}}"#)
        #expect(sandbox.stop().status == 0)
    }

    @Test("price points created, updated and deleted come back after a restart with --data, and in an export")
    func restart() throws {
        let data = SandboxDataTests.DataDirectory("prices")
        let first = try SandboxProcess(["--data", data.path])
        let created = try SandboxDataTests.call(
            first.port, .post, "/v1/price-points",
            #"{"priceInUsdCents": 1299, "priceOverrides": [{"countryCode2": "BR", "price": 59.9}]}"#)
        #expect(created.status == 201)
        let updated = try SandboxDataTests.call(
            first.port, .put, "/v1/price-points/999", #"{"priceOverrides": [{"countryCode2": "JP", "price": 1600}]}"#)
        #expect(updated.status == 200)
        #expect(try SandboxDataTests.call(first.port, .delete, "/v1/price-points/499").status == 200)
        let before = try SandboxDataTests.call(first.port, .get, "/v1/price-points/1299")
        let lookup = #"{"pricesInUsdCents": [999, 1299], "countryCode2": "JP"}"#
        let priced = try SandboxDataTests.call(first.port, .post, "/v1/price-points/localized/lookup", lookup)
        #expect(first.stop().status == 0)

        let second = try SandboxProcess(["--data", data.path])
        let after = try SandboxDataTests.call(second.port, .get, "/v1/price-points/1299")
        #expect(after.status == 200)
        #expect(NSDictionary(dictionary: after.json) == NSDictionary(dictionary: before.json))
        #expect(try SandboxDataTests.call(second.port, .get, "/v1/price-points/499").status == 404)
        let again = try SandboxDataTests.call(second.port, .post, "/v1/price-points/localized/lookup", lookup)
        #expect(NSDictionary(dictionary: again.json) == NSDictionary(dictionary: priced.json))
        #expect(
            (again.json["pricePoints"] as? [String: [String: Any]])?["999"]?["price"] as? Int == 1600,
            "the override of 999 in Japan")
        let all = try SandboxDataTests.call(second.port, .get, "/v1/price-points")
        let listed = (all.json["pricePoints"] as? [[String: Any]])?.compactMap { $0["priceInUsdCents"] as? Int }
        #expect(listed == [99, 199, 299, 999, 1299, 1999, 4999, 9999])
        let export = try SandboxStateTests.export(second.port)
        #expect(export.status == 200)
        #expect(second.stop().status == 0)
        let lines = try data.lines()
        #expect(lines.filter { $0.hasPrefix(#"{"pricePoint":"#) }.count == 3, "\(lines)")

        // The export holds them, and serve --import reads them back.
        let exported = String(decoding: export.body, as: UTF8.self).split(separator: "\n")
        #expect(exported.filter { $0.hasPrefix(#"{"pricePoint":"#) }.count == 3, "\(exported)")
        let file = SandboxStateTests.ImportFile("prices", export.body)
        let third = try SandboxProcess(["--import", file.path])
        let imported = try SandboxDataTests.call(third.port, .get, "/v1/price-points/1299")
        #expect(NSDictionary(dictionary: imported.json) == NSDictionary(dictionary: before.json))
        #expect(try SandboxDataTests.call(third.port, .get, "/v1/price-points/499").status == 404)
        #expect(third.stop().status == 0)
    }
}
