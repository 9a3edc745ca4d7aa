package import PaylinksAppcharge
package import PaylinksDelivery
import PaylinksFixtures
import PaylinksJSON
import PaylinksKit

/// The game's ledger as a scenario run reads it: what each scenario's player holds, counted
/// from what they held when the scenario began, read once a step is over until it shows
/// what is expected, within a bound. A handler that acknowledges at once and settles from a
/// queue is given the time its ledger has taken before.
@MainActor
package final class ScenarioLedger {
    /// The ledger.
    package let ledger: AuditLedger
    /// Whether every step is reconciled with Appcharge's books (`check-books`), and not only
    /// the steps whose expectation names the ledger (`run`).
    package let checksBooks: Bool
    /// What the game does with a partial refund's products.
    package let rule: PlayerBooks.PartialRefundRule
    /// The longest the ledger took to show what was expected after a step, in milliseconds.
    package private(set) var longestSettle = 0
    /// Whether a difference outlasted a whole wait: the ledger does not settle it.
    package private(set) var lasting = false

    /// The ledger behind `ledger`, reconciled with the books after every step when
    /// `checksBooks`.
    package init(_ ledger: AuditLedger, checksBooks: Bool, rule: PlayerBooks.PartialRefundRule) {
        self.ledger = ledger
        self.checksBooks = checksBooks
        self.rule = rule
    }

    /// What `player` holds now: the start that later readings are counted from.
    func start(of player: String) throws(AuditCannotRun) -> AuditBalances {
        try ledger.balances(of: player)
    }

    /// What `player` holds counted from `start`, read until it is `expected`: for the whole
    /// wait until this ledger has shown a change late or a difference has outlasted a whole
    /// wait; then about twice as long as its changes took, and a second at least once a
    /// difference was seen to last. A handler that settles from a queue is so never blamed
    /// for its lag, and one that does not settle is not waited for again and again.
    func settled(_ player: String, from start: AuditBalances, expected: AuditBalances)
        throws(AuditCannotRun) -> AuditBalances
    {
        let learned = 2 * longestSettle + 250
        let limit =
            lasting ? min(ledger.wait, max(1000, learned)) : longestSettle > 0 ? min(ledger.wait, learned) : ledger.wait
        let reading = try ledger.balances(of: player, within: limit) {
            Self.counted($0, from: start).same(as: expected)
        }
        let counted = Self.counted(reading.balances, from: start)
        if counted.same(as: expected) {
            // A ledger that showed it late is watched as long again: what it shows must stay.
            if reading.waited > 0 {
                let watched = try ledger.balances(of: player, within: min(ledger.wait, reading.waited)) {
                    !Self.counted($0, from: start).same(as: expected)
                }
                let again = Self.counted(watched.balances, from: start)
                guard again.same(as: expected) else { return again }
            }
            longestSettle = max(longestSettle, reading.waited)
        } else if limit == ledger.wait {
            lasting = true
        }
        return counted
    }

    /// `balances` less `start`, SKU by SKU, negative where less is held; a difference past
    /// `Int`'s range cannot come from balances the ledger bounds at ±10^15.
    static func counted(_ balances: AuditBalances, from start: AuditBalances) -> AuditBalances {
        var result = balances
        for (sku, amount) in start { result[sku, default: 0] -= amount }
        return result.filter { $0.value != 0 }
    }
}

/// A difference between what the game's ledger shows a player holds and what Appcharge's
/// books say they should: the invariant broken, where and what is at stake.
package struct BooksFinding: Sendable, Equatable {
    /// The rule a ledger must keep.
    package enum Invariant: String, CaseIterable, Sendable {
        case paidButNeverGranted = "paid but never granted"
        case refundedButStillHeld = "refunded but still held"
        case disputeLostButStillHeld = "dispute lost but still held"
        case disputeWonButRevoked = "dispute won but revoked"
        case revokedDuringDispute = "revoked while the dispute is open"
        case revokedTwice = "revoked twice"
        case revokedWhileHeld = "revoked though still paid"
        case grantedTwice = "granted twice"
        case heldButNeverPaid = "held but never paid"
        case belowZero = "below zero"
    }

    /// The invariant broken.
    package var invariant: Invariant
    /// The player.
    package var player: String
    /// The product whose balance differs.
    package var sku: String
    /// What the books say the player should hold of it, from the scenario's start.
    package var expected: Int
    /// What the ledger shows they hold of it, from the scenario's start.
    package var held: Int
    /// What the books say the player should hold of every product, from the scenario's start.
    package var expectedHoldings: AuditBalances
    /// The order the step acted on: its purchase id, when there is one.
    package var order: PlayerBooks.Order?
    /// Every order of the player that grants the product, by purchase id.
    package var orders: [String]
    /// The step it showed after: `5`, and its kind.
    package var step: String
    /// The step's kind.
    package var kind: String

    /// The finding of a ledger that shows `held` where the books say `expected`, after
    /// `step` acted on the last of `books`' orders, the books having balanced when they had
    /// taken `since` changes.
    init(
        player: String, expected: AuditBalances, held: AuditBalances, books: PlayerBooks,
        rule: PlayerBooks.PartialRefundRule, step: ScenarioStep, acted: String?, since: Int
    ) {
        let skus = Set(expected.keys).union(held.keys).sorted()
        let sku = skus.first { held[$0, default: 0] < 0 } ?? skus.first { expected[$0] != held[$0] } ?? ""
        self.player = player
        self.sku = sku
        self.expected = expected[sku, default: 0]
        self.held = held[sku, default: 0]
        expectedHoldings = expected
        order = books.orders.last { $0.purchaseId == acted }
        let granting = books.orders.filter { $0.products[sku] != nil }
        orders = granting.map(\.purchaseId)
        self.step = step.label
        kind = step.kind.rawValue
        // The books balanced after their change `since`: the difference comes of what changed after it.
        let changed = granting.filter { $0.changed > since }
        invariant = Self.broken(
            excess: self.held > self.expected, below: self.held < 0,
            suspects: (changed.isEmpty ? granting : changed).sorted { $0.changed > $1.changed }, rule: rule)
    }

    /// The invariant a difference breaks: below zero first; then the first of `suspects`, the
    /// orders that grant the product and changed since the books last balanced, latest first,
    /// that explains it (refunded or lost in a dispute and still held, disputed or revoked
    /// and taken back again); else granted twice, paid but never granted (an order just paid
    /// among them), or revoked though still paid.
    static func broken(
        excess: Bool, below: Bool, suspects: [PlayerBooks.Order], rule: PlayerBooks.PartialRefundRule
    ) -> Invariant {
        if below { return .belowZero }
        for order in suspects {
            if let invariant = explained(order, excess: excess, rule: rule) { return invariant }
        }
        if excess { return suspects.isEmpty ? .heldButNeverPaid : .grantedTwice }
        return suspects.contains { $0.state == .chargeSucceed } || suspects.isEmpty
            ? .paidButNeverGranted : .revokedWhileHeld
    }

    /// The invariant `order` explains a difference by: refunded or lost in a dispute and
    /// still held, disputed or revoked and taken back again; nil when it explains none.
    private static func explained(_ order: PlayerBooks.Order, excess: Bool, rule: PlayerBooks.PartialRefundRule)
        -> Invariant?
    {
        let held = order.holds(rule) ?? true
        switch (order.state, excess) {
        case (.paymentRefunded, true) where !held: return .refundedButStillHeld
        case (.paymentDisputeLost, true): return .disputeLostButStillHeld
        case (.paymentDisputeWon, false): return .disputeWonButRevoked
        case (.paymentDisputeOpen, false), (.paymentDisputeEvidenceSubmitted, false): return .revokedDuringDispute
        case (.paymentRefunded, false) where !held, (.paymentDisputeLost, false): return .revokedTwice
        case (.paymentRefunded, false): return .revokedWhileHeld
        default: return nil
        }
    }

    /// `refunded but still held: player p1 holds 2 gem_pack where the books say 1 (order
    /// pur_..., $4.99) after step 5 (refund)`.
    package var line: String {
        let money = order.map { " (order \($0.purchaseId), \($0.stake) at stake)" } ?? ""
        return "\(invariant.rawValue): player \(player) holds \(held) \(sku) where Appcharge's books say \(expected)"
            + "\(money), after step \(step) (\(kind))"
    }
}

/// One scenario's reading of the game's ledger: where its player started, Appcharge's books
/// of its orders, and after each step the expectation of the ledger, or with ``ScenarioLedger/checksBooks``
/// the books, checked against what the ledger shows.
@MainActor
struct LedgerCheck {
    /// The ledger; nil when the run reads none.
    let ledger: ScenarioLedger?
    /// The player whose holdings are read: the scenario's customer.
    let player: String
    /// Whether any step reads the ledger.
    let reads: Bool
    /// What the player held at the start.
    private var start: AuditBalances = [:]
    /// Appcharge's books of the scenario's orders.
    private(set) var books = PlayerBooks()
    /// How many changes the books had taken when the ledger last showed what they said.
    private var balancedAt = 0

    /// The check of `scenario` against `ledger`.
    init(scenario: Scenario, ledger: ScenarioLedger?) {
        self.ledger = ledger
        player = scenario.configuration.customerId
        reads =
            ledger != nil
            && (ledger?.checksBooks == true || scenario.steps.contains { $0.expectation?.ledger != nil })
    }

    /// What the client's `error.data` of a failed award says went wrong last: `the server
    /// answered 201`, `connection refused`.
    static func reason(_ data: String) -> String? {
        guard let value = try? JSONParser.parse(Array(data.utf8)), case .object(let members) = value.kind,
            let reason = members.first(where: { $0.key == "reason" }), case .string(let text) = reason.value.kind,
            !text.isEmpty
        else { return nil }
        return MessageText.oneLine(text)
    }

    /// Reads where the player starts, when any step reads the ledger.
    mutating func begin() throws(AuditCannotRun) {
        guard reads, let ledger else { return }
        start = try ledger.start(of: player)
        // A history's players are new to the game: one that holds something already was
        // played before, and its orders' ids are not new to the game either.
        if ledger.checksBooks, !start.filter({ $0.value != 0 }).isEmpty {
            throw AuditCannotRun(
                reason: "player \(player) holds \(start.shown) in the game's ledger before their history began: this "
                    + "seed was played against this game before, and its orders are not new to it",
                advice: "Give another --seed, or start the game's server afresh")
        }
    }

    /// What the ledger shows after `step`, against the step's expectation of it and, when
    /// the run reconciles, Appcharge's books (unless events or an award are `holding` back,
    /// on their way to the game still): each mismatch, how many checks held, and the books'
    /// finding.
    mutating func reconcile(after step: ScenarioStep, appcharge: AppchargeBackend, holding: Bool)
        throws(AuditCannotRun)
        -> (mismatches: [String], met: Int, finding: BooksFinding?)
    {
        let before = appcharge.lastPaidSession.flatMap { session in
            books.orders.last { $0.purchaseId == session.purchaseId }?.state
        }
        if let session = appcharge.lastPaidSession {
            books.note(session)
            // An award no fault of the history lost, refused on every attempt: the award
            // endpoint breaks its contract, and the books cannot be read past it.
            let lost = step.awardFault?.failsEveryAttempt ?? false
            if ledger?.checksBooks == true, session.state == .chargeFailed, !lost,
                before != .chargeFailed || step.kind == .retryAward
            {
                let why = appcharge.lastAwardFailure.flatMap(Self.reason).map { " (\($0))" } ?? ""
                throw AuditCannotRun(
                    reason: "the award endpoint did not grant order \(session.purchaseId) of player \(player) on any "
                        + "attempt\(why), after step \(step.label) (\(step.kind))",
                    advice: "Check that --award-url names the game's award endpoint; paylinks check-award URL audits it"
                )
            }
        }
        guard reads, let ledger else { return ([], 0, nil) }
        var mismatches: [String] = []
        var met = 0
        if let expected = step.expectation?.ledger {
            let held = try ledger.settled(player, from: start, expected: expected)
            if held.same(as: expected) {
                met += 1
            } else {
                mismatches.append("ledger: expected \(expected.shown), got \(held.shown)")
            }
        }
        guard ledger.checksBooks, !holding, let expected = books.holdings(ledger.rule) else {
            return (mismatches, met, nil)
        }
        let held = try ledger.settled(player, from: start, expected: expected)
        guard !held.same(as: expected) else {
            balancedAt = books.changes
            return (mismatches, met, nil)
        }
        let finding = BooksFinding(
            player: player, expected: expected, held: held, books: books, rule: ledger.rule, step: step,
            acted: appcharge.lastPaid, since: balancedAt)
        return (mismatches + [finding.line], met, finding)
    }
}

extension AuditCannotRun {
    /// Why, and what to do about it: the advice it gives, or to start the game's server.
    var withAdvice: String {
        advice.map { "\(self). \($0)" } ?? "\(self); start the game's server, or check the URLs"
    }
}
