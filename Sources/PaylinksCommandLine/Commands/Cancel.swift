import PaylinksKit

/// `paylinks cancel --sku SKU`: initialize, open the offer's checkout, the player closes
/// it (3002), closes the browser (`--via browser`, 3000) or leaves before the
/// order exists (`--before-order`, 3005).
enum CancelCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        let player: PlayerAction =
            options.beforeOrder ? .closeBeforeOrder : .closeCheckout(via: options.closeMethod ?? .checkoutInterface)
        let options = try CheckoutFlow.endingNow(.cancel, options: options, catalog: catalog, context: context) {
            flow throws(CLIError) in try flow.span(of: player, count: options.count)
        }
        let flow = try CheckoutFlow(.cancel, options: options, catalog: catalog, context: context)
        defer { flow.close() }
        guard flow.initialized else { return try flow.finish() }
        try CheckoutLoop(flow: flow, player: player).run()
        return try flow.finish()
    }
}
