import PaylinksFixtures
import PaylinksKit

/// A blank scenario, step and checkout to fill in, for the scenarios paylinks makes
/// itself rather than reads from a file.
///
/// Their memberwise initializers belong to PaylinksFixtures, so each blank is read once
/// from the smallest scenario that holds it, then copied and changed field by field.
enum ScenarioBlanks {
    /// A scenario of the default configuration and no steps.
    static let scenario: Scenario = parts.scenario
    /// An `initialize` step numbered 1 that checks nothing, waits and carries no fault.
    static let step: ScenarioStep = parts.step
    /// A checkout in which the player closes the checkout, for the SDK's customer and
    /// environment.
    static let checkout: ScenarioStep.Checkout = parts.checkout

    /// The one offer the blank catalog sells.
    private static let sku = "blank"

    /// The blanks, read once: a scenario that initializes and cancels, emptied.
    private static let parts: (scenario: Scenario, step: ScenarioStep, checkout: ScenarioStep.Checkout) = {
        let catalog = Catalog(
            offers: [Offer(sku: sku, name: sku, basePriceInUSD: "0", items: [])], statusCodes: [], tiers: [],
            localizations: [:])
        let text = #"{"steps": [{"step": "initialize"}, {"step": "cancel", "sku": "\#(sku)"}]}"#
        let loaded = try? ScenarioLoader.load(FixtureSource(name: "blank", bytes: Array(text.utf8)), catalog: catalog)
        guard var scenario = loaded, scenario.steps.count == 2, case .checkout(let checkout) = scenario.steps[1].action
        else { preconditionFailure("the blank scenario reads") }
        let step = scenario.steps[0]
        scenario.name = ""
        scenario.file = ""
        scenario.configuration = .defaults
        scenario.steps = []
        return (scenario, step, checkout)
    }()
}
