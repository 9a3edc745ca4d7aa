import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
import PaylinksHTTP
import PaylinksKit

/// `paylinks check-books`: a seeded history of orders played against the game's award and
/// events endpoints as Appcharge plays them, each player's ledger reconciled with
/// Appcharge's books after every step; each kind of difference shrunk to the shortest
/// scenario that still shows it.
enum CheckBooksCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        let (award, events, ledgerURL) = try endpoints(options)
        // A long history is not played to lose its findings to a path that cannot be written.
        if let path = options.writeScenario, !System.canWriteFile(at: path) {
            throw .cannotWrite(
                "cannot write the scenario '\(MessageText.sanitized(path))': it is not a regular file, or its directory does "
                    + "not exist or cannot be written; give --write-scenario a path in a directory that can be written")
        }
        let faults = try faults(options)
        let seed = options.seed ?? context.entropy()
        let signing = try Signing(options: options, context: context)
        signing.note(uses: "award callbacks and events", context: context)
        var settings = ScenarioRunner.Settings(format: .json, trace: false, seed: seed, now: 0, faultRate: 0)
        var optionsWithEvents = options
        optionsWithEvents.eventsUrl = events
        settings.awards = signing.awards(to: award, options: options)
        settings.events = try EventSettings(options: optionsWithEvents, signing: signing)
        settings.awardURLs[0] = award
        settings.eventURLs[0] = events
        let ledger = ScenarioLedger(
            AuditLedger(url: ledgerURL, wait: options.ledgerWait * 1000), checksBooks: true,
            rule: options.partialRefund)
        settings.ledger = ledger
        let player = BooksPlayer(seed: seed)
        var historySettings = BooksHistory.Settings(
            seed: seed, orders: options.orders, players: options.players, faults: faults, player: { player.name($0) })
        historySettings.partialRefunds = options.eventsVersion != .v1
        let plan = BooksHistory.plan(historySettings, catalog: catalog)
        let players = plan.players
        let play = BooksPlay(catalog: catalog, settings: settings, wall: context.clock)
        let progress = BooksProgress(context: context, orders: options.orders)
        var tally = BooksTally()
        var findings: [BooksReport.Finding] = []
        for index in players {
            let scenario = plan.scenario(index)
            let result = try play.run(scenario)
            // A history stops at its first finding: the orders after it were not played.
            tally.add(result, orders: BooksHistory.orders(in: Array(scenario.steps.prefix(result.attempts))))
            if let finding = result.finding {
                findings.append(BooksReport.Finding(finding: finding, scenario: scenario))
            }
            progress.show(played: tally.orders, findings: findings.count)
        }
        progress.clear()
        // Each kind of difference is shrunk once, from the first history that showed it.
        var shrunk: Set<BooksFinding.Invariant> = []
        for index in findings.indices where shrunk.insert(findings[index].finding.invariant).inserted {
            findings[index].shrunk = try play.shrink(findings[index], player: player)
        }
        // The report goes out whatever becomes of the files; a file that could not be written
        // is said after it.
        let (written, unwritten) = write(findings, to: options.writeScenario, seed: seed)
        let report = BooksReport(findings: findings, tally: tally, players: players.count, written: written)
        try? context.standardError.write(
            report.timing(settle: ledger.longestSettle, lasting: ledger.lasting ? options.ledgerWait : nil))
        try PaylinksCLI.write(
            options.format == .json
                ? report.lines : report.text(color: PaylinksCLI.usesColor(options, context: context)),
            to: context.standardOutput)
        if let unwritten { throw unwritten }
        return findings.isEmpty ? .success : .expectationsFailed
    }

    /// The faults the history may carry: those `--faults` names, but with V1 events, which
    /// Appcharge retries after a server error only, never `drop-first`, whose event would be
    /// lost for good and the game blamed for it.
    private static func faults(_ options: RunOptions) throws(CLIError) -> BooksFaults {
        var faults = options.booksFaults
        guard options.eventsVersion == .v1, faults.events.contains(.dropFirst) else { return faults }
        guard faults == .all else {
            throw .usage(
                "--faults drop-first loses a V1 event for good (V1 retries a server error only, never a timeout), and "
                    + "the game would be blamed for it: leave drop-first out with --events-version v1",
                command: .checkBooks)
        }
        faults.events.remove(.dropFirst)
        return faults
    }

    /// The three endpoints the command needs, or a usage error naming those missing.
    private static func endpoints(_ options: RunOptions) throws(CLIError) -> (HTTPURL, HTTPURL, HTTPURL) {
        guard let award = options.awardUrl, let events = options.eventsUrl, let ledger = options.ledgerUrl else {
            let missing = [
                options.awardUrl == nil ? "--award-url" : nil, options.eventsUrl == nil ? "--events-url" : nil,
                options.ledgerUrl == nil ? "--ledger-url" : nil,
            ].compactMap { $0 }
            throw .usage(
                "check-books plays orders against the game's award and events endpoints and reads its ledger: give "
                    + missing.joined(separator: ", "),
                command: .checkBooks)
        }
        return (award, events, ledger)
    }

    /// Writes each shrunk scenario: the first to `path`, the next ones beside it
    /// (`books.2.json`); the paths written, and why one could not be.
    private static func write(_ findings: [BooksReport.Finding], to path: String?, seed: UInt64)
        -> (written: [String], failure: CLIError?)
    {
        guard let path else { return ([], nil) }
        var written: [String] = []
        for finding in findings {
            guard let shrunk = finding.shrunk else { continue }
            let target = written.isEmpty ? path : numbered(path, written.count + 1)
            let text = ScenarioWriter.text(
                of: shrunk.scenario,
                description: "\(finding.finding.invariant.rawValue), shrunk by paylinks check-books --seed \(seed) "
                    + "from player \(finding.finding.player)'s history of \(finding.scenario.steps.count) steps")
            do {
                try System.writeFile(target, Array(text.utf8))
            } catch {
                let reason = error == .missing ? "its directory does not exist" : Inputs.describe(error)
                return (
                    written,
                    .cannotWrite(
                        "cannot write the scenario '\(MessageText.sanitized(target))': \(reason); give --write-scenario "
                            + "a path in a directory that exists and can be written")
                )
            }
            written.append(target)
        }
        return (written, nil)
    }

    /// `books.json` as the `n`th file: `books.n.json`.
    static func numbered(_ path: String, _ number: Int) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[slash...].lastIndex(of: "."), dot > slash else { return "\(path).\(number)" }
        return "\(path[..<dot]).\(number)\(path[dot...])"
    }
}

/// The names of a history's players: `books-1a2b3c4d-7`, the run's seed in them so that
/// two runs with different seeds never share a player, and fresh names for the players of
/// replays while a finding is shrunk.
struct BooksPlayer: Sendable {
    /// The part every name shares.
    let prefix: String

    /// The names of the run with `seed`.
    init(seed: UInt64) {
        let hex = String(seed & 0xFFFF_FFFF, radix: 16)
        prefix = "books-" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Player `index`, from 0: `books-1a2b3c4d-1`.
    func name(_ index: Int) -> String { "\(prefix)-\(index + 1)" }

    /// The player of replay `replay` of player `original`'s history: `books-1a2b3c4d-7-r3`.
    func replay(_ original: String, _ replay: Int) -> String { "\(original)-r\(replay)" }

    /// The player of the scenario written from player `original`'s shrunk history:
    /// `books-1a2b3c4d-7-shrunk`.
    func written(_ original: String) -> String { "\(original)-shrunk" }
}
