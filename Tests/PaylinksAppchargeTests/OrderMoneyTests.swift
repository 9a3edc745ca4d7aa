import Foundation
import PaylinksJSON
import PaylinksKit
import Testing

@testable import PaylinksAppcharge

/// One order's money: the documented orders reproduced, the rounding rule, refunds that
/// reverse it, and every payload writing the same figures.
@Suite("Order money")
struct OrderMoneyTests {
    /// An order of the built-in catalog: its price in `country`'s currency at the $`tier`
    /// price point.
    static func money(_ country: String, tier: String = "9.99", rates: OrderMoney.Rates = .standard) throws
        -> OrderMoney
    {
        let catalog = Catalog.builtIn
        let localization = try #require(catalog.localizations[country])
        let price = try #require(localization.minorUnits(ofTier: tier))
        return OrderMoney(
            price: price, currency: localization.data.currencyCode, pricePoint: GrantAward.cents(tier),
            terms: OrderMoney.Terms(
                catalog: catalog, country: country, currency: localization.data.currencyCode, rates: rates))
    }

    /// The figures of one order, in the order of the reference's table: tax, subTotal,
    /// priceInCents, priceTotalInDollar, taxInDollar, priceInDollar, exchange cost, fee, net.
    static func figures(_ money: OrderMoney) -> [Int] {
        [
            money.tax, money.subTotal, money.priceInCents, money.priceTotalInDollar, money.taxInDollar,
            money.priceInDollar, money.currencyExchangeCost, money.fee, money.net,
        ]
    }

    @Test(
        "the three orders at the $9.99 price point come out as the reference figures them",
        arguments: [
            ("US", [89, 999, 1088, 1088, 89, 999, 0, 150, 849]),
            ("DE", [175, 924, 1099, 1157, 184, 973, 17, 146, 810]),
            ("JP", [136, 1364, 1500, 1000, 91, 909, 15, 136, 758]),
        ])
    func referenceOrders(country: String, expected: [Int]) throws {
        let money = try Self.money(country)
        #expect(Self.figures(money) == expected)
        #expect(money.pricePoint == 999)
    }

    @Test("R rounds once, half up, away from zero for a negative amount, and saturates rather than trap")
    func rounding() {
        #expect(OrderMoney.rounded(43225, times: 1, over: 10) == 4323)
        #expect(OrderMoney.rounded(43224, times: 1, over: 10) == 4322)
        #expect(OrderMoney.rounded(-43225, times: 1, over: 10) == -4323)
        #expect(OrderMoney.rounded(5, times: -1, over: 2) == -3)
        #expect(OrderMoney.rounded(1157, times: 15, over: 1000) == 17)
        #expect(OrderMoney.rounded(7, times: 3, over: 0) == 0)
        #expect(OrderMoney.rounded(Int.max, times: Int.max, over: 1) == Int.max)
        #expect(OrderMoney.rounded(Int.max, times: Int.max, over: Int.max) == Int.max)
        #expect(OrderMoney.rounded(-Int.max, times: Int.max, over: 3) == -Int.max)
    }

    @Test("a price of 0 is zeros throughout in every country, and nothing divides by zero")
    func free() {
        for (country, localization) in Catalog.builtIn.localizations {
            for pricePoint in [nil, 0] as [Int?] {
                let money = OrderMoney(
                    price: 0, currency: localization.data.currencyCode, pricePoint: pricePoint,
                    terms: OrderMoney.Terms(
                        catalog: .builtIn, country: country, currency: localization.data.currencyCode))
                #expect(Self.figures(money).allSatisfy { $0 == 0 } && money.pricePoint == 0, "\(country)")
                #expect(Self.figures(money.reversal(of: 0)).allSatisfy { $0 == 0 })
            }
        }
    }

    @Test("the largest prices and rates do not trap")
    func extremes() {
        let terms = OrderMoney.Terms(
            taxModel: .excluded, taxRate: ExactDecimal(significand: 100, scale: 0),
            usdExchangeRate: ExactDecimal(significand: 1, scale: 6),
            rates: OrderMoney.Rates(
                fee: ExactDecimal(significand: 100, scale: 0), exchangeCost: ExactDecimal(significand: 100, scale: 0)))
        let money = OrderMoney(price: Int.max, currency: "KWD", pricePoint: Int.max, terms: terms)
        #expect(money.priceInCents == Int.max)
        _ = money.reversal(of: Int.max / 3)
    }

    @Test("the dollar's rate: the localization's own, 1 for USD, another localization's for its currency, else none")
    func dollarRate() {
        let catalog = Catalog.builtIn
        #expect(
            OrderMoney.Terms(catalog: catalog, country: "DE", currency: "EUR").usdExchangeRate?.description == "0.95")
        #expect(OrderMoney.Terms(catalog: catalog, country: "DE", currency: "USD").usdExchangeRate?.description == "1")
        #expect(
            OrderMoney.Terms(catalog: catalog, country: "US", currency: "JPY").usdExchangeRate?.description == "150")
        #expect(OrderMoney.Terms(catalog: catalog, country: "US", currency: "SEK").usdExchangeRate == nil)
        // Without a rate the dollar total is the price point, its tax the same share of it.
        let money = OrderMoney(
            price: 10000, currency: "SEK", pricePoint: 999,
            terms: OrderMoney.Terms(
                taxModel: .included, taxRate: ExactDecimal(significand: 25, scale: 0), usdExchangeRate: nil))
        #expect(Self.figures(money) == [2000, 8000, 10000, 999, 200, 799, 15, 120, 664])
    }

    @Test("the fee and exchange-cost rates are the ones given")
    func rates() throws {
        let money = try Self.money(
            "DE",
            rates: OrderMoney.Rates(
                fee: ExactDecimal(significand: 30, scale: 0), exchangeCost: ExactDecimal(significand: 0, scale: 0)))
        #expect(money.fee == 292 && money.currencyExchangeCost == 0 && money.net == 973 - 292)
    }

    // MARK: The German order in each payload

    /// A session of the built-in catalog for `country`'s price of `tier`, paid and awarded,
    /// then acted on by `actions`; with the store it is in.
    static func order(
        _ country: String, tier: String = "9.99", sku: String = "builders_bundle", actions: [OrderLife.Action] = []
    ) throws -> CheckoutSessions.Session {
        let catalog = Catalog.builtIn
        let localization = try #require(catalog.localizations[country])
        let price = try #require(localization.minorUnits(ofTier: tier))
        let body = """
            {"priceDetails": {"price": \(price), "currency": "\(localization.data.currencyCode)"},
             "offer": {"name": "Offer", "sku": "\(sku)", "pricePointMetadata": \(GrantAward.cents(tier))},
             "items": [{"name": "Gems", "sku": "gem_01", "quantity": 100}],
             "customer": {"id": "cust_1"}, "countryCode2": "\(country)"}
            """
        var sessions = CheckoutSessions(catalog: catalog, seed: 1, limit: 10)
        let created = try sessions.create(SessionRequest(Array(body.utf8)), now: 0).0
        _ = sessions.choose(.pay, paymentMethod: "", for: created, now: 5_000)
        _ = sessions.awardDelivered(purchaseId: created.purchaseId, failureData: nil)
        for (index, action) in actions.enumerated() {
            _ = try sessions.act(action, on: created.purchaseId, now: 6_000 + index * 1_000)
        }
        return try #require(sessions.session(purchaseId: created.purchaseId, now: 0).0)
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func event(_ name: OrderEvent.Name, _ version: OrderEvent.Version, of session: CheckoutSessions.Session)
        -> OrderEvent
    {
        OrderEvent(name, of: session, version: version, milliseconds: 8_000, seed: 1, sequence: 3)
    }

    static func ordersReport(_ session: CheckoutSessions.Session) throws -> [String: Any] {
        let report = try object(Reports.orders([session], Reports.OrdersQuery(start: 0, end: Int.max)))
        return try #require((report["results"] as? [[String: Any]])?.first)
    }

    static func transactionsReport(_ session: CheckoutSessions.Session) throws -> [[String: Any]] {
        let report = try object(
            Reports.transactions([session], Reports.TransactionsQuery(start: 0, end: Int.max), query: ""))
        return try #require(report["results"] as? [[String: Any]]).compactMap {
            $0["transactionDetails"] as? [String: Any]
        }
    }

    @Test("the German order, refunded in full, in the award, V2, V1 and both reports")
    func germanOrder() throws {
        let session = try Self.order(
            "DE", actions: [.requestRefund(amount: nil), .processRefund(succeeded: true)])
        #expect(
            Self.text(session.award.body).contains(
                #""priceInCents":1099,"subTotal":924,"tax":175,"taxRate":19,"priceInDollar":973,"taxInDollar":184,"#
                    + #""originalPriceInDollar":999,"paymentPriceInDollar":999,"priceTotalInDollar":1157,"#
                    + #""pricePointMetadata":999,"currency":"EUR","currencyExchangeCost":17,"#
                    + #""estimatedAppchargeFee":146,"estimatedPublisherNetAmount":810,"#))
        let v2 = Self.text(Self.event(.refunded, .v2, of: session).body)
        #expect(
            v2.contains(
                #""order":{"subtotal":924,"discountAmount":0,"totalPayment":1099,"taxAmount":175,"currencyCode":"EUR","#
            ))
        #expect(v2.contains(#""pricePointMetadata":999,"#))
        #expect(
            v2.contains(
                #""type":"paid","timestamp":5000,"amount":"10.99","amountUSD":"11.57","totalTaxAmount":"1.75","#
                    + #""totalTaxAmountUsd":"1.84","currencyExchangeCostUsd":"0.17","chargeBackFeeUsd":"0.00","#))
        #expect(
            v2.contains(
                #""type":"refund","timestamp":7000,"amount":"-10.99","amountUSD":"-11.57","totalTaxAmount":"-1.75","#
                    + #""totalTaxAmountUsd":"-1.84","currencyExchangeCostUsd":"-0.17","chargeBackFeeUsd":"0.00","#))
        let v1 = Self.text(Self.event(.refunded, .v1, of: session).body)
        #expect(
            v1.contains(#""pricePointMetadata":999,"estimatedPublisherNetAmount":8.10,"estimatedAppchargeFee":1.46,"#))
        #expect(
            v1.contains(
                #""originalPriceInDollar":9.99,"country":"DE","currency":"EUR","priceInDollar":9.73,"#
                    + #""priceInCents":1099,"subtotal":924,"tax":175,"#))
        let row = try Self.ordersReport(session)
        let expected: [String: Int] = [
            "priceInCents": 1099, "subTotal": 924, "tax": 175, "taxInDollar": 184, "priceInDollar": 973,
            "currencyExchangeCost": 17, "estimatedAppchargeFee": 146, "estimatedPublisherNetAmount": 810,
            "originalPriceInDollar": 999, "pricePointMetaData": 999, "priceNetInDollar": 810,
        ]
        for (key, value) in expected { #expect(row[key] as? Int == value, "\(key)") }
        let rows = try Self.transactionsReport(session)
        let paid: [String: Int] = [
            "amount": 1099, "amountUsd": 1157, "totalTaxAmount": 175, "totalTaxAmountUsd": 184,
            "currencyExchangeCostUsd": 17, "transactionFeeUsd": 146, "chargebackFeeUsd": 0,
            "publisherNetAmountUsd": 810,
        ]
        #expect(rows.count == 2)
        for (key, value) in paid {
            #expect(rows.first?[key] as? Int == value, "\(key)")
            #expect(rows.last?[key] as? Int == (key == "chargebackFeeUsd" ? 0 : -value), "refund \(key)")
        }
        #expect(rows.first?["currencyCode"] as? String == "EUR" && rows.first?["currencySymbol"] as? String == "€")
    }

    @Test("a lost dispute withdraws the order's parts negated and charges the $15.00 chargeback fee")
    func lostDispute() throws {
        let session = try Self.order("DE", actions: [.openDispute, .resolveDispute(won: false)])
        let rows = try Self.transactionsReport(session)
        #expect(rows.map { $0["type"] as? String } == ["paid", "dispute_funds_withdrawn"])
        #expect(rows.last?["amountUsd"] as? Int == -1157 && rows.last?["chargebackFeeUsd"] as? Int == 1500)
        #expect(rows.last?["publisherNetAmountUsd"] as? Int == -810 - 1500)
        #expect(
            Self.text(Self.event(.disputeLost, .v2, of: session).body).contains(
                #""amount":"-10.99","amountUSD":"-11.57","totalTaxAmount":"-1.75","totalTaxAmountUsd":"-1.84","#
                    + #""currencyExchangeCostUsd":"-0.17","chargeBackFeeUsd":"15.00","#))
    }

    // MARK: Every offer, every country, several refunds

    /// One order of the property test: an offer, a localized country, and the share of its
    /// price refunded.
    struct Case: CustomTestStringConvertible, Sendable {
        var sku: String
        var country: String
        /// The refund, in parts of the price: 1 the whole, 2 half, 3 a third; 0 a single
        /// minor unit; -1 all but one.
        var share: Int

        var testDescription: String { "\(sku) in \(country), refund \(share)" }

        func refund(of price: Int) -> Int {
            switch share {
            case 0: 1
            case -1: max(1, price - 1)
            default: max(1, price / share)
            }
        }
    }

    static let cases: [Case] = Catalog.builtIn.offers.flatMap { offer in
        Catalog.builtIn.localizations.keys.sorted().flatMap { country in
            [1, 2, 3, 0, -1].map { Case(sku: offer.sku, country: country, share: $0) }
        }
    }

    /// A money string of V2 in minor units: "-10.99" → -1099, "1500" → 1500.
    static func minor(_ value: Any?) -> Int? {
        (value as? String).flatMap { Int($0.replacingOccurrences(of: ".", with: "")) }
    }

    /// A V1 dollar number in cents: 8.10 → 810.
    static func cents(_ value: Any?) -> Int? {
        (value as? NSNumber).map { Int(($0.doubleValue * 100).rounded()) }
    }

    @Test("the parts add up for every order and refund, and every payload writes the calculation", arguments: cases)
    func everyOrder(_ order: Case) throws {
        let catalog = Catalog.builtIn
        let offer = try #require(catalog.offer(sku: order.sku))
        let localization = try #require(catalog.localizations[order.country])
        let price = try #require(localization.minorUnits(ofTier: offer.basePriceInUSD))
        let amount = order.refund(of: price)
        let session = try Self.order(
            order.country, tier: offer.basePriceInUSD, sku: offer.sku,
            actions: [.requestRefund(amount: amount), .processRefund(succeeded: true)])
        let money = try Self.money(order.country, tier: offer.basePriceInUSD)
        #expect(session.money == money)
        let refund = money.reversal(of: amount)
        for part in [money, refund] {
            #expect(part.net + part.fee + part.currencyExchangeCost + part.taxInDollar == part.priceTotalInDollar)
            #expect(part.priceInCents == part.subTotal + part.tax)
        }
        let sums = zip(Self.figures(money), Self.figures(refund)).map { $0 + $1 }
        #expect(sums.allSatisfy { $0 >= 0 })
        if amount == price { #expect(sums.allSatisfy { $0 == 0 }) }
        #expect(sums[2] == sums[1] + sums[0] && sums[3] == sums[8] + sums[7] + sums[6] + sums[4])

        let award = try Self.object(session.award.body)
        let awarded: [String: Int] = [
            "priceInCents": money.priceInCents, "subTotal": money.subTotal, "tax": money.tax,
            "priceInDollar": money.priceInDollar, "taxInDollar": money.taxInDollar,
            "priceTotalInDollar": money.priceTotalInDollar, "currencyExchangeCost": money.currencyExchangeCost,
            "estimatedAppchargeFee": money.fee, "estimatedPublisherNetAmount": money.net,
            "pricePointMetadata": money.pricePoint,
        ]
        for (key, value) in awarded { #expect(award[key] as? Int == value, "award \(key)") }

        let v2 = try Self.object(Self.event(.refunded, .v2, of: session).body)
        let v2Order = try #require(v2["order"] as? [String: Any])
        #expect(v2Order["subtotal"] as? Int == money.subTotal && v2Order["taxAmount"] as? Int == money.tax)
        #expect(v2Order["totalPayment"] as? Int == money.priceInCents)
        let v2Rows = try #require(v2["transactions"] as? [[String: Any]])
        #expect(v2Rows.count == 2)
        for (row, part) in zip(v2Rows, [money, refund]) {
            #expect(Self.minor(row["amount"]) == part.priceInCents)
            #expect(Self.minor(row["amountUSD"]) == part.priceTotalInDollar)
            #expect(Self.minor(row["totalTaxAmount"]) == part.tax)
            #expect(Self.minor(row["totalTaxAmountUsd"]) == part.taxInDollar)
            #expect(Self.minor(row["currencyExchangeCostUsd"]) == part.currencyExchangeCost)
        }

        let v1 = try Self.object(Self.event(.refunded, .v1, of: session).body)
        #expect(Self.cents(v1["estimatedAppchargeFee"]) == money.fee)
        #expect(Self.cents(v1["estimatedPublisherNetAmount"]) == money.net)
        let v1Offer = try #require(v1["offer"] as? [String: Any])
        #expect(Self.cents(v1Offer["priceInDollar"]) == money.priceInDollar)
        #expect(v1Offer["tax"] as? Int == money.tax && v1Offer["priceInCents"] as? Int == money.priceInCents)

        let reported = try Self.ordersReport(session)
        #expect(reported["estimatedAppchargeFee"] as? Int == award["estimatedAppchargeFee"] as? Int)
        #expect(reported["estimatedPublisherNetAmount"] as? Int == money.net)
        #expect(reported["taxInDollar"] as? Int == money.taxInDollar && reported["tax"] as? Int == money.tax)
        #expect(reported["currencyExchangeCost"] as? Int == money.currencyExchangeCost)

        let rows = try Self.transactionsReport(session)
        #expect(rows.count == 2)
        #expect(rows.first?["transactionFeeUsd"] as? Int == award["estimatedAppchargeFee"] as? Int)
        for (row, part) in zip(rows, [money, refund]) {
            #expect(row["amount"] as? Int == part.priceInCents && row["amountUsd"] as? Int == part.priceTotalInDollar)
            #expect(row["totalTaxAmountUsd"] as? Int == part.taxInDollar)
            #expect(row["currencyExchangeCostUsd"] as? Int == part.currencyExchangeCost)
            #expect(row["transactionFeeUsd"] as? Int == part.fee && row["publisherNetAmountUsd"] as? Int == part.net)
        }
    }
}
