/// How to reach one event of an order's life: what the player does in the checkout, then
/// what happens to the order after its award. The events themselves come from the order
/// living it (``AppchargeBackend``), never from this plan.
public enum OrderStory {
    /// What the player does in the checkout.
    public enum Ending: Equatable, Sendable {
        /// Pays: the award decides the rest.
        case paid
        /// Pays with a card that is declined.
        case declined
        /// Closes the checkout.
        case canceled
    }

    /// How to reach an event: the checkout's ending, then the actions of the order's life.
    public struct Plan: Equatable, Sendable {
        /// The event the story leads to.
        public var target: OrderEvent.Name
        /// How the checkout must end.
        public var ending: Ending
        /// What happens to the order after the award, in order.
        public var life: [OrderLife.Action]
    }

    /// The shortest story that ends in `target`; `refundAmount` (minor units) makes a
    /// refund partial.
    public static func plan(for target: OrderEvent.Name, refundAmount: Int? = nil) -> Plan {
        let life: [OrderLife.Action]
        let ending: Ending
        switch target {
        case .created, .paymentSucceeded, .completed: (ending, life) = (.paid, [])
        case .paymentFailed: (ending, life) = (.declined, [])
        case .canceled: (ending, life) = (.canceled, [])
        case .refunded:
            (ending, life) = (.paid, [.requestRefund(amount: refundAmount), .processRefund(succeeded: true)])
        case .disputeOpened: (ending, life) = (.paid, [.openDispute])
        case .disputeWon: (ending, life) = (.paid, [.openDispute, .submitEvidence, .resolveDispute(won: true)])
        case .disputeLost: (ending, life) = (.paid, [.openDispute, .resolveDispute(won: false)])
        }
        return Plan(target: target, ending: ending, life: life)
    }
}
