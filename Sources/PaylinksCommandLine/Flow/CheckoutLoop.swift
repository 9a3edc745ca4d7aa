import PaylinksFixtures
import PaylinksKit

/// `purchase` and `cancel` one checkout after another (`--count N`), each simulated, each
/// award and event a real request. Without `--trace`, `--award-url` and `--events-url`, two checkouts prove a
/// template and ``BulkLines`` writes the rest from it.
@MainActor
struct CheckoutLoop {
    let flow: CheckoutFlow
    /// What the player does in every checkout.
    let player: PlayerAction

    /// Runs the checkouts; the flow's delegate keeps only the latest one's callbacks, so
    /// memory stays flat however many run.
    func run() throws(CLIError) {
        let options = flow.options
        let delegate = flow.delegate
        var done = 0
        var firstResult: Callback?
        while done < options.count {
            // By Link Out the lines are the returns, which no template of callbacks writes.
            if done == 2, !options.trace, options.awardUrl == nil, options.eventsUrl == nil, options.flow == .sdk,
                let firstResult,
                let secondResult = delegate.delivered.last,
                let template = CheckoutLineTemplate(
                    renderer: flow.renderer, result: firstResult, next: secondResult, index: options.index,
                    seed: flow.seed)
            {
                try BulkLines(template: template, seed: flow.seed).write(
                    indexes: (options.index + 2)..<(options.index + options.count), after: flow.output,
                    to: flow.context.standardOutput)
                return
            }
            if done == 1 { firstResult = delegate.delivered.last }
            done += 1
            delegate.begin(nil)
            try flow.checkout(player)
            if delegate.failure != nil { return }
        }
    }
}
