/// A simulated Payment Links SDK (G2) that runs the SDK's lifecycle against a catalog
/// and reports every result to its delegate.
///
/// ```swift
/// let delegate = RecordingDelegate()
/// let sdk = PaymentLinksSimulator(catalog: catalog, delegate: delegate, now: 1_718_182_312, seed: 7)
/// sdk.initialize(configuration: ACConfigModel(
///     checkoutPublicKey: "pk_sandbox_demo", environment: "sandbox", customerId: "cust_98765"))
/// let session = try sdk.createCheckoutSession(offerSku: "starter_pack_001", customerId: "cust_98765")
/// sdk.openCheckout(session, player: .pay(paymentMethodName: "Visa"))
/// // delegate.callbacks == [.onInitialized, .onPurchaseSuccess(order: ...)]
/// ```
///
/// The simulator keeps no global state: each instance has its own catalog, clock and
/// seeded generator, and it calls its delegate synchronously. The delegate is held
/// strongly, for the simulator's lifetime.
public final class PaymentLinksSimulator {
    /// The offers, prices and status codes the simulator serves.
    public let catalog: Catalog
    /// Where results go.
    public let delegate: ACPaymentLinksDelegate
    /// The player's country, ISO 3166-1 alpha-2: it picks the price points and the
    /// order's price and currency.
    public var country: String
    /// The clock, in Unix seconds: an order's `date`.
    public var now: Int
    /// The configuration of the last successful `initialize`, or nil before one.
    public private(set) var configuration: ACConfigModel?

    private var random: SeededGenerator

    /// Creates a simulator that has not been initialized yet.
    ///
    /// - Parameters:
    ///   - catalog: offers, prices and status codes.
    ///   - delegate: receives every callback.
    ///   - country: the player's country.
    ///   - now: the clock, in Unix seconds.
    ///   - seed: seeds session tokens, purchase ids and order ids.
    public init(catalog: Catalog, delegate: ACPaymentLinksDelegate, country: String = "US", now: Int, seed: UInt64) {
        self.catalog = catalog
        self.delegate = delegate
        self.country = country
        self.now = now
        self.random = SeededGenerator(seed: seed)
    }

    // MARK: The SDK's requests

    /// Boots the SDK: ends in `onInitialized`, or `onInitializeFailed` when the
    /// configuration is invalid (2001 environment, 2002 public key, 2003 customer id).
    ///
    /// Re-initializing is allowed, to switch player or environment; a failed attempt
    /// leaves the SDK uninitialized.
    public func initialize(configuration: ACConfigModel) {
        self.configuration = nil
        if let code = Self.configurationProblem(in: configuration) {
            delegate.onInitializeFailed(error: error(code))
            return
        }
        self.configuration = configuration
        delegate.onInitialized()
    }

    /// Fetches the price points for the player's country: ends in
    /// `onPricePointsSuccess`, or `onPricePointsFailed`.
    public func getPricePoints() {
        guard configuration != nil else {
            delegate.onPricePointsFailed(error: notInitialized(request: "getPricePoints"))
            return
        }
        guard let pricePoints = catalog.pricePoints(for: country) else {
            delegate.onPricePointsFailed(error: error(1001))
            return
        }
        delegate.onPricePointsSuccess(pricePoints: pricePoints)
    }

    /// Creates a checkout session for an offer, as the game's server would.
    ///
    /// This is not an SDK call and delivers no callback; it fails only when the server
    /// could not sell the offer.
    public func createCheckoutSession(offerSku: String, customerId: String) throws(CheckoutSessionError)
        -> CheckoutSession
    {
        guard let offer = catalog.offer(sku: offerSku) else { throw .unknownOffer(sku: offerSku) }
        guard let localization = catalog.localization(for: country),
            let price = localization.minorUnits(ofTier: offer.basePriceInUSD)
        else { throw .noPrice(sku: offerSku, country: country) }
        return CheckoutSession(
            sessionToken: Identifiers.sessionToken(using: &random),
            purchaseId: Identifiers.purchaseId(using: &random),
            offer: offer,
            price: price,
            currency: localization.data.currencyCode,
            customerId: customerId,
            customerCountry: country
        )
    }

    /// Opens the checkout for a session; the player then acts, the SDK validates the
    /// order, and exactly one of `onPurchaseSuccess` or `onPurchaseFailed` follows.
    public func openCheckout(_ session: CheckoutSession, player: PlayerAction) {
        guard configuration != nil else {
            delegate.onPurchaseFailed(error: notInitialized(request: "openCheckout"), order: nil)
            return
        }
        // The order id is drawn even when no payment happens, so that a seed gives the
        // same session token and purchase id whatever the player does.
        let orderId = Identifiers.orderId(using: &random)
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
            orderId: "",
            purchaseId: session.purchaseId
        )
        switch player {
        case .closeCheckout:
            delegate.onPurchaseFailed(error: error(3002), order: order)
        case .pay(let paymentMethodName):
            order.paymentMethodName = paymentMethodName
            order.orderId = orderId
            delegate.onPurchaseSuccess(order: order)
        }
    }

    // MARK: Errors

    /// The status code an invalid configuration fails with, or nil when it is valid.
    static func configurationProblem(in configuration: ACConfigModel) -> Int? {
        if configuration.environment != "sandbox" && configuration.environment != "production" { return 2001 }
        if configuration.checkoutPublicKey.isEmpty { return 2002 }
        if configuration.customerId.isEmpty { return 2003 }
        return nil
    }

    /// The catalog's error for `code`; a code missing from a hand-made catalog still
    /// gets a message.
    private func error(_ code: Int, data: String? = nil) -> ACErrorMessage {
        catalog.statusCode(code)?.error(data: data)
            ?? ACErrorMessage(code: code, message: "Status code \(code).", data: data)
    }

    private func notInitialized(request: String) -> ACErrorMessage {
        ACErrorMessage(
            code: 2000,
            message: "The SDK is not initialized: call initialize and wait for onInitialized before \(request)."
        )
    }
}
