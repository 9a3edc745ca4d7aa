import PaylinksKit

/// A game's store: it grants what players buy, exactly once per order, and remembers
/// why a purchase did not go through.
public final class Store: ACPaymentLinksDelegate {
    /// The player's inventory: item SKU to quantity.
    public private(set) var inventory: [String: Int] = [:]
    /// The orders granted, by order id.
    public private(set) var grantedOrders: Set<String> = []
    /// Whether the SDK is ready for purchases.
    public private(set) var isReady = false
    /// What the store tells the player after the last purchase attempt.
    public private(set) var lastMessage = ""

    /// An empty store.
    public init() {}

    /// The SDK is ready.
    public func onInitialized() { isReady = true }
    /// The SDK could not start; purchases wait for the next initialize.
    public func onInitializeFailed(error: ACErrorMessage) { isReady = false }
    /// Prices arrived; this store shows fixed prices and ignores them.
    public func onPricePointsSuccess(pricePoints: PricePoints) {}
    /// Prices could not be fetched; this store shows fixed prices and ignores it.
    public func onPricePointsFailed(error: ACErrorMessage) {}

    /// Grants the order's items, once per order id.
    public func onPurchaseSuccess(order: OrderResponseModel) {
        // The SDK may deliver a result twice; an order is granted once.
        guard grantedOrders.insert(order.orderId).inserted else { return }
        for item in order.items {
            inventory[item.sku, default: 0] += Int(item.quantity) ?? 0
        }
        lastMessage = "Thanks! \(order.offerName) is yours."
    }

    /// Tells the player why nothing was granted; a cancel needs no message.
    public func onPurchaseFailed(error: ACErrorMessage, order: OrderResponseModel?) {
        switch error.code {
        case 3000, 3001, 3002: lastMessage = ""
        case 3004: lastMessage = "Your payment is still being processed."
        default: lastMessage = "The purchase did not go through (\(error.code))."
        }
    }
}
