import PaylinksKit

/// `paylinks man`: the manual page, in roff, as `make install` installs it.
enum ManCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        try PaylinksCLI.write(ManPage.roff(), to: context.standardOutput)
        return .success
    }
}
