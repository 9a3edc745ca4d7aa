import Foundation
import PaylinksAppcharge
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksJSON
@testable import PaylinksKit

/// What each renderer shows a user.
@Suite("Rendering")
@MainActor
struct RenderingTests {
    @Test(
        "amounts in minor units show with their currency's decimals",
        arguments: [
            (499, "USD", "4.99 USD"), (800, "JPY", "800 JPY"), (5, "EUR", "0.05 EUR"), (1234, "KWD", "1.234 KWD"),
            (149000, "KRW", "149,000 KRW"), (899_900, "INR", "8,999.00 INR"), (0, "USD", "0.00 USD"),
            (-123_456_789, "USD", "-1,234,567.89 USD"), (12345, "CLF", "1.2345 CLF"), (7, "BHD", "0.007 BHD"),
            (Int.min, "JPY", "-9,223,372,036,854,775,808 JPY"), (100, "usd", "1.00 usd"), (100, "JPYX", "1.00 JPYX"),
        ])
    func minorUnits(amount: Int, currency: String, expected: String) {
        #expect(PriceFormatter.formatMinorUnits(amount, currency: currency) == expected)
    }

    @Test("each currency's minor unit, ISO 4217's: none, thousandths and ten-thousandths by name, else hundredths")
    func minorUnitDigits() {
        let digits = [
            0: "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF",
            3: "BHD IQD JOD KWD LYD OMR TND", 4: "CLF UYW", 2: "USD EUR GBP INR BRL MXN CHF AAA ZZZ jpy JP JPYY",
        ]
        for (expected, codes) in digits {
            for code in codes.split(separator: " ") {
                #expect(CurrencyCodes.minorUnitDigits(of: String(code)) == expected, "\(code)")
            }
        }
        #expect(CurrencyCodes.minorUnitScale(of: "KWD") == 1000)
    }

    @Test(
        "one price notation everywhere: the player's price, then the SDK's field",
        arguments: [
            (499, "USD", "$4.99 (price 499 USD)"), (800, "JPY", "¥800 (price 800 JPY)"),
            (899_900, "INR", "₹8,999.00 (price 899900 INR)"), (549, "EUR", "5,49 € (price 549 EUR)"),
            (1234, "KWD", "1.234 KWD (price 1234 KWD)"),
        ])
    func priceText(amount: Int, currency: String, expected: String) {
        #expect(Catalog.builtIn.priceText(minorUnits: amount, currency: currency) == expected)
    }

    @Test("offers and orders write prices the same way")
    func samePriceNotation() throws {
        let offers = runCLI("offers", "--country", "IN").stdout
        let purchase = runCLI("purchase", "--sku", "dragon_hoard_mega", "--country", "IN").stdout
        let notation = Catalog.builtIn.priceText(minorUnits: 899_900, currency: "INR")
        #expect(offers.contains(notation))
        #expect(purchase.contains("price              \(notation)\n"))
    }

    @Test("dates show in UTC")
    func dates() {
        #expect(UTCDate.format(unixSeconds: 1_718_182_312) == "2024-06-12 08:51:52 UTC")
        #expect(UTCDate.format(unixSeconds: 0) == "1970-01-01 00:00:00 UTC")
        #expect(UTCDate.format(unixSeconds: 951_782_400) == "2000-02-29 00:00:00 UTC")
        #expect(UTCDate.format(unixSeconds: OptionSpec.maximumTimestamp) == "9999-12-31 23:59:59 UTC")
    }

    @Test("JSON lines decode with a standard decoder into the SDK's fields, in documented order")
    func jsonShape() throws {
        let result = runCLI("purchase", "--sku", "season_pass_s12", "--country", "BR", "--seed", "3", "--json")
        let line = try #require(result.stdout.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let order = try #require(object["order"] as? [String: Any])
        #expect(order["price"] as? Int == 10990)
        #expect(order["currency"] as? String == "BRL")
        #expect(order["offerName"] as? String == "Season Pass — Season 12")
        let keys = [
            "date", "sessionToken", "offerName", "offerSku", "items", "price", "currency", "customerId",
            "customerCountry", "paymentMethodName", "orderId", "purchaseId",
        ]
        let expectedOrder = keys.map { "\"\($0)\":" }
        var cursor = line.startIndex
        for key in expectedOrder {
            let found = try #require(line.range(of: key, range: cursor..<line.endIndex), "\(key) out of order")
            cursor = found.upperBound
        }
    }

    @Test("the value a scenario's expectations are checked against is the JSON line's, parsed")
    func valueIsTheLine() throws {
        let catalog = try builtInCatalog()
        let pricePoints = try #require(catalog.pricePoints(for: "BR"))
        let order = OrderResponseModel(
            date: 1_718_182_312, sessionToken: "s\"\n", offerName: "Pack — é", offerSku: "starter_pack_001",
            items: [.init(name: "Gems", sku: "gems", quantity: "100"), .init(name: "", sku: "x", quantity: "1")],
            price: 499, currency: "USD", customerId: "cust_1", customerCountry: "US", paymentMethodName: "Visa",
            orderId: "1", purchaseId: "pr_1")
        let error = ACErrorMessage(code: 3002, message: "m\u{1}", data: #"{"status":503}"#)
        let callbacks: [Callback] = [
            .onInitialized, .onInitializeFailed(error: error), .onPricePointsSuccess(pricePoints: pricePoints),
            .onPricePointsFailed(error: error), .onPurchaseSuccess(order: order),
            .onPurchaseFailed(error: error, order: order), .onPurchaseFailed(error: error, order: nil),
            .onPurchaseCanceled(error: error, order: order),
        ]
        for target in [SDKTarget.standard, .defaultTarget(of: .unity), .newest(of: .g1, on: .ios)] {
            let renderer = JSONLinesRenderer(target: target)
            for callback in callbacks {
                let line = renderer.render(callback, tag: nil)
                var written = JSONWriter()
                renderer.value(of: callback).write(to: &written)
                #expect(written.output + "\n" == line, "\(target) \(callback.name)")
                var reparsed = JSONWriter()
                try JSONParser.parse(Array(line.utf8)).write(to: &reparsed)
                #expect(written.output == reparsed.output)
            }
        }
    }

    @Test("onPurchaseFailed carries order null when checkout never opened")
    func nullOrder() {
        let line = JSONLinesRenderer().render(
            .onPurchaseFailed(error: ACErrorMessage(code: 2000, message: "m"), order: nil))
        #expect(line == #"{"callback":"onPurchaseFailed","error":{"code":2000,"message":"m"},"order":null}"# + "\n")
    }

    @Test("error data appears only when present")
    func errorData() {
        let line = JSONLinesRenderer().render(
            .onInitializeFailed(error: ACErrorMessage(code: 1000, message: "m", data: #"{"status":503}"#)))
        #expect(
            line == #"{"callback":"onInitializeFailed","error":{"code":1000,"message":"m","data":"{\"status\":503}"}}"#
                + "\n")
    }

    @Test("text names the status code and keeps control characters on one line")
    func textError() throws {
        let text = TextRenderer(catalog: try builtInCatalog()).render(
            .onPurchaseFailed(error: ACErrorMessage(code: 3002, message: "a\nb"), order: nil))
        #expect(
            text == """
                onPurchaseFailed
                  error  ACErrorMessage
                    code     3002 (CHARGE_CANCELED)
                    message  a\\u{A}b
                  order  (none: checkout never opened)


                """)
    }

    @Test(
        "text shows every C0, DEL, C1, line separator and bidirectional control as \\u{...}: in a block, a table and a log line",
        arguments: [
            0x00, 0x1B, 0x1F, 0x7F, 0x80, 0x85, 0x9B, 0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202E,
            0x2066, 0x2069,
        ] as [UInt32])
    func textEscapes(value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let raw = "a" + String(Character(scalar)) + "b"
        let escaped = "a\\u{\(String(value, radix: 16, uppercase: true))}b"
        let block = TextRenderer(catalog: try builtInCatalog()).render(
            .onPurchaseFailed(error: ACErrorMessage(code: 3002, message: raw), order: nil))
        #expect(block.contains("    message  \(escaped)\n"), "\(block)")
        #expect(!block.unicodeScalars.contains(scalar))
        #expect(TextTable.render(header: ["A"], rows: [[raw]], indent: 0) == "A\n\(escaped)\n")
        #expect(MessageText.oneLine(raw) == escaped)
    }

    @Test("an error that quotes a peer's line feed stays one line; a fixture's problems stay a line each")
    func errorLinesStayLines() {
        let forged = "malformed response: the status line is 'HTTP/1.1 2OO\n::error file=README.md::forged'"
        #expect(
            CLIError.unavailable(forged).message == "error: \(forged.replacingOccurrences(of: "\n", with: "\\u{A}"))")
        var fixture = FixtureError(file: "f.json", position: nil, path: "a", reason: "x\u{2028}y")
        fixture.others = [FixtureError(file: "f.json", position: nil, path: "b", reason: "z")]
        #expect(CLIError.invalidFixture(fixture).message == "error: f.json: a: x\\u{2028}y\nerror: f.json: b: z")
    }

    @Test(
        "text from outside that is not a control shows as it is",
        arguments: [
            "Épée de Dragón — 🐉", "€ → ™ “x”", "\u{A0}\u{A9}\u{AD}", "كنز الذهب", "אוצר", "\u{2010}\u{2030}\u{2070}",
        ])
    func ordinaryText(text: String) throws {
        #expect(MessageText.oneLine(text) == text)
        #expect(TextTable.render(header: ["A"], rows: [[text]], indent: 0) == "A\n\(text)\n")
    }

    @Test("a comment in wire output stays one line, whatever the award endpoint answered")
    func wireComment() {
        var attempt = DeliveryAttempt(number: 1, sentAfter: 0, headers: [])
        attempt.status = 200
        attempt.publisherPurchaseId = "g_1\nfatalError()\u{1B}[2J\u{202E}"
        let line = WireRenderer(target: .standard).render(award: attempt, url: "http://x/award", tag: nil)
        #expect(
            line == #"// award attempt 1 to http://x/award: 200, granted as g_1\u{A}fatalError()\u{1B}[2J\u{202E}"#
                + "\n")
    }

    @Test("table cells keep control characters on their row")
    func tableEscaping() {
        let table = TextTable.render(header: ["A", "B"], rows: [["x\ny", "z"]], indent: 0)
        #expect(table == "A        B\nx\\u{A}y  z\n")
    }
}
