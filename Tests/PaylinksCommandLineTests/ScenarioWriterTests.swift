import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksJSON
@testable import PaylinksKit

/// `ScenarioWriter` writes a scenario as a file's text that the loader reads back to the
/// same steps, laid out as the shipped scenarios are.
@Suite("Scenario writer")
@MainActor
struct ScenarioWriterTests {
    // MARK: Support

    /// Everything the loader reads into a step, positions aside, as text to compare.
    nonisolated static func describe(_ step: ScenarioStep) -> String {
        var parts = [
            "\(step.label) \(step.kind)", "\(step.action)", "error \(step.error.map(String.init) ?? "-")",
            "twice \(step.deliverTwice)", "eventFault \(step.eventFault?.rawValue ?? "-")",
            "awardFault \(step.awardFault?.rawValue ?? "-")", "waits \(step.waits)", "country \(step.country ?? "-")",
        ]
        if let expectation = step.expectation {
            parts.append("callback \(expectation.callback?.rawValue ?? "-")")
            parts.append("code \(expectation.code.map(String.init) ?? "-")")
            for (name, value) in expectation.arguments { parts.append("\(name) \(JSONValueMatcher.text(of: value))") }
            parts.append("deliveries \(expectation.deliveries.map(String.init) ?? "-")")
            parts.append("state \(expectation.state?.rawValue ?? "-")")
            parts.append("events \(expectation.events.map { $0.joined(separator: " ") } ?? "-")")
            let ledger = expectation.ledger?.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            parts.append("ledger \(ledger.map { $0.joined(separator: " ") } ?? "-")")
        } else {
            parts.append("no expectation")
        }
        return parts.joined(separator: ", ")
    }

    /// The scenario's text, and the scenario the loader reads from it.
    static func roundTrip(_ scenario: Scenario, description: String? = nil) throws -> (String, Scenario) {
        let text = ScenarioWriter.text(of: scenario, description: description)
        let loaded = try ScenarioLoader.load(
            FixtureSource(name: "written.json", bytes: Array(text.utf8)), catalog: .builtIn)
        return (text, loaded)
    }

    /// A scenario of `steps`, numbered in order, for a player in Germany on a fixed seed and clock.
    nonisolated static func scenario(_ steps: [ScenarioStep], name: String = "written") -> Scenario {
        var configuration = Scenario.Configuration()
        (configuration.customerId, configuration.country) = ("cust_books_1", "DE")
        (configuration.seed, configuration.now) = (7, 1_718_182_312)
        let numbered = steps.enumerated().map { index, step in
            var step = step
            step.number = index + 1
            return step
        }
        return Scenario(name: name, file: "", configuration: configuration, steps: numbered)
    }

    nonisolated static func step(
        _ kind: StepKind, _ action: ScenarioStep.Action, expect expectation: StepExpectation? = nil,
        change: (inout ScenarioStep) -> Void = { _ in }
    ) -> ScenarioStep {
        var step = ScenarioStep(number: 0, attempt: nil, action: action, kind: kind)
        step.expectation = expectation
        change(&step)
        return step
    }

    nonisolated static func expect(
        callback: CallbackName? = nil, code: Int? = nil, state: OrderState? = nil, events: [String]? = nil,
        ledger: [String: Int]? = nil
    ) -> StepExpectation {
        var expectation = StepExpectation(callback: callback, code: code, arguments: [], deliveries: nil)
        (expectation.state, expectation.events, expectation.ledger) = (state, events, ledger)
        return expectation
    }

    nonisolated static func checkout(
        _ sku: String = "starter_pack_001", _ player: PlayerAction = .pay(paymentMethodName: "Visa")
    ) -> ScenarioStep.Action {
        .checkout(
            ScenarioStep.Checkout(
                sku: sku, player: player, orderCustomerId: nil, sessionEnvironment: nil, purchaseId: nil,
                parsedUrl: nil))
    }

    /// Steps of `kind` with each of the choices a file gives it.
    nonisolated static func variants(of kind: StepKind) -> [ScenarioStep] {
        let initialize = ScenarioStep.Action.initialize(
            ACConfigModel(checkoutPublicKey: "pk_sandbox_paylinks_demo", environment: "sandbox"),
            customerId: "cust_books_1")
        switch kind {
        case .initialize:
            return [
                step(.initialize, initialize, expect: expect(callback: .onInitialized)),
                step(.initialize, initialize) { $0.waits = false },
                step(.initialize, initialize, expect: expect(code: 2001)) { $0.error = 2001 },
                step(
                    .initialize,
                    .initialize(
                        ACConfigModel(
                            checkoutPublicKey: "pk \"quoted\"", environment: "production",
                            redirectUrl: "https://game.example/return"), customerId: "josé\n\u{1}")),
                // A file cannot take a redirect URL back: the next initialize keeps it.
                step(
                    .initialize,
                    .initialize(
                        ACConfigModel(
                            checkoutPublicKey: "pk_sandbox_paylinks_demo", environment: "sandbox",
                            redirectUrl: "https://game.example/return"), customerId: "cust_books_1")),
            ]
        case .pricePoints:
            return [
                step(.pricePoints, .pricePoints, expect: expect(callback: .onPricePointsSuccess)) { $0.country = "JP" },
                step(.pricePoints, .pricePoints) { $0.error = 1000 },
            ]
        case .purchase:
            return [
                step(.purchase, checkout(), expect: expect(callback: .onPurchaseSuccess, state: .chargeSucceed)),
                step(.purchase, checkout("builders_bundle", .pay(paymentMethodName: "PayPal", outcome: .declined))),
                step(.purchase, checkout("starter_pack_001", .pay(paymentMethodName: "Visa", outcome: .pending))) {
                    $0.country = "FR"
                    $0.deliverTwice = true
                    $0.error = 3004
                },
                step(
                    .purchase,
                    .checkout(
                        ScenarioStep.Checkout(
                            sku: "season_pass_s12", player: .pay(paymentMethodName: "Visa"),
                            orderCustomerId: "cust_bob",
                            sessionEnvironment: "production", purchaseId: "", parsedUrl: "https://checkout.example/#a"))
                ),
            ]
        case .cancel:
            return [
                step(.cancel, checkout("starter_pack_001", .closeCheckout()), expect: expect(code: 3002)),
                step(.cancel, checkout("starter_pack_001", .closeCheckout(via: .browserControls))),
                step(.cancel, checkout("starter_pack_001", .closeBeforeOrder)) { $0.eventFault = .duplicate },
                step(.cancel, checkout("no_ads_forever", .leaveOpen)) { $0.country = "GB" },
                step(.cancel, checkout("starter_pack_001", .closeCheckout())) { $0.error = 3000 },
            ]
        case .refund:
            return [
                step(.purchase, checkout()),
                step(.refund, .refund(amount: 100, outcome: .failed), expect: expect(state: .paymentRefundFailed)),
                step(.refund, .refund(amount: nil, outcome: .refunded), expect: expect(events: ["order.refunded"])),
            ]
        case .dispute:
            return ScenarioStep.DisputeOutcome.allCases.map { step(.dispute, .dispute($0)) }
        case .resolve:
            return [
                step(.resolve, .resolve(succeeded: true, after: 300_000)),
                step(.resolve, .resolve(succeeded: false, after: nil), expect: expect(state: .paymentFailed)),
                step(.resolve, .resolve(succeeded: true, after: 86_400_500)),
            ]
        case .advance:
            return [900_000, 1, 90_061_001, 604_800_000].map { step(.advance, .advance(milliseconds: $0)) }
        case .retryAward:
            return [
                step(.retryAward, .retryAward),
                step(.retryAward, .retryAward, expect: expect(state: .chargeSucceed, ledger: ["gem_01": 100])),
            ]
        }
    }

    /// The step of `kind` that a fault test puts its fault on.
    nonisolated static func faulted(_ kind: StepKind) -> ScenarioStep {
        switch kind {
        case .purchase: step(.purchase, checkout())
        case .resolve: step(.resolve, .resolve(succeeded: true, after: nil))
        case .advance: step(.advance, .advance(milliseconds: 60_000))
        case .retryAward: step(.retryAward, .retryAward)
        case .cancel: step(.cancel, checkout("starter_pack_001", .closeCheckout()))
        case .refund: step(.refund, .refund(amount: nil, outcome: .refunded))
        case .dispute: step(.dispute, .dispute(.open))
        case .initialize, .pricePoints: step(.pricePoints, .pricePoints)
        }
    }

    func expectSameSteps(_ written: Scenario, _ loaded: Scenario, _ text: String) {
        #expect(loaded.steps.map(Self.describe) == written.steps.map(Self.describe), "\(text)")
    }

    // MARK: Round trips

    @Test(
        "every kind of step, with each choice a file gives it, reads back as it was written",
        arguments: StepKind.allCases)
    func everyKind(kind: StepKind) throws {
        let written = Self.scenario(Self.variants(of: kind))
        let (text, loaded) = try Self.roundTrip(written)
        expectSameSteps(written, loaded, text)
    }

    @Test("every award fault reads back on every step that sends an award", arguments: ScenarioStep.AwardFault.allCases)
    func awardFaults(fault: ScenarioStep.AwardFault) throws {
        let steps = ScenarioLoader.awardSteps.map { kind in
            var step = Self.faulted(kind)
            step.awardFault = fault
            step.expectation = Self.expect(ledger: ["gem_01": 0])
            return step
        }
        #expect(steps.count == 4)
        let written = Self.scenario(steps)
        let (text, loaded) = try Self.roundTrip(written)
        expectSameSteps(written, loaded, text)
    }

    @Test("every event fault reads back on every step that takes one", arguments: ScenarioStep.EventFault.allCases)
    func eventFaults(fault: ScenarioStep.EventFault) throws {
        let kinds = StepKind.allCases.filter { ScenarioLoader.stepKeys[$0]?.contains("eventFault") == true }
        #expect(kinds.count == 7)
        let steps = kinds.map { kind in
            var step = Self.faulted(kind)
            step.eventFault = fault
            return step
        }
        let written = Self.scenario(steps)
        let (text, loaded) = try Self.roundTrip(written)
        expectSameSteps(written, loaded, text)
    }

    @Test("the configuration's player, country, seed and clock, a name and a description that need escaping read back")
    func configuration() throws {
        var written = Self.scenario([Self.faulted(.retryAward)], name: "say \"hi\"\\\t, josé")
        written.configuration.paymentMethod = "PayPal"
        written.configuration.customerId = "cust \u{7F}\u{1F}"
        let (text, loaded) = try Self.roundTrip(written, description: "line one\nline \"two\"")
        #expect(loaded.name == written.name)
        #expect(loaded.configuration.customerId == written.configuration.customerId)
        #expect(loaded.configuration.country == "DE")
        #expect(loaded.configuration.paymentMethod == "PayPal")
        #expect(loaded.configuration.seed == 7)
        #expect(loaded.configuration.now == 1_718_182_312)
        #expect(text.contains(#""description": "line one\nline \"two\"""#), "\(text)")
        let bare = Scenario(name: "bare", file: "", configuration: Scenario.Configuration(), steps: written.steps)
        let (bareText, bareLoaded) = try Self.roundTrip(bare)
        #expect(bareLoaded.configuration.seed == nil && bareLoaded.configuration.now == nil)
        #expect(bareText.contains(#""configuration": { "customerId": "cust_98765", "country": "US" },"#), "\(bareText)")
    }

    @Test(
        "each shipped scenario, read and written again, reads back to the same steps and still passes",
        arguments: ScenarioTests.exampleFiles)
    func examples(file: String) throws {
        let path = ScenarioTests.examples.appendingPathComponent(file).path
        let original = try ScenarioLoader.load(
            FixtureSource(name: file, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path)))), catalog: .builtIn
        )
        let (text, loaded) = try Self.roundTrip(original)
        expectSameSteps(original, loaded, text)
        #expect(loaded.name == original.name)
        #expect(loaded.configuration.target == original.configuration.target)
        #expect(loaded.configuration.choice == original.configuration.choice)
        let validator = try SchemaValidator(file: SchemaTests.scenarioSchema)
        let errors = validator.errors(in: try SchemaTests.parse(text))
        #expect(errors.isEmpty, "\(errors)")
        let rewritten = try ScenarioTests.write([(file, text)])[0]
        let result = runCLI("run", rewritten)
        #expect(result.exitCode == .success, "\(result.stderr)\n\(text)")
    }

    // MARK: The text

    @Test("a scenario is written as the shipped files are laid out, byte for byte")
    func exactText() throws {
        let steps = [
            Self.step(
                .initialize, Self.variants(of: .initialize)[0].action, expect: Self.expect(callback: .onInitialized)),
            Self.step(.purchase, Self.checkout(), expect: Self.expect(state: .chargeFailed, ledger: ["gem_01": 0])) {
                $0.awardFault = .drop
            },
            Self.step(.refund, .refund(amount: 100, outcome: .failed), expect: Self.expect(events: [])) {
                $0.eventFault = .reorder
            },
            Self.step(
                .retryAward, .retryAward,
                expect: Self.expect(
                    state: .chargeSucceed, ledger: ["gem_01": 100, "coin_01": 0, "energy_01": 5, "a_pass": -1])
            ) { $0.awardFault = .answerLostFirst },
            Self.step(
                .purchase, Self.checkout("builders_bundle", .pay(paymentMethodName: "Visa", outcome: .pending)),
                expect: Self.expect(code: 3004, state: .paymentPending, events: ["order.created"])),
            Self.step(.resolve, .resolve(succeeded: true, after: 300_000)) { $0.awardFault = .late },
            Self.step(
                .advance, .advance(milliseconds: 900_000),
                expect: Self.expect(
                    state: .chargeSucceed, events: ["order.payment.resolved", "order.completed"],
                    ledger: ["gem_01": 100, "coin_01": 500])),
        ]
        let text = ScenarioWriter.text(
            of: Self.scenario(steps, name: "paid but never granted"),
            description: "The award is lost on every attempt; the game never grants the starter pack.")
        #expect(
            text == """
                {
                  "name": "paid but never granted",
                  "description": "The award is lost on every attempt; the game never grants the starter pack.",
                  "configuration": { "customerId": "cust_books_1", "country": "DE", "seed": 7, "now": 1718182312 },
                  "steps": [
                    { "step": "initialize", "expect": { "callback": "onInitialized" } },
                    {
                      "step": "purchase", "sku": "starter_pack_001", "awardFault": "drop",
                      "expect": { "state": "charge_failed", "ledger": { "gem_01": 0 } }
                    },
                    { "step": "refund", "amount": 100, "outcome": "failed", "eventFault": "reorder", "expect": { "events": [] } },
                    {
                      "step": "retry-award", "awardFault": "answer-lost-first",
                      "expect": { "state": "charge_succeed", "ledger": { "a_pass": -1, "coin_01": 0, "energy_01": 5, "gem_01": 100 } }
                    },
                    {
                      "step": "purchase", "sku": "builders_bundle", "outcome": "pending",
                      "expect": { "code": 3004, "state": "payment_pending", "events": ["order.created"] }
                    },
                    { "step": "resolve", "outcome": "succeeded", "after": "PT5M", "awardFault": "late" },
                    {
                      "step": "advance", "by": "PT15M",
                      "expect": {
                        "state": "charge_succeed",
                        "events": ["order.payment.resolved", "order.completed"],
                        "ledger": { "coin_01": 500, "gem_01": 100 }
                      }
                    }
                  ]
                }

                """, "\(text)")
        // The same scenario, the same bytes: a ledger's SKUs in their order, whatever a dictionary's.
        #expect(
            ScenarioWriter.text(
                of: Self.scenario(steps, name: "paid but never granted"),
                description: "The award is lost on every attempt; the game never grants the starter pack.") == text)
    }

    @Test(
        "a duration is written in the ISO 8601 form the loader reads back",
        arguments: [
            (1, "PT0.001S"), (250, "PT0.25S"), (1000, "PT1S"), (60_000, "PT1M"), (300_000, "PT5M"), (900_000, "PT15M"),
            (3_600_000, "PT1H"), (86_400_000, "P1D"), (86_400_500, "P1DT0.5S"), (90_061_001, "P1DT1H1M1.001S"),
            (604_800_000, "P7D"),
        ])
    func durations(milliseconds: Int, text: String) throws {
        #expect(ClockText.isoDuration(milliseconds: milliseconds) == text)
        #expect(try ClockText.durationMilliseconds(text) == milliseconds)
    }
}
