import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksJSON
@testable import PaylinksKit

/// What a scenario file says of the award's way and of the game's ledger: `retry-award`,
/// `awardFault` on the steps that send an award, and `expect.ledger`.
@Suite("Scenario loader: awards and the ledger")
@MainActor
struct ScenarioLoaderTests {
    /// A paid order whose every award answer is lost, retried by hand, then a pending one resolved later.
    nonisolated static let awards = """
        {"configuration": {"seed": 1, "now": 1718182312}, "steps": [
          {"step": "initialize"},
          {"step": "purchase", "sku": "starter_pack_001", "awardFault": "answer-lost",
           "expect": {"state": "charge_failed", "ledger": {"gem_01": 100}}},
          {"step": "retry-award", "awardFault": "Drop-First", "eventFault": "duplicate",
           "expect": {"state": "charge_succeed",
                      "ledger": {"gem_01": 100, "coin_01": 0, "energy_01": -1000000000000000}}},
          {"step": "purchase", "sku": "starter_pack_001", "outcome": "pending"},
          {"step": "resolve", "outcome": "succeeded", "after": "PT5M", "awardFault": "late"},
          {"step": "advance", "by": "PT15M", "awardFault": "drop", "attempts": [{"expect": {"ledger": {}}}]}]}
        """

    static func load(_ text: String) throws -> Scenario {
        try ScenarioLoader.load(FixtureSource(name: "awards.json", bytes: Array(text.utf8)), catalog: .builtIn)
    }

    @Test("awardFault is read on the steps that send an award, in any case, and retry-award takes eventFault too")
    func awardFaults() throws {
        let scenario = try Self.load(Self.awards)
        #expect(scenario.steps.map(\.kind) == [.initialize, .purchase, .retryAward, .purchase, .resolve, .advance])
        #expect(scenario.steps.map(\.awardFault) == [nil, .answerLost, .dropFirst, nil, .late, .drop])
        #expect(scenario.steps.map(\.eventFault) == [nil, nil, .duplicate, nil, nil, nil])
        guard case .retryAward = scenario.steps[2].action else {
            Issue.record("retry-award reads as \(scenario.steps[2].action)")
            return
        }
        #expect(scenario.steps[5].attempt == 1)
    }

    @Test("expect.ledger reads what the player holds by SKU, and counts as one check")
    func ledger() throws {
        let scenario = try Self.load(Self.awards)
        let expectations = scenario.steps.map(\.expectation)
        #expect(expectations[1]?.ledger == ["gem_01": 100])
        #expect(expectations[1]?.checkCount == 2)
        #expect(expectations[2]?.ledger == ["gem_01": 100, "coin_01": 0, "energy_01": -1_000_000_000_000_000])
        #expect(expectations[5]?.ledger == [:])
        #expect(expectations[5]?.checkCount == 1)
        #expect(expectations[3] == nil)
    }

    @Test("expect.ledger's place, and each SKU's, is kept for the reports as the other keys' are")
    func ledgerPositions() throws {
        let scenario = try Self.load(Self.awards)
        let positions = try #require(scenario.steps[2].expectation?.positions)
        #expect(positions["ledger"] == TextPosition(line: 7, column: 15))
        #expect(positions["ledger.coin_01"] == TextPosition(line: 7, column: 41))
        #expect(positions["state"] == TextPosition(line: 6, column: 15))
        #expect(scenario.steps[1].expectation?.positions["ledger"] == TextPosition(line: 4, column: 41))
    }

    @Test(
        "a bad awardFault, retry-award or ledger is refused at load, at its place, in one line",
        arguments: [
            (
                #"{"step": "purchase", "sku": "starter_pack_001", "awardFault": "dorp"}"#,
                #"steps[0].awardFault: expected one of drop-first, drop, answer-lost-first, answer-lost, late, "#
                    + #"got "dorp"; did you mean "drop"?"#
            ),
            (#"{"step": "retry-award", "awardFault": 1}"#, "steps[0].awardFault: expected a string, got a number"),
            (
                #"{"step": "cancel", "sku": "starter_pack_001", "awardFault": "drop"}"#,
                "steps[0].awardFault: a cancel step sends no award; awardFault goes on the steps that send one: "
                    + "purchase, resolve, advance, retry-award"
            ),
            (
                #"{"step": "initialize", "awardFault": "drop"}"#,
                "steps[0].awardFault: an initialize step sends no award"
            ),
            (#"{"step": "price-points", "awardFault": "late"}"#, "steps[0].awardFault: a price-points step sends no"),
            (#"{"step": "refund", "awardFault": "late"}"#, "steps[0].awardFault: a refund step sends no award"),
            (#"{"step": "dispute", "awardFault": "late"}"#, "steps[0].awardFault: a dispute step sends no award"),
            (#"{"step": "retry-award", "by": "PT1M"}"#, #"steps[0].by: unknown key "by""#),
            (
                #"{"step": "retry-award", "attempts": [{"awardFault": "drop"}]}"#,
                #"steps[0].attempts[0].awardFault: unknown key "awardFault""#
            ),
            (#"{"step": "retry-awrd"}"#, #"steps[0].step: unknown step "retry-awrd"; did you mean "retry-award"?"#),
            (
                #"{"step": "retry-award", "expect": {"ledger": []}}"#,
                "steps[0].expect.ledger: expected an object, got an array"
            ),
            (
                #"{"step": "retry-award", "expect": {"ledger": 100}}"#,
                "steps[0].expect.ledger: expected an object, got a number"
            ),
            (
                #"{"step": "retry-award", "expect": {"ledger": {"gem_01": 1.5}}}"#,
                "steps[0].expect.ledger.gem_01: expected a whole number, got 1.5"
            ),
            (
                #"{"step": "retry-award", "expect": {"ledger": {"gem_01": "100"}}}"#,
                "steps[0].expect.ledger.gem_01: expected a whole number, got a string"
            ),
            (
                #"{"step": "retry-award", "expect": {"ledger": {"gem_01": 1000000000000001}}}"#,
                "steps[0].expect.ledger.gem_01: 1000000000000001 is out of range; expected -1000000000000000 to "
                    + "1000000000000000"
            ),
            (
                #"{"step": "retry-award", "expect": {"ledger": {"": 1}}}"#,
                #"steps[0].expect.ledger: expected each key to be a product's SKU, got """#
            ),
            (
                #"{"step": "retry-award", "expect": {"ledgr": {}, "state": "charge_succeed"}}"#,
                #"steps[0].expect.ledgr: unknown key "ledgr"; did you mean "ledger"?"#
            ),
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

    @Test("every problem of a ledger is reported, each at its own place")
    func everyLedgerProblem() throws {
        let text = #"{"steps": [{"step": "retry-award", "expect": {"ledger": {"a": 1.5, "b": 2, "c": "x"}}}]}"#
        let paths = try ScenarioTests.write([("bad.json", text)])
        let result = runCLI(["run"] + paths)
        #expect(result.exitCode == .dataError)
        #expect(result.stderr.contains("\(paths[0]):1:63: steps[0].expect.ledger.a: expected a whole number"))
        #expect(result.stderr.contains("\(paths[0]):1:81: steps[0].expect.ledger.c: expected a whole number"))
    }

    @Test("an empty expectation names ledger among the checks it may make")
    func emptyExpectation() throws {
        let paths = try ScenarioTests.write([("bad.json", #"{"steps": [{"step": "retry-award", "expect": {}}]}"#)])
        let result = runCLI(["run"] + paths)
        #expect(result.exitCode == .dataError)
        #expect(
            result.stderr.contains(
                "an expectation needs at least one of callback, code, error, order, pricePoints, deliveries, state, "
                    + "events, ledger"), "\(result.stderr)")
    }

    // MARK: The schema

    /// The schema's step objects, by their `step`.
    static func schemaSteps() throws -> [String: [String: Any]] {
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: SchemaTests.scenarioSchema)) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let options = try #require((definitions["step"] as? [String: Any])?["oneOf"] as? [[String: Any]])
        var steps: [String: [String: Any]] = [:]
        for option in options {
            let properties = try #require(option["properties"] as? [String: Any])
            let name = try #require((properties["step"] as? [String: Any])?["const"] as? String)
            steps[name] = properties
        }
        return steps
    }

    @Test("the schema's steps take the keys the loader's do, kind for kind, and its faults are the model's")
    func schemaKeys() throws {
        let steps = try Self.schemaSteps()
        #expect(Set(steps.keys) == Set(StepKind.allCases.map(\.rawValue)))
        for kind in StepKind.allCases {
            let properties = try #require(steps[kind.rawValue], "\(kind)")
            let keys = Set(properties.keys).subtracting(["step", "expect", "attempts"])
            #expect(keys == Set(ScenarioLoader.stepKeys[kind] ?? []), "\(kind)")
            if let fault = properties["awardFault"] as? [String: Any] {
                #expect(fault["enum"] as? [String] == ScenarioStep.AwardFault.allCases.map(\.rawValue), "\(kind)")
            }
            if let fault = properties["eventFault"] as? [String: Any] {
                #expect(fault["enum"] as? [String] == ScenarioStep.EventFault.allCases.map(\.rawValue), "\(kind)")
            }
        }
        #expect(
            StepKind.allCases.filter { ScenarioLoader.stepKeys[$0]?.contains("awardFault") == true }
                == [.purchase, .resolve, .advance, .retryAward])
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: SchemaTests.scenarioSchema)) as? [String: Any])
        let expectation = try #require(
            ((schema["$defs"] as? [String: Any])?["expectation"] as? [String: Any])?["properties"] as? [String: Any])
        #expect(Set(expectation.keys) == Set(ScenarioLoader.expectationKeys))
    }

    @Test("the scenario schema takes retry-award, awardFault and expect.ledger as the loader does")
    func schemaTakes() throws {
        let validator = try SchemaValidator(file: SchemaTests.scenarioSchema)
        // The schema spells names as the README does; the loader reads them in any case.
        let text = Self.awards.replacingOccurrences(of: "Drop-First", with: "drop-first")
        let errors = validator.errors(in: try SchemaTests.parse(text))
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test(
        "the scenario schema refuses the awardFault and ledger the loader refuses",
        arguments: [
            #"{"step": "cancel", "sku": "a", "awardFault": "drop"}"#,
            #"{"step": "refund", "awardFault": "drop"}"#,
            #"{"step": "initialize", "awardFault": "drop"}"#,
            #"{"step": "purchase", "sku": "starter_pack_001", "awardFault": "lost"}"#,
            #"{"step": "retry-award", "by": "PT1M"}"#,
            #"{"step": "retry-award", "attempts": [{"awardFault": "drop"}]}"#,
            #"{"step": "retry-award", "expect": {"ledger": [1]}}"#,
            #"{"step": "retry-award", "expect": {"ledger": {"gem_01": 1.5}}}"#,
            #"{"step": "retry-award", "expect": {"ledger": {"gem_01": "1"}}}"#,
            #"{"step": "retry-award", "expect": {"ledger": {"gem_01": 1000000000000001}}}"#,
        ])
    func schemaRefuses(step: String) throws {
        let validator = try SchemaValidator(file: SchemaTests.scenarioSchema)
        let text = #"{"steps": [\#(step)]}"#
        #expect(!validator.errors(in: try SchemaTests.parse(text)).isEmpty)
        #expect(runCLI("run", try ScenarioTests.write([("s.json", text)])[0]).exitCode == .dataError)
    }
}
