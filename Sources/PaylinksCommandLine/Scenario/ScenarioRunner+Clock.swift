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
        do {
            if let after {
                let at = after > latestMilliseconds - now ? latestMilliseconds : now + after
                try appcharge.schedulePending(CheckoutSessions.Resolution(succeeded: succeeded, at: at))
            } else {
                try appcharge.resolvePending(succeeded: succeeded, at: now + AppchargeBackend.lifeStep)
                sdk.advance(by: AppchargeBackend.lifeStep)
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
        appcharge.fireDue(from: start, through: start + by)
        sdk.advance(by: by)
    }
}
