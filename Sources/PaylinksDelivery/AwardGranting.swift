package import PaylinksAppcharge
import PaylinksHTTP
package import PaylinksKit

extension AppchargeBackend {
    /// Has every payment's award delivered by `sender`, each attempt shown on `display` as
    /// it ends; an award whose every attempt failed leaves the order `charge_failed`, and
    /// the client's purchase fails with it. An award whose fault is ``AwardFault/late`` is
    /// lost to Appcharge on every attempt and held in what this returns, which sends it to
    /// the game's server when released.
    @discardableResult
    package func grantAwards(with sender: AwardSender, display: any DeliveryDisplay) -> LateAwards {
        let url = sender.url.description
        let late = LateAwards(sender: sender, display: display)
        awards = { award, milliseconds, fault in
            // Never signed before the award was sent on the run's clock, and the time since.
            sender.happenedAt = milliseconds
            let attempts = sender.deliver(award, awardFault: fault) { attempt in display.show(award: attempt, url: url)
            }
            if fault == .late { late.hold(award, happenedAt: milliseconds) }
            return AwardDelivery.verdict(attempts, url: url)
        }
        return late
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

    /// Retry Award on the last order paid, ``lifeStep`` after the clock of `sdk`, which moves
    /// with it unless Appcharge refuses it.
    package func retryAward(after sdk: PaymentLinksSimulator) throws(CheckoutSessions.RetryProblem) {
        try retryAward(at: sdk.virtualMilliseconds + Self.lifeStep)
        sdk.advance(by: Self.lifeStep)
    }
}

/// Awards whose every attempt Appcharge lost (the fault ``AwardFault/late``), held until the
/// game's server is to receive the first of them late: after what happens next.
@MainActor
package final class LateAwards {
    private let sender: AwardSender
    private let display: any DeliveryDisplay
    private var held: [(award: GrantAward, happenedAt: Int)] = []

    init(sender: AwardSender, display: any DeliveryDisplay) {
        self.sender = sender
        self.display = display
    }

    /// Holds `award`, sent at `happenedAt` (Unix milliseconds on the run's clock).
    func hold(_ award: GrantAward, happenedAt: Int) {
        held.append((award, happenedAt))
    }

    /// Whether an award is held.
    package var holdsAwards: Bool { !held.isEmpty }

    /// Sends each held award's first attempt now, as it reaches the game's server late;
    /// Appcharge gave up on it long ago, so its answer is lost to it, and shown so.
    package func release() {
        let url = sender.url.description
        let due = held
        held = []
        for (award, happenedAt) in due {
            sender.happenedAt = happenedAt
            var attempt = sender.send(award)
            attempt.answerLost(fault: AwardFault.late.rawValue)
            display.show(award: attempt, url: url)
        }
    }
}
