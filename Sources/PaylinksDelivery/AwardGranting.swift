import PaylinksAppcharge
import PaylinksHTTP
package import PaylinksKit

extension PaymentLinksSimulator {
    /// Has every validated payment's award delivered by `sender`: each attempt is shown on
    /// `display` as it ends; an award whose every attempt failed fails the purchase.
    /// `events`, when given, hears of each order paid before its award goes out, and of
    /// an award that failed.
    package func grantAwards(with sender: AwardSender, display: any DeliveryDisplay, events: EventOutlet? = nil) {
        let catalog = self.catalog
        let url = sender.url.description
        awardGranter = { [unowned self] order in
            events?.paid(order, at: virtualMilliseconds)
            let attempts = sender.deliver(GrantAward(order: order, catalog: catalog)) { attempt in
                display.show(award: attempt, url: url)
            }
            let verdict = AwardDelivery.verdict(attempts, url: url)
            if case .failed = verdict.outcome { events?.awardFailed() }
            return verdict
        }
    }

    /// The virtual clock now, in Unix milliseconds: the start, and the time simulated since.
    package var virtualMilliseconds: Int {
        let (start, overflow) = now.multipliedReportingOverflow(by: 1000)
        guard !overflow, start <= Int.max - elapsedMilliseconds else { return Int.max }
        return start + elapsedMilliseconds
    }
}
