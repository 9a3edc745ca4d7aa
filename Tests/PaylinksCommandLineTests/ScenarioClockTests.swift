import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// Scenario steps on the scenario's own clock: `resolve` the last pending payment, now or
/// later, and `advance` the clock past what falls due.
@Suite("Scenario clock")
@MainActor
struct ScenarioClockTests {
    /// A scenario whose player initializes and leaves a purchase pending (3004), then takes `steps`.
    nonisolated static func pending(_ steps: String, configuration: String = "") -> String {
        """
        {"configuration": {"seed": 1, "now": 1718182312\(configuration)}, "steps": [
          {"step": "initialize"},
          {"step": "purchase", "sku": "starter_pack_001", "outcome": "pending",
           "expect": {"code": 3004, "state": "payment_pending", "events": ["order.created"]}},
          \(steps)]}
        """
    }

    static func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    // MARK: Loading

    @Test("advance reads its duration, and resolve its outcome and optional delay, as ISO 8601 durations")
    func loads() throws {
        let text = Self.pending(
            #"""
            {"step": "resolve", "outcome": "succeeded", "after": "PT5M"},
            {"step": "advance", "by": "PT15M"},
            {"step": "Resolve", "outcome": "FAILED"},
            {"step": "advance", "by": "p1dt0.5s"}
            """#)
        let scenario = try ScenarioLoader.load(
            FixtureSource(name: "clock.json", bytes: Array(text.utf8)), catalog: .builtIn)
        let steps = scenario.steps.dropFirst(2).map { step -> String in
            switch step.action {
            case .resolve(let succeeded, let after): "\(step.kind) \(succeeded) \(after.map(String.init) ?? "now")"
            case .advance(let milliseconds): "\(step.kind) \(milliseconds)"
            default: "\(step.kind)"
            }
        }
        #expect(steps == ["resolve true 300000", "advance 900000", "resolve false now", "advance 86400500"])
        #expect(scenario.steps.dropFirst(2).allSatisfy { !$0.callsTheSDK })
    }

    @Test(
        "a bad advance or resolve is refused at load, with the step's path, in one line",
        arguments: [
            (#"{"step": "advance"}"#, #"steps[0]: missing required key "by""#),
            (#"{"step": "advance", "by": "PT0S"}"#, "steps[0].by: 'PT0S' is zero; the clock moves only forward"),
            (#"{"step": "advance", "by": "-PT5M"}"#, "steps[0].by: '-PT5M' is negative; the clock moves only forward"),
            (#"{"step": "advance", "by": "15 minutes"}"#, "steps[0].by: takes an ISO 8601 duration such as PT15M"),
            (#"{"step": "advance", "by": "P1M"}"#, "steps[0].by: 'P1M' counts years or months"),
            (#"{"step": "advance", "by": 900}"#, "steps[0].by: expected a string, got a number"),
            (#"{"step": "advance", "by": "PT1M", "outcome": "failed"}"#, #"steps[0].outcome: unknown key "outcome""#),
            (#"{"step": "resolve"}"#, #"steps[0]: missing required key "outcome""#),
            (#"{"step": "resolve", "outcome": "success"}"#, #"steps[0].outcome: expected one of succeeded, failed"#),
            (#"{"step": "resolve", "outcome": "failed", "after": "PT0M"}"#, "steps[0].after: 'PT0M' is zero"),
            (#"{"step": "resolve", "outcome": "failed", "after": "-PT1M"}"#, "steps[0].after: '-PT1M' is negative"),
            (#"{"step": "resolve", "outcome": "failed", "afer": "PT1M"}"#, #"did you mean "after"?"#),
            (#"{"step": "advanse", "by": "PT1M"}"#, #"steps[0].step: unknown step "advanse"; did you mean "advance"?"#),
        ])
    func badSteps(step: String, message: String) throws {
        let paths = try ScenarioTests.write([("bad.json", #"{"steps": [\#(step)]}"#)])
        let result = runCLI(["run"] + paths)
        #expect(result.exitCode == .dataError)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: \(paths[0]):1:"), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
    }

    // MARK: Running

    @Test("pending, then the payment succeeds 5 minutes later: advancing past it grants once and sends its events once")
    func scheduledSuccess() throws {
        let receiver = try EventReceiver()
        let path = try ScenarioTests.write([
            (
                "late.json",
                Self.pending(
                    #"""
                    {"step": "resolve", "outcome": "succeeded", "after": "PT5M",
                     "expect": {"state": "payment_pending", "events": []}},
                    {"step": "advance", "by": "PT4M", "expect": {"state": "payment_pending", "events": []}},
                    {"step": "advance", "by": "PT15M",
                     "expect": {"state": "charge_succeed", "events": ["order.payment.resolved", "order.completed"]}},
                    {"step": "advance", "by": "PT1H", "expect": {"state": "charge_succeed", "events": []}},
                    {"step": "refund", "expect": {"state": "payment_refunded", "events": ["order.refunded"]}}
                    """#,
                    configuration: #", "eventsUrl": "\#(receiver.url)""#)
            )
        ])[0]
        let result = runCLI(["run", path, "--json"])
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(result.stderr.contains("13 met, 0 failed"), "\(result.stderr)")
        let lines = try Self.lines(result.stdout)
        // The client heard its 3004, and nothing after it.
        let callbacks = lines.filter { $0["callback"] != nil }
        #expect(callbacks.map { $0["callback"] as? String } == ["onInitialized", "onPurchaseFailed"])
        #expect((callbacks.last?["error"] as? [String: Any])?["code"] as? Int == 3004)
        #expect(
            receiver.received.map(\.label) == [
                "order.created", "order.payment.resolved (success)", "order.completed", "order.refunded",
            ])
        #expect(lines.filter { $0["event"] != nil }.map { $0["step"] as? Int } == [2, 5, 5, 7])
        // Resolved 5 minutes after the resolve step, on the scenario's clock.
        let resolved = try #require(receiver.received.dropFirst().first?.json)
        let created = try #require(receiver.received.first?.json)
        let gap = try #require(resolved["timestamp"] as? Int) - (try #require(created["timestamp"] as? Int))
        #expect((300_000..<400_000).contains(gap), "\(gap)")
    }

    @Test("a resolution waits for the clock: the award goes to the game's server once, when the clock passes it")
    func grantsOnce() throws {
        let receiver = try AwardTraceTests.awards(grantAt: 1)
        let path = try ScenarioTests.write([
            (
                "granted.json",
                Self.pending(
                    #"""
                    {"step": "resolve", "outcome": "succeeded", "after": "PT5M"},
                    {"step": "advance", "by": "PT15M", "expect": {"state": "charge_succeed"}},
                    {"step": "advance", "by": "PT15M"}
                    """#,
                    configuration: #", "awardUrl": "\#(receiver.url)""#)
            )
        ])[0]
        let result = runCLI(["run", path, "--json"])
        #expect(result.exitCode == .success, "\(result.stderr)")
        let awards = try Self.lines(result.stdout).filter { $0["award"] != nil }
        #expect(awards.map { $0["step"] as? Int } == [4])
        #expect(receiver.received.count == 1)
    }

    @Test(
        "a pending payment that fails ends as a decline, now or when the clock passes it",
        arguments: [
            #"{"step": "resolve", "outcome": "failed", "expect": {"state": "payment_failed", "events": ["order.payment.resolved"]}}"#,
            #"""
            {"step": "resolve", "outcome": "failed", "after": "PT30S", "expect": {"state": "payment_pending", "events": []}},
            {"step": "advance", "by": "PT1M", "expect": {"state": "payment_failed", "events": ["order.payment.resolved"]}}
            """#,
        ])
    func failure(steps: String) throws {
        let receiver = try EventReceiver()
        let path = try ScenarioTests.write([
            (
                "declined.json",
                Self.pending(
                    steps + #", {"step": "refund"}"#, configuration: #", "eventsUrl": "\#(receiver.url)""#)
            )
        ])[0]
        let result = runCLI(["run", path, "--json"])
        // Every expectation holds; the one mismatch is the refund's, below.
        #expect(result.stderr.components(separatedBy: "mismatch: ").count == 2, "\(result.stderr)")
        #expect(receiver.received.map(\.label) == ["order.created", "order.payment.resolved (failed)"])
        #expect(try Self.lines(result.stdout).filter { $0["callback"] != nil }.count == 2)
        // Declined, it was never paid: there is nothing to refund.
        #expect(result.stderr.contains("(refund): refund refused: no order was paid yet"), "\(result.stderr)")
    }

    @Test(
        "resolve on an order that is not pending fails its step and says why",
        arguments: [
            (
                #"{"steps": [{"step": "initialize"}, {"step": "purchase", "sku": "starter_pack_001"}, {"step": "resolve", "outcome": "succeeded"}]}"#,
                "step 3 (resolve): resolve refused: no order was left pending (3004) yet"
            ),
            (
                pending(
                    #"{"step": "resolve", "outcome": "succeeded"}, {"step": "resolve", "outcome": "failed", "after": "PT1M"}"#
                ),
                "step 4 (resolve): resolve refused: only a payment_pending order resolves; this one is charge_succeed"
            ),
        ])
    func notPending(text: String, message: String) throws {
        let path = try ScenarioTests.write([("refused.json", text)])[0]
        let result = runCLI(["run", path])
        #expect(result.exitCode == .expectationsFailed)
        #expect(result.stderr.contains("mismatch: \(path): \(message)\n"), "\(result.stderr)")
    }

    @Test(
        "advance makes what falls due happen in time order: a session's expiry and a scheduled resolution",
        arguments: [
            (
                "PT2H", ["order.created", "order.canceled", "order.payment.resolved", "order.completed"],
                "charge_succeed"
            ),
            (
                "PT30M", ["order.payment.resolved", "order.completed", "order.created", "order.canceled"],
                "payment_canceled"
            ),
        ])
    func timeOrder(after: String, events: [String], state: String) throws {
        // The second checkout is closed before its order: its session expires an hour later.
        let quoted = events.map { "\"\($0)\"" }.joined(separator: ", ")
        let path = try ScenarioTests.write([
            (
                "order.json",
                Self.pending(
                    """
                    {"step": "resolve", "outcome": "succeeded", "after": "\(after)"},
                    {"step": "cancel", "sku": "builders_bundle", "beforeOrder": true, "expect": {"events": []}},
                    {"step": "advance", "by": "PT3H", "expect": {"events": [\(quoted)], "state": "\(state)"}}
                    """)
            )
        ])[0]
        let result = runCLI(["run", path])
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(result.stderr.contains("6 met, 0 failed"), "\(result.stderr)")
    }

    @Test("the trace shows a resolution when it is scheduled and when the clock reaches it")
    func trace() throws {
        let path = try ScenarioTests.write([
            (
                "traced.json",
                Self.pending(
                    #"{"step": "resolve", "outcome": "succeeded", "after": "PT5M"}, {"step": "advance", "by": "PT15M"}"#
                )
            )
        ])[0]
        let result = runCLI("run", path, "--trace")
        let lines = result.stderr.split(separator: "\n").filter {
            $0.contains("pending payment") || $0.contains("clock")
        }
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.first?.contains("is to resolve (succeeded) at +408.590s") == true, "\(lines)")
        #expect(lines.dropFirst().first?.hasSuffix(" succeeded") == true, "\(lines)")
        #expect(lines.dropFirst().first?.contains("+408.590s") == true, "\(lines)")
        #expect(lines.last?.contains("+1008.590s  the clock moved on by 900.000s") == true, "\(lines)")
    }

    // MARK: Schemas

    @Test("the scenario schema takes advance and resolve as the loader does, and refuses what it refuses")
    func scenarioSchema() throws {
        let validator = try SchemaValidator(file: SchemaTests.scenarioSchema)
        let good = Self.pending(
            #"""
            {"step": "resolve", "outcome": "succeeded", "after": "PT5M", "expect": {"state": "payment_pending"}},
            {"step": "advance", "by": "p1dt0.5s", "eventFault": "delay",
             "attempts": [{"expect": {"events": ["order.payment.resolved", "order.completed"]}}]}
            """#)
        #expect(validator.errors(in: try SchemaTests.parse(good)).isEmpty)
        let refused = [
            #"{"step": "advance"}"#, #"{"step": "advance", "by": "15m"}"#, #"{"step": "advance", "by": "P1M"}"#,
            #"{"step": "advance", "by": "PT"}"#, #"{"step": "resolve"}"#, #"{"step": "resolve", "outcome": "success"}"#,
            #"{"step": "resolve", "outcome": "failed", "by": "PT1M"}"#,
        ]
        for step in refused {
            let text = #"{"steps": [\#(step)]}"#
            #expect(!validator.errors(in: try SchemaTests.parse(text)).isEmpty, "\(step)")
            let path = try ScenarioTests.write([("s.json", text)])[0]
            #expect(runCLI("run", path).exitCode == .dataError, "\(step)")
        }
    }

    @Test("a run's JSON report names a refused resolve by its kind, as its schema has it")
    func reportSchema() throws {
        let paths = try ScenarioTests.write([
            (
                "refused.json",
                Self.pending(#"{"step": "resolve", "outcome": "failed"}, {"step": "resolve", "outcome": "failed"}"#)
            )
        ])
        let report = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().appendingPathComponent("report.json")
        let result = runCLI("run", paths[0], "--report", "json=\(report.path)")
        #expect(result.exitCode == .expectationsFailed)
        let text = try String(contentsOf: report, encoding: .utf8)
        let validator = try SchemaValidator(
            file: DocumentedCommands.root.appendingPathComponent("Schemas/run-report.schema.json"))
        #expect(validator.errors(in: try SchemaTests.parse(text)).isEmpty, "\(text)")
        #expect(text.contains(#""kind":"resolve""#) || text.contains(#""kind": "resolve""#), "\(text)")
    }
}
