import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
import PaylinksKit

/// The steps that act on a scenario's own clock, which is virtual: nothing waits for real.
extension ScenarioRunner {
    /// The scenario's clock stops at the end of 9999, as every clock of paylinks does.
    static let latestMilliseconds = ClockText.latest * 1000 + 999

    /// `resolve`: the scenario's last pending payment resolves now, a minute after the step
    /// before as a refund does (the clock moves with it), or is scheduled `after` this
    /// moment, to resolve when an `advance` passes it. The rule that refused it, or nil.
    static func resolve(
        succeeded: Bool, after: Int?, on appcharge: AppchargeBackend, sdk: PaymentLinksSimulator
    ) -> String? {
        let now = sdk.virtualMilliseconds
        let outcome = CheckoutSessions.Resolution(succeeded: succeeded, at: now).outcome
        do {
            if let after {
                let at = after > latestMilliseconds - now ? latestMilliseconds : now + after
                try appcharge.schedulePending(CheckoutSessions.Resolution(succeeded: succeeded, at: at))
                trace(
                    "the pending payment of \(appcharge.lastPending ?? "") is to resolve (\(outcome)) at +"
                        + PaymentLinksSimulator.seconds(at - start(of: sdk)),
                    at: now, sdk: sdk)
            } else {
                try appcharge.resolvePending(succeeded: succeeded, at: now + AppchargeBackend.lifeStep)
                sdk.advance(by: AppchargeBackend.lifeStep)
                trace(
                    "the pending payment of \(appcharge.lastPending ?? "") \(outcome)", at: sdk.virtualMilliseconds,
                    sdk: sdk)
            }
        } catch {
            return error.message
        }
        return nil
    }

    /// `advance`: the scenario's clock moves on by `milliseconds` (to the end of 9999 at
    /// most); what falls due on the way happens in time order, each at its moment:
    /// scheduled resolutions, and the expiry of sessions still open.
    static func advance(by milliseconds: Int, on appcharge: AppchargeBackend, sdk: PaymentLinksSimulator) {
        let start = sdk.virtualMilliseconds
        let by = max(0, min(milliseconds, latestMilliseconds - start))
        appcharge.fireDue(from: start, through: start + by) { due, at in
            switch due {
            case .expiry(let purchaseId, _):
                trace("the checkout session of \(purchaseId) expired unpaid", at: at, sdk: sdk)
            case .resolution(let purchaseId, let resolution):
                trace("the pending payment of \(purchaseId) \(resolution.outcome)", at: at, sdk: sdk)
            }
        }
        sdk.advance(by: by)
        trace("the clock moved on by \(PaymentLinksSimulator.seconds(by))", at: sdk.virtualMilliseconds, sdk: sdk)
    }

    /// The Unix milliseconds the scenario's clock started at.
    private static func start(of sdk: PaymentLinksSimulator) -> Int {
        sdk.virtualMilliseconds - sdk.elapsedMilliseconds
    }

    /// Tells the scenario's trace, if any, what happened at `milliseconds` (Unix).
    private static func trace(_ message: String, at milliseconds: Int, sdk: PaymentLinksSimulator) {
        sdk.trace?(TraceEvent(milliseconds: milliseconds - start(of: sdk), message: message))
    }
}
