package import PaylinksKit

extension PaymentLinksSimulator {
    /// Runs one checkout as the game and its server would: the server creates a session,
    /// the app opens it, the player does as `player` says, and the app hands the return
    /// link, if any, to the SDK. With `deliverTwice`, a second deep link arrives and the
    /// SDK validates the order again, as SDKs before iOS 1.6.0 did.
    ///
    /// - Throws: what the server says when it cannot create the session.
    package func runCheckout(
        offerSku: String, customerId: String, environment: String, player: PlayerAction, deliverTwice: Bool
    ) throws(CheckoutSessionError) {
        let session = try createCheckoutSession(offerSku: offerSku, customerId: customerId, environment: environment)
        defaultPlayerAction = player
        revalidatesOnEveryDeepLink = deliverTwice
        openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
        if let link = pendingDeepLink { handleDeepLink(link) }
        if deliverTwice, let link = lastCheckoutDeepLink { handleDeepLink(link) }
        revalidatesOnEveryDeepLink = false
    }
}
