import PaylinksAppcharge
import PaylinksDelivery
import PaylinksKit

/// The events of the checkouts an event load predicts rather than runs: each order lived
/// on Appcharge's side, until two in a row prove a template (``OrderEventsTemplate``)
/// that gives their exact events; from then on each order's events are that template
/// filled in with its own identifiers and times, built and signed as any other.
/// `--trace`, a fault on the way, or a template that fails its proof keeps every order lived.
@MainActor
struct PredictedEvents {
    let flow: CheckoutFlow
    let events: EventOutlet
    /// The template, and how many of an order's events come before its result.
    private var template: (events: OrderEventsTemplate, before: Int)?
    /// The orders lived since the last proven checkout, for the template's proof.
    private var lived: [(index: Int, events: [(event: OrderEvent, milliseconds: Int)], before: Int)] = []
    /// Whether no template is tried: the options make it a different run, or its proof failed.
    private var livesEvery: Bool

    /// Predicted events of `flow`'s checkouts, collected from `events`.
    init(flow: CheckoutFlow, events: EventOutlet) {
        self.flow = flow
        self.events = events
        livesEvery = flow.options.trace
    }

    /// The events of predicted checkout `index`, paid at `paidAt` and settled at
    /// `settledAt` (Unix milliseconds), before its result and after it, each with when it
    /// happened.
    mutating func events(index: Int, paidAt: Int, settledAt: Int, player: PlayerAction) throws(CLIError) -> (
        before: [(event: OrderEvent, milliseconds: Int)], after: [(event: OrderEvent, milliseconds: Int)]
    ) {
        if let template {
            let all = template.events.events(index: index, at: paidAt)
            return (Array(all.prefix(template.before)), Array(all.dropFirst(template.before)))
        }
        try flow.replay(player, index: index, paidAt: paidAt)
        let before = events.takeCollected()
        flow.appcharge.settle(at: settledAt)
        let after = events.takeCollected()
        prove(index: index, before: before, after: after)
        return (before, after)
    }

    /// Makes the template once two orders in a row were lived, when it proves exact.
    private mutating func prove(
        index: Int, before: [(event: OrderEvent, milliseconds: Int)], after: [(event: OrderEvent, milliseconds: Int)]
    ) {
        guard !livesEvery else { return }
        guard !events.holdsEvents, before.first?.milliseconds != nil else {
            livesEvery = true
            return
        }
        lived.append((index, before + after, before.count))
        guard lived.count == 2 else { return }
        let (first, second) = (lived[0], lived[1])
        lived = []
        livesEvery = true
        guard first.before == second.before, second.index == first.index + 1,
            let template = OrderEventsTemplate(
                first: (first.index, first.events), second: (second.index, second.events), seed: flow.seed,
                seededDevice: flow.appcharge.device == nil)
        else { return }
        self.template = (template, first.before)
    }
}
