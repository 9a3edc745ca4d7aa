/// A simulated Payment Links SDK (G2): the SDK's own calls, run against a catalog, with
/// every result reported to the delegate; a stand-in for the SDK in a game's tests.
///
/// ```swift
/// let sdk = PaymentLinksSimulator(delivery: .asynchronous)
/// sdk.scriptCheckout(.pay(paymentMethodName: "Mastercard"))
/// sdk.initialize(
///     configModel: ACConfigModel(checkoutPublicKey: "pk_sandbox_demo", environment: "sandbox"),
///     customerId: "cust_98765", delegate: store)
/// // What the game's server does: create a session, hand its ids to the app.
/// let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_98765")
/// sdk.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
/// // The player pays; the checkout returns to the app through its deep link.
/// sdk.handleDeepLink(sdk.pendingDeepLink!)
/// await sdk.settle()
/// // store received onInitialized, then onPurchaseSuccess(order:)
/// ```
///
/// What the player does in a checkout is scripted before it opens (``scriptCheckout(_:)``);
/// failures of the SDK's requests are injected (``injectFailure(code:at:)``). A paid
/// checkout ends only when the app hands its return link to ``handleDeepLink(_:)``, as
/// with the real SDK; set ``openURL`` to have the simulated OS do that as the game's
/// own URL handling would.
///
/// The simulator keeps no global state: each instance has its own catalog, virtual
/// clock and seeded generator. Nothing really waits: polls and timeouts advance a
/// virtual clock, which ``trace`` can follow. The delegate is held strongly until the
/// next `initialize`.
@MainActor
public final class PaymentLinksSimulator {

    /// How often the SDK polls an order's state, in milliseconds.
    public nonisolated static let pollInterval = 600
    /// How long the SDK polls before giving up on an order, in milliseconds.
    public nonisolated static let validationTimeout = 90_000
    /// How long a checkout session lives, in milliseconds.
    public nonisolated static let sessionLifetime = 3_600_000

    /// The offers, prices and status codes the simulator serves, the status codes those
    /// of ``target``'s generation.
    public let catalog: Catalog
    /// The platform and SDK version simulated. Its generation decides the behaviour: G1's
    /// `onPurchaseFailed` carries no order and its codes come from the old table; G3 has
    /// no price points, takes the customer id at ``openCheckout(purchaseId:parsedUrl:customerId:)``,
    /// and sends the player's cancels to `onPurchaseCanceled`.
    public let target: SDKTarget
    /// How results reach the delegate.
    public let delivery: Delivery
    /// Where results go: `initialize` sets it. Set it before to hear of requests made
    /// before `initialize` (they fail with 2000); without a delegate nothing is told.
    public var delegate: (any ACPaymentLinksDelegate)?
    /// The player's country, ISO 3166-1 alpha-2: it picks the price points and the
    /// order's price and currency.
    public var country: String
    /// The wall clock when the simulator was created, in Unix seconds.
    public var now: Int
    /// Receives each moment of the simulated timeline, when set.
    public var trace: ((TraceEvent) -> Void)?
    /// The configuration of the last successful `initialize`, or nil before one.
    public private(set) var configuration: ACConfigModel?
    /// The customer id of the last successful `initialize`, or nil before one.
    public private(set) var customerId: String?
    /// Virtual milliseconds since the simulator was created.
    public internal(set) var elapsedMilliseconds = 0
    /// The index of the next checkout session; it fixes that checkout's identifiers.
    public internal(set) var nextCheckoutIndex: Int

    /// What the player does in a checkout when nothing was scripted for it.
    public var defaultPlayerAction = PlayerAction.pay(paymentMethodName: PlayerAction.defaultPaymentMethod)
    /// What the player does in the next checkouts, oldest first; each checkout takes one.
    public internal(set) var scriptedPlayerActions: [PlayerAction] = []
    /// Whether every deep link makes the SDK validate the last order again and deliver
    /// its result once more: the bug of iOS SDKs before 1.6.0, on from the start when
    /// ``target`` is one of them.
    public var revalidatesOnEveryDeepLink = false
    /// Stands in for the OS opening the app with a checkout's return link; the game's
    /// URL handling should pass it to ``handleDeepLink(_:)``. When nil, the link waits
    /// in ``pendingDeepLink``.
    public var openURL: ((String) -> Void)?
    /// The return link of a paid checkout that the app has not handed to
    /// ``handleDeepLink(_:)`` yet.
    public internal(set) var pendingDeepLink: String?
    /// The return link of the most recent checkout, paid or not.
    public internal(set) var lastCheckoutDeepLink: String?
    /// The browser the checkout opens in; nil is the platform's default
    /// (``BrowserMode/standard(on:)``), which the trace does not name. Set it before
    /// `initialize`: the external mode on iOS and Unity needs the configuration's
    /// `redirectUrl`, and without one `initialize` fails with 2004. A mode the platform's
    /// SDK does not offer opens nothing: the purchase ends in 4000.
    public var browserMode: BrowserMode?
    /// Whether the external browser loses the session of each checkout before the player
    /// pays: the purchase ends in 3000 BROWSER_CLOSED, as when the player closes the
    /// browser. Only an external ``browserMode`` loses sessions.
    public var losesBrowserSession = false

    /// Stands in for Appcharge granting the award of a paid order on the game's server,
    /// when ``backend`` is the simulator's own.
    ///
    /// When nil, every payment is granted. When set, it is called once for each payment
    /// that succeeds, as the player pays, with the order the client will receive; whatever
    /// it does (send a real Grant Award Callback to a game's server, or decide at once)
    /// happens then, and the order stays `charge_pending` until the verdict's events have
    /// passed. The SDK's polls then read `charge_succeed`, and the purchase ends in
    /// `onPurchaseSuccess`; or `charge_failed`, and it ends in `onPurchaseFailed` with 3003,
    /// the whole order and the verdict's data (see ``awardFailure(of:data:)``). The
    /// verdict's events go to ``trace``, each after its virtual milliseconds, among the
    /// SDK's polls.
    ///
    /// ```swift
    /// sdk.awardGranter = { order in
    ///     AwardVerdict(outcome: order.price > 10_000 ? .failed(data: #"{"reason":"limit"}"#) : .granted, events: [])
    /// }
    /// ```
    public var awardGranter: ((OrderResponseModel) -> AwardVerdict)? {
        get { builtInBackend.awardGranter }
        set { builtInBackend.awardGranter = newValue }
    }

    /// Appcharge's side of every checkout: the sessions, the player's choices and the
    /// order states the SDK polls. The simulator's own ``SimulatedCheckoutBackend`` unless
    /// set; set it before the first checkout session is created.
    public var backend: any CheckoutBackend

    /// The simulator's own backend, which ``awardGranter`` configures.
    let builtInBackend: SimulatedCheckoutBackend

    let seed: UInt64
    var injectedFailures: [Step: Int] = [:]
    /// What the backend did that the trace has not shown yet, oldest first.
    var backendNotes: [BackendNote] = []
    /// The paid checkout waiting for its deep link.
    var awaitingDeepLink:
        (
            session: CheckoutSession, configuration: ACConfigModel, customerId: String, method: String
        )?
    /// The last purchase result and the link that re-validates it.
    var lastPurchaseResult: (link: String, callback: Callback)?
    /// Callbacks due to the delegate, in asynchronous delivery.
    var queue: [(callback: Callback, delegate: any ACPaymentLinksDelegate)] = []

    /// Creates a simulator that has not been initialized yet.
    ///
    /// - Parameters:
    ///   - catalog: offers, prices and status codes.
    ///   - country: the player's country.
    ///   - now: the wall clock, in Unix seconds.
    ///   - seed: seeds session tokens, purchase ids and order ids.
    ///   - delivery: whether results arrive before a call returns, or later.
    ///   - firstCheckoutIndex: the index of the first checkout session; checkout `i` of a
    ///     run gets the same identifiers whatever came before it.
    ///   - target: the platform and SDK version to behave as.
    public init(
        catalog: Catalog = .builtIn, country: String = "US", now: Int = 1_718_182_312, seed: UInt64 = 0,
        delivery: Delivery = .synchronous, firstCheckoutIndex: Int = 0, target: SDKTarget = .standard
    ) {
        self.catalog = catalog.forGeneration(target.generation)
        self.target = target
        revalidatesOnEveryDeepLink = target.hasRevalidationBug
        self.country = country
        self.now = now
        self.seed = seed
        self.delivery = delivery
        self.nextCheckoutIndex = firstCheckoutIndex
        builtInBackend = SimulatedCheckoutBackend(seed: seed)
        backend = builtInBackend
    }

    // MARK: Controls

    /// Scripts what the player does in a coming checkout: each call scripts one more,
    /// in order. Checkouts with nothing scripted use ``defaultPlayerAction``.
    public func scriptCheckout(_ action: PlayerAction) {
        scriptedPlayerActions.append(action)
    }

    /// Makes the next request of `step` fail with the status `code`, as if the server or
    /// the device had failed there. The failure is used once.
    public func injectFailure(code: Int, at step: Step) {
        injectedFailures[step] = code
    }

    /// The number of callbacks due that asynchronous delivery has not delivered yet.
    public var undeliveredCallbackCount: Int { queue.count }

    /// Returns once every callback due has been delivered (at once with synchronous
    /// delivery).
    @_alwaysEmitIntoClient
    public func settle() async {
        while undeliveredCallbackCount > 0 {
            await Task.yield()
        }
    }

    // MARK: The SDK's calls

    /// Boots the SDK for a player: ends in `onInitialized`, or `onInitializeFailed` when
    /// the configuration is invalid (2001 environment, 2002 public key, 2003 customer id,
    /// 2004 redirect URL, or none for an external ``browserMode`` on iOS) or the boot
    /// request fails.
    ///
    /// Re-initializing is allowed, to switch player or environment; a failed attempt
    /// leaves the SDK uninitialized.
    ///
    /// G3 takes no customer id here: on a G3 simulator this initializer is refused with
    /// `onInitializeFailed` 2000, whose message says to call
    /// ``initialize(configModel:delegate:)`` and pass the customer id to
    /// ``openCheckout(purchaseId:parsedUrl:customerId:)``.
    public func initialize(configModel: ACConfigModel, customerId: String, delegate: any ACPaymentLinksDelegate) {
        boot(configModel, customerId: customerId, delegate: delegate)
    }

    /// Boots the SDK, the G3 way: without a customer id, which goes to
    /// ``openCheckout(purchaseId:parsedUrl:customerId:)``. A second call while the first
    /// one's result has not arrived yet fails with 2005.
    ///
    /// SDKs before G3 need the customer id here: on such a simulator this fails with 2003,
    /// as an empty customer id does.
    public func initialize(configModel: ACConfigModel, delegate: any ACPaymentLinksDelegate) {
        boot(configModel, customerId: nil, delegate: delegate)
    }

    /// Boots the SDK for a G3 game, whose delegate has no price points callbacks and a
    /// callback for the player's cancels.
    public func initialize(configModel: ACConfigModel, g3Delegate: any ACPaymentLinksDelegateG3) {
        boot(configModel, customerId: nil, delegate: GenerationDelegate(g3: g3Delegate))
    }

    /// Boots the SDK for a G1 game, whose delegate hears of a failed purchase without its
    /// order. Refused with 2000 on a G3 simulator, as the G2 initializer with a customer id is.
    public func initialize(
        configModel: ACConfigModel, customerId: String, g1Delegate: any ACPaymentLinksDelegateG1
    ) {
        boot(configModel, customerId: customerId, delegate: GenerationDelegate(g1: g1Delegate))
    }

    func boot(_ configModel: ACConfigModel, customerId: String?, delegate: any ACPaymentLinksDelegate) {
        if target.generation == .g3, customerId != nil {
            // The G3 SDK has no initializer that takes a customer id: refused, so that a test
            // written for an earlier SDK fails where it differs.
            record("initialize: \(target) takes no customer id at initialize, so no boot request is sent")
            self.delegate = delegate
            configuration = nil
            self.customerId = nil
            var error = failure(2000, details: ["request": "initialize"])
            error.message =
                "\(target) takes no customer id at initialize: call initialize(configModel:delegate:) and pass the "
                + "customer id to openCheckout(purchaseId:parsedUrl:customerId:)."
            deliver(.onInitializeFailed(error: error))
            return
        }
        if target.generation == .g3, queue.contains(where: { $0.callback.name == .onInitialized }) {
            record("initialize: the first initialize is still running")
            deliver(.onInitializeFailed(error: failure(2005, details: ["request": "initialize"])))
            return
        }
        self.delegate = delegate
        // iOS before 1.5.1 kept the first player's customer id when initialized again.
        let customerId = target.keepsFirstCustomerId ? self.customerId ?? customerId : customerId
        configuration = nil
        self.customerId = nil
        let details = [
            "sdkCustomerId": customerId ?? "", "sdkEnvironment": configModel.environment,
            "redirectUrl": configModel.redirectUrl ?? "", "request": "initialize",
        ]
        // G3 checks the customer id at openCheckout instead; earlier SDKs need one here.
        let checked = target.generation == .g3 ? nil : customerId ?? ""
        if let code = Self.configurationProblem(in: configModel, customerId: checked ?? "-") {
            record("initialize: the configuration is invalid, so no boot request is sent")
            deliver(.onInitializeFailed(error: failure(catalog.code(reporting: code), details: details)))
            return
        }
        if let browserMode, browserMode.needsRedirectUrl(on: target.platform), configModel.redirectUrl == nil {
            // Safari returns to the app only through a universal link.
            record(
                "initialize: the \(browserMode.rawValue) browser mode needs a redirectUrl, so no boot request is sent")
            deliver(.onInitializeFailed(error: failure(catalog.code(reporting: 2004), details: details)))
            return
        }
        record(
            "initialize: boot request to the \(configModel.environment) server" + (checked.map { " for \($0)" } ?? ""))
        advance(by: 240)
        if let code = injectedFailures.removeValue(forKey: .initialize) {
            record("boot request failed")
            deliver(.onInitializeFailed(error: failure(code, details: details)))
            return
        }
        record("boot response: the SDK is initialized")
        configuration = configModel
        self.customerId = customerId
        deliver(.onInitialized)
    }

    /// Fetches the price points for the player's country: ends in
    /// `onPricePointsSuccess`, or `onPricePointsFailed`.
    ///
    /// G3 has no price points (its interface has neither this call nor its callbacks): on
    /// a G3 simulator the call still ends in exactly one result, `onPricePointsFailed`
    /// with 9999, whose message says so. A ``ACPaymentLinksDelegateG3`` has no such
    /// callback, and hears nothing.
    public func getPricePoints() {
        guard target.generation != .g3 else {
            record("getPricePoints: \(target) has no price points, so nothing is requested")
            deliver(.onPricePointsFailed(error: failure(9999, details: ["request": "getPricePoints"])))
            return
        }
        guard let configuration, let customerId else {
            record("getPricePoints before initialize")
            deliver(.onPricePointsFailed(error: notInitialized(request: "getPricePoints")))
            return
        }
        record("getPricePoints: request for country \(country)")
        advance(by: 180)
        let details = [
            "sdkCustomerId": customerId, "sdkEnvironment": configuration.environment, "request": "getPricePoints",
        ]
        if let code = injectedFailures.removeValue(forKey: .pricePoints) {
            record("price points request failed")
            deliver(.onPricePointsFailed(error: failure(code, details: details)))
            return
        }
        guard let pricePoints = catalog.pricePoints(for: country) else {
            record("no price points for \(country)")
            deliver(.onPricePointsFailed(error: failure(catalog.code(reporting: 1001), details: details)))
            return
        }
        record(
            "price points received: \(pricePoints.pricingPoints.count) tiers in \(pricePoints.pricingPointData.currencyCode)"
        )
        deliver(.onPricePointsSuccess(pricePoints: pricePoints))
    }
}
