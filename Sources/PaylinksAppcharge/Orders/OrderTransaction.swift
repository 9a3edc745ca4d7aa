/// One movement of an order's money, as the events' `transactions` and the transactions
/// report both list it (`after-the-purchase.md`, sections 3.1 and 5).
public struct OrderTransaction: Equatable, Sendable {
    /// What moved the money.
    public enum Kind: String, CaseIterable, Sendable {
        /// The player paid.
        case paid
        /// A refund was processed: the money went back to the player.
        case refund
        /// A dispute was opened: the bank took the money back while it lasts.
        case disputeFundsWithdrawn = "dispute_funds_withdrawn"
        /// A dispute was won: the money came back.
        case disputeFundsReinstated = "dispute_funds_reinstated"
    }

    /// What moved the money.
    public var kind: Kind
    /// How much moved, in the currency's minor units.
    public var amount: Int
    /// When it happened, Unix milliseconds.
    public var milliseconds: Int
    /// Which movement of the order it is: 0 the payment, n one of the n-th transition of
    /// its life after the award.
    public var number: Int

    /// What Appcharge charged the publisher with the movement, in US cents:
    /// ``OrderMoney/chargebackFee`` on a dispute's funds withdrawn, else 0.
    public var chargebackFee: Int {
        kind == .disputeFundsWithdrawn ? OrderMoney.chargebackFee : 0
    }

    /// A movement.
    public init(_ kind: Kind, amount: Int, milliseconds: Int, number: Int) {
        self.kind = kind
        self.amount = amount
        self.milliseconds = milliseconds
        self.number = number
    }
}

extension CheckoutSessions.Session {
    /// The money movements of the session's order so far, in the order they happened: the
    /// payment at the order's date once the player paid, then a refund processed, a
    /// dispute's funds withdrawn at its opening and reinstated when it was won, each at
    /// the time of its transition. A free order moved no money, and has none.
    public var transactions: [OrderTransaction] {
        guard isPaid, !isFree else { return [] }
        var found = [OrderTransaction(.paid, amount: price, milliseconds: date * 1000, number: 0)]
        for (index, transition) in (life?.transitions ?? []).enumerated() {
            let at = index < lifeTimes.count ? lifeTimes[index] : date * 1000
            let kind: OrderTransaction.Kind
            let amount: Int
            switch transition.action {
            case .processRefund(succeeded: true): (kind, amount) = (.refund, life?.refundAmount ?? price)
            case .openDispute: (kind, amount) = (.disputeFundsWithdrawn, price)
            case .resolveDispute(won: true): (kind, amount) = (.disputeFundsReinstated, price)
            default: continue
            }
            found.append(OrderTransaction(kind, amount: amount, milliseconds: at, number: index + 1))
        }
        return found
    }
}
