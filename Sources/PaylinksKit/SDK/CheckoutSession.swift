/// A checkout session, as the game's server creates it and hands it to the app.
///
/// In a real integration the game's server asks Appcharge for the session and receives
/// the token, the purchase id and a checkout URL; the app then calls `openCheckout`.
/// ``PaymentLinksSimulator/createCheckoutSession(offerSku:customerId:)`` stands in for
/// that server.
public struct CheckoutSession: Equatable, Sendable {
    /// The checkout session token.
    public var sessionToken: String
    /// The purchase id that tracks the transaction.
    public var purchaseId: String
    /// The offer sold.
    public var offer: Offer
    /// The price in the currency's minor units.
    public var price: Int
    /// ISO 4217 currency code.
    public var currency: String
    /// The customer the session was created for.
    public var customerId: String
    /// The customer's country.
    public var customerCountry: String
}

/// Why the game's server could not create a checkout session.
public enum CheckoutSessionError: Error, Equatable, Sendable {
    /// No offer has this SKU.
    case unknownOffer(sku: String)
    /// The offer's tier has no price in the player's country, nor in the fallback country.
    case noPrice(sku: String, country: String)
}

/// What the player does once the checkout is open.
public enum PlayerAction: Equatable, Sendable {
    /// The player pays with this payment method, and the charge succeeds.
    case pay(paymentMethodName: String)
    /// The player closes the checkout interface without paying.
    case closeCheckout
}

/// The states an order passes through on the server while the SDK polls it.
public enum OrderState: String, Sendable {
    /// The order exists; no payment yet.
    case created
    /// A payment was submitted.
    case paymentPending = "payment_pending"
    /// The charge is in progress.
    case chargePending = "charge_pending"
    /// The charge succeeded.
    case chargeSucceed = "charge_succeed"
    /// The charge failed.
    case chargeFailed = "charge_failed"
    /// The payment was canceled.
    case paymentCanceled = "payment_canceled"
}
