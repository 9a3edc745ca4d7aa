import PaylinksKit

/// `paylinks init`: initialize the SDK; onInitialized or onInitializeFailed.
enum InitCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        let flow = try CheckoutFlow(.initialize, options: options, catalog: catalog, context: context)
        defer { flow.close() }
        return try flow.finish()
    }
}
