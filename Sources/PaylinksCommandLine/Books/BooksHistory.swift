import PaylinksFixtures
import PaylinksKit

/// A seeded random history of a game's orders, as `check-books` plays it: one scenario per
/// player who has an order, each an ordinary ``Scenario`` that initializes, then buys,
/// cancels, is declined, pays late, is refunded, disputes, and sees its awards fail.
///
/// The history keeps every reconciliation point unambiguous: steps after a purchase act on
/// that order, the last paid one, before the next order; a pending payment resolves, and the
/// clock passes its resolution, before the next step; and an award that leaves its order
/// Failed (Charged) is followed at once by a Retry Award or a full refund, which carry no
/// fault. A free offer is bought, but nothing that moves money follows it.
///
/// Values only: the same settings and catalog give the same scenarios, step for step.
enum BooksHistory {
    /// What a history is made of.
    struct Settings: Sendable {
        /// The seed every draw and every scenario's own seed derive from.
        var seed: UInt64
        /// How many orders (purchases and cancels) the history holds across its players; 1 or more.
        var orders: Int
        /// How many players the orders are drawn among; 1 or more.
        var players: Int
        /// The faults steps may carry.
        var faults: BooksFaults
        /// Whether refunds may be partial: not with V1 events, whose refunds carry no amount,
        /// so that a game cannot tell a partial one from a full one.
        var partialRefunds = true
        /// The customer id of player `n`, from 0 to `players - 1`.
        var player: @Sendable (Int) -> String

        /// Settings of `orders` orders over `players` players.
        init(
            seed: UInt64, orders: Int, players: Int, faults: BooksFaults = .all,
            player: @escaping @Sendable (Int) -> String
        ) {
            self.seed = seed
            self.orders = orders
            self.players = players
            self.faults = faults
            self.player = player
        }
    }

    /// One step in this many carries a fault on the way of its events, when any is enabled.
    static let eventFaultOdds = 8
    /// One award in this many carries a fault on its way, when any is enabled.
    static let awardFaultOdds = 6

    /// The scenarios of a history, one per player who has at least one order, in the
    /// players' order; none when no country of `catalog` prices any of its offers.
    static func scenarios(_ settings: Settings, catalog: Catalog) -> [Scenario] {
        let plan = plan(settings, catalog: catalog)
        return plan.players.map(plan.scenario)
    }

    /// A history drawn player by player as it is played, so that its steps are never all
    /// held at once: how many orders each player has, and each player's scenario on demand.
    struct Plan: Sendable {
        let settings: Settings
        let markets: [Market]
        /// Each player's orders, by index.
        let counts: [Int]

        /// The players who have an order, by index, in order.
        var players: [Int] { counts.indices.filter { counts[$0] > 0 } }

        /// The scenario of player `index`.
        func scenario(_ index: Int) -> Scenario {
            BooksHistory.scenario(
                of: settings.player(index), seed: playerSeed(settings.seed, index: index), orders: counts[index],
                faults: settings.faults, partialRefunds: settings.partialRefunds, markets: markets)
        }
    }

    /// How the orders of a history fall to its players: each order goes to a player; each
    /// player's history is then drawn on its own, so that one player's draws do not move
    /// another's. No player has an order when no country of `catalog` prices any offer.
    static func plan(_ settings: Settings, catalog: Catalog) -> Plan {
        let markets = markets(in: catalog)
        guard !markets.isEmpty, settings.orders > 0, settings.players > 0 else {
            return Plan(settings: settings, markets: markets, counts: [])
        }
        var draws = SeededGenerator(seed: settings.seed)
        var counts = [Int](repeating: 0, count: settings.players)
        for _ in 0..<settings.orders { counts[draws.below(settings.players)] += 1 }
        return Plan(settings: settings, markets: markets, counts: counts)
    }

    /// The seed of player `index`'s history, and of its scenario: its own, so that its
    /// order ids are its own. The run's seed is mixed first, so that runs whose seeds are
    /// near (7 and 11) share no player's seed.
    static func playerSeed(_ seed: UInt64, index: Int) -> UInt64 {
        var run = SeededGenerator(seed: seed ^ 0xB00C_5B00_C5B0_0C5B)
        var generator = SeededGenerator(seed: run.next() &+ UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15)
        return generator.next()
    }

    /// A country and the offers it prices, with their prices in minor units.
    struct Market {
        /// The country, ISO 3166-1 alpha-2.
        var country: String
        /// The offers with a price there, in the catalog's order.
        var offers: [(sku: String, price: Int)]
    }

    /// The catalog's countries that price at least one offer, in the order of their codes.
    static func markets(in catalog: Catalog) -> [Market] {
        catalog.localizedCountries.compactMap { country in
            guard let localization = catalog.localization(for: country) else { return nil }
            let offers = catalog.offers.compactMap { offer in
                localization.minorUnits(ofTier: offer.basePriceInUSD).map { (offer.sku, $0) }
            }
            return offers.isEmpty ? nil : Market(country: country, offers: offers)
        }
    }

    /// The history of one player with `orders` orders, drawn from `seed`.
    private static func scenario(
        of player: String, seed: UInt64, orders: Int, faults: BooksFaults, partialRefunds: Bool, markets: [Market]
    ) -> Scenario {
        var scenario = Scenario(name: player, file: player)
        var history = PlayerHistory(seed: seed, faults: faults, partialRefunds: partialRefunds)
        let market = markets[history.random.below(markets.count)]
        scenario.configuration.customerId = player
        scenario.configuration.country = market.country
        scenario.configuration.seed = seed
        let configuration = scenario.configuration
        history.append(
            .initialize,
            .initialize(
                ACConfigModel(
                    checkoutPublicKey: configuration.checkoutPublicKey, environment: configuration.environment,
                    redirectUrl: configuration.redirectUrl),
                customerId: player),
            faults: false)
        for _ in 0..<orders {
            history.order(
                of: market.offers[history.random.below(market.offers.count)], paying: configuration.paymentMethod)
        }
        scenario.steps = history.steps
        return scenario
    }
}

/// The steps of one player's history as they are drawn, order after order.
private struct PlayerHistory {
    /// The draws of this player's history.
    var random: SeededGenerator
    /// The faults steps may carry.
    let faults: BooksFaults
    /// The steps so far, numbered from 1.
    private(set) var steps: [ScenarioStep] = []

    /// A history drawn from `seed`, which the scenario's own seed is too: the draws are
    /// mixed apart from it.
    /// Whether refunds may be partial.
    let partialRefunds: Bool

    init(seed: UInt64, faults: BooksFaults, partialRefunds: Bool) {
        random = SeededGenerator(seed: seed ^ 0x6869_7374_6F72_7921)
        self.faults = faults
        self.partialRefunds = partialRefunds
    }

    /// Appends a step of `kind` taking `action`, with a fault on the way of its events one
    /// time in ``BooksHistory/eventFaultOdds`` unless `faults` is false, and `awardFault`
    /// on the way of its award.
    mutating func append(
        _ kind: StepKind, _ action: ScenarioStep.Action, awardFault: ScenarioStep.AwardFault? = nil,
        faults drawn: Bool = true
    ) {
        var step = ScenarioStep(number: steps.count + 1, kind: kind, action: action)
        step.awardFault = awardFault
        let events = faults.eventFaults
        if drawn, !events.isEmpty, random.below(BooksHistory.eventFaultOdds) == 0 {
            step.eventFault = events[random.below(events.count)]
        }
        steps.append(step)
    }

    /// One order of `offer`: paid (most), declined, pending and resolved later, or canceled,
    /// and what follows a payment.
    mutating func order(of offer: (sku: String, price: Int), paying method: String) {
        var checkout = ScenarioStep.Checkout(sku: offer.sku, player: .closeCheckout())
        // A free order is collected, paid with nothing: it is bought or left.
        let roll = random.below(100)
        let outcome: ChargeOutcome? =
            switch roll {
            case ..<70: .succeeded
            case ..<80: offer.price == 0 ? .succeeded : .declined
            case ..<90: offer.price == 0 ? .succeeded : .pending
            default: nil
            }
        guard let outcome else {
            checkout.player = .closeCheckout(via: random.below(2) == 0 ? .checkoutInterface : .browserControls)
            append(.cancel, .checkout(checkout))
            return
        }
        checkout.player = .pay(paymentMethodName: method, outcome: outcome)
        switch outcome {
        case .succeeded:
            let fault = awardFault(price: offer.price)
            append(.purchase, .checkout(checkout), awardFault: fault)
            paid(price: offer.price, fault: fault)
        case .declined:
            append(.purchase, .checkout(checkout))
        case .pending:
            append(.purchase, .checkout(checkout))
            let succeeded = random.below(3) < 2
            let after = (1 + random.below(30)) * 60_000
            append(.resolve, .resolve(succeeded: succeeded, after: after))
            // Past the resolution, and past every retry of its award.
            let by = after + (1 + random.below(10)) * 60_000
            let fault = succeeded ? awardFault(price: offer.price) : nil
            append(.advance, .advance(milliseconds: by), awardFault: fault)
            if succeeded { paid(price: offer.price, fault: fault) }
        }
    }

    /// A fault on the way of the award of an order priced `price`, one time in
    /// ``BooksHistory/awardFaultOdds``; none that leaves a free order Failed (Charged),
    /// which a refund cannot follow.
    private mutating func awardFault(price: Int) -> ScenarioStep.AwardFault? {
        let enabled = faults.awardFaults.filter { price > 0 || !$0.failsEveryAttempt }
        guard !enabled.isEmpty, random.below(BooksHistory.awardFaultOdds) == 0 else { return nil }
        return enabled[random.below(enabled.count)]
    }

    /// What follows an order priced `price` that was paid, its award sent with `fault`: for
    /// an order left Failed (Charged), at once a Retry Award or a full refund (mostly a
    /// refund after `late`, so that the late award arrives after it); then, for an order
    /// granted, sometimes a refund or a dispute.
    private mutating func paid(price: Int, fault: ScenarioStep.AwardFault?) {
        if let fault, fault.failsEveryAttempt {
            // The fault decides what the game holds until this step: nothing else may come between.
            let refunds = random.below(4) < (fault == .late ? 3 : 1)
            if refunds {
                append(.refund, .refund(amount: nil, outcome: .refunded), faults: false)
                return
            }
            append(.retryAward, .retryAward, faults: false)
        }
        guard price > 0 else { return }
        let roll = random.below(100)
        switch roll {
        case ..<50:
            break
        case ..<65:
            append(.refund, .refund(amount: nil, outcome: .refunded))
        case ..<75:
            append(.refund, .refund(amount: partial(of: price), outcome: .refunded))
        case ..<85:
            append(.refund, .refund(amount: random.below(2) == 0 ? nil : partial(of: price), outcome: .failed))
            if random.below(2) == 0 {
                append(.refund, .refund(amount: random.below(2) == 0 ? nil : partial(of: price), outcome: .refunded))
            }
        default:
            let won = random.below(2) == 0
            if random.below(2) == 0 { append(.dispute, .dispute(.open)) }
            append(.dispute, .dispute(won ? .won : .lost))
        }
    }

    /// An amount from 1 to `price - 1` minor units; all of it (nil) when the price is 1.
    private mutating func partial(of price: Int) -> Int? {
        partialRefunds && price > 1 ? 1 + random.below(price - 1) : nil
    }
}

extension SeededGenerator {
    /// A number from 0 to `bound - 1`, drawn by paylinks' own arithmetic, the same on
    /// every machine; `bound` is 1 or more.
    fileprivate mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
