import PaylinksKit
import Testing

/// A game's store with a timing bug that only asynchronous delivery shows: it thinks the
/// purchase is over when `openCheckout` returns, and ignores results it is not waiting for.
@MainActor
final class HastyStore: ACPaymentLinksDelegate {
    let sdk: PaymentLinksSimulator
    private(set) var isPurchasing = false
    private(set) var granted: [String] = []

    init(sdk: PaymentLinksSimulator) {
        self.sdk = sdk
    }

    func buy(_ session: CheckoutSession) {
        isPurchasing = true
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        if let link = sdk.pendingDeepLink { sdk.handleDeepLink(link) }
        // The bug: the result has not arrived yet in a real app.
        isPurchasing = false
    }

    func onInitialized() {}
    func onInitializeFailed(error: ACErrorMessage) {}
    func onPricePointsSuccess(pricePoints: PricePoints) {}
    func onPricePointsFailed(error: ACErrorMessage) {}
    func onPurchaseSuccess(order: OrderResponseModel) {
        // Results the store did not ask for are dropped, so a purchase that "ended" is lost.
        guard isPurchasing else { return }
        granted.append(order.offerSku)
    }
    func onPurchaseFailed(error: ACErrorMessage, order: OrderResponseModel?) {}
}

/// Synchronous and asynchronous delivery, and the bug only the second one catches.
@Suite("Delivery")
@MainActor
struct DeliveryTests {
    func purchase(delivery: PaymentLinksSimulator.Delivery) async throws -> HastyStore {
        let sdk = PaymentLinksSimulator(seed: 3, delivery: delivery)
        let store = HastyStore(sdk: sdk)
        sdk.initialize(
            configModel: ACConfigModel(checkoutPublicKey: "pk", environment: "sandbox"), customerId: "cust_1",
            delegate: store)
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_1")
        store.buy(session)
        await sdk.settle()
        return store
    }

    @Test("synchronous delivery misses a store that drops results arriving after openCheckout returns")
    func synchronousMissesTheBug() async throws {
        let store = try await purchase(delivery: .synchronous)
        #expect(store.granted == ["starter_pack_001"])
    }

    @Test("asynchronous delivery catches it: the player paid and was granted nothing")
    func asynchronousCatchesTheBug() async throws {
        let store = try await purchase(delivery: .asynchronous)
        #expect(store.granted.isEmpty)
    }

    @Test("asynchronous delivery calls back after the request returns, in order, on the main actor")
    func asynchronousOrder() async throws {
        let sdk = PaymentLinksSimulator(seed: 1, delivery: .asynchronous)
        let recorder = RecordingDelegate()
        sdk.initialize(
            configModel: ACConfigModel(checkoutPublicKey: "pk", environment: "sandbox"), customerId: "cust_1",
            delegate: recorder)
        sdk.getPricePoints()
        sdk.scriptCheckout(.closeCheckout())
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_1")
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        #expect(recorder.callbacks.isEmpty, "nothing arrives before the requests return")
        #expect(sdk.undeliveredCallbackCount == 3)
        await sdk.settle()
        #expect(recorder.callbacks.map(\.name) == [.onInitialized, .onPricePointsSuccess, .onPurchaseFailed])
        #expect(sdk.undeliveredCallbackCount == 0)
    }

    @Test("both deliveries hand the delegate the same callbacks")
    func sameCallbacks() async throws {
        func run(_ delivery: PaymentLinksSimulator.Delivery) async throws -> [Callback] {
            let sdk = PaymentLinksSimulator(seed: 9, delivery: delivery)
            let recorder = RecordingDelegate()
            sdk.initialize(
                configModel: ACConfigModel(checkoutPublicKey: "pk", environment: "sandbox"), customerId: "c",
                delegate: recorder)
            sdk.scriptCheckout(.pay(paymentMethodName: "Visa", outcome: .declined))
            for _ in 0..<2 {
                let session = try sdk.createCheckoutSession(offerSku: "builders_bundle", customerId: "c")
                sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
                if let link = sdk.pendingDeepLink { sdk.handleDeepLink(link) }
            }
            await sdk.settle()
            return recorder.callbacks
        }
        let synchronous = try await run(.synchronous)
        #expect(synchronous.count == 3)
        #expect(try await run(.asynchronous) == synchronous)
    }
}
