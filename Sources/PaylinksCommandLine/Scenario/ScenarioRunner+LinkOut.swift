import PaylinksAppcharge
import PaylinksFixtures
import PaylinksKit

/// What a scenario of `"flow": "link-out"` changes in a run: the SDK drives its checkouts
/// unseen, and a step may expect the status its checkout's browser went back with.
extension ScenarioRunner {
    /// By Link Out, the SDK is only the machinery of the checkouts: `sdk` initialized unseen
    /// with `configuration`, its callbacks going to `delegate`, which shows none; the
    /// customer id a G3 checkout carries, nil on the generations that take it at initialize.
    static func initializeUnseen(
        _ sdk: PaymentLinksSimulator, _ configuration: Scenario.Configuration, delegate: RenderingDelegate
    ) -> String? {
        let model = ACConfigModel(
            checkoutPublicKey: configuration.checkoutPublicKey, environment: configuration.environment)
        guard sdk.target.generation == .g3 else {
            sdk.initialize(configModel: model, customerId: configuration.customerId, delegate: delegate)
            return nil
        }
        sdk.initialize(configModel: model, delegate: delegate)
        return configuration.customerId
    }

    /// The mismatch of a step that expects the status `expected` when its checkout's browser
    /// went back with `redirected` (nil: none went back); none when they agree.
    static func redirectMismatches(expected: String, got redirected: LinkOutStatus?, linksOut: Bool) -> [String] {
        guard expected != redirected?.rawValue else { return [] }
        let got = redirected?.rawValue ?? "no redirect (\(linksOut ? "not a checkout" : "the flow is sdk"))"
        return ["redirect: expected \(expected), got \(got)"]
    }
}
