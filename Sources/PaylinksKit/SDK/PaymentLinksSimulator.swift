/// A simulated Payment Links SDK (G2) that runs the SDK's lifecycle against a catalog
/// and reports every result to its delegate.
///
/// ```swift
/// let delegate = RecordingDelegate()
/// let sdk = PaymentLinksSimulator(catalog: catalog, delegate: delegate, now: 1_718_182_312, seed: 7)
/// sdk.initialize(configuration: ACConfigModel(
///     checkoutPublicKey: "pk_sandbox_demo", environment: "sandbox", customerId: "cust_98765"))
/// let session = try sdk.createCheckoutSession(
///     offerSku: "starter_pack_001", customerId: "cust_98765", environment: "sandbox")
/// sdk.openCheckout(session, player: .pay(paymentMethodName: "Visa"))
/// // delegate.callbacks == [.onInitialized, .onPurchaseSuccess(order: ...)]
/// ```
///
/// The simulator keeps no global state: each instance has its own catalog, virtual
/// clock and seeded generator, and it calls its delegate synchronously. Nothing really
/// waits: polls and timeouts advance a virtual clock, which ``trace`` can follow.
/// The delegate is held strongly, for the simulator's lifetime.
public final class PaymentLinksSimulator {
    /// How often the SDK polls an order's state, in milliseconds.
    public static let pollInterval = 600
    /// How long the SDK polls before giving up on an order, in milliseconds.
    public static let validationTimeout = 90_000
    /// How long a checkout session lives, in milliseconds.
    public static let sessionLifetime = 3_600_000

    /// The offers, prices and status codes the simulator serves.
    public let catalog: Catalog
    /// Where results go.
    public let delegate: ACPaymentLinksDelegate
    /// The player's country, ISO 3166-1 alpha-2: it picks the price points and the
    /// order's price and currency.
    public var country: String
    /// The wall clock when the simulator was created, in Unix seconds.
    public var now: Int
    /// Receives each moment of the simulated timeline, when set.
    public var trace: ((TraceEvent) -> Void)?
    /// The configuration of the last successful `initialize`, or nil before one.
    public private(set) var configuration: ACConfigModel?
    /// Virtual milliseconds since the simulator was created.
    public private(set) var elapsedMilliseconds = 0

    private let seed: UInt64
    /// The index of the next checkout session; it fixes that checkout's identifiers.
    public private(set) var nextCheckoutIndex: Int
    private var injectedFailures: [Step: Int] = [:]
    private var deliversNextResultTwice = false

    /// Creates a simulator that has not been initialized yet.
    ///
    /// - Parameters:
    ///   - catalog: offers, prices and status codes.
    ///   - delegate: receives every callback.
    ///   - country: the player's country.
    ///   - now: the wall clock, in Unix seconds.
    ///   - seed: seeds session tokens, purchase ids and order ids.
    ///   - firstCheckoutIndex: the index of the first checkout session; checkout `i` of a
    ///     run gets the same identifiers whatever came before it.
    public init(
        catalog: Catalog, delegate: ACPaymentLinksDelegate, country: String = "US", now: Int, seed: UInt64,
        firstCheckoutIndex: Int = 0
    ) {
        self.catalog = catalog
        self.delegate = delegate
        self.country = country
        self.now = now
        self.seed = seed
        self.nextCheckoutIndex = firstCheckoutIndex
    }

    /// Makes the next request of `step` fail with the status `code`, as if the server or
    /// the device had failed there. The failure is used once.
    public func injectFailure(code: Int, at step: Step) {
        injectedFailures[step] = code
    }

    /// Makes the next purchase result arrive twice, as when an SDK bug (fixed in iOS
    /// 1.6.0) re-validated an order on every deep link.
    public func injectDuplicateDelivery() {
        deliversNextResultTwice = true
    }

    // MARK: The SDK's requests

    /// Boots the SDK: ends in `onInitialized`, or `onInitializeFailed` when the
    /// configuration is invalid (2001 environment, 2002 public key, 2003 customer id,
    /// 2004 redirect URL) or the boot request fails.
    ///
    /// Re-initializing is allowed, to switch player or environment; a failed attempt
    /// leaves the SDK uninitialized.
    public func initialize(configuration: ACConfigModel) {
        self.configuration = nil
        let details = [
            "sdkCustomerId": configuration.customerId, "sdkEnvironment": configuration.environment,
            "redirectUrl": configuration.redirectUrl ?? "",
        ]
        if let code = Self.configurationProblem(in: configuration) {
            record("initialize: the configuration is invalid, so no boot request is sent")
            delegate.onInitializeFailed(error: failure(code, details: details))
            return
        }
        record("initialize: boot request to the \(configuration.environment) server for \(configuration.customerId)")
        advance(by: 240)
        if let code = injectedFailures.removeValue(forKey: .initialize) {
            record("boot request failed")
            delegate.onInitializeFailed(error: failure(code, details: details))
            return
        }
        record("boot response: the SDK is initialized")
        self.configuration = configuration
        delegate.onInitialized()
    }

    /// Fetches the price points for the player's country: ends in
    /// `onPricePointsSuccess`, or `onPricePointsFailed`.
    public func getPricePoints() {
        guard let configuration else {
            record("getPricePoints before initialize")
            delegate.onPricePointsFailed(error: notInitialized(request: "getPricePoints"))
            return
        }
        record("getPricePoints: request for country \(country)")
        advance(by: 180)
        let details = ["sdkCustomerId": configuration.customerId, "sdkEnvironment": configuration.environment]
        if let code = injectedFailures.removeValue(forKey: .pricePoints) {
            record("price points request failed")
            delegate.onPricePointsFailed(error: failure(code, details: details))
            return
        }
        guard let pricePoints = catalog.pricePoints(for: country) else {
            record("no price points for \(country)")
            delegate.onPricePointsFailed(error: failure(1001, details: details))
            return
        }
        record(
            "price points received: \(pricePoints.pricingPoints.count) tiers in \(pricePoints.pricingPointData.currencyCode)"
        )
        delegate.onPricePointsSuccess(pricePoints: pricePoints)
    }

    /// Creates a checkout session for an offer, as the game's server would.
    ///
    /// This is not an SDK call and delivers no callback; it fails only when the server
    /// could not sell the offer.
    ///
    /// - Parameters:
    ///   - offerSku: the offer to sell.
    ///   - customerId: the customer the server creates the session for.
    ///   - environment: the environment the server creates the session in.
    public func createCheckoutSession(offerSku: String, customerId: String, environment: String)
        throws(CheckoutSessionError) -> CheckoutSession
    {
        guard let offer = catalog.offer(sku: offerSku) else { throw .unknownOffer(sku: offerSku) }
        guard let localization = catalog.localization(for: country),
            let price = localization.minorUnits(ofTier: offer.basePriceInUSD)
        else { throw .noPrice(sku: offerSku, country: country) }
        let identifiers = CheckoutIdentifiers(seed: seed, index: nextCheckoutIndex)
        nextCheckoutIndex += 1
        return CheckoutSession(
            sessionToken: identifiers.sessionToken,
            purchaseId: identifiers.purchaseId,
            orderId: identifiers.orderId,
            offer: offer,
            price: price,
            currency: localization.data.currencyCode,
            customerId: customerId,
            customerCountry: country,
            environment: environment
        )
    }

    /// Opens the checkout for a session; the player then acts, the SDK validates the
    /// order, and exactly one of `onPurchaseSuccess` or `onPurchaseFailed` follows.
    public func openCheckout(_ session: CheckoutSession, player: PlayerAction) {
        guard let configuration else {
            record("openCheckout before initialize")
            delegate.onPurchaseFailed(error: notInitialized(request: "openCheckout"), order: nil)
            return
        }
        let orderId = session.orderId
        var order = OrderResponseModel(
            date: now,
            sessionToken: session.sessionToken,
            offerName: session.offer.name,
            offerSku: session.offer.sku,
            items: session.offer.items,
            price: session.price,
            currency: session.currency,
            customerId: session.customerId,
            customerCountry: session.customerCountry,
            paymentMethodName: "",
            orderId: orderId,
            purchaseId: session.purchaseId
        )
        if case .pay(let method, _) = player { order.paymentMethodName = method }
        let details = [
            "sdkCustomerId": configuration.customerId, "orderCustomerId": session.customerId,
            "sdkEnvironment": configuration.environment, "sessionEnvironment": session.environment,
            "offerSku": session.offer.sku, "purchaseId": session.purchaseId, "orderId": orderId,
        ]
        let deliveries = deliversNextResultTwice ? 2 : 1
        deliversNextResultTwice = false
        func deliver(_ result: () -> Void) {
            for delivery in 1...deliveries {
                if delivery > 1 { record("the deep link arrived again; the SDK validates the order again") }
                result()
            }
        }
        func fail(_ code: Int) {
            let error = failure(code, details: details)
            let known = disclosed(order, for: code)
            deliver { delegate.onPurchaseFailed(error: error, order: known) }
        }

        if let code = injectedFailures.removeValue(forKey: .purchase) {
            failInjected(code, fail: fail)
            return
        }
        record(
            "openCheckout: checkout opened for \(session.offer.sku), "
                + "\(PriceFormatter.formatMinorUnits(session.price, currency: session.currency)), purchase \(session.purchaseId)"
        )
        advance(by: 350)
        switch player {
        case .closeBeforeOrder:
            advance(by: 4_000)
            record("the player closed the checkout before the order was created")
            pollUntilTimeout(after: [], waitingOn: "not found")
            fail(3005)
        case .leaveOpen:
            advance(by: Self.sessionLifetime)
            record(
                "the checkout session expired after \(Self.sessionLifetime / 3_600_000) h with the checkout still open")
            fail(3005)
        case .closeCheckout(let method):
            advance(by: 6_000)
            switch method {
            case .checkoutInterface:
                record("the player closed the checkout interface")
                fail(3002)
            case .browserControls:
                record("the player closed the browser with the system's controls")
                fail(3000)
            }
        case .pay(let method, let outcome):
            advance(by: 18_000)
            record("the player paid with \(method); the deep link returned to the app and the SDK validates the order")
            guard session.environment == configuration.environment else {
                record("the session is in \(session.environment), the SDK in \(configuration.environment)")
                fail(3006)
                return
            }
            switch outcome {
            case .succeeded:
                poll([(.created, 1), (.paymentPending, 2), (.chargePending, 1), (.chargeSucceed, 1)])
                guard session.customerId == configuration.customerId else {
                    record("the order belongs to \(session.customerId), the SDK to \(configuration.customerId)")
                    fail(3007)
                    return
                }
                record("result: the order is validated")
                deliver { delegate.onPurchaseSuccess(order: order) }
            case .declined:
                poll([(.created, 1), (.paymentPending, 2), (.chargeFailed, 1)])
                fail(3003)
            case .pending:
                pollUntilTimeout(
                    after: [(.created, 1), (.paymentPending, 2)], waitingOn: OrderState.chargePending.rawValue)
                fail(3004)
            }
        }
    }

    /// Delivers an injected failure of the purchase step at the moment its code's
    /// order rule implies: before the checkout opens, once it is open, or after payment.
    private func failInjected(_ code: Int, fail: (Int) -> Void) {
        switch catalog.statusCode(code)?.orderAtFailure ?? .none {
        case .none:
            record("openCheckout: the checkout could not open")
        case .checkout:
            record("openCheckout: checkout opened")
            advance(by: 350)
        case .payment:
            record("openCheckout: checkout opened")
            advance(by: 18_350)
            record("the player paid; the deep link returned to the app and the SDK validates the order")
        }
        record("injected failure \(code)")
        fail(code)
    }

    // MARK: Polling

    /// Polls the order's states in turn, each for its number of polls.
    private func poll(_ states: [(state: OrderState, polls: Int)]) {
        var number = 0
        for (state, polls) in states {
            recordPolls(from: number + 1, count: polls, showing: state.rawValue)
            number += polls
        }
    }

    /// Polls `states`, then keeps polling while the order shows `waitingState` until the
    /// validation timeout.
    private func pollUntilTimeout(after states: [(state: OrderState, polls: Int)], waitingOn waitingState: String) {
        poll(states)
        let done = states.reduce(0) { $0 + $1.polls }
        let total = Self.validationTimeout / Self.pollInterval
        recordPolls(from: done + 1, count: total - done, showing: waitingState)
        record("validation timed out after \(Self.validationTimeout / 1000) s")
    }

    private func recordPolls(from first: Int, count: Int, showing state: String) {
        guard count > 0 else { return }
        advance(by: Self.pollInterval)
        if count == 1 {
            record("poll #\(first): \(state)")
        } else {
            let start = elapsedMilliseconds
            advance(by: Self.pollInterval * (count - 1))
            guard let trace else { return }
            trace(
                TraceEvent(
                    milliseconds: start,
                    message:
                        "polls #\(first)-#\(first + count - 1): \(state), every \(Self.pollInterval) ms until +\(Self.seconds(elapsedMilliseconds))"
                ))
        }
    }

    // MARK: Time and trace

    private func advance(by milliseconds: Int) {
        elapsedMilliseconds += milliseconds
    }

    /// Tells the trace, if any, what happened now; the message is made only for a trace.
    private func record(_ message: @autoclosure () -> String) {
        trace?(TraceEvent(milliseconds: elapsedMilliseconds, message: message()))
    }

    /// `18.950s`.
    static func seconds(_ milliseconds: Int) -> String {
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
    }

    // MARK: Errors

    /// The status code an invalid configuration fails with, or nil when it is valid.
    static func configurationProblem(in configuration: ACConfigModel) -> Int? {
        if configuration.environment != "sandbox" && configuration.environment != "production" { return 2001 }
        if configuration.checkoutPublicKey.isEmpty { return 2002 }
        if configuration.customerId.isEmpty { return 2003 }
        if let url = configuration.redirectUrl, !RedirectURL.isValid(url) { return 2004 }
        return nil
    }

    /// The catalog's error for `code`; a code missing from a hand-made catalog still
    /// gets a message.
    private func failure(_ code: Int, details: [String: String]) -> ACErrorMessage {
        record("result: \(code) \(catalog.statusCode(code)?.name ?? "")")
        return catalog.statusCode(code)?.error(details: details)
            ?? ACErrorMessage(code: code, message: "Status code \(code).")
    }

    /// The part of the order the SDK knew when `code` happened, by the code's rule.
    private func disclosed(_ order: OrderResponseModel, for code: Int) -> OrderResponseModel? {
        switch catalog.statusCode(code)?.orderAtFailure ?? .checkout {
        case .none:
            return nil
        case .checkout:
            var partial = order
            partial.paymentMethodName = ""
            partial.orderId = ""
            return partial
        case .payment:
            return order
        }
    }

    private func notInitialized(request: String) -> ACErrorMessage {
        ACErrorMessage(
            code: 2000,
            message: "The SDK is not initialized: call initialize and wait for onInitialized before \(request)."
        )
    }
}

/// The redirect URLs the SDK accepts: https universal links.
enum RedirectURL {
    /// Whether `text` is an absolute `https` URL with a host and no white space.
    static func isValid(_ text: String) -> Bool {
        let prefix = "https://"
        guard text.lowercased().hasPrefix(prefix) else { return false }
        let rest = text.dropFirst(prefix.count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && !host.contains("@")
            && !text.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F }
    }
}
