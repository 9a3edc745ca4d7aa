import PaylinksHTTP
import PaylinksKit
import Testing

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

    @Test("a template gives, for every order shaped like its two, the body built field by field")
    func templateMatchesTheBuilder() throws {
        for name in ["Starter Pack", #"Season "Pass" — 12 🐉"#, #"Back\slash"#] {
            let first = Self.order("8498338975", "pr_1hlei7ts8kfi43gur2nlgm71", name: name)
            let second = Self.order("4506938162", "pr_n1ox56vmh2ckgig1gp4ph4t7", name: name)
            let template = try #require(GrantAward.Template(first: first, second: second, basePriceInUSD: "4.99"))
            for (orderId, purchaseId) in [("9515537349", "pr_q6da7dvl96nnsx2n1dbyxm6e"), ("1000000000", "pr_0")] {
                let order = Self.order(orderId, purchaseId, name: name)
                let built = GrantAward(order: order, basePriceInUSD: "4.99")
                #expect(Self.text(template.award(for: order)) == Self.text(built))
                #expect(Self.text(built).contains(#""orderId":"\#(orderId)","purchaseId":"\#(purchaseId)""#))
            }
        }
    }

    @Test("an order shaped otherwise is built field by field; orders that differ otherwise make no template")
    func otherShapes() throws {
        let first = Self.order("8498338975", "pr_1hlei7ts8kfi43gur2nlgm71")
        let second = Self.order("4506938162", "pr_n1ox56vmh2ckgig1gp4ph4t7")
        let template = try #require(GrantAward.Template(first: first, second: second, basePriceInUSD: "4.99"))
        let other = Self.order("9515537349", "pr_q6da7dvl96nnsx2n1dbyxm6e", name: "Remove Ads", date: 1_800_000_000)
        let award = template.award(for: other)
        #expect(Self.text(award) == Self.text(GrantAward(order: other, basePriceInUSD: "4.99")))
        #expect(Self.text(award).contains(#""bundleName":"Remove Ads""#))
        let later = Self.order("4506938162", "pr_n1ox56vmh2ckgig1gp4ph4t7", date: 1_800_000_000)
        #expect(GrantAward.Template(first: first, second: later, basePriceInUSD: "4.99") == nil)
    }
}
