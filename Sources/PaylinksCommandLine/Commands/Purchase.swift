import PaylinksFixtures
import PaylinksKit

/// `paylinks purchase --sku SKU`: initialize, open the offer's checkout, the player pays;
/// `--count N` checkouts, and with `--award-url` each paid order's award (else, with
/// `--events-url`, each order's events) sent to the game's server, one after another or,
/// for more than one, as a load (one after another with `--trace`, or with both URLs).
enum PurchaseCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        let player = PlayerAction.pay(paymentMethodName: options.paymentMethod, outcome: options.outcome ?? .succeeded)
        let options = try CheckoutFlow.endingNow(.purchase, options: options, catalog: catalog, context: context) {
            flow throws(CLIError) in try flow.span(of: player, count: options.count)
        }
        let flow = try CheckoutFlow(.purchase, options: options, catalog: catalog, context: context)
        defer { flow.close() }
        guard flow.initialized else { return try flow.finish() }
        // A load learns how its awards ended after the checkouts ran; with --trace, each
        // checkout waits for its award, so that the timeline says what happened, and with
        // --events-url, so that each order's events follow its award's answer.
        // By Link Out each checkout's return follows its award: one after another.
        if options.flow == .linkOut {
            try CheckoutLoop(flow: flow, player: player).run()
        } else if options.count > 1, !options.trace, let awards = flow.awards, flow.events == nil {
            let summary = try AwardLoadRun(flow: flow, destination: awards, player: player).run()
            try flow.flush()
            try? context.standardError.write(summary + "\n")
        } else if options.count > 1, flow.awards == nil, let events = flow.events {
            let summary = try EventLoadRun(flow: flow, events: events, player: player).run()
            try flow.flush()
            try? context.standardError.write(summary + "\n")
        } else {
            try CheckoutLoop(flow: flow, player: player).run()
        }
        return try flow.finish()
    }
}
