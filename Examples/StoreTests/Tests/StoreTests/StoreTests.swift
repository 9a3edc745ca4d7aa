import PaylinksKit
import Store
import Testing

/// The store, driven by paylinks' simulated SDK as the real one drives it: callbacks
/// arrive later, on the main actor, and a paid checkout returns through its deep link.
@Suite
@MainActor
struct StoreTests {
    let sdk = PaymentLinksSimulator(seed: 7, delivery: .asynchronous)
    let store: Store

    init() async {
        store = Store(payments: SimulatedPayments(sdk: sdk))
        // The OS opens the app with the checkout's return link; the app's URL handling
        // hands it to the store.
        let store = self.store
        sdk.openURL = { url in store.open(url: url) }
        store.start(customerId: "cust_1")
        await sdk.settle()
    }

    /// What the game's server does: create a session, hand its ids to the app.
    func buy(_ sku: String) async throws {
        let session = try sdk.createCheckoutSession(offerSku: sku, customerId: "cust_1")
        store.buy(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        await sdk.settle()
    }

    @Test func aPurchaseGrantsItsItems() async throws {
        #expect(store.isReady)
        try await buy("builders_bundle")
        #expect(store.inventory == ["gem_01": 500, "coin_01": 20000, "hammer_01": 3])
        #expect(store.lastMessage == "Thanks! Builder's Bundle is yours.")
    }

    @Test func theStoreWaitsForTheResultAfterOpeningTheCheckout() async throws {
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_1")
        store.buy(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        #expect(store.isPurchasing, "the result has not arrived when openCheckout returns")
        #expect(store.inventory.isEmpty)
        await sdk.settle()
        #expect(!store.isPurchasing)
        #expect(store.inventory == ["gem_01": 100])
    }

    @Test func aDuplicateResultGrantsOnce() async throws {
        sdk.revalidatesOnEveryDeepLink = true
        try await buy("starter_pack_001")
        let link = try #require(sdk.lastCheckoutDeepLink)
        store.open(url: link)
        await sdk.settle()
        #expect(store.inventory == ["gem_01": 100])
        #expect(store.grantedOrders.count == 1)
    }

    @Test func aCancelGrantsNothingAndSaysNothing() async throws {
        sdk.scriptCheckout(.closeCheckout())
        try await buy("starter_pack_001")
        #expect(store.inventory.isEmpty)
        #expect(store.lastMessage == "")
        #expect(!store.isPurchasing)
    }

    @Test func aCheckoutLeftBeforeAnyOrderIsACancelToo() async throws {
        sdk.scriptCheckout(.closeBeforeOrder)
        try await buy("starter_pack_001")
        #expect(store.inventory.isEmpty)
        #expect(store.lastMessage == "")
        #expect(!store.isPurchasing)
    }

    @Test func aPendingChargeIsNotGrantedYet() async throws {
        sdk.scriptCheckout(.pay(paymentMethodName: "Visa", outcome: .pending))
        try await buy("starter_pack_001")
        #expect(store.inventory.isEmpty)
        #expect(store.lastMessage == "Your payment is still being processed.")
    }

    @Test func aDeclinedCardSaysSo() async throws {
        sdk.scriptCheckout(.pay(paymentMethodName: "Mastercard", outcome: .declined))
        try await buy("starter_pack_001")
        #expect(store.inventory.isEmpty)
        #expect(store.lastMessage == "The purchase did not go through (3003).")
    }

    @Test func aStoreThatFailedToStartOpensNoCheckout() async throws {
        sdk.injectFailure(code: 1000, at: .initialize)
        store.start(customerId: "cust_1")
        await sdk.settle()
        #expect(!store.isReady)
        try await buy("starter_pack_001")
        #expect(!store.isPurchasing)
        #expect(store.inventory.isEmpty)
    }
}
