/// Appcharge's side of a checkout, as the simulated SDK meets it: the game's server creates
/// sessions through it, the checkout tells it what the player did, and each of the SDK's
/// polls reads the order's state from it.
///
/// The simulator's own ``SimulatedCheckoutBackend`` needs nothing else, so an app's tests
/// need nothing else either. paylinks's model of Appcharge's server implements it too, so
/// that the award and the events a game's server receives and the callbacks its client
/// receives all come from one order's life.
///
/// The contract:
/// - Times are Unix milliseconds on the simulator's virtual clock; they never go backwards
///   from one call to the next.
/// - A session is opened at most once: ``openSession(purchaseId:at:)`` gives it the first
///   time, nil after (and for a purchase id never issued).
/// - ``player(_:in:at:)`` is called once per opened session, with what the player did.
/// - ``poll(_:at:)`` answers what the order is at that moment: Appcharge's side lives on
///   whether the SDK polls or not, and a poll changes nothing the game's server sees.
@MainActor
public protocol CheckoutBackend: AnyObject {
    /// Creates the session of `sale`, at `milliseconds`, with the identifiers of checkout
    /// `sale.index`.
    func createSession(_ sale: CheckoutSale, at milliseconds: Int) -> CheckoutSession

    /// The session of `purchaseId` as its checkout opens, at `milliseconds`; nil when no
    /// session has that purchase id, or its checkout was opened already.
    func openSession(purchaseId: String, at milliseconds: Int) -> CheckoutSession?

    /// The player did `action` in the open checkout of `session`, at `milliseconds`. What
    /// Appcharge's side did about it, each with when it happened, for the trace.
    func player(_ action: PlayerAction, in session: CheckoutSession, at milliseconds: Int) -> [BackendNote]

    /// The order of `session` as the SDK's poll at `milliseconds` reads it.
    func poll(_ session: CheckoutSession, at milliseconds: Int) -> PolledOrder
}

/// What the game's server sells in one checkout session, as it asks Create Checkout
/// Session for it.
public struct CheckoutSale: Equatable, Sendable {
    /// The offer.
    public var offer: Offer
    /// Its price in the currency's minor units.
    public var price: Int
    /// ISO 4217.
    public var currency: String
    /// The customer the session is for.
    public var customerId: String
    /// The customer's country, ISO 3166-1 alpha-2.
    public var country: String
    /// `sandbox` or `production`.
    public var environment: String
    /// Which checkout of the run it is: its identifiers come from it and the seed.
    public var index: Int
    /// The date the session's order carries, Unix seconds.
    public var orderDate: Int

    /// A sale.
    public init(
        offer: Offer, price: Int, currency: String, customerId: String, country: String, environment: String,
        index: Int, orderDate: Int
    ) {
        self.offer = offer
        self.price = price
        self.currency = currency
        self.customerId = customerId
        self.country = country
        self.environment = environment
        self.index = index
        self.orderDate = orderDate
    }
}

/// An order as one poll reads it.
public struct PolledOrder: Equatable, Sendable {
    /// Its state; nil while the session has no order.
    public var state: OrderState?
    /// When every award attempt failed (`charge_failed`): the `error.data` of the client's
    /// 3003, the last status and the server's message.
    public var awardFailure: String?

    /// An order as polled.
    public init(state: OrderState?, awardFailure: String? = nil) {
        self.state = state
        self.awardFailure = awardFailure
    }

    /// Whether the SDK stops polling on it: the charge succeeded or failed, or the payment failed.
    public var isFinal: Bool {
        switch state {
        case .chargeSucceed?, .chargeFailed?, .paymentFailed?, .paymentCanceled?: true
        default: false
        }
    }
}

/// Something Appcharge's side did, and when, in Unix milliseconds.
public struct BackendNote: Equatable, Sendable {
    /// When it happened.
    public var milliseconds: Int
    /// What happened.
    public var message: String

    /// A note.
    public init(milliseconds: Int, message: String) {
        self.milliseconds = milliseconds
        self.message = message
    }
}

/// The simulator's own stand-in for Appcharge's server: sessions, and the life of each
/// order by the same rules as paylinks's sandbox.
///
/// - A payment makes the order `charge_pending` at once, and its award goes out then:
///   ``awardGranter`` decides it, or every award is granted. The order is then
///   `charge_succeed`, or `charge_failed` once every attempt failed, at the moment the
///   verdict's last event says.
/// - A declined payment makes it `payment_failed`; one left pending, `payment_pending` for good.
/// - A player who closes the checkout leaves it `payment_canceled`; one who closes it
///   before the order exists, or leaves it open until the session expires, leaves no order.
@MainActor
public final class SimulatedCheckoutBackend: CheckoutBackend {
    /// Stands in for Appcharge granting the award of a paid order on the game's server:
    /// see ``PaymentLinksSimulator/awardGranter``.
    public var awardGranter: ((OrderResponseModel) -> AwardVerdict)?

    private let seed: UInt64
    /// Sessions created and not opened yet, by purchase id.
    private var unopened: [String: (session: CheckoutSession, orderDate: Int)] = [:]
    /// The session opened last, not played yet, and its order's date: a checkout that
    /// opens ends the one before.
    private var opened: (purchaseId: String, orderDate: Int)?
    /// Each order's states, each from the moment it began, by purchase id; with the
    /// award's failure data once every attempt failed.
    private var lives: [String: (states: [(from: Int, state: OrderState)], awardFailure: String?)] = [:]

    /// A backend whose sessions' identifiers come from `seed`.
    public init(seed: UInt64) {
        self.seed = seed
    }

    /// Creates the session of `sale` under its checkout's identifiers, unopened.
    public func createSession(_ sale: CheckoutSale, at milliseconds: Int) -> CheckoutSession {
        let session = CheckoutSession(sale, identifiers: CheckoutIdentifiers(seed: seed, index: sale.index))
        unopened[session.purchaseId] = (session, sale.orderDate)
        return session
    }

    /// The session of `purchaseId` the first time its checkout opens; nil after, and for
    /// a purchase id never issued.
    public func openSession(purchaseId: String, at milliseconds: Int) -> CheckoutSession? {
        guard let (session, date) = unopened.removeValue(forKey: purchaseId) else { return nil }
        opened = (purchaseId, date)
        return session
    }

    /// Lives the order as the player left it: paid (with the award decided at once),
    /// declined, pending, canceled, or without an order. The award's events, for the trace.
    public func player(_ action: PlayerAction, in session: CheckoutSession, at milliseconds: Int) -> [BackendNote] {
        let date = opened?.purchaseId == session.purchaseId ? opened?.orderDate ?? 0 : milliseconds / 1000
        opened = nil
        // Only the latest order is followed: the SDK polls one checkout at a time.
        lives = [:]
        switch action {
        case .closeBeforeOrder, .leaveOpen:
            return []
        case .closeCheckout:
            lives[session.purchaseId] = ([(milliseconds, .paymentCanceled)], nil)
            return []
        case .pay(_, .declined):
            lives[session.purchaseId] = ([(milliseconds, .paymentFailed)], nil)
            return []
        case .pay(_, .pending):
            lives[session.purchaseId] = ([(milliseconds, .paymentPending)], nil)
            return []
        case .pay(let method, .succeeded):
            guard let awardGranter else {
                lives[session.purchaseId] = ([(milliseconds, .chargeSucceed)], nil)
                return []
            }
            let order = PaymentLinksSimulator.order(of: session, paidWith: method, at: date)
            let verdict = awardGranter(order)
            let (notes, decided) = verdict.notes(sentAt: milliseconds)
            lives[session.purchaseId] = (
                [
                    (milliseconds, .chargePending),
                    (decided, verdict.failureData == nil ? .chargeSucceed : .chargeFailed),
                ],
                verdict.failureData
            )
            return notes
        }
    }

    /// The order as it stood at `milliseconds`: not found until the player made it.
    public func poll(_ session: CheckoutSession, at milliseconds: Int) -> PolledOrder {
        guard let life = lives[session.purchaseId],
            let now = life.states.last(where: { $0.from <= milliseconds })
        else { return PolledOrder(state: nil) }
        return PolledOrder(state: now.state, awardFailure: now.state == .chargeFailed ? life.awardFailure : nil)
    }

}

extension AwardVerdict {
    /// The data of the client's 3003 when every attempt failed; nil when the award was granted.
    package var failureData: String? {
        if case .failed(let data) = outcome { data } else { nil }
    }

    /// What the trace says of an award sent at `milliseconds` (Unix) and decided so: its
    /// sending, each of its events at its moment, and a failure; and when it was decided.
    package func notes(sentAt milliseconds: Int) -> (notes: [BackendNote], decided: Int) {
        var notes = [
            BackendNote(
                milliseconds: milliseconds,
                message: "award: Appcharge sends the Grant Award Callback to the game's server")
        ]
        var at = milliseconds
        for event in events {
            at += max(0, event.after)
            notes.append(BackendNote(milliseconds: at, message: event.message))
        }
        if failureData != nil {
            notes.append(
                BackendNote(milliseconds: at, message: "every award attempt failed: the order is charge_failed"))
        }
        return (notes, at)
    }
}

extension CheckoutSession {
    /// The session of `sale` under `identifiers`, as Create Checkout Session answers it.
    package init(_ sale: CheckoutSale, identifiers: CheckoutIdentifiers) {
        let url = Self.checkoutURL(environment: sale.environment)
        self.init(
            checkoutSessionToken: identifiers.sessionToken, purchaseId: identifiers.purchaseId, url: url,
            parsedUrl: Self.parsedUrl(
                checkoutURL: url, sessionToken: identifiers.sessionToken, purchaseId: identifiers.purchaseId),
            offer: sale.offer, price: sale.price, currency: sale.currency, customerId: sale.customerId,
            customerCountry: sale.country, environment: sale.environment, orderId: identifiers.orderId)
    }
}
