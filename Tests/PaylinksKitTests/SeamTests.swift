import PaylinksKit
import Testing

/// The simulator's documented seams for what stands around the SDK: Appcharge's side of a
/// checkout, the award of a paid order, runs of many checkouts alike, and deliveries held
/// until the test flushes them.
@Suite("Simulator seams")
@MainActor
struct SeamTests {
    let config = ACConfigModel(checkoutPublicKey: "pk_sandbox_demo", environment: "sandbox")

    func makeSDK(delivery: PaymentLinksSimulator.Delivery = .synchronous) -> (PaymentLinksSimulator, RecordingDelegate)
    {
        let delegate = RecordingDelegate()
        let sdk = PaymentLinksSimulator(now: 1_718_182_312, seed: 11, delivery: delivery)
        sdk.initialize(configModel: config, customerId: "cust_98765", delegate: delegate)
        return (sdk, delegate)
    }

    func buy(_ sdk: PaymentLinksSimulator) throws {
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_98765")
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        if let link = sdk.pendingDeepLink { sdk.handleDeepLink(link) }
    }

    @Test("an award granter sees the validated order once; a failed award ends in 3003 with the order and the data")
    func awardGranter() throws {
        let (sdk, delegate) = makeSDK()
        var asked: [OrderResponseModel] = []
        var trace: [String] = []
        sdk.trace = { trace.append($0.message) }
        sdk.awardGranter = { order in
            asked.append(order)
            return AwardVerdict(
                outcome: .failed(data: #"{"lastStatus":500}"#), events: [(1_000, "the server said 500")])
        }
        try buy(sdk)
        #expect(asked.count == 1)
        guard case .onPurchaseFailed(let error, let order)? = delegate.callbacks.last else {
            Issue.record("expected onPurchaseFailed, got \(delegate.callbacks.map(\.name))")
            return
        }
        #expect(error.code == 3003)
        #expect(error.data == #"{"lastStatus":500}"#)
        #expect(order == asked.first)
        #expect(order?.paymentMethodName == "Visa")
        #expect(trace.contains("the server said 500"))
        #expect(delegate.callbacks.last == sdk.awardFailure(of: asked[0], data: #"{"lastStatus":500}"#))
    }

    @Test("a granted award ends in onPurchaseSuccess with the order the granter saw; no granter grants every payment")
    func grantedAward() throws {
        let (sdk, delegate) = makeSDK()
        var asked: OrderResponseModel?
        sdk.awardGranter = { order in
            asked = order
            return AwardVerdict(outcome: .granted, events: [])
        }
        try buy(sdk)
        #expect(delegate.callbacks.last == .onPurchaseSuccess(order: try #require(asked)))
        sdk.awardGranter = nil
        try buy(sdk)
        #expect(delegate.callbacks.last?.name == .onPurchaseSuccess)
        #expect(delegate.callbacks.last?.order?.purchaseId != asked?.purchaseId)
    }

    @Test("predictedOrder gives the next checkout's order exactly; skipCheckout gives the one after its own ids")
    func prediction() throws {
        let (sdk, delegate) = makeSDK()
        try buy(sdk)
        let first = try #require(delegate.callbacks.last?.order)
        let predicted = sdk.predictedOrder(like: first)
        #expect(predicted.purchaseId != first.purchaseId)
        try buy(sdk)
        #expect(delegate.callbacks.last?.order == predicted)
        // Checkouts 0 and 1 ran; 2 is skipped, so the next real one is checkout 3.
        let skipped = sdk.predictedOrder(like: predicted)
        sdk.skipCheckout()
        let afterSkip = sdk.predictedOrder(like: predicted)
        try buy(sdk)
        #expect(delegate.callbacks.last?.order == afterSkip)
        #expect(afterSkip.purchaseId != skipped.purchaseId)

        let (fresh, freshDelegate) = makeSDK()
        for _ in 0..<4 { try buy(fresh) }
        #expect(freshDelegate.callbacks.last?.order == afterSkip)
    }

    @Test("held deliveries wait for flush, in order, and what they cause is delivered by the same flush")
    func heldDeliveries() throws {
        let store = HeldDeliveries()
        let (sdk, delegate) = makeSDK(delivery: .held(in: store))
        try buy(sdk)
        #expect(delegate.callbacks.isEmpty)
        #expect(store.count == 2)
        store.flush()
        #expect(store.count == 0)
        #expect(delegate.callbacks.map(\.name) == [.onInitialized, .onPurchaseSuccess])
    }

    /// A backend of the test's own: the order it pays becomes `charge_succeed` at a time
    /// it chooses, and it records what the SDK asked.
    final class ScriptedBackend: CheckoutBackend {
        let inner = SimulatedCheckoutBackend(seed: 11)
        /// How long after the payment the charge succeeds.
        let settlesAfter: Int
        var paidAt: Int?
        var polls: [Int] = []

        init(settlesAfter: Int) {
            self.settlesAfter = settlesAfter
        }

        func createSession(_ sale: CheckoutSale, at milliseconds: Int) -> CheckoutSession {
            inner.createSession(sale, at: milliseconds)
        }

        func openSession(purchaseId: String, at milliseconds: Int) -> CheckoutSession? {
            inner.openSession(purchaseId: purchaseId, at: milliseconds)
        }

        func player(_ action: PlayerAction, in session: CheckoutSession, at milliseconds: Int) -> [BackendNote] {
            paidAt = milliseconds
            return [BackendNote(milliseconds: milliseconds + settlesAfter, message: "the bank settled the charge")]
        }

        func poll(_ session: CheckoutSession, at milliseconds: Int) -> PolledOrder {
            polls.append(milliseconds)
            guard let paidAt else { return PolledOrder(state: nil) }
            return PolledOrder(state: milliseconds >= paidAt + settlesAfter ? .chargeSucceed : .chargePending)
        }
    }

    @Test("an app's own backend decides what the SDK's polls read, and the purchase ends as the order stands")
    func ownBackend() throws {
        let (sdk, delegate) = makeSDK()
        let backend = ScriptedBackend(settlesAfter: 2_000)
        sdk.backend = backend
        var trace: [String] = []
        sdk.trace = { trace.append($0.message) }
        try buy(sdk)
        #expect(delegate.callbacks.last?.name == .onPurchaseSuccess)
        // Polls every 600 ms from the deep link: three read charge_pending, the fourth the
        // charge settled 2 s after the payment.
        #expect(backend.polls.count == 4)
        #expect(trace.contains("polls #1-#3: charge_pending, every 600 ms until +20.390s"), "\(trace)")
        #expect(trace.contains("poll #4: charge_succeed"), "\(trace)")
        let settled = try #require(trace.firstIndex(of: "the bank settled the charge"))
        #expect(trace[settled + 1] == "poll #4: charge_succeed", "the backend's note in its place: \(trace)")

        let slow = ScriptedBackend(settlesAfter: 120_000)
        sdk.backend = slow
        try buy(sdk)
        #expect(delegate.callbacks.last?.error?.code == 3004, "still charge_pending at the 90 s timeout")
        #expect(slow.polls.count == PaymentLinksSimulator.validationTimeout / PaymentLinksSimulator.pollInterval)
    }
}
