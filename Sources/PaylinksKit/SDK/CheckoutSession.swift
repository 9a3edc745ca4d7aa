/// A checkout session, as the game's server creates it and hands it to the app.
///
/// In a real integration the game's server asks Appcharge for the session and receives
/// the token, the purchase id and a checkout URL; the app then calls `openCheckout`.
/// ``PaymentLinksSimulator/createCheckoutSession(offerSku:customerId:environment:)``
/// stands in for that server.
public struct CheckoutSession: Equatable, Sendable {
    /// The checkout session token.
    public var sessionToken: String
    /// The purchase id that tracks the transaction.
    public var purchaseId: String
    /// The order id the server gives the order once a payment is attempted.
    public var orderId: String
    /// The offer sold.
    public var offer: Offer
    /// The price in the currency's minor units.
    public var price: Int
    /// ISO 4217 currency code.
    public var currency: String
    /// The customer the session was created for; the SDK refuses the order (3007) when
    /// it differs from the customer it was initialized with.
    public var customerId: String
    /// The customer's country.
    public var customerCountry: String
    /// The environment the session was created in; the SDK refuses the order (3006)
    /// when it differs from its own.
    public var environment: String
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
    /// The player pays; the charge then ends as `outcome` says.
    case pay(paymentMethodName: String, outcome: ChargeOutcome = .succeeded)
    /// The player closes the checkout: 3002 through its interface, 3000 with the
    /// browser's own controls.
    case closeCheckout(via: CloseMethod = .checkoutInterface)
    /// The player closes the checkout before the order exists: 3005.
    case closeBeforeOrder
    /// The player leaves the checkout open until its session expires, an hour later:
    /// no order ever exists, 3005.
    case leaveOpen
}

/// How a payment's charge ends.
public enum ChargeOutcome: String, CaseIterable, Sendable {
    /// `charge_succeed`: `onPurchaseSuccess`.
    case succeeded
    /// `charge_failed`: 3003.
    case declined
    /// Still `charge_pending` at the validation timeout: 3004.
    case pending
}

/// How the player closes the checkout.
public enum CloseMethod: String, CaseIterable, Sendable {
    /// The checkout's own close button: 3002.
    case checkoutInterface = "checkout"
    /// The browser's or the OS's controls: 3000.
    case browserControls = "browser"
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

/// One moment of the simulated timeline, for `--trace`.
public struct TraceEvent: Equatable, Sendable {
    /// Virtual milliseconds since the simulator was created.
    public var milliseconds: Int
    /// What happened.
    public var message: String

    /// Creates an event.
    public init(milliseconds: Int, message: String) {
        self.milliseconds = milliseconds
        self.message = message
    }
}
