import PaylinksJSON

/// A checkout session, as Create Checkout Session answers the game's server.
///
/// The server hands ``purchaseId`` and ``parsedUrl`` to the app, which passes them,
/// exactly as received, to
/// ``PaymentLinksSimulator/openCheckout(purchaseId:parsedUrl:)``.
/// ``PaymentLinksSimulator/createCheckoutSession(offerSku:customerId:environment:)``
/// stands in for that server call.
public struct CheckoutSession: Equatable, Sendable {
    /// The checkout session token.
    public var checkoutSessionToken: String
    /// The purchase id that tracks the transaction: `pr_...`.
    public var purchaseId: String
    /// The checkout's base URL (deprecated by Appcharge in favour of ``parsedUrl``).
    public var url: String
    /// The URL the SDK opens: the base URL, the session token and the boot data.
    public var parsedUrl: String
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
    /// The order id the server gives the order once a payment is attempted.
    var orderId: String

    /// The checkout's base URL in `environment`.
    static func checkoutURL(environment: String) -> String {
        "https://checkout.\(environment == "production" ? "" : "sandbox.")paylinks.test"
    }

    /// The URL the SDK opens for the session `sessionToken` of `purchaseId`, on the
    /// checkout at `checkoutURL`: the base URL, the token and the boot data.
    package static func parsedUrl(checkoutURL: String, sessionToken: String, purchaseId: String) -> String {
        String(concatenating: checkoutURL, "/", sessionToken, "#boot=", purchaseId)
    }

    /// The session token a `parsedUrl` carries: the last path segment before `#boot=`,
    /// or nil when the URL is not an https checkout URL shaped like one.
    static func sessionToken(inParsedUrl parsedUrl: String) -> String? {
        let bytes = parsedUrl.utf8
        guard bytes.starts(with: "https://".utf8), let hash = bytes.firstIndex(of: UInt8(ascii: "#")),
            bytes[hash...].starts(with: "#boot=".utf8)
        else { return nil }
        let path = bytes[bytes.index(bytes.startIndex, offsetBy: 8)..<hash]
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let token = path[path.index(after: slash)...]
        return token.isEmpty ? nil : String(Substring(token))
    }
}

/// Why the game's server could not create a checkout session.
public enum CheckoutSessionError: Error, Equatable, Sendable {
    /// No offer has this SKU.
    case unknownOffer(sku: String)
    /// The offer's tier has no price in the player's country, nor in the fallback country.
    case noPrice(sku: String, country: String)
}

/// What the player does once the checkout is open, scripted before it opens with
/// ``PaymentLinksSimulator/scriptCheckout(_:)``.
public enum PlayerAction: Equatable, Sendable {
    /// How a player pays when nothing says otherwise, in the simulator, scenarios and the sandbox.
    public static let defaultPaymentMethod = "Visa"

    /// The player pays; the checkout returns to the app through its deep link, and the
    /// charge then ends as `outcome` says.
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
    /// The payment is left pending (`payment_pending`) past the validation timeout: 3004.
    case pending
}

/// How the player closes the checkout.
public enum CloseMethod: String, CaseIterable, Sendable {
    /// The checkout's own close button: 3002.
    case checkoutInterface = "checkout"
    /// The browser's or the OS's controls: 3000.
    case browserControls = "browser"
}

/// The states an order passes through on Appcharge's server: the SDK polls them, the
/// sandbox moves its sessions through them; one vocabulary for both, the states after the
/// award (refunds, disputes) included.
public enum OrderState: String, CaseIterable, Sendable {
    /// The order exists; no payment yet.
    case created
    /// A payment was submitted.
    case paymentPending = "payment_pending"
    /// The payment went through; the charge follows.
    case paymentSucceed = "payment_succeed"
    /// The charge is in progress: the award is being granted.
    case chargePending = "charge_pending"
    /// The charge succeeded.
    case chargeSucceed = "charge_succeed"
    /// The charge failed.
    case chargeFailed = "charge_failed"
    /// The payment was canceled.
    case paymentCanceled = "payment_canceled"
    /// The payment failed: a declined card.
    case paymentFailed = "payment_failed"
    /// A refund was requested and is not processed yet.
    case paymentRefundPending = "payment_refund_pending"
    /// The refund went through: the money went back to the player.
    case paymentRefunded = "payment_refunded"
    /// The refund did not go through.
    case paymentRefundFailed = "payment_refund_failed"
    /// The player disputed the charge with the bank (a chargeback is under way).
    case paymentDisputeOpen = "payment_dispute_open"
    /// The studio's evidence was sent to the bank.
    case paymentDisputeEvidenceSubmitted = "payment_dispute_evidence_submitted"
    /// The dispute was resolved for the studio: the money stays.
    case paymentDisputeWon = "payment_dispute_won"
    /// The dispute was resolved for the player: the money is taken back.
    case paymentDisputeLost = "payment_dispute_lost"
}

/// One moment of the simulated timeline, as ``PaymentLinksSimulator/trace`` receives it.
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
