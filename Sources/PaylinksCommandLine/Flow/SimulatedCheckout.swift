package import PaylinksKit

extension PaymentLinksSimulator {
    /// Runs one checkout as the game and its server would: the server creates a session,
    /// the app opens it, the player does as `player` says, and the app hands the return
    /// link, if any, to the SDK. With `deliverTwice`, a second deep link arrives and the
    /// SDK validates the order again, as SDKs before iOS 1.6.0 did. A G3 SDK is handed
    /// `sdkCustomerId` (else `customerId`) at openCheckout, as it takes none at initialize.
    ///
    /// - Throws: what the server says when it cannot create the session.
    package func runCheckout(
        offerSku: String, customerId: String, environment: String, player: PlayerAction, deliverTwice: Bool,
        purchaseId: String? = nil, parsedUrl: String? = nil, sdkCustomerId: String? = nil
    ) throws(CheckoutSessionError) {
        let session = try createCheckoutSession(offerSku: offerSku, customerId: customerId, environment: environment)
        defaultPlayerAction = player
        revalidatesOnEveryDeepLink = deliverTwice || target.hasRevalidationBug
        // The app may pass other ids than the server returned, to try the SDK's checks.
        let (purchaseId, parsedUrl) = (purchaseId ?? session.purchaseId, parsedUrl ?? session.parsedUrl)
        if target.generation == .g3 {
            openCheckout(purchaseId: purchaseId, parsedUrl: parsedUrl, customerId: sdkCustomerId ?? customerId)
        } else {
            openCheckout(purchaseId: purchaseId, parsedUrl: parsedUrl)
        }
        if let link = pendingDeepLink { handleDeepLink(link) }
        if deliverTwice, let link = lastCheckoutDeepLink { handleDeepLink(link) }
        revalidatesOnEveryDeepLink = target.hasRevalidationBug
    }
}

extension PlayerAction {
    /// What the player does when the checkout fails with `code`: a code whose order rule
    /// says a payment was made turns a close into a payment with `paymentMethod`, so that
    /// the order carries the method the rule promises.
    package func paying(for code: StatusCode?, with paymentMethod: String) -> PlayerAction {
        guard code?.orderAtFailure == .payment else { return self }
        if case .pay = self { return self }
        return .pay(paymentMethodName: paymentMethod)
    }
}
