import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

extension PaymentLinksSimulator {
    /// Has every validated payment's award delivered by `sender`: each attempt is written
    /// through `delegate` as the renderer shows it, and traced with its headers (the
    /// signature, never the key); an award whose every attempt failed fails the purchase.
    /// `events`, when given, hears of each order paid before its award goes out, and of
    /// an award that failed.
    func grantAwards(
        with sender: AwardSender, renderer: any CallbackRenderer, delegate: RenderingDelegate,
        events: EventOutlet? = nil
    ) {
        let catalog = self.catalog
        let url = sender.url.description
        awardGranter = { [unowned self] order in
            events?.paid(order, at: virtualMilliseconds)
            let attempts = sender.deliver(GrantAward(order: order, catalog: catalog)) { attempt in
                delegate.write(renderer.render(award: attempt, url: url, tag: delegate.currentTag))
            }
            let verdict = AwardDelivery.verdict(attempts, url: url)
            if case .failed = verdict.outcome { events?.awardFailed() }
            return verdict
        }
    }

    /// The virtual clock now, in Unix milliseconds: the start, and the time simulated since.
    var virtualMilliseconds: Int {
        let (start, overflow) = now.multipliedReportingOverflow(by: 1000)
        guard !overflow, start <= Int.max - elapsedMilliseconds else { return Int.max }
        return start + elapsedMilliseconds
    }
}
