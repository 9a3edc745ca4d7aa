public import PaylinksKit

/// The events of one order, in the order Appcharge sends them: those of its checkout
/// (created, the payment resolved, completed or canceled), then one for each transition
/// of its life after the award that Appcharge reports (``OrderLife``).
public enum OrderStory {
    /// How an order's checkout ended, as Appcharge's side knows it.
    public enum Ending: Equatable, Sendable {
        /// Paid, and the award granted: `charge_succeed`.
        case granted
        /// Paid, and every award attempt failed: `charge_failed`.
        case awardFailed
        /// The payment was declined.
        case declined
        /// The player canceled the checkout.
        case canceled
        /// The order exists and nothing resolved it: still pending, or refused by the
        /// client before it was paid.
        case unresolved
    }

    /// The events Appcharge sends for a checkout that ended so, oldest first, and the
    /// order's state after them.
    public static func events(of ending: Ending) -> (names: [OrderEvent.Name], state: OrderState) {
        switch ending {
        case .granted: ([.created, .paymentSucceeded, .completed], .chargeSucceed)
        case .awardFailed: ([.created, .paymentSucceeded], .chargeFailed)
        case .declined: ([.created, .paymentFailed], .paymentFailed)
        case .canceled: ([.created, .canceled], .paymentCanceled)
        case .unresolved: ([.created], .created)
        }
    }

    /// The events of a checkout that ended so that Appcharge sends before the award goes
    /// out: the order's creation and its payment.
    public static let beforeAward: [OrderEvent.Name] = [.created, .paymentSucceeded]

    /// How to reach an event: the checkout's ending, then the actions of the order's life.
    public struct Plan: Equatable, Sendable {
        /// The event the story leads to.
        public var target: OrderEvent.Name
        /// How the checkout must end.
        public var ending: Ending
        /// What happens to the order after the award, in order.
        public var life: [OrderLife.Action]
    }

    /// The events of a plan's story, in order, through its target.
    public static func names(of plan: Plan) -> [OrderEvent.Name] {
        let (names, state) = events(of: plan.ending)
        var life = OrderLife(state: state, price: Int.max)
        var story = names
        for action in plan.life {
            guard let transition = try? life.apply(action) else { break }
            if let event = transition.event { story.append(event) }
        }
        return prefix(story, through: plan.target)
    }

    /// The shortest story that ends in `target`; `refundAmount` (minor units) makes a
    /// refund partial.
    public static func plan(for target: OrderEvent.Name, refundAmount: Int? = nil) -> Plan {
        let life: [OrderLife.Action]
        let ending: Ending
        switch target {
        case .created, .paymentSucceeded, .completed: (ending, life) = (.granted, [])
        case .paymentFailed: (ending, life) = (.declined, [])
        case .canceled: (ending, life) = (.canceled, [])
        case .refunded:
            (ending, life) = (.granted, [.requestRefund(amount: refundAmount), .processRefund(succeeded: true)])
        case .disputeOpened: (ending, life) = (.granted, [.openDispute])
        case .disputeWon: (ending, life) = (.granted, [.openDispute, .submitEvidence, .resolveDispute(won: true)])
        case .disputeLost: (ending, life) = (.granted, [.openDispute, .resolveDispute(won: false)])
        }
        return Plan(target: target, ending: ending, life: life)
    }

    /// `names` up to and including the first `target`; all of them when `target` is not
    /// among them (the story went another way, an award that failed, say).
    public static func prefix(_ names: [OrderEvent.Name], through target: OrderEvent.Name) -> [OrderEvent.Name] {
        guard let index = names.firstIndex(of: target) else { return names }
        return Array(names[...index])
    }
}

extension OrderEvent.Subject {
    /// The subject of `order`, its price point from `catalog`'s offer of the order's SKU
    /// (0 for an SKU the catalog does not hold).
    public init(order: OrderResponseModel, catalog: Catalog) {
        self.init(
            order: order,
            pricePointMetadata: GrantAward.cents(catalog.offer(sku: order.offerSku)?.basePriceInUSD ?? "0"))
    }
}
