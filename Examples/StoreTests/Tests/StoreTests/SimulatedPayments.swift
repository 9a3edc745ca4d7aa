import PaylinksKit
import Store

/// The test adapter: paylinks' simulated SDK behind the store's seam, in the same shape
/// as the production adapter over the real SDK (Sources/Store/AppchargePayments.swift).
@MainActor
final class SimulatedPayments: Payments, ACPaymentLinksDelegate {
    weak var listener: (any PaymentsListener)?
    let sdk: PaymentLinksSimulator
    private let configModel = ACConfigModel(checkoutPublicKey: "pk_sandbox_demo", environment: "sandbox")

    init(sdk: PaymentLinksSimulator) {
        self.sdk = sdk
    }

    func start(customerId: String) {
        sdk.initialize(configModel: configModel, customerId: customerId, delegate: self)
    }

    func openCheckout(purchaseId: String, parsedUrl: String) {
        sdk.openCheckout(purchaseId: purchaseId, parsedUrl: parsedUrl)
    }

    func handleDeepLink(_ url: String) -> Bool {
        sdk.handleDeepLink(url)
    }

    func onInitialized() { listener?.paymentsReady() }
    func onInitializeFailed(error: ACErrorMessage) { listener?.paymentsUnavailable(code: error.code) }
    func onPricePointsSuccess(pricePoints: PricePoints) {}
    func onPricePointsFailed(error: ACErrorMessage) {}
    func onPurchaseSuccess(order: OrderResponseModel) {
        listener?.purchaseSucceeded(
            Receipt(
                orderId: order.orderId, offerName: order.offerName,
                items: order.items.map { ($0.sku, Int($0.quantity) ?? 0) }))
    }
    func onPurchaseFailed(error: ACErrorMessage, order: OrderResponseModel?) {
        listener?.purchaseFailed(code: error.code)
    }
}
