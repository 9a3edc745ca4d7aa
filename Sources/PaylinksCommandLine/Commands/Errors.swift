import PaylinksFixtures
import PaylinksKit

/// `paylinks errors [CODE]`: the status codes of the generation, or one explained with
/// its cause, its data and a command that reproduces it.
enum ErrorsCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        if let topic = options.operands.first {
            guard let code = catalog.statusCode(matching: topic) else {
                throw .usage(catalog.unknownStatusCodeMessage(topic), command: .errors)
            }
            try PaylinksCLI.write(
                CatalogListing.explain(
                    code, format: options.format, target: options.target, catalog: catalog, fixtures: options.fixtures),
                to: context.standardOutput)
        } else {
            try PaylinksCLI.write(
                CatalogListing.statusCodes(
                    catalog, format: options.format, color: PaylinksCLI.usesColor(options, context: context),
                    target: options.target, fixtures: options.fixtures),
                to: context.standardOutput)
        }
        return .success
    }
}
