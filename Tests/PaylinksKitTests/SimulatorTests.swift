import Testing

@testable import PaylinksKit

/// The simulated SDK driven directly, as another Swift program would.
@Suite("Simulated SDK")
struct SimulatorTests {
    private let config = ACConfigModel(
        checkoutPublicKey: "pk_sandbox_demo", environment: "sandbox", customerId: "cust_98765")

    private func makeSDK(country: String = "US", seed: UInt64 = 7) throws -> (PaymentLinksSimulator, RecordingDelegate)
    {
        let delegate = RecordingDelegate()
        let sdk = PaymentLinksSimulator(
            catalog: try builtInCatalog(), delegate: delegate, country: country, now: 1_718_182_312, seed: seed)
        return (sdk, delegate)
    }

    @Test("a purchase delivers onInitialized, then one onPurchaseSuccess with the documented order")
    func purchase() throws {
        let (sdk, delegate) = try makeSDK()
        sdk.initialize(configuration: config)
        let session = try sdk.createCheckoutSession(
            offerSku: "starter_pack_001", customerId: "cust_98765", environment: "sandbox")
        sdk.openCheckout(session, player: .pay(paymentMethodName: "Visa"))
        #expect(delegate.callbacks.map(\.name) == [.onInitialized, .onPurchaseSuccess])
        guard case .onPurchaseSuccess(let order) = delegate.callbacks.last else { return }
        #expect(order.date == 1_718_182_312)
        #expect(order.offerName == "Starter Pack")
        #expect(order.offerSku == "starter_pack_001")
        #expect(order.items == [.init(name: "Gems", sku: "gem_01", quantity: "100")])
        #expect(order.price == 499)
        #expect(order.currency == "USD")
        #expect(order.customerId == "cust_98765")
        #expect(order.customerCountry == "US")
        #expect(order.paymentMethodName == "Visa")
        #expect(order.orderId.count == 10)
        #expect(order.purchaseId.hasPrefix("pr_"))
        #expect(order.sessionToken == session.sessionToken)
    }

    @Test("closing the checkout fails with 3002 and the order as far as it exists")
    func cancel() throws {
        let (sdk, delegate) = try makeSDK()
        sdk.initialize(configuration: config)
        let session = try sdk.createCheckoutSession(
            offerSku: "starter_pack_001", customerId: "cust_98765", environment: "sandbox")
        sdk.openCheckout(session, player: .closeCheckout())
        guard case .onPurchaseFailed(let error, let order) = delegate.callbacks.last else {
            Issue.record("expected onPurchaseFailed, got \(delegate.callbacks)")
            return
        }
        #expect(error.code == 3002)
        #expect(error.message == "Purchase canceled because the user closed the checkout interface.")
        #expect(error.data == nil)
        #expect(order?.sessionToken == session.sessionToken)
        #expect(order?.purchaseId == session.purchaseId)
        #expect(order?.price == 499)
        #expect(order?.paymentMethodName == "")
        #expect(order?.orderId == "")
    }

    @Test("requests before initialize fail on their own callback with 2000, never crash")
    func beforeInitialize() throws {
        let (sdk, delegate) = try makeSDK()
        sdk.getPricePoints()
        let session = try sdk.createCheckoutSession(
            offerSku: "starter_pack_001", customerId: "cust_98765", environment: "sandbox")
        sdk.openCheckout(session, player: .pay(paymentMethodName: "Visa"))
        #expect(delegate.callbacks.map(\.name) == [.onPricePointsFailed, .onPurchaseFailed])
        #expect(delegate.callbacks.map { $0.error?.code } == [2000, 2000])
        #expect(delegate.callbacks.allSatisfy { $0.error?.message.contains("not initialized") == true })
        guard case .onPurchaseFailed(_, let order) = delegate.callbacks.last else { return }
        #expect(order == nil)
    }

    @Test(
        "an invalid configuration fails initialize with its code",
        arguments: [
            (ACConfigModel(checkoutPublicKey: "pk", environment: "staging", customerId: "c"), 2001),
            (ACConfigModel(checkoutPublicKey: "pk", environment: "", customerId: "c"), 2001),
            (ACConfigModel(checkoutPublicKey: "", environment: "sandbox", customerId: "c"), 2002),
            (ACConfigModel(checkoutPublicKey: "pk", environment: "production", customerId: ""), 2003),
            (
                ACConfigModel(
                    checkoutPublicKey: "pk", environment: "sandbox", redirectUrl: "myapp://x", customerId: "c"), 2004
            ),
        ])
    func invalidConfiguration(config: ACConfigModel, code: Int) throws {
        let (sdk, delegate) = try makeSDK()
        sdk.initialize(configuration: config)
        #expect(
            delegate.callbacks == [
                .onInitializeFailed(
                    error: try #require(sdk.catalog.statusCode(code)).error(details: [
                        "sdkCustomerId": config.customerId, "sdkEnvironment": config.environment,
                        "redirectUrl": config.redirectUrl ?? "",
                    ]))
            ])
        #expect(sdk.configuration == nil)
    }

    @Test("a failed re-initialize leaves the SDK uninitialized")
    func reinitialize() throws {
        let (sdk, delegate) = try makeSDK()
        sdk.initialize(configuration: config)
        sdk.initialize(configuration: ACConfigModel(checkoutPublicKey: "pk", environment: "sandbox", customerId: ""))
        sdk.getPricePoints()
        #expect(delegate.callbacks.map(\.name) == [.onInitialized, .onInitializeFailed, .onPricePointsFailed])
    }

    @Test("the order's price and currency follow the player's country")
    func localizedOrder() throws {
        for (country, price, currency) in [
            ("JP", 800, "JPY"), ("DE", 549, "EUR"), ("KR", 7500, "KRW"), ("IN", 44900, "INR"),
        ] {
            let (sdk, _) = try makeSDK(country: country)
            let session = try sdk.createCheckoutSession(
                offerSku: "starter_pack_001", customerId: "c", environment: "sandbox")
            #expect(session.price == price, "\(country)")
            #expect(session.currency == currency, "\(country)")
            #expect(session.customerCountry == country)
        }
    }

    @Test("a country without its own localization falls back to USD")
    func fallbackCountry() throws {
        let (sdk, delegate) = try makeSDK(country: "NZ")
        sdk.initialize(configuration: config)
        sdk.getPricePoints()
        guard case .onPricePointsSuccess(let points) = delegate.callbacks.last else { return }
        #expect(points.pricingPointData.currencyCode == "USD")
        let session = try sdk.createCheckoutSession(
            offerSku: "starter_pack_001", customerId: "c", environment: "sandbox")
        #expect(session.currency == "USD")
        #expect(session.customerCountry == "NZ")
    }

    @Test("an unknown offer is refused by the game's server, before any callback")
    func unknownOffer() throws {
        let (sdk, delegate) = try makeSDK()
        #expect(throws: CheckoutSessionError.unknownOffer(sku: "nope")) {
            try sdk.createCheckoutSession(offerSku: "nope", customerId: "c", environment: "sandbox")
        }
        #expect(delegate.callbacks.isEmpty)
    }

    @Test("the same seed gives the same ids; another seed gives others")
    func seededIdentifiers() throws {
        func ids(seed: UInt64) throws -> [String] {
            let (sdk, delegate) = try makeSDK(seed: seed)
            sdk.initialize(configuration: config)
            let session = try sdk.createCheckoutSession(
                offerSku: "starter_pack_001", customerId: "cust_98765", environment: "sandbox")
            sdk.openCheckout(session, player: .pay(paymentMethodName: "Visa"))
            guard case .onPurchaseSuccess(let order) = delegate.callbacks.last else {
                Issue.record("expected onPurchaseSuccess, got \(delegate.callbacks)")
                return []
            }
            return [order.sessionToken, order.purchaseId, order.orderId]
        }
        #expect(try ids(seed: 1) == ids(seed: 1))
        #expect(try ids(seed: 1) != ids(seed: 2))
    }
}
