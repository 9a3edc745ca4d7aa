import PaylinksFixtures
import PaylinksKit

/// Makes a failing history small: the fewest steps, and faults, that still fail as it did.
///
/// First delta debugging (Zeller's ddmin) over the steps after the first, which stays
/// first; then each step's faults are dropped in turn, and each step in turn, for as long
/// as one of them can be: the result fails, and fails no longer without any one of its
/// steps or faults. Every candidate is numbered from 1, without attempts.
///
/// Each try replays the history, which is slow: a candidate is tried once however often
/// the search reaches it, and no more than a bound of tries are made; at the bound the
/// smallest failing history found so far is the result. The same history and predicate
/// make the same tries in the same order.
enum HistoryShrinker {
    /// The most tries a shrinking makes unless told otherwise.
    static let callLimit = 400

    /// What a shrinking came to.
    struct Result {
        /// The smallest history found that still fails: the one given, renumbered, when
        /// none smaller does.
        var scenario: Scenario
        /// How many times the predicate was called.
        var calls: Int
        /// Whether the shrinking stopped at its bound, before it knew the result minimal.
        var stoppedAtLimit: Bool
    }

    /// The smallest history `stillFails` says fails, from `scenario`, which fails; at most
    /// `callLimit` calls of `stillFails`.
    static func shrink(
        _ scenario: Scenario, callLimit: Int = callLimit, stillFails: (Scenario) -> Bool
    ) -> Result {
        withoutActuallyEscaping(stillFails) { stillFails in
            var search = Search(scenario, limit: callLimit, stillFails: stillFails)
            return search.run()
        }
    }
}

/// One shrinking under way: the candidates tried, and what each came to.
private struct Search {
    /// A step of a candidate: which of the history's steps after the first, and whether it
    /// keeps each of its faults.
    struct Part: Hashable {
        /// The step's place among the history's steps after the first.
        var index: Int
        /// Whether the step keeps its fault on the way of its events; false when it has none.
        var eventFault: Bool
        /// Whether the step keeps its fault on the way of its award; false when it has none.
        var awardFault: Bool
        /// Whether the step is made plainer: a payment left pending or declined paid at once,
        /// a partial refund a full one.
        var plain = false
    }

    /// The history being shrunk.
    let scenario: Scenario
    /// The most calls of ``stillFails``.
    let limit: Int
    /// Whether a candidate still fails: a replay.
    let stillFails: (Scenario) -> Bool
    /// What each candidate tried came to.
    private var tried: [[Part]: Bool] = [:]
    /// How many calls of ``stillFails`` were made.
    private(set) var calls = 0
    /// Whether a try was refused at the bound.
    private(set) var exhausted = false

    /// A search for the smallest history like `scenario` that `stillFails`, in at most
    /// `limit` calls of it.
    init(_ scenario: Scenario, limit: Int, stillFails: @escaping (Scenario) -> Bool) {
        self.scenario = scenario
        self.limit = limit
        self.stillFails = stillFails
    }

    /// Shrinks the history: ddmin over its steps, then its faults and its steps one by one.
    mutating func run() -> HistoryShrinker.Result {
        let whole = scenario.steps.indices.dropFirst().map { index in
            let step = scenario.steps[index]
            return Part(index: index - 1, eventFault: step.eventFault != nil, awardFault: step.awardFault != nil)
        }
        var current = ddmin(whole)
        var changed = true
        while changed, !exhausted {
            changed = dropFaults(from: &current)
            changed = plainer(&current) || changed
            changed = dropSteps(from: &current) || changed
        }
        return HistoryShrinker.Result(scenario: candidate(current), calls: calls, stoppedAtLimit: exhausted)
    }

    /// The smallest subsequence of `parts` that delta debugging finds failing: it tries
    /// `n` chunks (from 2) and their complements, keeps the first that fails, and splits
    /// finer when none does, until the chunks are single steps.
    private mutating func ddmin(_ parts: [Part]) -> [Part] {
        var current = parts
        var granularity = 2
        while current.count >= 2, !exhausted {
            let chunks = (0..<granularity).map { chunk in
                Array(current[(chunk * current.count / granularity)..<((chunk + 1) * current.count / granularity)])
            }
            if let failing = chunks.first(where: { fails($0) }) {
                current = failing
                granularity = 2
                continue
            }
            // With two chunks, each complement is the other chunk, tried already.
            let complements =
                granularity == 2
                ? [] : chunks.indices.map { skipped in chunks.indices.filter { $0 != skipped }.flatMap { chunks[$0] } }
            if let failing = complements.first(where: { fails($0) }) {
                current = failing
                granularity = max(granularity - 1, 2)
                continue
            }
            guard granularity < current.count else { break }
            granularity = min(granularity * 2, current.count)
        }
        return current
    }

    /// Drops each fault of `parts` that the failure does not need, one at a time; whether
    /// any was dropped.
    private mutating func dropFaults(from parts: inout [Part]) -> Bool {
        var dropped = false
        for index in parts.indices {
            for fault in [\Part.eventFault, \Part.awardFault] where parts[index][keyPath: fault] && !exhausted {
                var without = parts
                without[index][keyPath: fault] = false
                if fails(without) {
                    parts = without
                    dropped = true
                }
            }
        }
        return dropped
    }

    /// Drops each step of `parts` that the failure does not need, one at a time; whether
    /// any was dropped.
    /// Makes each step plainer where it has a plainer form and the history still fails: a
    /// payment left pending (whose resolution can then go) paid at once, a partial refund
    /// a full one. Whether any was.
    private mutating func plainer(_ parts: inout [Part]) -> Bool {
        var changed = false
        for index in parts.indices where !parts[index].plain && !exhausted {
            guard Self.plainer(scenario.steps[parts[index].index + 1]) != nil else { continue }
            var plain = parts
            plain[index].plain = true
            if fails(plain) {
                parts = plain
                changed = true
            }
        }
        return changed
    }

    /// `step` made plainer, or nil when it has no plainer form.
    static func plainer(_ step: ScenarioStep) -> ScenarioStep? {
        var plain = step
        switch step.action {
        case .checkout(var checkout):
            guard case .pay(paymentMethodName: let method, outcome: let outcome) = checkout.player,
                outcome != ChargeOutcome.succeeded
            else { return nil }
            checkout.player = .pay(paymentMethodName: method, outcome: .succeeded)
            plain.action = .checkout(checkout)
        case .refund(.some, let outcome):
            plain.action = .refund(amount: nil, outcome: outcome)
        default:
            return nil
        }
        return plain
    }

    private mutating func dropSteps(from parts: inout [Part]) -> Bool {
        var dropped = false
        var index = 0
        while index < parts.count, !exhausted {
            var without = parts
            without.remove(at: index)
            if fails(without) {
                parts = without
                dropped = true
            } else {
                index += 1
            }
        }
        return dropped
    }

    /// Whether the candidate of `parts` still fails: its replay's answer, once per
    /// candidate; false, and the search over, once the bound is reached.
    private mutating func fails(_ parts: [Part]) -> Bool {
        if let known = tried[parts] { return known }
        guard calls < limit else {
            exhausted = true
            return false
        }
        calls += 1
        let failing = stillFails(candidate(parts))
        tried[parts] = failing
        return failing
    }

    /// The history of the first step and `parts`, numbered from 1, without attempts.
    private func candidate(_ parts: [Part]) -> Scenario {
        var candidate = scenario
        candidate.steps = []
        guard let first = scenario.steps.first else { return candidate }
        candidate.steps.reserveCapacity(parts.count + 1)
        candidate.steps.append(first)
        for part in parts {
            var step = scenario.steps[part.index + 1]
            if part.plain, let plain = Self.plainer(step) { step = plain }
            if !part.eventFault { step.eventFault = nil }
            if !part.awardFault { step.awardFault = nil }
            candidate.steps.append(step)
        }
        for index in candidate.steps.indices {
            candidate.steps[index].number = index + 1
            candidate.steps[index].attempt = nil
        }
        return candidate
    }
}
