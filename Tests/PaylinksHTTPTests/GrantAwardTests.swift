import PaylinksDelivery
import PaylinksHTTP
import PaylinksKit
import Testing

@testable import PaylinksAppcharge

/// The award body: built field by field, and from the template a bulk run proves.
@Suite("Grant award bodies")
struct GrantAwardTests {
    static func order(
        _ orderId: String, _ purchaseId: String, name: String = "Starter Pack", date: Int = 1_718_182_312
    ) -> OrderResponseModel {
        OrderResponseModel(
            date: date, sessionToken: "token-\(orderId)", offerName: name, offerSku: "starter_pack_001",
            items: [.init(name: "Gems", sku: "gem_01", quantity: "100")], price: 499, currency: "USD",
            customerId: "cust_98765", customerCountry: "US", paymentMethodName: "Visa", orderId: orderId,
            purchaseId: purchaseId)
    }

    static func text(_ award: GrantAward) -> String {
        String(decoding: award.body, as: UTF8.self)
    }

    /// The money of ``order(_:_:name:date:)``'s orders: $4.99 with US sales tax.
    static let money = OrderMoney(order: order("1", "pr_1"), catalog: .builtIn)

    @Test("a price point past Int's range saturates; the award writes the money it is given")
    func figures() {
        #expect(GrantAward.cents("4.99") == 499)
        #expect(GrantAward.cents("92233720368547758.07") == Int.max)
        #expect(GrantAward.cents("92233720368547758.08") == Int.max)
        #expect(GrantAward.cents("-5.00") == 0)
        let order = Self.order("1", "pr_1")
        let award = GrantAward(
            order: order,
            money: OrderMoney(order: order, pricePoint: GrantAward.cents("92233720368547758.07"), catalog: .builtIn))
        #expect(Self.text(award).contains(#""pricePointMetadata":9223372036854775807"#))
    }

    @Test("a template gives, for every order shaped like its two, the body built field by field")
    func templateMatchesTheBuilder() throws {
        for name in ["Starter Pack", #"Season "Pass" — 12 🐉"#, #"Back\slash"#] {
            let first = Self.order("8498338975", "pr_1hlei7ts8kfi43gur2nlgm71", name: name)
            let second = Self.order("4506938162", "pr_n1ox56vmh2ckgig1gp4ph4t7", name: name)
            let template = try #require(GrantAward.Template(first: first, second: second, money: Self.money))
            for (orderId, purchaseId) in [("9515537349", "pr_q6da7dvl96nnsx2n1dbyxm6e"), ("1000000000", "pr_0")] {
                let order = Self.order(orderId, purchaseId, name: name)
                let built = GrantAward(order: order, catalog: .builtIn)
                #expect(Self.text(template.award(for: order)) == Self.text(built))
                #expect(Self.text(built).contains(#""orderId":"\#(orderId)","purchaseId":"\#(purchaseId)""#))
            }
        }
    }

    @Test("an order shaped otherwise is built field by field; orders that differ otherwise make no template")
    func otherShapes() throws {
        let first = Self.order("8498338975", "pr_1hlei7ts8kfi43gur2nlgm71")
        let second = Self.order("4506938162", "pr_n1ox56vmh2ckgig1gp4ph4t7")
        let template = try #require(GrantAward.Template(first: first, second: second, money: Self.money))
        let other = Self.order("9515537349", "pr_q6da7dvl96nnsx2n1dbyxm6e", name: "Remove Ads", date: 1_800_000_000)
        let award = template.award(for: other)
        #expect(Self.text(award) == Self.text(GrantAward(order: other, money: Self.money)))
        #expect(Self.text(award).contains(#""bundleName":"Remove Ads""#))
        let later = Self.order("4506938162", "pr_n1ox56vmh2ckgig1gp4ph4t7", date: 1_800_000_000)
        #expect(GrantAward.Template(first: first, second: later, money: Self.money) == nil)
    }

    /// The value of a string field of an award's body.
    static func field(_ name: String, of award: GrantAward) -> String? {
        let text = text(award)
        guard let start = text.range(of: "\"\(name)\":\"")?.upperBound else { return nil }
        return String(text[start...].prefix { $0 != "\"" })
    }

    @Test(
        "payment, receipt and bundle ids are shaped like Appcharge's, the same for an order every time, and differ between orders"
    )
    func derivedIdentifiers() throws {
        let orders = (0..<2000).map { Self.order(String(1_000_000_000 + $0 * 4_999_999), "pr_\($0)") }
        var payments = Set<String>()
        var receipts = Set<String>()
        for order in orders {
            let award = GrantAward(order: order, catalog: .builtIn)
            let payment = try #require(Self.field("appChargePaymentId", of: award))
            let receipt = try #require(Self.field("receiptId", of: award))
            let bundle = try #require(Self.field("bundleId", of: award))
            #expect(payment.hasPrefix("pay_") && payment.count == 14 && !payment.dropFirst(4).hasPrefix("0"))
            #expect(payment.dropFirst(4).allSatisfy { $0.isASCII && $0.isNumber })
            #expect(receipt.hasPrefix("rcpt_") && receipt.count == 21)
            #expect(receipt.dropFirst(5).allSatisfy { "0123456789abcdef".contains($0) })
            #expect(bundle.count == 24 && bundle.allSatisfy { "0123456789abcdef".contains($0) })
            #expect(Self.text(GrantAward(order: order, money: Self.money)) == Self.text(award))
            payments.insert(payment)
            receipts.insert(receipt)
        }
        #expect(payments.count == orders.count)
        #expect(receipts.count == orders.count)
        // Every digit and hex digit turns up in every position but the first digit's.
        let digits = Set(payments.flatMap { $0.dropFirst(5) })
        #expect(digits.count == 10)
        #expect(Set(receipts.flatMap { $0.dropFirst(5) }).count == 16)
    }

    @Test(
        "a signed award's request is its line, Host, the three headers, Content-Length and the body, signed over those bytes"
    )
    func signedRequest() throws {
        let url = try HTTPURL("http://[::1]:8080/award?game=1")
        let key = Array("paylinks-demo-main-key".utf8)
        let signer = AwardSigner(
            DeliveryDestination(url: url, key: key, publisherToken: "token"), for: .award, clock: { 1_718_182_312_000 })
        let award = GrantAward(order: Self.order("8498338975", "pr_1hlei7ts8kfi43gur2nlgm71"), catalog: .builtIn)
        let signed = signer.sign(award)
        let signature = GrantAward.signature(body: award.body, milliseconds: 1_718_182_312_000, key: key)
        let expected =
            "POST /award?game=1 HTTP/1.1\r\nHost: [::1]:8080\r\nContent-Type: application/json\r\n"
            + "x-publisher-token: token\r\nsignature: \(signature)\r\nContent-Length: \(award.body.count)\r\n\r\n"
            + Self.text(award)
        #expect(String(decoding: signed.request, as: UTF8.self) == expected)
        #expect(signed.headers.map(\.name) == ["Content-Type", "x-publisher-token", "signature"])
        #expect(
            signed.request
                == HTTPClient.encode(
                    method: .post, url: url, headers: signed.headers.map { HTTPHeader($0.name, $0.value) },
                    body: award.body))
    }
}
