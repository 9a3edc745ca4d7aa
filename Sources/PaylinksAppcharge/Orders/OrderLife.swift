public import PaylinksKit

/// A paid order's life after its award, by Appcharge's rules: refunds (full or partial)
/// and disputes. Values and rules only; every transition is a value the caller can keep,
/// and each one that Appcharge reports becomes an ``OrderEvent``.
///
/// The rules (`after-the-purchase.md`, section 1):
/// - only an order that is Succeeded (`charge_succeed`) or Charge Failed (`charge_failed`)
///   can be refunded, and a refunded order cannot be refunded again;
/// - a refund is requested (`payment_refund_pending`), then processed: `payment_refunded`,
///   or `payment_refund_failed`, after which it may be requested again;
/// - a dispute needs a paid order (Succeeded or Charge Failed): `payment_dispute_open`,
///   optionally `payment_dispute_evidence_submitted`, then `payment_dispute_won` (the money
///   stays) or `payment_dispute_lost` (it is taken back, as a refund);
/// - a free order (priced 0, a bonus) moved no money: it is neither refunded nor disputed.
public struct OrderLife: Sendable {
    /// What happens to the order.
    public enum Action: Equatable, Sendable {
        /// The studio asks for a refund of `amount` minor units, all of the order when nil.
        case requestRefund(amount: Int?)
        /// The refund requested is processed: it goes through, or it fails.
        case processRefund(succeeded: Bool)
        /// The player disputes the charge with the bank.
        case openDispute
        /// The studio sends its evidence.
        case submitEvidence
        /// The bank decides: for the studio (won) or for the player (lost).
        case resolveDispute(won: Bool)
    }

    /// One step of the order's life.
    public struct Transition: Equatable, Sendable {
        /// What happened.
        public var action: Action
        /// The state before.
        public var from: OrderState
        /// The state after.
        public var to: OrderState
        /// The event Appcharge sends for it, or nil when it sends none.
        public var event: OrderEvent.Name?

        /// A transition.
        public init(action: Action, from: OrderState, to: OrderState, event: OrderEvent.Name?) {
            self.action = action
            self.from = from
            self.to = to
            self.event = event
        }
    }

    /// Why an action is refused, as Initiate Refund's 422 refuses it.
    public enum Refusal: Error, Equatable, Sendable {
        /// Only Succeeded or Charge Failed orders can be refunded.
        case notRefundable(OrderState)
        /// The order was refunded already.
        case alreadyRefunded
        /// A refund of 0, or of more than the order's price.
        case amount(Int, price: Int)
        /// No refund was requested.
        case noRefundPending(OrderState)
        /// A dispute needs a paid order.
        case notDisputable(OrderState)
        /// No dispute is open.
        case noDisputeOpen(OrderState)
        /// The order has had ``OrderLife/actionLimit`` actions already.
        case tooManyActions
        /// A free order (a bonus, priced 0) moved no money: nothing to refund or dispute.
        case free

        /// The rule, in a sentence.
        public var message: String {
            switch self {
            case .notRefundable(.paymentDisputeLost):
                "the order is payment_dispute_lost: the chargeback took its money back already, so it cannot be "
                    + "refunded"
            case .notRefundable(let state):
                "the order is \(state.rawValue); only a charge_succeed or charge_failed order can be refunded"
            case .alreadyRefunded: "the order was refunded already; a refunded order cannot be refunded again"
            case .amount(let amount, let price):
                "a refund of \(amount) is not within 1 to the order's price, \(price) (minor units)"
            case .noRefundPending(let state): "the order is \(state.rawValue); no refund is pending"
            case .notDisputable(let state):
                switch state {
                case .paymentDisputeOpen, .paymentDisputeEvidenceSubmitted:
                    "the order is \(state.rawValue); its dispute is open already: resolve it, won or lost"
                case .paymentDisputeWon:
                    "the order is \(state.rawValue): the dispute was already resolved (won); an order is disputed once"
                case .paymentDisputeLost:
                    "the order is \(state.rawValue): the dispute was already resolved (lost); an order is disputed once"
                default:
                    "the order is \(state.rawValue); a dispute needs a paid order (charge_succeed or charge_failed)"
                }
            case .noDisputeOpen(let state): "the order is \(state.rawValue); no dispute is open"
            case .free:
                "the order is free (a bonus, priced 0): no money moved, so it cannot be refunded or disputed"
            case .tooManyActions:
                "the order has had \(OrderLife.actionLimit) refunds and disputes, the most an order of the sandbox "
                    + "takes; create another order"
            }
        }
    }

    /// The order's state now.
    public private(set) var state: OrderState
    /// The order's price, in minor units.
    public let price: Int
    /// Whether the award granted the order: a refund of an order never granted must not
    /// take anything back in the game.
    public let granted: Bool
    /// The refund requested or processed last, in minor units.
    public private(set) var refundAmount: Int?
    /// Every transition so far, oldest first.
    public private(set) var transitions: [Transition] = []
    /// The most transitions an order takes: refunds that fail may be asked for again, and
    /// each is kept, so that without a bound one order could grow without end.
    public static let actionLimit = 200

    /// The life of an order whose award ended in `state` (`charge_succeed` or
    /// `charge_failed`), priced `price` minor units.
    public init(state: OrderState, price: Int) {
        self.state = state
        self.price = price
        granted = state == .chargeSucceed
    }

    /// How far a dispute is taken.
    public enum DisputeGoal: String, CaseIterable, Sendable {
        /// `payment_dispute_open`.
        case open
        /// `payment_dispute_won`.
        case won
        /// `payment_dispute_lost`.
        case lost
    }

    /// What refunds `amount` minor units (all when nil) and ends as `succeeds` says.
    public static func refund(amount: Int?, succeeds: Bool) -> [Action] {
        [.requestRefund(amount: amount), .processRefund(succeeded: succeeds)]
    }

    /// What takes a dispute to `goal` from the order's state now: a resolution opens the
    /// dispute first when none is open.
    public func dispute(to goal: DisputeGoal) -> [Action] {
        let isOpen = state == .paymentDisputeOpen || state == .paymentDisputeEvidenceSubmitted
        let opening: [Action] = isOpen ? [] : [.openDispute]
        switch goal {
        case .open: return [.openDispute]
        case .won: return opening + [.resolveDispute(won: true)]
        case .lost: return opening + [.resolveDispute(won: false)]
        }
    }

    /// Applies `action`, or refuses it with the rule it breaks.
    @discardableResult
    public mutating func apply(_ action: Action) throws(Refusal) -> Transition {
        guard transitions.count < Self.actionLimit else { throw .tooManyActions }
        let (to, event) = try next(after: action)
        if case .requestRefund(let amount) = action { refundAmount = amount ?? price }
        let transition = Transition(action: action, from: state, to: to, event: event)
        state = to
        transitions.append(transition)
        return transition
    }

    private func next(after action: Action) throws(Refusal) -> (OrderState, OrderEvent.Name?) {
        switch action {
        case .requestRefund(let amount):
            // A free order moved no money (Initiate Refund's 422).
            if price == 0 { throw .free }
            if state == .paymentRefunded { throw .alreadyRefunded }
            guard state == .chargeSucceed || state == .chargeFailed || state == .paymentRefundFailed else {
                throw .notRefundable(state)
            }
            if let amount, !(1...max(1, price)).contains(amount) { throw .amount(amount, price: price) }
            return (.paymentRefundPending, nil)
        case .processRefund(let succeeded):
            guard state == .paymentRefundPending else { throw .noRefundPending(state) }
            return succeeded ? (.paymentRefunded, .refunded) : (.paymentRefundFailed, nil)
        case .openDispute:
            if price == 0 { throw .free }
            guard state == .chargeSucceed || state == .chargeFailed else { throw .notDisputable(state) }
            return (.paymentDisputeOpen, .disputeOpened)
        case .submitEvidence:
            guard state == .paymentDisputeOpen else { throw .noDisputeOpen(state) }
            return (.paymentDisputeEvidenceSubmitted, nil)
        case .resolveDispute(let won):
            guard state == .paymentDisputeOpen || state == .paymentDisputeEvidenceSubmitted else {
                throw .noDisputeOpen(state)
            }
            return won ? (.paymentDisputeWon, .disputeWon) : (.paymentDisputeLost, .disputeLost)
        }
    }
}
