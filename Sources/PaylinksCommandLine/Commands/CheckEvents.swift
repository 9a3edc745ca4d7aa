import PaylinksAppcharge
import PaylinksDelivery
import PaylinksHTTP
import PaylinksKit

/// `paylinks check-events URL`: the audit of a game's events handler, and with
/// `--award-url` and `--ledger-url` of what it does with the money; its findings on
/// stdout, and exit 1 when one failed.
enum CheckEventsCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        let url = try auditedURL(options, command: .checkEvents)
        let signing = try Signing(options: options, context: context)
        let events = try signing.events(to: url, options: options)
        signing.note(uses: options.awardUrl == nil ? "events" : "events and award callbacks", context: context)
        let audit = EventAudit(
            events: events, award: options.awardUrl.map { signing.awards(to: $0, options: options) },
            ledger: options.ledgerUrl, seed: context.entropy(), ledgerWait: options.ledgerWait * 1000)
        let cases = chosen(EventAuditCase.self, options)
        if !options.auditCases.isEmpty { try checkable(cases, audit: audit, version: events.version) }
        let findings: [AuditFinding]
        do {
            findings = try audit.run(cases)
        } catch {
            // The URLs were checked when they were read: their hosts and ports hold no control characters.
            throw .unavailable(
                error.advice.map { "\(error). \($0)" } ?? "\(error); start the game's server, or check the URLs")
        }
        try PaylinksCLI.write(
            AuditReport.render(
                findings, of: .checkEvents, url: url.description, rerun: rerun(url, options), format: options.format,
                color: PaylinksCLI.usesColor(options, context: context)),
            to: context.standardOutput)
        return ended(findings, stop: audit.stop, hold: audit.hold, context: context)
    }

    /// Refuses a `--case` that would be "not checked": the run would check nothing the
    /// command line asked for, and pass.
    private static func checkable(_ cases: [EventAuditCase], audit: EventAudit, version: OrderEvent.Version)
        throws(CLIError)
    {
        func named(_ cases: [EventAuditCase]) -> String {
            let names = cases.map(\.name)
            return names.count == 1
                ? names[0] : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
        }
        let money = cases.filter(\.followsMoney)
        if let missing = audit.missingOptions, !money.isEmpty {
            throw .usage(
                "--case \(named(money)) \(money.count == 1 ? "needs" : "need") \(missing.options), \(missing.purpose); "
                    + "give \(missing.options.firstOccurrence(of: " and ") != nil ? "them" : "it"), or leave the case out",
                command: .checkEvents)
        }
        if version == .v1, cases.contains(.partialRefund) {
            throw .usage(
                "--case partial-refund checks nothing with --events-version v1: a V1 refund carries no amount, so it "
                    + "cannot be partial; audit V2 events, or leave the case out",
                command: .checkEvents)
        }
    }

    /// The command line that runs a case again: the same endpoints and version.
    private static func rerun(_ url: HTTPURL, _ options: RunOptions) -> String {
        var words = ["paylinks check-events", url.description]
        if let award = options.awardUrl { words += ["--award-url", award.description] }
        if let ledger = options.ledgerUrl { words += ["--ledger-url", ledger.description] }
        if options.eventsVersion != .v2 { words += ["--events-version", options.eventsVersion.rawValue] }
        if options.ledgerWait != RunOptions().ledgerWait { words += ["--ledger-wait", String(options.ledgerWait)] }
        return words.joined(separator: " ")
    }
}
