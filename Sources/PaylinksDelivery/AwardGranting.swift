package import PaylinksAppcharge
import PaylinksHTTP
package import PaylinksKit

extension AppchargeBackend {
    /// Has every payment's award delivered by `sender`, each attempt shown on `display` as
    /// it ends; an award whose every attempt failed leaves the order `charge_failed`, and
    /// the client's purchase fails with it.
    package func grantAwards(with sender: AwardSender, display: any DeliveryDisplay) {
        let url = sender.url.description
        awards = { award, milliseconds in
            // Never signed before the award was sent on the run's clock, and the time since.
            sender.happenedAt = milliseconds
            let attempts = sender.deliver(award) { attempt in display.show(award: attempt, url: url) }
            return AwardDelivery.verdict(attempts, url: url)
        }
    }

    /// The gap between two actions on an order's life after its checkout, on the run's clock.
    package static let lifeStep = 60_000

    /// Takes `action` on the last order paid, ``lifeStep`` after the clock of `sdk`, which
    /// moves with it unless the action is refused, and sends its event.
    @discardableResult
    package func act(_ action: OrderLife.Action, after sdk: PaymentLinksSimulator)
        throws(CheckoutSessions.LifeProblem) -> OrderLife.Transition
    {
        let transition = try act(action, at: sdk.virtualMilliseconds + Self.lifeStep)
        sdk.advance(by: Self.lifeStep)
        return transition
    }
}
