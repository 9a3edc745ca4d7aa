import PaylinksKit
import Testing

/// The browsers the SDK opens the checkout in, and what each changes for the game.
@Suite("Browser modes")
@MainActor
struct BrowserModeTests {
    let universalLink = "https://game.example/return"

    /// A simulator for `platform`'s default version (or `version`) in `mode`, initialized
    /// with `redirectUrl`.
    func makeSDK(
        _ platform: Platform, mode: BrowserMode?, redirectUrl: String? = nil, version: String? = nil,
        trace: ((TraceEvent) -> Void)? = nil
    ) throws -> (PaymentLinksSimulator, RecordingDelegate) {
        let target = try SDKTarget(platform: platform, version: version)
        let sdk = PaymentLinksSimulator(now: 1_718_182_312, seed: 7, target: target)
        sdk.trace = trace
        sdk.browserMode = mode
        let delegate = RecordingDelegate()
        let config = ACConfigModel(
            checkoutPublicKey: "pk_sandbox_demo", environment: "sandbox", redirectUrl: redirectUrl)
        if target.generation == .g3 {
            sdk.initialize(configModel: config, delegate: delegate)
        } else {
            sdk.initialize(configModel: config, customerId: "cust_98765", delegate: delegate)
        }
        return (sdk, delegate)
    }

    /// Creates a session, opens it, and follows the return link.
    func checkout(_ sdk: PaymentLinksSimulator) throws {
        let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_98765")
        if sdk.target.generation == .g3 {
            sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl, customerId: "cust_98765")
        } else {
            sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        }
        if let link = sdk.pendingDeepLink { sdk.handleDeepLink(link) }
    }

    @Test("iOS and Unity offer internal and external, Android custom-tab, trusted-web-activity and external")
    func modesByPlatform() {
        #expect(BrowserMode.modes(on: .ios) == [.internal, .external])
        #expect(BrowserMode.modes(on: .unity) == [.internal, .external])
        #expect(BrowserMode.modes(on: .android) == [.customTab, .trustedWebActivity, .external])
        #expect(BrowserMode.standard(on: .ios) == .internal)
        #expect(BrowserMode.standard(on: .unity) == .internal)
        #expect(BrowserMode.standard(on: .android) == .customTab)
    }

    @Test(
        "every mode a platform offers ends a paid purchase in the same onPurchaseSuccess as no mode",
        arguments: Platform.allCases.flatMap { platform in BrowserMode.modes(on: platform).map { (platform, $0) } })
    func paidInEveryMode(platform: Platform, mode: BrowserMode) throws {
        let (plain, plainDelegate) = try makeSDK(platform, mode: nil, redirectUrl: universalLink)
        try checkout(plain)
        let (sdk, delegate) = try makeSDK(platform, mode: mode, redirectUrl: universalLink)
        try checkout(sdk)
        #expect(delegate.callbacks.map(\.name) == [.onInitialized, .onPurchaseSuccess])
        #expect(delegate.callbacks == plainDelegate.callbacks)
    }

    @Test(
        "the external mode without a redirectUrl fails initialize with 2004 on iOS and Unity; Android needs none",
        arguments: [(Platform.ios, 2004), (.unity, 2004), (.android, nil)] as [(Platform, Int?)])
    func externalNeedsRedirectUrl(platform: Platform, code: Int?) throws {
        let (sdk, delegate) = try makeSDK(platform, mode: .external)
        if let code {
            #expect(delegate.callbacks.map(\.name) == [.onInitializeFailed])
            #expect(delegate.callbacks.first?.error?.code == code)
            #expect(delegate.callbacks.first?.error?.message.contains("redirect") == true)
            #expect(sdk.configuration == nil)
        } else {
            #expect(delegate.callbacks.map(\.name) == [.onInitialized])
        }
        let (internalSDK, internalDelegate) = try makeSDK(platform, mode: BrowserMode.standard(on: platform))
        #expect(internalDelegate.callbacks.map(\.name) == [.onInitialized])
        #expect(internalSDK.configuration != nil)
    }

    @Test("G1 reports the missing redirectUrl of the external mode as its 2000")
    func externalNeedsRedirectUrlG1() throws {
        let (_, delegate) = try makeSDK(.ios, mode: .external, version: "1.7")
        #expect(delegate.callbacks.first?.error?.code == 2000)
    }

    @Test(
        "an external browser that loses the session ends the purchase in 3000 BROWSER_CLOSED with the order",
        arguments: [Platform.ios, .android, .unity])
    func lostSession(platform: Platform) throws {
        let (sdk, delegate) = try makeSDK(platform, mode: .external, redirectUrl: universalLink)
        sdk.losesBrowserSession = true
        try checkout(sdk)
        #expect(delegate.callbacks.map(\.name) == [.onInitialized, .onPurchaseFailed])
        let error = try #require(delegate.callbacks.last?.error)
        #expect(error.code == 3000)
        #expect(sdk.catalog.statusCode(3000)?.name == "BROWSER_CLOSED")
        #expect(delegate.callbacks.last?.order?.purchaseId.hasPrefix("pr_") == true)
        #expect(sdk.pendingDeepLink == nil, "nothing returns to the app")
    }

    @Test("G3 hands a lost session to onPurchaseCanceled, as the player's own close of the browser")
    func lostSessionG3() throws {
        let (sdk, delegate) = try makeSDK(.ios, mode: .external, redirectUrl: universalLink, version: "2.0")
        sdk.losesBrowserSession = true
        try checkout(sdk)
        #expect(delegate.callbacks.map(\.name) == [.onInitialized, .onPurchaseCanceled])
        #expect(delegate.callbacks.last?.error?.code == 3000)
    }

    @Test("an in-app browser keeps its session: the purchase is paid", arguments: [BrowserMode.internal, nil])
    func inAppKeepsSession(mode: BrowserMode?) throws {
        let (sdk, delegate) = try makeSDK(.ios, mode: mode)
        sdk.losesBrowserSession = true
        try checkout(sdk)
        #expect(delegate.callbacks.map(\.name) == [.onInitialized, .onPurchaseSuccess])
    }

    @Test(
        "a mode the platform does not offer opens nothing: 4000 BROWSER_DISABLED_OR_NOT_AVAILABLE",
        arguments: [(Platform.ios, BrowserMode.customTab), (.unity, .trustedWebActivity), (.android, .internal)])
    func modeNotOffered(platform: Platform, mode: BrowserMode) throws {
        let (sdk, delegate) = try makeSDK(platform, mode: mode)
        try checkout(sdk)
        #expect(delegate.callbacks.last?.error?.code == 4000)
        #expect(delegate.callbacks.last?.order == nil)
    }

    @Test(
        "the trace names the browser the checkout opens in only when a mode is set",
        arguments: [
            (Platform.ios, BrowserMode?.some(.external), "openCheckout: checkout opened in Safari (external) for "),
            (.android, .external, "openCheckout: checkout opened in the device's browser (external) for "),
            (.android, .trustedWebActivity, "openCheckout: checkout opened in a Trusted Web Activity "),
            (.ios, .internal, "openCheckout: checkout opened in an in-app Safari view (internal) for "),
            (.ios, nil, "openCheckout: checkout opened for "),
        ])
    func traceNamesMode(platform: Platform, mode: BrowserMode?, line: String) throws {
        var lines: [String] = []
        let (sdk, _) = try makeSDK(platform, mode: mode, redirectUrl: universalLink) { lines.append($0.message) }
        try checkout(sdk)
        #expect(lines.contains { $0.hasPrefix(line) }, "\(lines)")
    }
}
