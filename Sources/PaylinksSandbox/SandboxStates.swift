import PaylinksAppcharge
import PaylinksKit

/// How the dashboard shows an order's state: Appcharge's own label, the raw code beside
/// it, in the colour of its kind.
extension OrderState {
    /// What an order in the state means for the money, which its colour shows.
    enum Kind: String, CaseIterable, Sendable {
        /// Paid and awarded.
        case paid
        /// Waiting: for the payment, the charge, a refund or a dispute's outcome.
        case pending
        /// Declined, paid with an award that failed, or a refund that did not go through.
        case failed
        /// The money went back to the player.
        case refunded
        /// The player disputed the charge: open, won or lost.
        case disputed
        /// Closed with no money moved: canceled, or never paid.
        case closed

        /// The kind as a filter names it.
        var title: String {
            switch self {
            case .paid: "Paid"
            case .pending: "Pending"
            case .failed: "Failed"
            case .refunded: "Refunded"
            case .disputed: "Disputed"
            case .closed: "Closed"
            }
        }
    }

    /// The label Appcharge's dashboard gives the state (`after-the-purchase.md`, section 1),
    /// or, where it names none, the state in the same words.
    var label: String {
        switch self {
        case .created: "Created"
        case .paymentPending: "Payment pending"
        case .paymentSucceed: "Payment succeeded"
        case .chargePending: "Charge pending"
        case .chargeSucceed: "Succeeded"
        case .chargeFailed: "Failed (Charged)"
        case .paymentCanceled: "Canceled"
        case .paymentFailed: "Payment failed"
        case .paymentRefundPending: "Refund Pending"
        case .paymentRefunded: "Refunded"
        case .paymentRefundFailed: "Refund Failed"
        case .paymentDisputeOpen: "Dispute open"
        case .paymentDisputeEvidenceSubmitted: "Evidence submitted"
        case .paymentDisputeWon: "Dispute won"
        case .paymentDisputeLost: "Dispute lost"
        }
    }

    /// Whether the state is the worse end of its kind, shown solid: the player paid and got
    /// nothing (Failed (Charged)), or the bank took the money back (Dispute lost).
    var isSevere: Bool { self == .chargeFailed || self == .paymentDisputeLost }

    /// The state's kind: where the order stands, whatever became of its money. Every
    /// disputed order is disputed, won or lost; a refund that failed is a failure to see.
    var kind: Kind {
        switch self {
        case .chargeSucceed: .paid
        case .paymentPending, .paymentSucceed, .chargePending, .paymentRefundPending: .pending
        case .chargeFailed, .paymentFailed, .paymentRefundFailed: .failed
        case .paymentRefunded: .refunded
        case .paymentDisputeOpen, .paymentDisputeEvidenceSubmitted, .paymentDisputeWon, .paymentDisputeLost: .disputed
        case .created, .paymentCanceled: .closed
        }
    }
}

extension SandboxPage {
    /// The state as a pill: Appcharge's label in its kind's colour, solid for the worse end
    /// of its kind, the raw code beside it in small type; `refund`, the amount of a partial refund already worded, after the label.
    static func statePill(_ state: OrderState, partialRefund refund: String? = nil) -> String {
        let label = state.label + (refund.map { " · \($0) of it" } ?? "")
        return "<span class=\"pill \(state.kind.rawValue)\(state.isSevere ? " severe" : "")\">\(escaped(label))</span> "
            + "<code class=\"code\">\(state.rawValue)</code>"
    }

    /// The amount of a partial refund of `session`, as the price is shown; nil for a full
    /// refund or none.
    static func partialRefund(_ session: CheckoutSessions.Session) -> String? {
        guard let amount = session.life?.refundAmount, amount < session.price,
            session.state == .paymentRefunded || session.state == .paymentRefundPending
        else { return nil }
        return PriceFormatter.formatMinorUnits(amount, currency: session.currency)
    }

    /// The pills' colours: each kind's text on its background passes WCAG AA (4.5:1) for
    /// small type.
    static let stateStyle = """
        .pill { display: inline-block; padding: .1rem .5rem; border-radius: 999px; font-size: .85rem; font-weight: 600;
                border: 1px solid transparent; white-space: nowrap; }
        .pill.paid { background: #e3f4e8; color: #155d2b; border-color: #a9d8b6; }
        .pill.pending { background: #fff3dc; color: #7a4100; border-color: #f0cf8f; }
        .pill.failed { background: #fde8e7; color: #9b1c14; border-color: #f2b8b3; }
        .pill.refunded { background: #e8ecff; color: #2f3a94; border-color: #b9c3f3; }
        .pill.disputed { background: #f5e6fb; color: #6d1d86; border-color: #dbb5ea; }
        .pill.closed { background: #eef1f5; color: #3b4454; border-color: #d3d8e0; }
        .pill.failed.severe { background: #9b1c14; color: #fff; border-color: #9b1c14; }
        .pill.disputed.severe { background: #6d1d86; color: #fff; border-color: #6d1d86; }
        code.code { font-family: ui-monospace, monospace; font-size: .78rem; color: #4f5868; }

        """
}
