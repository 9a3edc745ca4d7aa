import PaylinksKit
import Store
import Testing

@MainActor
@Test func aDeclinedCardSaysSo() async throws {
    let sdk = PaymentLinksSimulator(seed: 7, delivery: .asynchronous)
    let store = Store(payments: SimulatedPayments(sdk: sdk))
    sdk.openURL = { url in store.open(url: url) }
    store.start(customerId: "cust_1")
    await sdk.settle()  // onInitialized arrives: the store is ready

    sdk.scriptCheckout(.pay(paymentMethodName: "Mastercard", outcome: .declined))
    let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_1")
    store.buy(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
    #expect(store.isPurchasing)  // nothing has arrived yet
    await sdk.settle()
    #expect(store.lastMessage == "The purchase did not go through (3003).")
}
