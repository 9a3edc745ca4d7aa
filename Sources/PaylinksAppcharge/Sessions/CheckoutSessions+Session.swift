public import PaylinksKit

// What the store holds and says: a session, the player's choices, and what happened.

extension CheckoutSessions {
    /// One session: what the game's server sent, the order's state, what the player did.
    public struct Session: Sendable {
        /// Which session of the store it is, from 0: its identifiers come from it.
        public var index: Int
        /// The checkout session token: the page's address and the cancel API's bearer. 32
        /// letters and digits, as the simulator makes them; a session kept by an older
        /// sandbox keeps its 32 hex digits.
        public var token: String
        /// The purchase id the SDK opens the checkout with.
        public var purchaseId: String
        /// The order id, once there is an order.
        public var orderId: String
        /// When it was created, in milliseconds.
        public var created: Int
        /// The offer's name, as the game's server sent it.
        public var offerName: String
        /// The game's id of the offer.
        public var offerSku: String
        /// What the offer gives.
        public var items: [OrderResponseModel.Item]
        /// The price, in the currency's minor units.
        public var price: Int
        /// ISO 4217.
        public var currency: String
        /// The player, as the game's server knows them.
        public var customerId: String
        /// The player's email, echoed in the award.
        public var email: String?
        /// The player's country, ISO 3166-1 alpha-2.
        public var country: String
        /// Where the checkout sends the browser once it ends (Link Out, for a game without
        /// the SDK), as the game's server sent it; nil when it sent none.
        public var redirectUrl: String?
        /// `sessionMetadata`, compact JSON, echoed in the award.
        public var metadata: [UInt8]?
        /// The offer's price point in US cents, which the award's dollar figures come from;
        /// nil for a free order, whose dollar figures are all 0.
        public var pricePointMetadata: Int?
        /// What Create Session was warned of: a price or currency that differs from the
        /// Price Localization API's lookup for its country and price point.
        public var warnings: [String] = []
        /// What its money is figured with: its country's tax, the dollar's rate, Appcharge's
        /// rates. Set by the store from its catalog, never kept.
        public var terms = OrderMoney.Terms.untaxed
        /// The device the player chose on, from their checkout request's `User-Agent` or
        /// the command's `--device`; nil when none said, and then the seed gives one.
        package var device: OrderDevice?
        /// The order's state.
        public var state = OrderState.created
        /// Whether the player canceled the purchase (`cancel`) rather than closing the
        /// checkout's window (`close`): both end `payment_canceled`, and Link Out tells them
        /// apart.
        public var canceledByPlayer = false
        /// How the player paid; empty before a choice, and for a free order.
        public var paymentMethod = ""
        /// When the player chose, in Unix seconds: the order's date.
        public var date = 0
        /// Its life after the award, once it is paid and the award has ended.
        public var life: OrderLife?
        /// When each of its life's transitions happened, Unix milliseconds, in order.
        public var lifeTimes: [Int] = []
        /// How many events its order has had.
        public var eventCount = 0
        /// How its pending payment is to resolve, and when (Unix milliseconds): set while
        /// it is `payment_pending` and a resolution waits on the clock.
        public var resolution: Resolution?
        /// Whether its payment resolved after the client had its 3004: the client hears
        /// nothing more of it, and only the game's server learns of the award.
        public var resolvedLate = false
        /// Whether its award is being sent again (Retry Award) and not back yet; not kept
        /// across a restart, where a retry in flight is lost.
        public var retryingAward = false
        /// Which change of the store made it as it is: a session of the same token and
        /// revision is the same session, which a writer need not write out twice. Not kept.
        public internal(set) var revision = 0

        /// What the session holds from its request, in bytes, for the store's budget: its
        /// text and metadata, and a fixed share for the rest.
        var bytes: Int {
            let text =
                token.utf8.count + purchaseId.utf8.count + orderId.utf8.count + offerName.utf8.count
                + offerSku.utf8.count + currency.utf8.count + customerId.utf8.count + country.utf8.count
                + (email?.utf8.count ?? 0) + (redirectUrl?.utf8.count ?? 0)
            return 256 + text + (metadata?.count ?? 0) + warnings.reduce(0) { $0 + $1.utf8.count }
                + items.reduce(0) { $0 + 64 + $1.name.utf8.count + $1.sku.utf8.count + $1.quantity.utf8.count }
        }

        /// Whether the player paid: the order has a charge, an award and a life from then on,
        /// and is never forgotten.
        public var isPaid: Bool {
            switch state {
            case .created, .paymentPending, .paymentFailed, .paymentCanceled: false
            default: true
            }
        }

        /// Whether its order is free: priced 0, collected without a payment, and granted as a
        /// bonus (`"action": "bonus"`) with every money field 0.
        public var isFree: Bool { price == 0 }

        /// Whether it is never forgotten, however old and however many sessions come after
        /// it: a paid order, or one whose payment is pending, which may still succeed (at a
        /// time scheduled, or whenever the control API resolves it).
        public var isKept: Bool {
            isPaid || state == .paymentPending
        }

        /// Whether the session has an order, with an order id and a way of paying: once the
        /// player chose to pay (paid, declined or left pending). A checkout closed, cancelled
        /// or expired before that has none, and shows neither anywhere.
        public var hasOrder: Bool {
            state != .created && state != .paymentCanceled
        }

        /// How the checkout ended, as Link Out tells the game; nil while the order is still
        /// moving.
        public var linkOutStatus: LinkOutStatus? {
            LinkOutStatus(state: state, canceledByPlayer: canceledByPlayer)
        }

        /// Where the checkout sends the browser now that it ended: the `redirectUrl` with its
        /// status; nil without a `redirectUrl`, and while the order is still moving.
        public var redirect: String? {
            guard let redirectUrl, let status = linkOutStatus else { return nil }
            return status.redirect(to: redirectUrl)
        }

        /// The order id, or nil while the session has no order.
        public var shownOrderId: String? { hasOrder ? orderId : nil }

        /// How the player paid, or nil while the session has no order, and for a free order,
        /// which no one paid.
        public var shownPaymentMethod: String? { hasOrder && !isFree ? paymentMethod : nil }

        /// The order the game's client receives.
        public var order: OrderResponseModel {
            OrderResponseModel(
                date: date, sessionToken: token, offerName: offerName, offerSku: offerSku, items: items, price: price,
                currency: currency, customerId: customerId, customerCountry: country, paymentMethodName: paymentMethod,
                orderId: orderId, purchaseId: purchaseId)
        }

        /// The money of the session's order: its price, its price point and its terms.
        public var money: OrderMoney {
            OrderMoney(price: price, currency: currency, pricePoint: pricePointMetadata, terms: terms)
        }

        /// The Grant Award Callback of the session's paid order: its money figures from
        /// ``money``, the player's email and the session's metadata echoed back.
        public var award: GrantAward { award(flow: "auto") }

        /// The award as `flow` sends it: `auto`, or `manual_retry` for Retry Award.
        public func award(flow: String) -> GrantAward {
            GrantAward(
                order: order, money: money, awardFlow: flow,
                playerEmail: email, sessionMetadata: metadata)
        }
    }

    /// The award a paid session makes due, written when it is sent or shown: with no game's
    /// server to send it to, a command never writes its body.
    public struct DueAward: Sendable {
        /// The session as it was paid.
        let session: Session

        /// The Grant Award Callback of the paid order (``Session/award``).
        public var award: GrantAward { session.award }
        /// The award's body.
        public var body: [UInt8] { award.body }
    }

    /// How a pending payment ends, and when: a resolution scheduled on the sandbox's clock.
    public struct Resolution: Sendable, Equatable {
        /// Whether the payment succeeds (else it is declined).
        public var succeeded: Bool
        /// When, in Unix milliseconds.
        public var at: Int

        /// A resolution at `at`.
        public init(succeeded: Bool, at: Int) {
            self.succeeded = succeeded
            self.at = at
        }

        /// `succeeded` or `failed`, as the control API and the record name the outcome.
        public var outcome: String { succeeded ? "succeeded" : "failed" }
    }

    /// Something due on the clock at a moment: a session's expiry, or a pending payment's
    /// scheduled resolution.
    public enum Due: Sendable, Equatable {
        /// The session expires unpaid at `at`.
        case expiry(purchaseId: String, at: Int)
        /// The pending payment resolves at `at`.
        case resolution(purchaseId: String, Resolution)

        /// When it is due, Unix milliseconds.
        public var at: Int {
            switch self {
            case .expiry(_, let at): at
            case .resolution(_, let resolution): resolution.at
            }
        }

        /// The session it is about.
        public var purchaseId: String {
            switch self {
            case .expiry(let purchaseId, _), .resolution(let purchaseId, _): purchaseId
            }
        }
    }

    /// The player's choices on the checkout page and in the control API. A free order has
    /// no payment step: it takes `pay` (collect), `close` and `cancel` only.
    public enum Choice: String, CaseIterable, Sendable {
        /// Pay, or collect a free order; the award decides the rest.
        case pay
        /// The card is declined: `payment_failed`, 3003.
        case decline
        /// The payment is left pending: `payment_pending`, then 3004 at the SDK's timeout.
        case pending
        /// The player closes the checkout's window: `payment_canceled`, 3002; Link Out's
        /// `fail`.
        case close
        /// The player cancels the purchase in the checkout: `payment_canceled`, 3002, as
        /// `close` is; Link Out's `cancel`.
        case cancel

        /// Whether the choice ends the checkout without an order: `close` and `cancel`.
        public var leaves: Bool { self == .close || self == .cancel }
    }

    /// What happened, for the log and the game's client.
    public enum Event: Sendable {
        /// A session was created with a `redirectUrl`: once it ends, the checkout sends the
        /// browser there (Link Out, without the SDK).
        case redirectUrlGiven(offerSku: String, redirectUrl: String)
        /// A session expired before the player chose.
        case expired(purchaseId: String)
        /// The game's server cancelled a session before the player chose.
        case cancelled(purchaseId: String)
        /// The player paid, or collected a free order (`paymentMethod` empty): the award is
        /// due (``awardDelivered(purchaseId:failureData:)`` says how it went).
        /// `withoutPricePoint` says a paid order's award has dollar figures of 0;
        /// `withoutItems`, that it grants no products.
        case paid(
            purchaseId: String, paymentMethod: String, award: DueAward, withoutPricePoint: Bool, withoutItems: Bool)
        /// Something happened to the session's order that Appcharge sends an event about;
        /// `sequence` counts the order's events, from 0.
        case order(OrderEvent.Name, session: Session, sequence: Int)
        /// The purchase ended: what the game's client receives.
        case ended(Callback)
    }
}
