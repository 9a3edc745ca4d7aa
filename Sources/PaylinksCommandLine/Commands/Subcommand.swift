import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
import PaylinksHTTP
import PaylinksKit

/// A subcommand's work once its options are parsed and the catalog loaded: each command
/// has a file of its own in this folder, and ``Command/implementation`` names it.
@MainActor
protocol Subcommand {
    /// Runs the command and says how it ended.
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode
}

extension Command {
    /// The code that runs the command.
    @MainActor
    var implementation: any Subcommand.Type {
        switch self {
        case .initialize: InitCommand.self
        case .pricePoints: PricePointsCommand.self
        case .purchase: PurchaseCommand.self
        case .cancel: CancelCommand.self
        case .errors: ErrorsCommand.self
        case .offers: OffersCommand.self
        case .countries: CountriesCommand.self
        case .run: RunCommand.self
        case .checkAward: CheckAwardCommand.self
        case .checkEvents: CheckEventsCommand.self
        case .checkBooks: CheckBooksCommand.self
        case .checkLinks: CheckLinksCommand.self
        case .serve: ServeCommand.self
        case .health: HealthCommand.self
        case .trigger: TriggerCommand.self
        case .completions: CompletionsCommand.self
        case .man: ManCommand.self
        }
    }
}

extension Subcommand {
    /// The URL an audit (`check-award`, `check-events`) is given as its operand; a usage
    /// error for one paylinks cannot use.
    static func auditedURL(_ options: RunOptions, command: Command) throws(CLIError) -> HTTPURL {
        do {
            return try HTTPURL(options.operands.first ?? "")
        } catch {
            throw .usage("\(error)", command: command)
        }
    }

    /// The cases of an audit that `--case` names, in the order the audit runs them, each
    /// once; every case when it names none.
    static func chosen<Case: AuditCase>(_: Case.Type, _ options: RunOptions) -> [Case] {
        options.auditCases.isEmpty
            ? Case.allCases : Case.allCases.filter { options.auditCases.contains($0.name) }
    }

    /// How an audit ended: when an endpoint stopped answering in the middle of it, 1 when a
    /// case failed, else 69, with one line on standard error that says so; else, when the
    /// award endpoint or the ledger kept money cases from running (`hold`), 1, with one line
    /// that says what to fix; else 1 when a case failed, and 0 when none did.
    static func ended(_ findings: [AuditFinding], stop: AuditStop?, hold: AuditHold? = nil, context: RunContext)
        -> ExitCode
    {
        let failed = findings.contains { $0.verdict == .fail }
        guard let stop else {
            if let hold {
                let cases = hold.cases == 1 ? "1 case was" : "\(hold.cases) cases were"
                // The URLs were checked when they were read: their hosts and ports hold no control characters.
                try? context.standardError.write(
                    "error: \(MessageText.oneLine(hold.what)); \(cases) not checked: \(hold.fix)\n")
                return .expectationsFailed
            }
            return failed ? .expectationsFailed : .success
        }
        let skipped = findings.filter { $0.verdict == .notChecked && $0.summary == stop.summary }.count
        let cases = skipped == 1 ? "1 case was" : "\(skipped) cases were"
        // The URL was checked when it was read: its host and port hold no control characters.
        try? context.standardError.write(
            stop.answersWrongly
                ? MessageText.oneLine(
                    "error: the audit stopped \(stop.when): \(stop.reason); \(cases) not checked: fix it and run the "
                        + "audit again") + "\n"
                : "error: \(stop.role) \(stop.url) stopped answering \(stop.when) (\(stop.reason)); \(cases) not "
                    + "checked: restart it and run the audit again\n")
        return failed ? .expectationsFailed : .unavailable
    }
}
