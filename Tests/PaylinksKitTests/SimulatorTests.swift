import PaylinksKit
import Testing

/// The simulated SDK driven through its public API only, as a game's tests drive it.
@Suite("Simulated SDK")
@MainActor
struct SimulatorTests {
    let config = ACConfigModel(checkoutPublicKey: "pk_sandbox_demo", environment: "sandbox")

    /// A simulator on the built-in catalog, initialized for `cust_98765` unless told not to.
    func makeSDK(country: String = "US", seed: UInt64 = 7, initialized: Bool = true)
        -> (PaymentLinksSimulator, RecordingDelegate)
    {
        let delegate = RecordingDelegate()
        let sdk = PaymentLinksSimulator(country: country, now: 1_718_182_312, seed: seed)
        sdk.delegate = delegate
        if initialized { sdk.initialize(configModel: config, customerId: "cust_98765", delegate: delegate) }
        return (sdk, delegate)
    }

    /// Creates a session as the game's server would, opens it, and follows the return link.
    @discardableResult
    func checkout(_ sdk: PaymentLinksSimulator, sku: String = "starter_pack_001", customerId: String = "cust_98765")
        throws -> CheckoutSession
    {
        let session = try sdk.createCheckoutSession(offerSku: sku, customerId: customerId)
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        if let link = sdk.pendingDeepLink { sdk.handleDeepLink(link) }
        return session
    }

    @Test("a purchase delivers onInitialized, then one onPurchaseSuccess with the documented order")
    func purchase() throws {
        let (sdk, delegate) = makeSDK()
        let session = try checkout(sdk)
        #expect(delegate.callbacks.map(\.name) == [.onInitialized, .onPurchaseSuccess])
        #expect(delegate.callbacks.last?.name == .onPurchaseSuccess)
        let order = try #require(delegate.callbacks.last?.order)
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
        #expect(order.purchaseId == session.purchaseId)
        #expect(order.sessionToken == session.checkoutSessionToken)
    }

    @Test("a paid checkout ends only when the app hands the SDK its return link")
    func deepLinkCompletesThePurchase() throws {
        let (sdk, delegate) = makeSDK()
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_98765")
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        #expect(delegate.callbacks == [.onInitialized])
        let link = try #require(sdk.pendingDeepLink)
        #expect(link.contains(session.purchaseId))
        #expect(!sdk.handleDeepLink("mygame://inventory"), "a link that is not the SDK's is left to the game")
        #expect(delegate.callbacks == [.onInitialized])
        #expect(sdk.handleDeepLink(link))
        #expect(delegate.callbacks.map(\.name) == [.onInitialized, .onPurchaseSuccess])
        #expect(sdk.pendingDeepLink == nil)
        #expect(!sdk.handleDeepLink(link), "the current SDK validates an order once")
        #expect(delegate.callbacks.count == 2)
    }

    @Test("openURL stands in for the OS opening the app with the return link")
    func openURLReachesTheGame() throws {
        let (sdk, delegate) = makeSDK()
        var opened: [String] = []
        sdk.openURL = { url in
            opened.append(url)
            sdk.handleDeepLink(url)
        }
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_98765")
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        #expect(opened.count == 1)
        #expect(delegate.callbacks.map(\.name) == [.onInitialized, .onPurchaseSuccess])
    }

    @Test("the redirect URL of the configuration is the return link's base")
    func redirectURLIsTheReturnLink() throws {
        let (sdk, delegate) = makeSDK()
        sdk.initialize(
            configModel: ACConfigModel(
                checkoutPublicKey: "pk", environment: "sandbox", redirectUrl: "https://game.example.com/return"),
            customerId: "cust_98765", delegate: delegate)
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_98765")
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        #expect(sdk.pendingDeepLink == "https://game.example.com/return?purchaseId=\(session.purchaseId)")
    }

    @Test(
        "what the player does is scripted before the checkout opens",
        arguments: [
            (PlayerAction.pay(paymentMethodName: "Mastercard"), nil),
            (.pay(paymentMethodName: "Visa", outcome: .declined), 3003),
            (.pay(paymentMethodName: "Visa", outcome: .pending), 3004),
            (.closeCheckout(), 3002),
            (.closeCheckout(via: .browserControls), 3000),
            (.closeBeforeOrder, 3005),
            (.leaveOpen, 3005),
        ] as [(PlayerAction, Int?)])
    func scriptedPlayer(action: PlayerAction, code: Int?) throws {
        let (sdk, delegate) = makeSDK()
        sdk.scriptCheckout(action)
        try checkout(sdk)
        let result = try #require(delegate.callbacks.last)
        #expect(result.error?.code == code)
        if case .pay(let method, .succeeded) = action {
            #expect(try #require(result.order).paymentMethodName == method)
        }
        #expect(sdk.scriptedPlayerActions.isEmpty, "each checkout takes one scripted action")
    }

    @Test("scripted actions are taken in order, then the default applies")
    func scriptedInOrder() throws {
        let (sdk, delegate) = makeSDK()
        sdk.scriptCheckout(.closeCheckout())
        sdk.scriptCheckout(.pay(paymentMethodName: "PayPal", outcome: .declined))
        for _ in 0..<3 { try checkout(sdk) }
        #expect(delegate.callbacks.dropFirst().map { $0.error?.code } == [3002, 3003, nil])
    }

    @Test("closing the checkout fails with 3002 and the order as far as it exists")
    func cancel() throws {
        let (sdk, delegate) = makeSDK()
        sdk.scriptCheckout(.closeCheckout())
        let session = try checkout(sdk)
        let result = try #require(delegate.callbacks.last)
        #expect(result.name == .onPurchaseFailed)
        let error = try #require(result.error)
        let order = result.order
        #expect(error.code == 3002)
        #expect(error.message == "Purchase canceled because the user closed the checkout interface.")
        #expect(error.data == nil)
        #expect(order?.sessionToken == session.checkoutSessionToken)
        #expect(order?.purchaseId == session.purchaseId)
        #expect(order?.price == 499)
        #expect(order?.paymentMethodName == "")
        #expect(order?.orderId == "")
    }

    @Test("a purchase id the server never issued ends in 3005; a parsed URL not the session's in 4002")
    func unknownSession() throws {
        let (sdk, delegate) = makeSDK()
        sdk.openCheckout(purchaseId: "pr_made_up", parsedUrl: "https://checkout.example.com/x#boot=y")
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_98765")
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: "checkout")
        #expect(delegate.callbacks.dropFirst().map { $0.error?.code } == [3005, 4002])
        #expect(sdk.pendingDeepLink == nil)
    }

    @Test("requests before initialize fail on their own callback with 2000, never crash")
    func beforeInitialize() throws {
        let (sdk, delegate) = makeSDK(initialized: false)
        sdk.getPricePoints()
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_98765")
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        #expect(delegate.callbacks.map(\.name) == [.onPricePointsFailed, .onPurchaseFailed])
        #expect(delegate.callbacks.map { $0.error?.code } == [2000, 2000])
        let notInitialized = try #require(Catalog.builtIn.statusCode(2000))
        #expect(
            delegate.callbacks.map(\.error) == [
                notInitialized.error(details: ["request": "getPricePoints"]),
                notInitialized.error(details: ["request": "openCheckout"]),
            ])
        #expect(
            notInitialized.callbacks == [.onInitializeFailed, .onPricePointsFailed, .onPurchaseFailed],
            "the catalog says where 2000 arrives")
        #expect(delegate.callbacks.last?.order == nil)
    }

    @Test(
        "an invalid configuration fails initialize with its code",
        arguments: [
            (ACConfigModel(checkoutPublicKey: "pk", environment: "staging"), "c", 2001),
            (ACConfigModel(checkoutPublicKey: "pk", environment: ""), "c", 2001),
            (ACConfigModel(checkoutPublicKey: "", environment: "sandbox"), "c", 2002),
            (ACConfigModel(checkoutPublicKey: "pk", environment: "production"), "", 2003),
            (ACConfigModel(checkoutPublicKey: "pk", environment: "sandbox", redirectUrl: "myapp://x"), "c", 2004),
            (
                ACConfigModel(
                    checkoutPublicKey: "pk", environment: "sandbox", redirectUrl: "https://user@evil.example.com/return"
                ),
                "c", 2004
            ),
        ])
    func invalidConfiguration(config: ACConfigModel, customerId: String, code: Int) throws {
        let (sdk, delegate) = makeSDK(initialized: false)
        sdk.initialize(configModel: config, customerId: customerId, delegate: delegate)
        let expected = try #require(Catalog.builtIn.statusCode(code)).error(details: [
            "sdkCustomerId": customerId, "sdkEnvironment": config.environment,
            "redirectUrl": config.redirectUrl ?? "",
        ])
        #expect(delegate.callbacks == [.onInitializeFailed(error: expected)])
        #expect(sdk.configuration == nil)
        #expect(sdk.customerId == nil)
    }

    @Test("a failed re-initialize leaves the SDK uninitialized")
    func reinitialize() {
        let (sdk, delegate) = makeSDK()
        sdk.initialize(
            configModel: ACConfigModel(checkoutPublicKey: "pk", environment: "sandbox"), customerId: "",
            delegate: delegate)
        sdk.getPricePoints()
        #expect(delegate.callbacks.map(\.name) == [.onInitialized, .onInitializeFailed, .onPricePointsFailed])
    }

    @Test("a session for another customer ends in 3007; one in another environment in 3006")
    func mismatchedSessions() throws {
        let (sdk, delegate) = makeSDK()
        try checkout(sdk, customerId: "cust_12345")
        let session = try sdk.createCheckoutSession(
            offerSku: "starter_pack_001", customerId: "cust_98765", environment: "production")
        sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        sdk.handleDeepLink(try #require(sdk.pendingDeepLink))
        #expect(delegate.callbacks.dropFirst().map { $0.error?.code } == [3007, 3006])
    }

    @Test("an injected failure is used once, at its step")
    func injectedFailure() throws {
        let (sdk, delegate) = makeSDK()
        sdk.injectFailure(code: 1001, at: .pricePoints)
        sdk.getPricePoints()
        sdk.getPricePoints()
        sdk.injectFailure(code: 3003, at: .purchase)
        try checkout(sdk)
        try checkout(sdk)
        #expect(
            delegate.callbacks.map(\.name) == [
                .onInitialized, .onPricePointsFailed, .onPricePointsSuccess, .onPurchaseFailed, .onPurchaseSuccess,
            ])
        #expect(delegate.callbacks[3].error?.code == 3003)
    }

    @Test("with the old SDKs' bug, a second deep link delivers the result again")
    func duplicateDelivery() throws {
        let (sdk, delegate) = makeSDK()
        sdk.revalidatesOnEveryDeepLink = true
        try checkout(sdk)
        let link = try #require(sdk.lastCheckoutDeepLink)
        #expect(sdk.handleDeepLink(link))
        #expect(delegate.callbacks.map(\.name) == [.onInitialized, .onPurchaseSuccess, .onPurchaseSuccess])
        #expect(delegate.callbacks[1] == delegate.callbacks[2])
    }

    @Test("the order's price and currency follow the player's country")
    func localizedOrder() throws {
        for (country, price, currency) in [
            ("JP", 800, "JPY"), ("DE", 549, "EUR"), ("KR", 7500, "KRW"), ("IN", 44900, "INR"),
        ] {
            let (sdk, _) = makeSDK(country: country)
            let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "c")
            #expect(session.price == price, "\(country)")
            #expect(session.currency == currency, "\(country)")
            #expect(session.customerCountry == country)
        }
    }

    @Test("a country without its own localization falls back to USD")
    func fallbackCountry() throws {
        let (sdk, delegate) = makeSDK(country: "NZ")
        sdk.getPricePoints()
        let points = try #require(delegate.callbacks.last?.pricePoints)
        #expect(points.pricingPointData.currencyCode == "USD")
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "c")
        #expect(session.currency == "USD")
        #expect(session.customerCountry == "NZ")
    }

    @Test("an unknown offer is refused by the game's server, before any callback")
    func unknownOffer() {
        let (sdk, delegate) = makeSDK(initialized: false)
        #expect(throws: CheckoutSessionError.unknownOffer(sku: "nope")) {
            try sdk.createCheckoutSession(offerSku: "nope", customerId: "c")
        }
        #expect(delegate.callbacks.isEmpty)
    }

    @Test("the same seed gives the same ids; another seed gives others")
    func seededIdentifiers() throws {
        func ids(seed: UInt64) throws -> [String] {
            let (sdk, delegate) = makeSDK(seed: seed)
            try checkout(sdk)
            #expect(delegate.callbacks.last?.name == .onPurchaseSuccess)
            let order = try #require(delegate.callbacks.last?.order)
            return [order.sessionToken, order.purchaseId, order.orderId]
        }
        #expect(try ids(seed: 1) == ids(seed: 1))
        #expect(try ids(seed: 1) != ids(seed: 2))
    }

    @Test("the trace follows the virtual clock through a purchase")
    func trace() throws {
        let (sdk, _) = makeSDK(initialized: false)
        var events: [TraceEvent] = []
        sdk.trace = { events.append($0) }
        sdk.initialize(configModel: config, customerId: "cust_98765", delegate: RecordingDelegate())
        try checkout(sdk)
        #expect(events.first?.message.hasPrefix("initialize: boot request") == true)
        #expect(events.last?.message == "result: the order is validated")
        #expect(events.map(\.milliseconds) == events.map(\.milliseconds).sorted())
        #expect(sdk.elapsedMilliseconds > 18_000, "the player takes 18 s to pay")
    }

    @Test(
        "the virtual clock advances by what each player action takes, and by nothing real",
        // The checkout opens in 350 ms; paying takes 18 s, then a poll every 600 ms, the
        // first of which reads the order paid and awarded, or declined; closing
        // takes 6 s; an order never found is polled until the 90 s timeout; a checkout left
        // open lasts the session's hour.
        arguments: [
            (PlayerAction.pay(paymentMethodName: "Visa"), 0, 350 + 18_000 + 600),
            (.pay(paymentMethodName: "Visa", outcome: .declined), 3003, 350 + 18_000 + 600),
            (.pay(paymentMethodName: "Visa", outcome: .pending), 3004, 350 + 18_000 + 90_000),
            (.closeCheckout(), 3002, 350 + 6_000),
            (.closeCheckout(via: .browserControls), 3000, 350 + 6_000),
            (.closeBeforeOrder, 3005, 350 + 4_000 + 90_000),
            (.leaveOpen, 3005, 350 + 3_600_000),
        ])
    func clock(action: PlayerAction, code: Int, milliseconds: Int) throws {
        let (sdk, delegate) = makeSDK()
        let start = sdk.elapsedMilliseconds
        sdk.scriptCheckout(action)
        try checkout(sdk)
        #expect(delegate.callbacks.last?.error?.code == (code == 0 ? nil : code))
        #expect(sdk.elapsedMilliseconds - start == milliseconds, "\(action)")
    }
}
