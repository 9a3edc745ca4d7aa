import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// `check-books`' histories: seeded orders over players as scenarios, within the rules
/// that keep every reconciliation point unambiguous, and `--faults`.
@Suite("Books histories")
struct BooksHistoryTests {
    /// Settings of a history with the players named `player_1`, `player_2` ...
    static func settings(seed: UInt64, orders: Int, players: Int, faults: BooksFaults = .all)
        -> BooksHistory.Settings
    {
        BooksHistory.Settings(seed: seed, orders: orders, players: players, faults: faults) { "player_\($0 + 1)" }
    }

    /// Every step of every scenario, one line each, as a test compares them.
    static func rendering(_ scenarios: [Scenario]) -> String {
        scenarios.map { scenario in
            let configuration = scenario.configuration
            let head =
                "\(scenario.name) \(scenario.file) \(configuration.customerId) \(configuration.country) "
                + "\(configuration.seed.map(String.init) ?? "-") \(configuration.paymentMethod)\n"
            return head
                + scenario.steps.map { step in
                    "  \(step.label) \(step.kind) \(step.action) event=\(step.eventFault?.rawValue ?? "-") "
                        + "award=\(step.awardFault?.rawValue ?? "-")\n"
                }.joined()
        }.joined()
    }

    static func orderCount(_ scenario: Scenario) -> Int {
        scenario.steps.count { $0.kind == .purchase || $0.kind == .cancel }
    }

    @Test(
        "a history holds exactly the orders asked for, one scenario per player who has any",
        arguments: [(1, 1), (1, 5), (7, 3), (200, 13), (1000, 2000)])
    func orders(orders: Int, players: Int) throws {
        let catalog = try builtInCatalog()
        let scenarios = BooksHistory.scenarios(
            Self.settings(seed: 42, orders: orders, players: players), catalog: catalog)
        #expect(scenarios.map(Self.orderCount).reduce(0, +) == orders)
        #expect(scenarios.allSatisfy { Self.orderCount($0) >= 1 })
        #expect(scenarios.count <= min(orders, players))
        let names = scenarios.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { name in (1...players).contains { "player_\($0)" == name } })
        // In the players' order.
        #expect(names == names.sorted { Int($0.dropFirst(7)) ?? 0 < Int($1.dropFirst(7)) ?? 0 })
        let seeds = scenarios.compactMap(\.configuration.seed)
        #expect(seeds.count == scenarios.count)
        #expect(Set(seeds).count == seeds.count)
    }

    @Test("each scenario is its player's: named after them, initialized with them, in a catalog's country")
    func configuration() throws {
        let catalog = try builtInCatalog()
        let scenarios = BooksHistory.scenarios(Self.settings(seed: 7, orders: 300, players: 40), catalog: catalog)
        var countries: Set<String> = []
        for scenario in scenarios {
            let configuration = scenario.configuration
            #expect(configuration.customerId == scenario.name)
            #expect(catalog.localizations[configuration.country] != nil)
            countries.insert(configuration.country)
            #expect(configuration.now == nil)
            #expect(configuration.faultRate == nil)
            #expect(scenario.steps.map(\.number) == Array(1...scenario.steps.count))
            #expect(scenario.steps.allSatisfy { $0.attempt == nil && $0.expectation == nil && $0.error == nil })
            let first = try #require(scenario.steps.first)
            #expect(first.kind == .initialize)
            guard case .initialize(let model, let customerId) = first.action else {
                Issue.record("\(scenario.name) does not start with initialize")
                continue
            }
            #expect(customerId == scenario.name)
            #expect(model == ACConfigModel(checkoutPublicKey: configuration.checkoutPublicKey, environment: "sandbox"))
            #expect(first.eventFault == nil && first.awardFault == nil)
        }
        #expect(countries.count > 1)
    }

    @Test("the same settings and catalog give the same history, and another seed another")
    func deterministic() throws {
        let catalog = try builtInCatalog()
        let first = Self.rendering(
            BooksHistory.scenarios(Self.settings(seed: 9, orders: 500, players: 30), catalog: catalog))
        let again = Self.rendering(
            BooksHistory.scenarios(Self.settings(seed: 9, orders: 500, players: 30), catalog: catalog))
        let other = Self.rendering(
            BooksHistory.scenarios(Self.settings(seed: 10, orders: 500, players: 30), catalog: catalog))
        #expect(first == again)
        #expect(first != other)
    }

    /// What a history's steps do to its last paid order, checked as Appcharge's rules and
    /// the history's own would: each problem as a line.
    static func ruleProblems(_ scenario: Scenario, catalog: Catalog, faults: BooksFaults) -> [String] {
        var problems: [String] = []
        let localization = catalog.localization(for: scenario.configuration.country)
        // The last paid order: its price and state.
        var paid: (price: Int, state: OrderState)?
        var pending: (sku: String, succeeded: Bool?, at: Int?)?
        var mustFollow: ScenarioStep.AwardFault?
        for (index, step) in scenario.steps.enumerated() {
            let label = "\(scenario.name) step \(step.label) (\(step.kind))"
            if let fault = step.eventFault, !faults.events.contains(fault) { problems.append("\(label): \(fault)") }
            if let fault = step.awardFault, !faults.awards.contains(fault) { problems.append("\(label): \(fault)") }
            if index > 0, step.kind == .initialize { problems.append("\(label): a second initialize") }
            if let fault = mustFollow {
                mustFollow = nil
                var allowed = step.kind == .retryAward
                if case .refund(nil, .refunded) = step.action { allowed = true }
                if !allowed { problems.append("\(label) follows an award \(fault) on a charge_failed order") }
                if step.eventFault != nil || step.awardFault != nil {
                    problems.append("\(label) carries a fault after an award \(fault)")
                }
            }
            if let waiting = pending, step.kind != .resolve, step.kind != .advance {
                problems.append("\(label) comes before the pending payment of \(waiting.sku) resolved")
            }
            if step.awardFault != nil, step.kind != .purchase, step.kind != .advance {
                problems.append("\(label): an award fault on a step that sends no award")
            }
            switch step.action {
            case .initialize:
                continue
            case .checkout(let checkout):
                let price = localization?.minorUnits(ofTier: catalog.offer(sku: checkout.sku)?.basePriceInUSD ?? "")
                guard let price else {
                    problems.append("\(label): \(checkout.sku) has no price in \(scenario.configuration.country)")
                    continue
                }
                switch checkout.player {
                case .pay(let method, .succeeded):
                    #expect(method == scenario.configuration.paymentMethod)
                    paid = (price, step.awardFault.map(Self.failsCharge) == true ? .chargeFailed : .chargeSucceed)
                case .pay(_, .pending):
                    pending = (checkout.sku, nil, nil)
                case .pay(_, .declined), .closeCheckout:
                    break
                default:
                    problems.append("\(label): \(checkout.player)")
                }
                if step.kind == .cancel, case .pay = checkout.player { problems.append("\(label) pays") }
                var paysNow = false
                if case .pay(_, .succeeded) = checkout.player { paysNow = true }
                if step.awardFault != nil, !paysNow { problems.append("\(label): an award fault on an order not paid") }
                if step.awardFault.map(Self.failsCharge) == true {
                    mustFollow = step.awardFault
                    if price == 0 { problems.append("\(label): a free order's award fails") }
                }
                if price == 0, case .pay(_, let outcome) = checkout.player, outcome != .succeeded {
                    problems.append("\(label): a free order \(outcome)")
                }
            case .resolve(let succeeded, let after):
                guard var waiting = pending, waiting.succeeded == nil, let after, after > 0 else {
                    problems.append("\(label): no pending payment, or no time to resolve after")
                    continue
                }
                waiting.succeeded = succeeded
                waiting.at = after
                pending = waiting
                if step.awardFault != nil { problems.append("\(label): an award fault on a resolve") }
            case .advance(let milliseconds):
                guard let waiting = pending, let succeeded = waiting.succeeded, let at = waiting.at else {
                    problems.append("\(label): nothing to advance past")
                    continue
                }
                if milliseconds <= at { problems.append("\(label) stops before the resolution") }
                pending = nil
                if succeeded {
                    let price = localization?.minorUnits(ofTier: catalog.offer(sku: waiting.sku)?.basePriceInUSD ?? "")
                    paid = (price ?? 0, step.awardFault.map(Self.failsCharge) == true ? .chargeFailed : .chargeSucceed)
                    if step.awardFault.map(Self.failsCharge) == true { mustFollow = step.awardFault }
                } else if step.awardFault != nil {
                    problems.append("\(label): an award fault on a payment that failed")
                }
            case .retryAward:
                guard let order = paid, order.state == .chargeFailed else {
                    problems.append("\(label): the last paid order is not charge_failed")
                    continue
                }
                paid?.state = .chargeSucceed
                if step.awardFault != nil { problems.append("\(label): a Retry Award with a fault") }
            case .refund(let amount, let outcome):
                guard let order = paid, order.price > 0,
                    [.chargeSucceed, .chargeFailed, .paymentRefundFailed].contains(order.state)
                else {
                    problems.append("\(label): the last paid order is not refundable")
                    continue
                }
                if let amount, !(1..<order.price).contains(amount) {
                    problems.append("\(label): a partial refund of \(amount) of \(order.price)")
                }
                paid?.state = outcome == .refunded ? .paymentRefunded : .paymentRefundFailed
            case .dispute(let outcome):
                guard let order = paid, order.price > 0 else {
                    problems.append("\(label): no paid order to dispute")
                    continue
                }
                let open = order.state == .paymentDisputeOpen
                if outcome == .open || !open {
                    guard [.chargeSucceed, .chargeFailed].contains(order.state) else {
                        problems.append("\(label): the last paid order is \(order.state.rawValue)")
                        continue
                    }
                }
                if order.state == .chargeFailed { problems.append("\(label): a dispute of a charge_failed order") }
                paid?.state =
                    switch outcome {
                    case .open: .paymentDisputeOpen
                    case .won: .paymentDisputeWon
                    case .lost: .paymentDisputeLost
                    }
            case .pricePoints:
                problems.append("\(label): price points")
            }
        }
        if mustFollow != nil { problems.append("\(scenario.name) ends on an award that failed") }
        if pending != nil { problems.append("\(scenario.name) ends on a pending payment") }
        return problems
    }

    /// Whether an award's fault leaves its order charge_failed.
    static func failsCharge(_ fault: ScenarioStep.AwardFault) -> Bool {
        [.drop, .answerLost, .late].contains(fault)
    }

    @Test("every step acts on an order the rules let it act on", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func rules(seed: UInt64) throws {
        let catalog = try builtInCatalog()
        let scenarios = BooksHistory.scenarios(Self.settings(seed: seed, orders: 2000, players: 50), catalog: catalog)
        let problems = scenarios.flatMap { Self.ruleProblems($0, catalog: catalog, faults: .all) }
        #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
    }

    @Test("the rules' check finds a step that breaks them")
    func rulesCheckFails() throws {
        let catalog = try builtInCatalog()
        let scenarios = BooksHistory.scenarios(Self.settings(seed: 2, orders: 2000, players: 20), catalog: catalog)
        var scenario = try #require(
            scenarios.first { $0.steps.contains { $0.awardFault == .drop && $0.kind == .purchase } })
        let dropped = try #require(scenario.steps.firstIndex { $0.awardFault == .drop && $0.kind == .purchase })
        #expect(Self.ruleProblems(scenario, catalog: catalog, faults: .all).isEmpty)
        // A dispute where the Retry Award or the refund belongs.
        scenario.steps[dropped + 1].kind = .dispute
        scenario.steps[dropped + 1].action = .dispute(.lost)
        #expect(!Self.ruleProblems(scenario, catalog: catalog, faults: .all).isEmpty)
        #expect(!Self.ruleProblems(scenario, catalog: catalog, faults: .none).isEmpty)
    }

    @Test("a long history takes every step, outcome and fault there is")
    func variety() throws {
        let catalog = try builtInCatalog()
        let scenarios = BooksHistory.scenarios(Self.settings(seed: 1, orders: 5000, players: 100), catalog: catalog)
        let steps = scenarios.flatMap(\.steps)
        let kinds = Set(steps.map(\.kind))
        #expect(kinds == Set(StepKind.allCases).subtracting([.pricePoints]))
        #expect(Set(steps.compactMap(\.eventFault)) == Set(ScenarioStep.EventFault.allCases))
        #expect(Set(steps.compactMap(\.awardFault)) == Set(ScenarioStep.AwardFault.allCases))
        var outcomes: Set<String> = []
        for step in steps {
            switch step.action {
            case .checkout(let checkout):
                switch checkout.player {
                case .pay(_, let outcome): outcomes.insert("\(step.kind) \(outcome.rawValue)")
                case .closeCheckout(let via): outcomes.insert("\(step.kind) \(via.rawValue)")
                default: outcomes.insert("\(step.kind) \(checkout.player)")
                }
            case .refund(let amount, let outcome):
                outcomes.insert("refund \(amount == nil ? "full" : "part") \(outcome)")
            case .dispute(let outcome): outcomes.insert("dispute \(outcome)")
            case .resolve(let succeeded, _): outcomes.insert("resolve \(succeeded)")
            default: break
            }
        }
        let expected: Set<String> = [
            "purchase succeeded", "purchase declined", "purchase pending", "cancel checkout", "cancel browser",
            "refund full refunded", "refund part refunded", "refund full failed", "refund part failed",
            "dispute open", "dispute won", "dispute lost", "resolve true", "resolve false",
        ]
        #expect(outcomes == expected)
        // Most orders are paid, and a few steps carry faults.
        let purchases = steps.filter { $0.kind == .purchase }
        let paid = purchases.filter {
            if case .checkout(let checkout) = $0.action, case .pay(_, .succeeded) = checkout.player { return true }
            return false
        }
        #expect(paid.count * 2 > purchases.count)
        #expect(steps.count { $0.eventFault != nil } * 4 < steps.count)
    }

    @Test(
        "faults that are not enabled are never put on a step", arguments: ["none", "duplicate,award-late", "reorder"])
    func enabledFaults(list: String) throws {
        let catalog = try builtInCatalog()
        let faults = try BooksFaults.parse(list)
        let scenarios = BooksHistory.scenarios(
            Self.settings(seed: 3, orders: 3000, players: 20, faults: faults), catalog: catalog)
        let steps = scenarios.flatMap(\.steps)
        #expect(Set(steps.compactMap(\.eventFault)) == faults.events)
        #expect(Set(steps.compactMap(\.awardFault)) == faults.awards)
        let problems = scenarios.flatMap { Self.ruleProblems($0, catalog: catalog, faults: faults) }
        #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
        if faults.awards.isEmpty { #expect(!steps.contains { $0.kind == .retryAward }) }
    }

    @Test("a free offer is bought, but neither refunded nor disputed, and its award never fails")
    func freeOffer() throws {
        var catalog = try builtInCatalog()
        let free = Offer(sku: "daily_gift", name: "Daily Gift", basePriceInUSD: "0.00", items: [])
        catalog.offers = [free, try #require(catalog.offer(sku: "handful_of_gems"))]
        catalog.tiers = ["0.00"] + catalog.tiers
        for country in catalog.localizations.keys { catalog.localizations[country]?.localizedPrices["0.00"] = 0 }
        let scenarios = BooksHistory.scenarios(Self.settings(seed: 5, orders: 3000, players: 10), catalog: catalog)
        let problems = scenarios.flatMap { Self.ruleProblems($0, catalog: catalog, faults: .all) }
        #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
        let skus = scenarios.flatMap(\.steps).compactMap { step -> String? in
            if case .checkout(let checkout) = step.action { return checkout.sku }
            return nil
        }
        #expect(Set(skus) == ["daily_gift", "handful_of_gems"])
    }

    @Test("offers without a price in the player's country are not sold")
    func unpricedOffers() throws {
        var catalog = try builtInCatalog()
        // Only the US prices the Starter Pack's tier; every other country gets no price of it.
        catalog.localizations = catalog.localizations.filter { $0.key == "US" || $0.key == "DE" }
        catalog.localizations["DE"]?.localizedPrices["4.99"] = nil
        let scenarios = BooksHistory.scenarios(Self.settings(seed: 8, orders: 400, players: 30), catalog: catalog)
        let problems = scenarios.flatMap { Self.ruleProblems($0, catalog: catalog, faults: .all) }
        #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
        #expect(Set(scenarios.map(\.configuration.country)) == ["DE", "US"])
    }

    /// How fast a history is made is `make bench`'s to say (check-books' orders a second),
    /// where a shared machine's speed is measured in rounds, not here.
    @Test("10,000 orders over 500 players are made, every one of them")
    func large() throws {
        let catalog = try builtInCatalog()
        let scenarios = BooksHistory.scenarios(Self.settings(seed: 11, orders: 10_000, players: 500), catalog: catalog)
        #expect(scenarios.map(Self.orderCount).reduce(0, +) == 10_000)
    }

    // MARK: --faults

    @Test(
        "--faults reads names in any case, all and none",
        arguments: [
            ("all", BooksFaults.all), ("none", BooksFaults.none), ("ALL", BooksFaults.all),
            ("duplicate", BooksFaults(events: [.duplicate], awards: [])),
            ("drop-first,award-drop-first", BooksFaults(events: [.dropFirst], awards: [.dropFirst])),
            (
                "Reorder, delay,award-answer-lost-first,award-answer-lost,award-drop,award-late",
                BooksFaults(events: [.reorder, .delay], awards: [.answerLostFirst, .answerLost, .drop, .late])
            ),
        ])
    func parseFaults(text: String, faults: BooksFaults) throws {
        #expect(try BooksFaults.parse(text) == faults)
        #expect(try BooksFaults.parse(faults.description) == faults)
    }

    @Test(
        "--faults refuses a word it does not know with the nearest name and the list, and all or none in a list",
        arguments: [
            (
                "duplicate,dupliate",
                "--faults has no fault 'dupliate'; faults: duplicate, reorder, drop-first, delay, award-drop-first, "
                    + "award-drop, award-answer-lost-first, award-answer-lost, award-late, all, none; "
                    + "did you mean 'duplicate'?"
            ),
            (
                "award-lat",
                "--faults has no fault 'award-lat'; faults: duplicate, reorder, drop-first, delay, award-drop-first, "
                    + "award-drop, award-answer-lost-first, award-answer-lost, award-late, all, none; "
                    + "did you mean 'award-late'?"
            ),
            (
                "late",
                "--faults has no fault 'late'; faults: duplicate, reorder, drop-first, delay, award-drop-first, "
                    + "award-drop, award-answer-lost-first, award-answer-lost, award-late, all, none; "
                    + "did you mean 'award-late'?"
            ),
            ("", "--faults has an empty name in ''; as in '--faults duplicate,award-late'"),
            ("delay,,reorder", "--faults has an empty name in 'delay,,reorder'; as in '--faults duplicate,award-late'"),
            ("delay,delay", "--faults lists 'delay' twice; give it once"),
            ("all,duplicate", "--faults takes 'all' alone, not in a list with other faults"),
            ("delay,none", "--faults takes 'none' alone, not in a list with other faults"),
        ])
    func badFaults(text: String, message: String) {
        do {
            _ = try BooksFaults.parse(text)
            Issue.record("'\(text)' was read")
        } catch {
            #expect(error.message == message)
        }
    }
}
