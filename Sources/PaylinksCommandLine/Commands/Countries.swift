import PaylinksKit

/// `paylinks countries`: the countries with prices of their own, each with its currency
/// and an example price.
enum CountriesCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        try PaylinksCLI.write(
            CatalogListing.countries(
                catalog, format: options.format, color: PaylinksCLI.usesColor(options, context: context)),
            to: context.standardOutput)
        return .success
    }
}
