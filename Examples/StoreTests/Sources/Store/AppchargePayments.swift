#if canImport(ACPaymentLinks)
    // The production adapter: the Payment Links SDK behind the store's seam. It compiles
    // where the app links the SDK (imported here as `ACPaymentLinks`; use the module and
    // entry point of the SDK release the app ships). The test adapter,
    // Tests/StoreTests/SimulatedPayments.swift, has the same shape over paylinks.
    import ACPaymentLinks

    /// The Payment Links SDK as the store's ``Payments``.
    @MainActor
    public final class AppchargePayments: Payments, ACPaymentLinksDelegate {
        /// Who hears how requests end.
        public weak var listener: (any PaymentsListener)?
        private let sdk: ACPaymentLinksSDK
        private let configModel: ACConfigModel

        /// An adapter over the SDK, configured for the publisher's checkout key.
        public init(sdk: ACPaymentLinksSDK, checkoutPublicKey: String, environment: String) {
            self.sdk = sdk
            configModel = ACConfigModel(checkoutPublicKey: checkoutPublicKey, environment: environment)
        }

        /// Initializes the SDK for the player, with this adapter as its delegate.
        public func start(customerId: String) {
            sdk.initialize(configModel: configModel, customerId: customerId, delegate: self)
        }

        /// Opens the checkout of a session the game's server created.
        public func openCheckout(purchaseId: String, parsedUrl: String) {
            sdk.openCheckout(purchaseId: purchaseId, parsedUrl: parsedUrl)
        }

        /// Hands the SDK a link the app was opened with.
        public func handleDeepLink(_ url: String) -> Bool {
            sdk.handleDeepLink(url)
        }

        /// The SDK is ready: so are payments.
        public func onInitialized() { listener?.paymentsReady() }
        /// The SDK could not start.
        public func onInitializeFailed(error: ACErrorMessage) { listener?.paymentsUnavailable(code: error.code) }
        /// This store shows fixed prices and ignores price points.
        public func onPricePointsSuccess(pricePoints: PricePoints) {}
        /// This store shows fixed prices and ignores price points.
        public func onPricePointsFailed(error: ACErrorMessage) {}
        /// A validated order, as the store's receipt.
        public func onPurchaseSuccess(order: OrderResponseModel) {
            listener?.purchaseSucceeded(
                Receipt(
                    orderId: order.orderId, offerName: order.offerName,
                    items: order.items.map { ($0.sku, Int($0.quantity) ?? 0) }))
        }
        /// A purchase that did not go through, by its status code.
        public func onPurchaseFailed(error: ACErrorMessage, order: OrderResponseModel?) {
            listener?.purchaseFailed(code: error.code)
        }
    }
#endif
