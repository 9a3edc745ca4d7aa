import PaylinksKit
import Store
import Testing

/// The store, driven by paylinks' simulated SDK instead of a real checkout.
@Suite struct StoreTests {
    let configuration = ACConfigModel(
        checkoutPublicKey: "pk_sandbox_demo", environment: "sandbox", customerId: "cust_1")

    func makeSDK(_ delegate: ACPaymentLinksDelegate) -> PaymentLinksSimulator {
        PaymentLinksSimulator(catalog: CatalogLoader.builtIn(), delegate: delegate, now: 1_718_182_312, seed: 7)
    }

    func checkout(_ sdk: PaymentLinksSimulator, _ sku: String, _ player: PlayerAction) throws {
        let session = try sdk.createCheckoutSession(offerSku: sku, customerId: "cust_1", environment: "sandbox")
        sdk.openCheckout(session, player: player)
    }

    @Test func aPurchaseGrantsItsItems() throws {
        let store = Store()
        let sdk = makeSDK(store)
        sdk.initialize(configuration: configuration)
        try checkout(sdk, "builders_bundle", .pay(paymentMethodName: "Visa"))
        #expect(store.inventory == ["gem_01": 500, "coin_01": 20000, "hammer_01": 3])
    }

    @Test func aDuplicateResultGrantsOnce() throws {
        let store = Store()
        let sdk = makeSDK(store)
        sdk.initialize(configuration: configuration)
        sdk.injectDuplicateDelivery()
        try checkout(sdk, "starter_pack_001", .pay(paymentMethodName: "Visa"))
        #expect(store.inventory == ["gem_01": 100])
    }

    @Test func aCancelGrantsNothingAndSaysNothing() throws {
        let store = Store()
        let sdk = makeSDK(store)
        sdk.initialize(configuration: configuration)
        try checkout(sdk, "starter_pack_001", .closeCheckout())
        #expect(store.inventory.isEmpty)
        #expect(store.lastMessage == "")
    }

    @Test func aPendingChargeIsNotGrantedYet() throws {
        let store = Store()
        let sdk = makeSDK(store)
        sdk.initialize(configuration: configuration)
        try checkout(sdk, "starter_pack_001", .pay(paymentMethodName: "Visa", outcome: .pending))
        #expect(store.inventory.isEmpty)
        #expect(store.lastMessage == "Your payment is still being processed.")
    }

    @Test func theSDKDeliversWhatTheRecordingDelegateSees() throws {
        let recorder = RecordingDelegate()
        let sdk = makeSDK(recorder)
        try checkout(sdk, "starter_pack_001", .pay(paymentMethodName: "Visa"))
        sdk.initialize(configuration: configuration)
        sdk.injectFailure(code: 3003, at: .purchase)
        try checkout(sdk, "starter_pack_001", .pay(paymentMethodName: "Visa"))
        #expect(recorder.callbacks.map(\.name) == [.onPurchaseFailed, .onInitialized, .onPurchaseFailed])
        #expect(recorder.callbacks.map { $0.error?.code } == [2000, nil, 3003])
    }
}
