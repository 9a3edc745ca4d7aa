import ContractChecks
import PaylinksAppcharge
import PaylinksDelivery
import PaylinksHTTP
import PaylinksKit
import Testing
import _OpenAPIContract

/// The Grant Award Callback the sandbox sends, held to the document's `grantAward` webhook:
/// its headers and body as the deliveries sign and write them.
@Suite("Award callbacks and the OpenAPI document")
struct AwardContractTests {
    /// A paid order and a free one: a free order's award has no payment method.
    static let orders: [OrderResponseModel] = [
        GrantAwardTests.order("8498338975", "pr_1hlei7ts8kfi43gur2nlgm71"),
        OrderResponseModel(
            date: 1_718_182_312, sessionToken: "token-free", offerName: "Free Gift", offerSku: "free_gift",
            items: [.init(name: "Gems", sku: "gem_01", quantity: "10")], price: 0, currency: "USD",
            customerId: "cust_98765", customerCountry: "US", paymentMethodName: "", orderId: "8498338976",
            purchaseId: "pr_free"),
    ]

    @Test("every award body and its signed headers validate against the grantAward webhook", arguments: orders)
    func awardValidates(_ order: OrderResponseModel) throws {
        let contract = try sandboxContract.get()
        let url = try HTTPURL("http://127.0.0.1:8080/award")
        let signer = AwardSigner(
            DeliveryDestination(url: url, key: Array("paylinks-demo-main-key".utf8), publisherToken: "token"),
            for: .award, clock: { 1_718_182_312_000 })
        let award = GrantAward(order: order, catalog: .builtIn)
        let signed = signer.sign(award)
        let problems = contract.webhookProblems(name: "grantAward", headers: signed.headers, body: award.body)
        #expect(problems == [], "\(problems.joined(separator: "\n"))")
    }
}
