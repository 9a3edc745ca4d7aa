#if canImport(ACPaymentLinks)
    // The production adapter: the Payment Links SDK behind the store's seam. It compiles
    // where the app links the SDK (imported here as `ACPaymentLinks`; use the module and
    // entry point of the SDK release the app ships). The test adapter,
    // Tests/StoreTests/SimulatedPayments.swift, has the same shape over paylinks.
    import ACPaymentLinks

    /// The Payment Links SDK as the store's ``Payments``.
    @MainActor
    public final class AppchargePayments: Payments, ACPaymentLinksDelegate {
        public weak var listener: (any PaymentsListener)?
        private let sdk: ACPaymentLinksSDK
        private let configModel: ACConfigModel

        public init(sdk: ACPaymentLinksSDK, checkoutPublicKey: String, environment: String) {
            self.sdk = sdk
            configModel = ACConfigModel(checkoutPublicKey: checkoutPublicKey, environment: environment)
        }

        public func start(customerId: String) {
            sdk.initialize(configModel: configModel, customerId: customerId, delegate: self)
        }

        public func openCheckout(purchaseId: String, parsedUrl: String) {
            sdk.openCheckout(purchaseId: purchaseId, parsedUrl: parsedUrl)
        }

        public func handleDeepLink(_ url: String) -> Bool {
            sdk.handleDeepLink(url)
        }

        public func onInitialized() { listener?.paymentsReady() }
        public func onInitializeFailed(error: ACErrorMessage) { listener?.paymentsUnavailable(code: error.code) }
        public func onPricePointsSuccess(pricePoints: PricePoints) {}
        public func onPricePointsFailed(error: ACErrorMessage) {}
        public func onPurchaseSuccess(order: OrderResponseModel) {
            listener?.purchaseSucceeded(
                Receipt(
                    orderId: order.orderId, offerName: order.offerName,
                    items: order.items.map { ($0.sku, Int($0.quantity) ?? 0) }))
        }
        public func onPurchaseFailed(error: ACErrorMessage, order: OrderResponseModel?) {
            listener?.purchaseFailed(code: error.code)
        }
    }
#endif
