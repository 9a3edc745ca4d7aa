/// What the store needs from a payments SDK: the game's own seam.
///
/// In the app an adapter puts the Payment Links SDK behind it (`AppchargePayments`); in
/// the tests another puts paylinks' simulated SDK behind it. The store never names either.
@MainActor
public protocol Payments: AnyObject {
    /// Who hears how requests end.
    var listener: (any PaymentsListener)? { get set }
    /// Starts the SDK for a player.
    func start(customerId: String)
    /// Opens the checkout of a session the game's server created.
    func openCheckout(purchaseId: String, parsedUrl: String)
    /// Hands the SDK a link the app was opened with; returns whether it was the SDK's.
    @discardableResult func handleDeepLink(_ url: String) -> Bool
}

/// How the store hears from its payments SDK; every call arrives on the main actor.
@MainActor
public protocol PaymentsListener: AnyObject {
    /// The SDK is ready for purchases.
    func paymentsReady()
    /// The SDK could not start, with the SDK's status code.
    func paymentsUnavailable(code: Int)
    /// The player paid for an order and the SDK validated it.
    func purchaseSucceeded(_ receipt: Receipt)
    /// The purchase did not go through, with the SDK's status code.
    func purchaseFailed(code: Int)
}

/// A validated order, in the store's own terms.
public struct Receipt: Equatable, Sendable {
    /// The order's id: one grant per id.
    public var orderId: String
    /// The offer bought.
    public var offerName: String
    /// What the offer holds: item SKU and quantity.
    public var items: [(sku: String, quantity: Int)]

    /// Creates a receipt.
    public init(orderId: String, offerName: String, items: [(sku: String, quantity: Int)]) {
        self.orderId = orderId
        self.offerName = offerName
        self.items = items
    }

    /// Whether two receipts are for the same order with the same items.
    public static func == (left: Receipt, right: Receipt) -> Bool {
        left.orderId == right.orderId && left.offerName == right.offerName
            && left.items.map(\.sku) == right.items.map(\.sku)
            && left.items.map(\.quantity) == right.items.map(\.quantity)
    }
}
