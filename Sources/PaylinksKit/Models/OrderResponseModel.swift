/// An order, as the SDK hands it to `onPurchaseSuccess` and `onPurchaseFailed`.
///
/// Property names, types and order follow the SDK's documentation exactly. The iOS
/// binary calls this type `GameOrderResponse`; the documentation (and Android and Unity)
/// call it `OrderResponseModel`.
///
/// An order that comes with a failure holds what the SDK knew at that moment: fields not
/// known yet (an order id before any payment was attempted, say) are empty strings,
/// since the SDK's fields are not optional.
public struct OrderResponseModel: Equatable, Sendable {
    /// One item of an offer.
    public struct Item: Equatable, Sendable {
        /// Display name of the item: "Gems".
        public var name: String
        /// The item's SKU: "gem_01".
        public var sku: String
        /// How many of the item the offer holds, as a string: "100".
        public var quantity: String

        /// Creates an item.
        public init(name: String, sku: String, quantity: String) {
            self.name = name
            self.sku = sku
            self.quantity = quantity
        }
    }

    /// Unix timestamp of the order, in seconds.
    public var date: Int
    /// Unique token of the checkout session.
    public var sessionToken: String
    /// Name of the purchased offer: "Starter Pack".
    public var offerName: String
    /// SKU of the offer: "starter_pack_001".
    public var offerSku: String
    /// The items the offer holds.
    public var items: [Item]
    /// Price in the currency's minor units (cents for USD, yen for JPY).
    public var price: Int
    /// ISO 4217 currency code.
    public var currency: String
    /// The customer who made the purchase.
    public var customerId: String
    /// The customer's country, ISO 3166-1 alpha-2.
    public var customerCountry: String
    /// The payment method: "Visa"; empty before a payment was attempted.
    public var paymentMethodName: String
    /// The order id; empty before a payment was attempted.
    public var orderId: String
    /// A unique id that tracks the transaction: "pr_...".
    public var purchaseId: String

    /// Creates an order.
    public init(
        date: Int, sessionToken: String, offerName: String, offerSku: String, items: [Item], price: Int,
        currency: String, customerId: String, customerCountry: String, paymentMethodName: String,
        orderId: String, purchaseId: String
    ) {
        self.date = date
        self.sessionToken = sessionToken
        self.offerName = offerName
        self.offerSku = offerSku
        self.items = items
        self.price = price
        self.currency = currency
        self.customerId = customerId
        self.customerCountry = customerCountry
        self.paymentMethodName = paymentMethodName
        self.orderId = orderId
        self.purchaseId = purchaseId
    }
}
