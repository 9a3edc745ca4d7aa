import PaylinksKit

/// `paylinks price-points`: initialize, then fetch the price points of `--country`.
enum PricePointsCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        let flow = try CheckoutFlow(.pricePoints, options: options, catalog: catalog, context: context)
        defer { flow.close() }
        if flow.initialized { flow.sdk.getPricePoints() }
        return try flow.finish()
    }
}
