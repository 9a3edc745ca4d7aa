import PaylinksKit

/// `paylinks offers`: the offers, with their items and their price in `--country`.
enum OffersCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        PaylinksCLI.noteFallback(for: options.country, catalog: catalog, context: context)
        try PaylinksCLI.write(
            CatalogListing.offers(
                catalog, country: options.country, format: options.format,
                color: PaylinksCLI.usesColor(options, context: context), platform: options.target.platform),
            to: context.standardOutput)
        return .success
    }
}
