/// The callbacks the Payment Links SDK delivers to a game, named as in the iOS SDK.
///
/// ## The contract
///
/// An implementation can rely on the following, and ``PaymentLinksSimulator`` guarantees it:
///
/// - **Exactly one result per request.** `initialize` ends in exactly one of
///   ``onInitialized()`` or ``onInitializeFailed(error:)``; `getPricePoints` in exactly
///   one of ``onPricePointsSuccess(pricePoints:)`` or ``onPricePointsFailed(error:)``;
///   `openCheckout` in exactly one of ``onPurchaseSuccess(order:)`` or
///   ``onPurchaseFailed(error:order:)``.
/// - **Every callback is terminal for its request.** Nothing follows a result for the
///   same request; the next callback belongs to the next request. The one exception is
///   the old SDKs' duplicate result (below).
/// - **Order.** Results arrive in the order the requests were made, and a request made
///   before a successful `initialize` fails on its own failure callback (code 2000)
///   instead of being dropped.
/// - **The main actor.** Every callback arrives on the main actor, so a `@MainActor` game
///   type conforms as it is. With ``PaymentLinksSimulator/Delivery-swift.struct/asynchronous``
///   a callback arrives later, after the request that caused it has returned, as from
///   the real SDK; with ``PaymentLinksSimulator/Delivery-swift.struct/synchronous`` it
///   arrives before the request returns, which keeps simple tests simple.
///
/// Real integrations must still tolerate a duplicate purchase result: an SDK bug fixed
/// in iOS 1.6.0 re-validated an order on every deep link
/// (``PaymentLinksSimulator/revalidatesOnEveryDeepLink``).
@MainActor
public protocol ACPaymentLinksDelegate: AnyObject {
    /// The SDK initialized; price points and checkout can now be requested.
    func onInitialized()
    /// The SDK could not initialize; `error.code` says why (2000-2004, 1000, 1001, 1007).
    func onInitializeFailed(error: ACErrorMessage)
    /// The price points for the player's country arrived.
    func onPricePointsSuccess(pricePoints: PricePoints)
    /// The price points could not be fetched.
    func onPricePointsFailed(error: ACErrorMessage)
    /// The player paid and the order was validated.
    func onPurchaseSuccess(order: OrderResponseModel)
    /// The checkout closed without a validated payment, or a server error occurred.
    /// `order` holds what was known at that moment, or nil when checkout never opened.
    func onPurchaseFailed(error: ACErrorMessage, order: OrderResponseModel?)
    /// The player canceled the checkout (3000, 3002): G3 SDKs only; earlier ones send
    /// cancels to ``onPurchaseFailed(error:order:)``, which is what this does unless
    /// implemented.
    func onPurchaseCanceled(error: ACErrorMessage, order: OrderResponseModel?)
}

extension ACPaymentLinksDelegate {
    /// Forwards to ``onPurchaseFailed(error:order:)``, where SDKs before G3 send cancels.
    public func onPurchaseCanceled(error: ACErrorMessage, order: OrderResponseModel?) {
        onPurchaseFailed(error: error, order: order)
    }
}
