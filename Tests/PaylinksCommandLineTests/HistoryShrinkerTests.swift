import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// Shrinking a failing history: delta debugging over its steps, then its faults, to a
/// scenario from which no step and no fault can be dropped, within a bound of replays.
@Suite("History shrinking")
struct HistoryShrinkerTests {
    /// One long player's history, its steps many and varied.
    static func history(seed: UInt64 = 21, orders: Int = 300) throws -> Scenario {
        let settings = BooksHistory.Settings(seed: seed, orders: orders, players: 1) { "player_\($0 + 1)" }
        return try #require(BooksHistory.scenarios(settings, catalog: try builtInCatalog()).first)
    }

    /// A scenario's steps, one line each.
    static func rendering(_ scenario: Scenario) -> String {
        scenario.steps.map { step in
            "\(step.label) \(step.kind) \(step.action) event=\(step.eventFault?.rawValue ?? "-") "
                + "award=\(step.awardFault?.rawValue ?? "-")\n"
        }.joined()
    }

    /// Fails when a purchase whose award is late is followed, at any distance, by a refund.
    static func lateThenRefund(_ scenario: Scenario) -> Bool {
        guard let late = scenario.steps.firstIndex(where: { $0.kind == .purchase && $0.awardFault == .late }) else {
            return false
        }
        return scenario.steps[(late + 1)...].contains { $0.kind == .refund }
    }

    /// Fails when three disputes or more are left.
    static func threeDisputes(_ scenario: Scenario) -> Bool {
        scenario.steps.count { $0.kind == .dispute } >= 3
    }

    /// Fails when a step whose events are delivered twice is left.
    static func duplicate(_ scenario: Scenario) -> Bool {
        scenario.steps.contains { $0.eventFault == .duplicate }
    }

    /// The scenarios `scenario` becomes with one step after the first, or one fault, dropped.
    static func oneSmaller(_ scenario: Scenario) -> [Scenario] {
        var smaller: [Scenario] = []
        for index in scenario.steps.indices.dropFirst() {
            var without = scenario
            without.steps.remove(at: index)
            smaller.append(without)
            if scenario.steps[index].eventFault != nil {
                var faultless = scenario
                faultless.steps[index].eventFault = nil
                smaller.append(faultless)
            }
            if scenario.steps[index].awardFault != nil {
                var faultless = scenario
                faultless.steps[index].awardFault = nil
                smaller.append(faultless)
            }
        }
        return smaller
    }

    @Test(
        "a history shrinks to the steps and faults that make it fail, and no other",
        arguments: [
            ("late then refund", ["initialize", "purchase late", "refund"]),
            ("three disputes", ["initialize", "dispute", "dispute", "dispute"]),
            ("duplicate", ["initialize", "duplicate"]),
        ])
    func minimal(predicate name: String, expected: [String]) throws {
        let predicate = try #require(
            [
                "late then refund": Self.lateThenRefund, "three disputes": Self.threeDisputes,
                "duplicate": Self.duplicate,
            ][name])
        let history = try Self.history()
        #expect(predicate(history))
        var calls = 0
        let shrunk = HistoryShrinker.shrink(history) { candidate in
            calls += 1
            return predicate(candidate)
        }
        #expect(shrunk.calls == calls)
        #expect(!shrunk.stoppedAtLimit)
        #expect(calls <= HistoryShrinker.callLimit)
        #expect(predicate(shrunk.scenario))
        let described = shrunk.scenario.steps.map { step in
            step.eventFault.map(\.rawValue) ?? (step.awardFault.map { "\(step.kind) \($0.rawValue)" } ?? "\(step.kind)")
        }
        #expect(described == expected)
        // 1-minimal: nothing more can be dropped.
        for smaller in Self.oneSmaller(shrunk.scenario) { #expect(!predicate(smaller), "\(Self.rendering(smaller))") }
        #expect(shrunk.scenario.name == history.name)
        #expect(shrunk.scenario.configuration.customerId == history.configuration.customerId)
    }

    @Test("every candidate keeps the first step first and is numbered from 1, without attempts")
    func renumbered() throws {
        var history = try Self.history(seed: 4, orders: 60)
        // Attempts of a repeated step, as a file expands them.
        history.steps[1].attempt = 1
        history.steps[2].attempt = 2
        var candidates: [Scenario] = []
        let shrunk = HistoryShrinker.shrink(history) { candidate in
            candidates.append(candidate)
            return Self.threeDisputes(candidate)
        }
        #expect(!candidates.isEmpty)
        for candidate in candidates + [shrunk.scenario] {
            #expect(candidate.steps.map(\.number) == Array(1...candidate.steps.count))
            #expect(candidate.steps.allSatisfy { $0.attempt == nil })
            #expect(candidate.steps.first?.kind == .initialize)
            #expect(candidate.steps.dropFirst().allSatisfy { $0.kind != .initialize })
        }
    }

    @Test("the same history and predicate give the same replays, in the same order, and the same result")
    func deterministic() throws {
        let history = try Self.history(seed: 5)
        var first: [String] = []
        var second: [String] = []
        let one = HistoryShrinker.shrink(history) { candidate in
            first.append(Self.rendering(candidate))
            return Self.lateThenRefund(candidate) || Self.threeDisputes(candidate)
        }
        let two = HistoryShrinker.shrink(history) { candidate in
            second.append(Self.rendering(candidate))
            return Self.lateThenRefund(candidate) || Self.threeDisputes(candidate)
        }
        #expect(first == second)
        #expect(Self.rendering(one.scenario) == Self.rendering(two.scenario))
        #expect(one.calls == two.calls)
        // No candidate is replayed twice.
        #expect(Set(first).count == first.count)
    }

    @Test("shrinking stops at its bound of replays with the smallest failing history found", arguments: [1, 5, 10])
    func bounded(limit: Int) throws {
        let history = try Self.history(seed: 6)
        #expect(HistoryShrinker.shrink(history, stillFails: Self.lateThenRefund).calls > limit)
        var calls = 0
        let shrunk = HistoryShrinker.shrink(history, callLimit: limit) { candidate in
            calls += 1
            return Self.lateThenRefund(candidate)
        }
        #expect(calls == limit)
        #expect(shrunk.calls == limit)
        #expect(shrunk.stoppedAtLimit)
        #expect(Self.lateThenRefund(shrunk.scenario))
        #expect(shrunk.scenario.steps.count <= history.steps.count)
    }

    @Test("a history of its first step alone is left as it is, without a replay")
    func nothingToShrink() throws {
        var history = try Self.history()
        history.steps = Array(history.steps.prefix(1))
        let shrunk = HistoryShrinker.shrink(history) { _ in
            Issue.record("replayed")
            return true
        }
        #expect(shrunk.calls == 0)
        #expect(Self.rendering(shrunk.scenario) == Self.rendering(history))
    }

    @Test("a history that no smaller one fails like is kept whole, renumbered")
    func noSmaller() throws {
        let history = try Self.history(seed: 3, orders: 5)
        let whole = Self.rendering(history)
        let shrunk = HistoryShrinker.shrink(history) { Self.rendering($0) == whole }
        #expect(Self.rendering(shrunk.scenario) == whole)
        #expect(!shrunk.stoppedAtLimit)
    }
}
