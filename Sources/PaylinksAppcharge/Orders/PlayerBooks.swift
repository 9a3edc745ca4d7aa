package import PaylinksKit

/// What Appcharge's books say a player should hold: the products of every order
/// paid and neither refunded nor lost in a dispute, by the rules the sandbox's reports
/// follow. A partial refund's products stay or go as the game's rule says.
///
/// An order whose award failed on every attempt (Failed (Charged)) is paid, but Appcharge
/// cannot know whether the game granted it (an answer lost on the way back) or not: until
/// it is granted by a Retry Award, refunded or lost in a dispute, the books say nothing.
package struct PlayerBooks: Sendable, Equatable {
    /// What a game does with the products of an order refunded in part: a studio's call.
    package enum PartialRefundRule: String, CaseIterable, Sendable {
        /// The player keeps them (the example game server's rule).
        case keep
        /// They are taken back, as for a full refund.
        case revoke
    }

    /// One order the player paid, as it stands.
    package struct Order: Sendable, Equatable {
        /// Its purchase id.
        package var purchaseId: String
        /// Its order id.
        package var orderId: String
        /// The offer's SKU.
        package var sku: String
        /// What its award grants, by product SKU.
        package var products: AuditBalances
        /// Its state now.
        package var state: OrderState
        /// Its price, in minor units of `currency`.
        package var price: Int
        /// Its currency.
        package var currency: String
        /// Its price point in US cents, when it has one.
        package var usdCents: Int?
        /// The refund taken, in minor units, once refunded.
        package var refunded: Int?
        /// Whether Appcharge saw its award granted.
        package var granted: Bool
        /// When its state last changed, counted in changes to the books: the order changed
        /// last has the highest.
        package var changed = 0

        /// Whether the player should hold its products under `rule`; nil when the books
        /// cannot say, as its award failed.
        package func holds(_ rule: PartialRefundRule) -> Bool? {
            switch state {
            case .paymentRefunded:
                let partial = (refunded ?? price) < price
                return partial && rule == .keep
            case .paymentDisputeLost:
                return false
            case .chargeSucceed, .paymentRefundPending, .paymentRefundFailed, .paymentDisputeOpen,
                .paymentDisputeEvidenceSubmitted, .paymentDisputeWon:
                return granted ? true : nil
            case .chargeFailed:
                return nil
            case .created, .paymentPending, .paymentSucceed, .chargePending, .paymentCanceled, .paymentFailed:
                return false
            }
        }

        /// What is at stake: `$4.99` from its price point, else its price and currency.
        package var stake: String {
            if let cents = usdCents { return "$\(PlayerBooks.decimal(cents, places: 2))" }
            return "\(price) \(currency) minor units"
        }
    }

    /// The orders paid, in the order they were first paid.
    package private(set) var orders: [Order] = []
    /// How many changes the books have taken.
    package private(set) var changes = 0

    /// Empty books.
    package init() {}

    /// Takes `session` as it stands now: a paid order is added, or brought up to date.
    package mutating func note(_ session: CheckoutSessions.Session) {
        let paid = session.life != nil || session.state == .chargeSucceed || session.state == .chargeFailed
        guard paid else { return }
        var order = Order(
            purchaseId: session.purchaseId, orderId: session.orderId, sku: session.offerSku,
            products: .products(of: session.order), state: session.state, price: session.price,
            currency: session.currency, usdCents: session.pricePointMetadata, refunded: session.life?.refundAmount,
            granted: session.life?.granted ?? (session.state == .chargeSucceed))
        if let index = orders.lastIndex(where: { $0.purchaseId == order.purchaseId }) {
            order.changed = orders[index].changed
            if orders[index] != order {
                changes += 1
                order.changed = changes
            }
            orders[index] = order
        } else {
            changes += 1
            order.changed = changes
            orders.append(order)
        }
    }

    /// What the player should hold under `rule`, by product SKU; nil while an order's award
    /// failed and the books cannot say.
    package func holdings(_ rule: PartialRefundRule) -> AuditBalances? {
        var held: AuditBalances = [:]
        for order in orders {
            guard let holds = order.holds(rule) else { return nil }
            for (sku, amount) in order.products where holds { held.add(amount, to: sku) }
        }
        return held
    }

    /// What the books say of one product SKU.
    package enum Holding: Sendable, Equatable {
        /// The player should hold this many.
        case held(Int)
        /// The books cannot say: these orders' awards failed (Failed (Charged)), by purchase id.
        case unknown(purchaseIds: [String])
    }

    /// What the player should hold under `rule`, one product SKU at a time: a SKU an order
    /// whose award failed grants is unknown, the others are still known. Sums past `Int`'s
    /// range stop at its end.
    package func holdingsBySku(_ rule: PartialRefundRule) -> [String: Holding] {
        var held: [String: Int] = [:]
        var unknown: [String: [String]] = [:]
        for order in orders {
            let holds = order.holds(rule)
            for (sku, amount) in order.products {
                guard let holds else {
                    unknown[sku, default: []].append(order.purchaseId)
                    continue
                }
                held.add(holds ? amount : 0, to: sku)
            }
        }
        var result = held.mapValues(Holding.held)
        for (sku, purchaseIds) in unknown { result[sku] = .unknown(purchaseIds: purchaseIds) }
        return result
    }

    /// `cents` as a decimal with `places` places: 499 → `4.99`.
    static func decimal(_ value: Int, places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let whole = value / scale
        let fraction = String(abs(value % scale))
        return "\(value < 0 && whole == 0 ? "-" : "")\(whole)." + String(repeating: "0", count: places - fraction.count)
            + fraction
    }
}
