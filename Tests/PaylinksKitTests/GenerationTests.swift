import PaylinksKit
import Testing

/// A G3 game's delegate: no price points, cancels on their own callback.
@MainActor
final class G3Store: ACPaymentLinksDelegateG3 {
    var events: [String] = []
    var orders: [OrderResponseModel?] = []

    func onInitialized() { events.append("initialized") }
    func onInitializeFailed(error: ACErrorMessage) { events.append("initializeFailed \(error.code)") }
    func onPurchaseSuccess(order: OrderResponseModel) {
        events.append("success")
        orders.append(order)
    }
    func onPurchaseFailed(error: ACErrorMessage, order: OrderResponseModel?) {
        events.append("failed \(error.code)")
        orders.append(order)
    }
    func onPurchaseCanceled(error: ACErrorMessage, order: OrderResponseModel?) {
        events.append("canceled \(error.code)")
        orders.append(order)
    }
}

/// A G1 game's delegate: a failed purchase without its order.
@MainActor
final class G1Store: ACPaymentLinksDelegateG1 {
    var events: [String] = []

    func onInitialized() { events.append("initialized") }
    func onInitializeFailed(error: ACErrorMessage) { events.append("initializeFailed \(error.code)") }
    func onPricePointsSuccess(pricePoints: PricePoints) { events.append("pricePoints") }
    func onPricePointsFailed(error: ACErrorMessage) { events.append("pricePointsFailed \(error.code)") }
    func onPurchaseSuccess(order: OrderResponseModel) { events.append("success") }
    func onPurchaseFailed(error: ACErrorMessage) { events.append("failed \(error.code) \(error.message)") }
}

/// The simulator as each SDK generation behaves, through each generation's delegate.
@Suite("SDK generations")
@MainActor
struct GenerationTests {
    let config = ACConfigModel(checkoutPublicKey: "pk_sandbox_demo", environment: "sandbox")

    func simulator(
        _ version: String, platform: Platform = .ios, delivery: PaymentLinksSimulator.Delivery = .synchronous
    )
        throws -> PaymentLinksSimulator
    {
        PaymentLinksSimulator(seed: 5, delivery: delivery, target: try SDKTarget(platform: platform, version: version))
    }

    @Test("G3: the customer id goes to openCheckout, whose arguments are checked before anything opens")
    func g3Arguments() throws {
        let sdk = try simulator("2.0")
        let store = G3Store()
        sdk.initialize(configModel: config, g3Delegate: store)
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_7")
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl, customerId: "")
        sdk.openCheckout(purchaseId: "", parsedUrl: session.parsedUrl, customerId: "cust_7")
        sdk.openCheckout(
            purchaseId: session.purchaseId, parsedUrl: "https://checkout.appcharge.com/#boot=x", customerId: "cust_7")
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl, customerId: "cust_7")
        if let link = sdk.pendingDeepLink { sdk.handleDeepLink(link) }
        #expect(store.events == ["initialized", "failed 8002", "failed 8000", "failed 8001", "success"])
        #expect(store.orders.prefix(3).allSatisfy { $0 == nil })
        #expect(store.orders.last??.customerId == "cust_7")
    }

    @Test("G3: the player's cancels arrive on onPurchaseCanceled; a delegate without it gets them on onPurchaseFailed")
    func g3Cancels() throws {
        let sdk = try simulator("2.0.0")
        let store = G3Store()
        sdk.initialize(configModel: config, g3Delegate: store)
        for action in [PlayerAction.closeCheckout(), .closeCheckout(via: .browserControls), .closeBeforeOrder] {
            sdk.scriptCheckout(action)
            let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_7")
            sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl, customerId: "cust_7")
        }
        #expect(store.events == ["initialized", "canceled 3002", "canceled 3000", "failed 3005"])
        #expect(store.orders[0]?.purchaseId.hasPrefix("pr_") == true)

        let other = try simulator("2.0")
        let recorder = RecordingDelegate()
        other.initialize(configModel: config, delegate: recorder)
        other.scriptCheckout(.closeCheckout())
        let session = try other.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_7")
        other.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl, customerId: "cust_7")
        #expect(recorder.callbacks.map(\.name) == [.onInitialized, .onPurchaseCanceled])

        final class OldStore: ACPaymentLinksDelegate {
            var failures: [Int] = []
            func onInitialized() {}
            func onInitializeFailed(error: ACErrorMessage) {}
            func onPricePointsSuccess(pricePoints: PricePoints) {}
            func onPricePointsFailed(error: ACErrorMessage) {}
            func onPurchaseSuccess(order: OrderResponseModel) {}
            func onPurchaseFailed(error: ACErrorMessage, order: OrderResponseModel?) { failures.append(error.code) }
        }
        let old = OldStore()
        let third = try simulator("2.0")
        third.initialize(configModel: config, delegate: old)
        third.scriptCheckout(.closeCheckout())
        let next = try third.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_7")
        third.openCheckout(purchaseId: next.purchaseId, parsedUrl: next.parsedUrl, customerId: "cust_7")
        #expect(old.failures == [3002])
    }

    @Test("G3: a second initialize while the first is running fails with 2005; one after it ended is allowed")
    func g3SecondInitialize() async throws {
        let sdk = try simulator("2.0", delivery: .asynchronous)
        let store = G3Store()
        sdk.initialize(configModel: config, g3Delegate: store)
        sdk.initialize(configModel: config, g3Delegate: store)
        await sdk.settle()
        #expect(store.events == ["initialized", "initializeFailed 2005"])
        sdk.initialize(configModel: config, g3Delegate: store)
        await sdk.settle()
        #expect(store.events.last == "initialized")
        #expect(sdk.configuration != nil)
    }

    @Test("G3: the catalog's own codes: 2005, and the player's cancels on onPurchaseCanceled")
    func g3Catalog() throws {
        let sdk = try simulator("3.0", platform: .unity)
        #expect(sdk.catalog.statusCode(2005)?.name == "BOOT_INIT_ALREADY_IN_PROGRESS")
        #expect(sdk.catalog.statusCode(3002)?.callbacks == [.onPurchaseCanceled])
    }

    @Test(
        "G3: getPricePoints ends in exactly one result, onPricePointsFailed with 9999 saying G3 has no price points",
        arguments: ["2.0", "3.0"])
    func g3PricePointsFail(version: String) throws {
        let sdk = try simulator(version, platform: version == "3.0" ? .unity : .ios)
        let recorder = RecordingDelegate()
        sdk.delegate = recorder
        sdk.getPricePoints()
        sdk.initialize(configModel: config, delegate: recorder)
        sdk.getPricePoints()
        #expect(recorder.callbacks.map(\.name) == [.onPricePointsFailed, .onInitialized, .onPricePointsFailed])
        for callback in recorder.callbacks where callback.name == .onPricePointsFailed {
            let error = try #require(callback.error)
            #expect(error.code == 9999)
            #expect(error.message.contains("no price points"), "\(error.message)")
            #expect(error.data?.contains(#""request":"getPricePoints""#) == true, "\(error.data ?? "no data")")
        }
        #expect(sdk.catalog.statusCode(9999)?.callbacks == [.onPricePointsFailed])
    }

    @Test("G3: the G2 and G1 initializers, which take a customer id, are refused with 2000 and what to call instead")
    func g3RefusesCustomerIdAtInitialize() throws {
        let sdk = try simulator("2.0")
        let recorder = RecordingDelegate()
        sdk.initialize(configModel: config, customerId: "cust_7", delegate: recorder)
        #expect(sdk.configuration == nil)
        #expect(recorder.callbacks.map(\.name) == [.onInitializeFailed])
        let error = try #require(recorder.callbacks.first?.error)
        #expect(error.code == 2000)
        #expect(error.message.contains("initialize(configModel:delegate:)"), "\(error.message)")
        #expect(error.message.contains("openCheckout(purchaseId:parsedUrl:customerId:)"), "\(error.message)")
        let store = G1Store()
        sdk.initialize(configModel: config, customerId: "cust_7", g1Delegate: store)
        #expect(store.events == ["initializeFailed 2000"])
        #expect(sdk.configuration == nil)
        // The G3 initializer on the same simulator boots it.
        sdk.initialize(configModel: config, delegate: recorder)
        #expect(recorder.callbacks.last?.name == .onInitialized)
    }

    @Test("before G3, the initializer without a customer id fails as a missing customer id does: 2003")
    func customerIdMissingBeforeG3() throws {
        let sdk = try simulator("1.9")
        let recorder = RecordingDelegate()
        sdk.initialize(configModel: config, delegate: recorder)
        #expect(recorder.callbacks.map { $0.error?.code } == [2003])
        #expect(sdk.configuration == nil)
    }

    @Test("G1: the old table's codes, and a failed purchase without its order")
    func g1() throws {
        let sdk = try simulator("1.5.1")
        let store = G1Store()
        sdk.initialize(configModel: config, customerId: "", g1Delegate: store)
        sdk.initialize(configModel: config, customerId: "cust_7", g1Delegate: store)
        sdk.scriptCheckout(.closeCheckout())
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_7")
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        let mismatch = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "someone_else")
        sdk.openCheckout(purchaseId: mismatch.purchaseId, parsedUrl: mismatch.parsedUrl)
        if let link = sdk.pendingDeepLink { sdk.handleDeepLink(link) }
        #expect(
            store.events == [
                "initializeFailed 2000", "initialized",
                "failed 3002 The purchase was canceled: the checkout was closed.",
                "failed 3005 The purchase could not be confirmed.",
            ])
        // No price points for the player's country: G1 sends 1006 where G2 sends 1001.
        var unpriced = Catalog.builtIn
        unpriced.localizations = [:]
        let old = PaymentLinksSimulator(catalog: unpriced, target: try SDKTarget(platform: .android, version: "1.4"))
        old.initialize(configModel: config, customerId: "cust_7", g1Delegate: store)
        old.getPricePoints()
        #expect(store.events.suffix(2) == ["initialized", "pricePointsFailed 1006"])
    }

    @Test("iOS before 1.6.0 validates again on every deep link; before 1.5.1 it keeps the first player")
    func oldIOSBugs() throws {
        #expect(try simulator("1.5").revalidatesOnEveryDeepLink)
        #expect(try !simulator("1.6").revalidatesOnEveryDeepLink)
        #expect(try !simulator("1.5", platform: .android).revalidatesOnEveryDeepLink)
        for (version, expected) in [("1.5", "cust_1"), ("1.5.1", "cust_2")] {
            let sdk = try simulator(version)
            let recorder = RecordingDelegate()
            sdk.initialize(configModel: config, customerId: "cust_1", delegate: recorder)
            sdk.initialize(configModel: config, customerId: "cust_2", delegate: recorder)
            #expect(sdk.customerId == expected, "\(version)")
        }
        let sdk = try simulator("1.5.1")
        let recorder = RecordingDelegate()
        sdk.initialize(configModel: config, customerId: "cust_1", delegate: recorder)
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_1")
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        let link = try #require(sdk.pendingDeepLink)
        sdk.handleDeepLink(link)
        sdk.handleDeepLink(link)
        #expect(recorder.callbacks.map(\.name) == [.onInitialized, .onPurchaseSuccess, .onPurchaseSuccess])
    }
}
