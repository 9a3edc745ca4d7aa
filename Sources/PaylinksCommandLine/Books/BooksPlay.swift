import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
import PaylinksHTTP
import PaylinksKit

/// Plays one player's history, a scenario, against the game's endpoints as `check-books`
/// does: on a clock placed so that the story ends by the wall clock (every request is then
/// signed at the wall clock, inside the game's window), its callbacks shown nowhere, its
/// ledger reconciled after every step, its order ids none that an earlier history of the run
/// used; and shrinks a history that broke the books.
@MainActor
final class BooksPlay {
    /// The catalog the orders are made from.
    let catalog: Catalog
    /// How awards and events are sent and the ledger read.
    let settings: ScenarioRunner.Settings
    /// The wall clock, Unix seconds.
    let wall: () -> Int
    /// The order ids the run's histories have used: a game tells orders apart by their id,
    /// so two of them must never share one.
    private var usedOrderIds: Set<String> = []

    /// A play of histories made from `catalog`, sent and read as `settings` say.
    init(catalog: Catalog, settings: ScenarioRunner.Settings, wall: @escaping () -> Int) {
        self.catalog = catalog
        self.settings = settings
        self.wall = wall
    }

    /// What `scenario` came to, its books included.
    ///
    /// - Throws: ``CLIError/unavailable(_:)`` when an endpoint or the ledger cannot be
    ///   reached or breaks its contract.
    func run(_ scenario: Scenario) throws(CLIError) -> ScenarioRunner.ScenarioResult {
        var placed = scenario
        placed.configuration.now = wall() - Self.span(of: scenario)
        placed.configuration.seed = unusedSeed(for: scenario)
        let discard = DiscardedOutput()
        let runner = ScenarioRunner(catalog: catalog, settings: settings, output: discard, diagnostics: discard)
        let summary: ScenarioRunner.Summary
        do {
            summary = try runner.run([placed])
        } catch {
            throw .output(error)
        }
        if let reason = summary.cannotRun { throw .unavailable(reason) }
        return summary.results.first ?? ScenarioRunner.ScenarioResult(name: scenario.name, file: scenario.file)
    }

    /// The seed of `scenario`, or the first one after it whose checkouts' order ids no
    /// earlier history used (ids are drawn from ten digits, so two seeds may share one);
    /// its ids are then taken.
    private func unusedSeed(for scenario: Scenario) -> UInt64 {
        let checkouts = BooksHistory.orders(in: scenario)
        var seed = scenario.configuration.seed ?? 0
        func ids(_ seed: UInt64) -> [String] {
            (0..<checkouts).map { CheckoutIdentifiers(seed: seed, index: $0).orderId }
        }
        var drawn = ids(seed)
        while drawn.contains(where: usedOrderIds.contains) || Set(drawn).count < checkouts {
            seed &+= 1
            drawn = ids(seed)
        }
        usedOrderIds.formUnion(drawn)
        return seed
    }

    /// The longest `scenario` can take on its own clock, in seconds: three minutes a step
    /// (a refund's request and processing, an award's retries, a checkout's polls take less),
    /// and every `advance` and scheduled resolution whole.
    static func span(of scenario: Scenario) -> Int {
        var milliseconds = 0
        for step in scenario.steps {
            milliseconds += 180_000
            switch step.action {
            case .advance(let by): milliseconds += by
            case .resolve(_, let after?): milliseconds += after
            default: break
            }
        }
        return milliseconds / 1000 + 1
    }

    /// Shrinks the history of `found` to the fewest steps and faults that still break the
    /// same invariant, each candidate replayed on a fresh player with fresh order ids; the
    /// last step of what is left expects what the books say of the ledger.
    func shrink(_ found: BooksReport.Finding, player: BooksPlayer) throws(CLIError) -> BooksReport.Shrunk {
        let started = Deadline.nowMilliseconds()
        let target = found.finding.invariant
        let original = found.finding.player
        var replays = 0
        var failure: CLIError?
        // The history up to the step that showed the difference: nothing after it matters.
        var history = found.scenario
        if let last = history.steps.firstIndex(where: { $0.label == found.finding.step }) {
            history.steps = Array(history.steps[...last])
        }
        func replay(_ candidate: Scenario) -> BooksFinding? {
            guard failure == nil else { return nil }
            replays += 1
            var fresh = candidate.played(by: player.replay(original, replays))
            fresh.configuration.seed = BooksHistory.playerSeed(found.scenario.configuration.seed ?? 0, index: replays)
            do {
                return try run(fresh).finding
            } catch {
                failure = error
                return nil
            }
        }
        let result = HistoryShrinker.shrink(history) { replay($0)?.invariant == target }
        if let failure { throw failure }
        var shrunk = result.scenario
        guard let finding = replay(shrunk), finding.invariant == target else {
            if let failure { throw failure }
            return BooksReport.Shrunk(
                scenario: shrunk, finding: nil, replays: replays, milliseconds: Deadline.nowMilliseconds() - started)
        }
        // A player no replay used: the file's first run meets a game that has never seen them.
        shrunk = shrunk.played(by: player.written(original))
        shrunk.configuration.seed = nil
        shrunk.configuration.now = BooksReport.Shrunk.writtenNow
        shrunk.name = "check-books: \(target.rawValue)"
        if let index = shrunk.steps.firstIndex(where: { $0.label == finding.step }) {
            shrunk.steps = Array(shrunk.steps[...index])
            var expectation = shrunk.steps[index].expectation ?? StepExpectation(ledger: [:])
            expectation.ledger = finding.expectedHoldings
            shrunk.steps[index].expectation = expectation
        }
        return BooksReport.Shrunk(
            scenario: shrunk, finding: finding, replays: replays, milliseconds: Deadline.nowMilliseconds() - started)
    }
}

/// What a history came to, all players together: orders played and the money they moved,
/// in US cents from each order's price point.
struct BooksTally: Sendable {
    /// Orders played (purchases and cancels).
    var orders = 0
    /// Paid, in US cents.
    var paid = 0
    /// Refunded, in US cents: a partial refund in proportion.
    var refunded = 0
    /// Taken back in disputes lost, in US cents.
    var disputed = 0

    /// Adds what `result` played: its `orders` and its books' money.
    mutating func add(_ result: ScenarioRunner.ScenarioResult, orders: Int) {
        self.orders += orders
        for order in result.books?.orders ?? [] {
            let cents = order.usdCents ?? 0
            paid += cents
            switch order.state {
            case .paymentRefunded:
                let share = order.price == 0 ? 0 : cents * (order.refunded ?? order.price) / order.price
                refunded += share
            case .paymentDisputeLost: disputed += cents
            default: break
            }
        }
    }
}

extension Scenario {
    /// The same scenario played by `player`: its customer, and the one each `initialize` names.
    func played(by player: String) -> Scenario {
        var scenario = self
        scenario.configuration.customerId = player
        for index in scenario.steps.indices {
            if case .initialize(let configuration, _) = scenario.steps[index].action {
                scenario.steps[index].action = .initialize(configuration, customerId: player)
            }
        }
        return scenario
    }
}

extension BooksHistory {
    /// How many orders `scenario` makes: its purchases and cancels.
    static func orders(in scenario: Scenario) -> Int {
        orders(in: scenario.steps)
    }

    /// How many orders `steps` make: their purchases and cancels.
    static func orders(in steps: [ScenarioStep]) -> Int {
        steps.filter { $0.kind == .purchase || $0.kind == .cancel }.count
    }
}

/// Where output goes that no one reads: a history's callbacks and its runner's lines.
final class DiscardedOutput: OutputSink {
    func write(_ text: String) throws(OutputError) {}
}
