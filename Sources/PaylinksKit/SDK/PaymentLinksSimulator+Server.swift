// The simulator's stand-in for the game's server and for Appcharge: checkout sessions,
// their orders, and the seams a run of many checkouts uses.

extension PaymentLinksSimulator {
    // MARK: Many checkouts alike

    /// The order the next checkout would give if it went as the one that gave `order`:
    /// the same offer, player, price and time under the next checkout's identifiers.
    ///
    /// With ``skipCheckout()``, this lets a run of many identical checkouts skip the
    /// simulation once it has proven the prediction: run a checkout, compare its order
    /// with the one predicted from the checkout before it, and once they are equal,
    /// predict the rest and skip each.
    public func predictedOrder(like order: OrderResponseModel) -> OrderResponseModel {
        let identifiers = CheckoutIdentifiers(seed: seed, index: nextCheckoutIndex)
        var next = order
        next.sessionToken = identifiers.sessionToken
        next.purchaseId = identifiers.purchaseId
        next.orderId = identifiers.orderId
        return next
    }

    /// Moves past the next checkout without running it, so that the one after gets its
    /// own identifiers, as if the skipped one had run; see ``predictedOrder(like:)``.
    public func skipCheckout() {
        nextCheckoutIndex += 1
    }

    // MARK: The game's server

    /// Creates a checkout session for an offer, as the game's server would with Create
    /// Checkout Session.
    ///
    /// This is not an SDK call and delivers no callback; it fails only when the server
    /// could not sell the offer.
    ///
    /// - Parameters:
    ///   - offerSku: the offer to sell.
    ///   - customerId: the customer the server creates the session for.
    ///   - environment: the environment the server creates the session in.
    public func createCheckoutSession(offerSku: String, customerId: String, environment: String = "sandbox")
        throws(CheckoutSessionError) -> CheckoutSession
    {
        let sale = try sale(
            offerSku: offerSku, customerId: customerId, environment: environment, index: nextCheckoutIndex)
        nextCheckoutIndex += 1
        return backend.createSession(sale, at: virtualMilliseconds)
    }

    /// What the game's server sells in checkout `index`: the offer at its price in the
    /// player's country.
    package func sale(offerSku: String, customerId: String, environment: String, index: Int)
        throws(CheckoutSessionError) -> CheckoutSale
    {
        guard let offer = catalog.offer(sku: offerSku) else { throw .unknownOffer(sku: offerSku) }
        guard let localization = catalog.localization(for: country),
            let price = localization.minorUnits(ofTier: offer.basePriceInUSD)
        else { throw .noPrice(sku: offerSku, country: country) }
        return CheckoutSale(
            offer: offer, price: price, currency: localization.data.currencyCode, customerId: customerId,
            country: country, environment: environment, index: index, orderDate: now)
    }

    /// The order of a session, paid with `method` (empty before a payment); a free order
    /// (priced 0) is collected, paid with nothing.
    static func order(of session: CheckoutSession, paidWith method: String, at date: Int)
        -> OrderResponseModel
    {
        OrderResponseModel(
            date: date,
            sessionToken: session.checkoutSessionToken,
            offerName: session.offer.name,
            offerSku: session.offer.sku,
            items: session.offer.items,
            price: session.price,
            currency: session.currency,
            customerId: session.customerId,
            customerCountry: session.customerCountry,
            paymentMethodName: session.price == 0 ? "" : method,
            orderId: session.orderId,
            purchaseId: session.purchaseId
        )
    }

    func details(of session: CheckoutSession, configuration: ACConfigModel, customerId: String)
        -> [String: String]
    {
        [
            "sdkCustomerId": customerId, "orderCustomerId": session.customerId,
            "sdkEnvironment": configuration.environment, "sessionEnvironment": session.environment,
            "offerSku": session.offer.sku, "purchaseId": session.purchaseId, "orderId": session.orderId,
            "request": "openCheckout",
        ]
    }

    /// The link a checkout returns to the app with: the redirect URL when the game set
    /// one, the SDK's own scheme otherwise, with the purchase id.
    func returnLink(purchaseId: String, configuration: ACConfigModel) -> String {
        let base = configuration.redirectUrl ?? "paylinks-\(configuration.environment)://checkout/return"
        return base + (base.contains("?") ? "&" : "?") + "purchaseId=" + purchaseId
    }
}
