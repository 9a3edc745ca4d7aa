/// The callbacks of a G1 SDK (iOS 1.5–1.7, Android up to 1.5, Unity up to 2.4): as
/// ``ACPaymentLinksDelegate``, but a failed purchase carries no order.
///
/// Pass one to ``PaymentLinksSimulator/initialize(configModel:customerId:g1Delegate:)``
/// of a simulator whose ``PaymentLinksSimulator/target`` is G1.
@MainActor
public protocol ACPaymentLinksDelegateG1: AnyObject {
    /// The SDK initialized.
    func onInitialized()
    /// Initialization failed.
    func onInitializeFailed(error: ACErrorMessage)
    /// Price points arrived for the player's country.
    func onPricePointsSuccess(pricePoints: PricePoints)
    /// Price points could not be fetched (1006 in G1).
    func onPricePointsFailed(error: ACErrorMessage)
    /// The player paid and the order was validated.
    func onPurchaseSuccess(order: OrderResponseModel)
    /// The purchase failed or was canceled; G1 says nothing of the order.
    func onPurchaseFailed(error: ACErrorMessage)
}

/// The callbacks of a G3 SDK (iOS 2.0, Android 2.0, Unity 3.0): no price points, and the
/// player's cancels on their own callback.
///
/// Pass one to ``PaymentLinksSimulator/initialize(configModel:g3Delegate:)`` of a
/// simulator whose ``PaymentLinksSimulator/target`` is G3.
@MainActor
public protocol ACPaymentLinksDelegateG3: AnyObject {
    /// The SDK initialized.
    func onInitialized()
    /// Initialization failed, or another one was still running (2005).
    func onInitializeFailed(error: ACErrorMessage)
    /// The player paid and the order was validated.
    func onPurchaseSuccess(order: OrderResponseModel)
    /// The purchase failed; a failure of `openCheckout`'s arguments (8000–8002) has no order.
    func onPurchaseFailed(error: ACErrorMessage, order: OrderResponseModel?)
    /// The player canceled the checkout (3000, 3002).
    func onPurchaseCanceled(error: ACErrorMessage, order: OrderResponseModel?)
}

/// Hands a generation's delegate the callbacks the simulator delivers, in its shape.
final class GenerationDelegate: ACPaymentLinksDelegate {
    private let g1: (any ACPaymentLinksDelegateG1)?
    private let g3: (any ACPaymentLinksDelegateG3)?

    init(g1: any ACPaymentLinksDelegateG1) {
        self.g1 = g1
        g3 = nil
    }

    init(g3: any ACPaymentLinksDelegateG3) {
        g1 = nil
        self.g3 = g3
    }

    func onInitialized() {
        g1?.onInitialized()
        g3?.onInitialized()
    }

    func onInitializeFailed(error: ACErrorMessage) {
        g1?.onInitializeFailed(error: error)
        g3?.onInitializeFailed(error: error)
    }

    // G3 has no price points: the simulator sends none to a G3 delegate.
    func onPricePointsSuccess(pricePoints: PricePoints) {
        g1?.onPricePointsSuccess(pricePoints: pricePoints)
    }

    func onPricePointsFailed(error: ACErrorMessage) {
        g1?.onPricePointsFailed(error: error)
    }

    func onPurchaseSuccess(order: OrderResponseModel) {
        g1?.onPurchaseSuccess(order: order)
        g3?.onPurchaseSuccess(order: order)
    }

    func onPurchaseFailed(error: ACErrorMessage, order: OrderResponseModel?) {
        g1?.onPurchaseFailed(error: error)
        g3?.onPurchaseFailed(error: error, order: order)
    }

    func onPurchaseCanceled(error: ACErrorMessage, order: OrderResponseModel?) {
        g1?.onPurchaseFailed(error: error)
        g3?.onPurchaseCanceled(error: error, order: order)
    }
}
