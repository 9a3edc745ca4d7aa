import PaylinksAppcharge
import PaylinksDelivery
import PaylinksHTTP
import PaylinksKit

/// `paylinks check-award URL`: the audit of a game's award endpoint; its findings on
/// stdout, and exit 1 when one failed.
enum CheckAwardCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        let url = try auditedURL(options, command: .checkAward)
        let signing = try Signing(options: options, context: context, uses: "award callbacks")
        let audit = AwardAudit(signing.awards(to: url, options: options), seed: context.entropy())
        let findings: [AuditFinding]
        do {
            findings = try audit.run(chosen(AwardAuditCase.self, options))
        } catch {
            throw .unavailable(
                // The URL was checked when it was read: its host and port hold no control characters.
                "\(error); start the game's award endpoint, or check the URL")
        }
        try PaylinksCLI.write(
            AuditReport.render(
                findings, of: .checkAward, url: url.description, rerun: "paylinks check-award \(url)",
                format: options.format,
                color: PaylinksCLI.usesColor(options, context: context)),
            to: context.standardOutput)
        return ended(findings, stop: audit.stop, context: context)
    }

}
