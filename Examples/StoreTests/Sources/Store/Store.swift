/// A game's store: it grants what players buy, exactly once per order, and tells the
/// player why a purchase did not go through.
@MainActor
public final class Store: PaymentsListener {
    /// The player's inventory: item SKU to quantity.
    public private(set) var inventory: [String: Int] = [:]
    /// The orders granted, by order id.
    public private(set) var grantedOrders: Set<String> = []
    /// Whether the SDK is ready for purchases.
    public private(set) var isReady = false
    /// Whether a checkout is open: the store shows a spinner and takes no other purchase.
    public private(set) var isPurchasing = false
    /// What the store tells the player after the last purchase attempt.
    public private(set) var lastMessage = ""

    private let payments: any Payments

    /// A store that buys through `payments`.
    public init(payments: any Payments) {
        self.payments = payments
        payments.listener = self
    }

    /// Starts the payments SDK for the player.
    public func start(customerId: String) {
        payments.start(customerId: customerId)
    }

    /// Opens the checkout the game's server created; one at a time.
    public func buy(purchaseId: String, parsedUrl: String) {
        guard isReady, !isPurchasing else { return }
        // Before the call: the result may arrive at any time after it.
        isPurchasing = true
        payments.openCheckout(purchaseId: purchaseId, parsedUrl: parsedUrl)
    }

    /// The app's URL handling: the checkout's return link goes to the SDK.
    @discardableResult
    public func open(url: String) -> Bool {
        payments.handleDeepLink(url)
    }

    /// The SDK is ready: purchases can start.
    public func paymentsReady() { isReady = true }

    /// The SDK could not start: no purchases until it does.
    public func paymentsUnavailable(code: Int) { isReady = false }

    /// Grants the receipt's items, once per order.
    public func purchaseSucceeded(_ receipt: Receipt) {
        isPurchasing = false
        // The SDK may deliver a result twice; an order is granted once.
        guard grantedOrders.insert(receipt.orderId).inserted else { return }
        for item in receipt.items {
            inventory[item.sku, default: 0] += item.quantity
        }
        lastMessage = "Thanks! \(receipt.offerName) is yours."
    }

    /// Tells the player why nothing was granted; a cancel needs no message.
    public func purchaseFailed(code: Int) {
        isPurchasing = false
        switch code {
        // The codes the SDK's table marks as a cancel: the player closed the checkout
        // (3000, 3002) or left it before any order existed (3005, which paylinks also
        // delivers for a checkout left open until its session expired).
        case 3000, 3002, 3005: lastMessage = ""
        case 3004: lastMessage = "Your payment is still being processed."
        default: lastMessage = "The purchase did not go through (\(code))."
        }
    }
}
