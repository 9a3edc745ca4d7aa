import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// `paylinks run`: scenario files, loaded first, run in order on one process or on
/// `--jobs` copies, checked, and reported.
enum RunCommand: Subcommand {
    /// The endpoint a scenario's `key` names, else the command line's.
    private static func endpoint(_ text: String?, else option: HTTPURL?, key: String, in scenario: Scenario)
        throws(CLIError) -> HTTPURL?
    {
        guard let text else { return option }
        do {
            return try HTTPURL(text)
        } catch {
            throw .invalidFixture(
                FixtureError(file: scenario.file, position: nil, path: "configuration.\(key)", reason: "\(error)"))
        }
    }

    /// The largest scenario file paylinks reads.
    static let scenarioSizeLimit = 1 << 20

    /// `paylinks run`: loads every scenario first (a broken file stops the run before any
    /// callback), runs them in order, on `--jobs` processes when there are several, and
    /// ends with the closing line, the annotations and the reports.
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        let worker = context.value(of: .runWorker).flatMap(Int.init)
        // A copy of `run --jobs` frames both streams into its standard output, in order.
        var context = context
        let framed = BufferedOutput(context.standardOutput, capacity: 1 << 18)
        defer { if worker != nil { try? framed.flush() } }
        if worker != nil { context = RunWorker.framing(context, into: framed) }
        let seed = options.seed ?? context.entropy()
        let now = options.now ?? context.clock()
        let jobs = options.jobs ?? context.processorCount()
        if worker == nil, jobs > 1, !options.operands.contains("-"), let runCopies = context.runCopies {
            let files = try scenarioFiles(options.operands)
            if files.count > 1,
                let outcome = try runInCopies(
                    files, jobs: min(jobs, files.count), options: options, catalog: catalog, seed: seed, now: now,
                    context: context, runCopies: runCopies)
            {
                return try finish(outcome, options: options, seed: seed, context: context)
            }
        }
        let outcome = try runHere(
            options, catalog: catalog, seed: seed, now: now, firstOrdinal: worker, context: context,
            handBack: worker == nil ? nil : { try? framed.write(RunWorker.record($0)) }
        ) {
            if worker != nil { try? framed.write(RunWorker.frame(.scenarios, "")) }
        }
        guard worker == nil else {
            // The run that started this copy decides what a share without a callback means.
            try? framed.write(RunWorker.record(outcome))
            return (try? outcome.exitCode()) ?? .success
        }
        return try finish(outcome, options: options, seed: seed, context: context)
    }

    /// Loads and runs the scenarios in this process. A copy of `run --jobs` starts at
    /// `firstOrdinal`, marks where its scenarios' lines start, leaves a filter that matches
    /// none of its scenarios to the run that started it, and hands a file that did not load
    /// back to it.
    private static func runHere(
        _ options: RunOptions, catalog: Catalog, seed: UInt64, now: Int, firstOrdinal: Int?, context: RunContext,
        handBack: ((RunOutcome) -> Void)? = nil, startingScenarios: () -> Void = {}
    ) throws(CLIError) -> RunOutcome {
        var scenarios: [Scenario] = []
        let cells = MatrixCell.cells(of: options.matrix)
        let given = TargetChoice(platform: options.platform, version: options.sdkVersion == nil ? nil : options.target)
        for source in try scenarioSources(options.operands, context: context) {
            for cell in cells {
                var scenario: Scenario
                do {
                    scenario = try ScenarioLoader.load(
                        source, catalog: catalog, options: given, cell: options.matrix.isEmpty ? nil : cell)
                } catch {
                    guard !options.matrix.isEmpty else {
                        throw brokenFile(error, options: options, handBack: handBack, context: context)
                    }
                    // A file wrong on its own is wrong under every combination: said once, as
                    // it is, with none of them.
                    var sound: Scenario
                    do {
                        sound = try ScenarioLoader.load(source, catalog: catalog, options: given)
                    } catch {
                        throw brokenFile(error, options: options, handBack: handBack, context: context)
                    }
                    // One sound on its own, refused only in this combination, does not apply
                    // there: a step or code its generation lacks. A combination that names no
                    // SDK on the file's platform is the run's error, and says so.
                    guard let target = try? cell.target(file: sound.configuration.choice, options: given) else {
                        throw brokenFile(error, options: options, handBack: handBack, context: context)
                    }
                    let first = error.problems[0]
                    sound.name += "[\(cell.label)]"
                    sound.combination = cell.label
                    sound.doesNotApply =
                        "does not apply to \(target): \(first.path.map { "\($0): " } ?? "")\(first.reason)"
                    scenario = sound
                }
                scenario.ordinal = (firstOrdinal ?? 0) + scenarios.count
                scenarios.append(scenario)
            }
        }
        let loaded = scenarios
        if let pattern = options.filter {
            scenarios = loaded.filter { Glob.matches(pattern, $0.name) }
            if scenarios.isEmpty && firstOrdinal == nil { throw noMatch(pattern, names: loaded.map(\.name)) }
        }
        // Each note once, in the order of the scenarios, which the copies of `run --jobs`
        // keep too: the run that started them says each once, in their order.
        var countries: [String] = []
        var notes: [String] = []
        for scenario in scenarios {
            if let note = scenario.note, !notes.contains(note) {
                notes.append(note)
                try? context.standardError.write("note: \(note)\n")
            }
            for country in [scenario.configuration.country] + scenario.steps.compactMap(\.country)
            where !countries.contains(country) {
                countries.append(country)
                PaylinksCLI.noteFallback(for: country, catalog: catalog, context: context)
            }
        }
        var settings = ScenarioRunner.Settings(
            format: options.format, trace: options.trace, seed: seed, now: now, faultRate: options.faultRate ?? 0)
        if options.platform != nil || options.sdkVersion != nil { settings.target = options.target }
        settings.device = options.device
        settings.failFast = options.failFast
        settings.rates = options.rates
        settings.monotonicMilliseconds = context.monotonicMilliseconds
        settings.language = options.language
        for (index, scenario) in scenarios.enumerated() {
            settings.awardURLs[index] = try Self.endpoint(
                scenario.configuration.awardUrl, else: options.awardUrl, key: "awardUrl", in: scenario)
            settings.eventURLs[index] = try Self.endpoint(
                scenario.configuration.eventsUrl, else: options.eventsUrl, key: "eventsUrl", in: scenario)
        }
        let uses = [
            settings.awardURLs.isEmpty ? nil : "award callbacks", settings.eventURLs.isEmpty ? nil : "events",
        ].compactMap { $0 }
        if !uses.isEmpty {
            let signing = try Signing(options: options, context: context)
            if !settings.eventURLs.isEmpty { settings.events = try EventSettings(options: options, signing: signing) }
            signing.note(uses: uses.joined(separator: " and "), context: context)
            if let url = settings.awardURLs.values.first {
                settings.awards = signing.awards(to: url, options: options)
            }
        }
        if let url = options.ledgerUrl {
            settings.ledger = ScenarioLedger(
                AuditLedger(url: url, wait: options.ledgerWait * 1000), checksBooks: false, rule: .keep)
        } else if let scenario = scenarios.first(where: { $0.steps.contains { $0.expectation?.ledger != nil } }),
            let step = scenario.steps.first(where: { $0.expectation?.ledger != nil })
        {
            throw .usage(
                "\(MessageText.sanitized(scenario.file)): step \(step.label) expects what the game's ledger shows; give "
                    + "--ledger-url URL, the ledger's GET URL?playerId=ID",
                command: .run)
        }
        startingScenarios()
        let runner = ScenarioRunner(
            catalog: catalog, settings: settings, output: context.standardOutput, diagnostics: context.standardError)
        let summary: ScenarioRunner.Summary
        do {
            summary = try runner.run(scenarios)
        } catch {
            throw .output(error)
        }
        if let reason = summary.cannotRun { throw .unavailable(reason) }
        return RunOutcome(
            entries: RunReport.entries(of: loaded, ran: summary.results, filter: options.filter),
            usedRunSeed: summary.usedRunSeed,
            finalExit: summary.results.reduce(nil) { RunOutcome.higher($0, $1.finalExit) })
    }

    /// A scenario file that does not load: the run stops before any callback, but the
    /// reports asked for still say why, and under GitHub Actions each problem is annotated
    /// at its place. A copy of `run --jobs` leaves both to the run that started it, handing
    /// the problems back in its outcome.
    private static func brokenFile(
        _ error: FixtureError, options: RunOptions, handBack: ((RunOutcome) -> Void)?, context: RunContext
    ) -> CLIError {
        let outcome = RunOutcome(entries: [RunReport.Entry(broken: error)], usedRunSeed: false, finalExit: nil)
        if let handBack {
            handBack(outcome)
        } else {
            do {
                try reportBroken(outcome, options: options, context: context)
            } catch {
                // The file's problem is the one to report; a report that could not be written too.
                if let message = error.message { try? context.standardError.write(message + "\n") }
            }
        }
        return .invalidFixture(error)
    }

    /// The annotations and reports of a run that stopped on a file that did not load.
    private static func reportBroken(_ outcome: RunOutcome, options: RunOptions, context: RunContext)
        throws(CLIError)
    {
        annotate(outcome, context: context)
        try writeReports(outcome, options: options)
    }

    private static func noMatch(_ pattern: String, names: [String]) -> CLIError {
        .usage(
            "no scenario is named like '\(MessageText.sanitized(pattern))'; the names are "
                + names.map { MessageText.sanitized($0) }.joined(separator: ", "), command: .run)
    }

    /// Runs the scenario files in `jobs` contiguous shares, the first in this process and
    /// each other on a copy of paylinks at the same time, and writes what they printed in
    /// the files' order, as one process would have: the notes once, then each scenario's
    /// callbacks and lines; with `--fail-fast`, nothing after the first failure. Nil when
    /// the copies could not be started.
    private static func runInCopies(
        _ files: [String], jobs: Int, options: RunOptions, catalog: Catalog, seed: UInt64, now: Int,
        context: RunContext, runCopies: ([[String]], [[String: String]]) -> [ProcessOutput]?
    ) throws(CLIError) -> RunOutcome? {
        let cells = MatrixCell.cells(of: options.matrix).count
        var shares: [ArraySlice<String>] = []
        var start = 0
        for job in 0..<jobs {
            let end = files.count * (job + 1) / jobs
            shares.append(files[start..<end])
            start = end
        }
        // What a copy would decide on its own, decided once here: the same seed, clock and colours.
        let color = PaylinksCLI.usesColor(options, context: context) ? "always" : "never"
        let common = options.passedOn + ["--seed=\(seed)", "--now=\(now)", "--color=\(color)", "--jobs=1"]
        var starts: [Int] = []
        var first = 0
        for share in shares {
            starts.append(first)
            first += share.count * cells
        }
        guard
            let outputs = runCopies(
                shares.dropFirst().map { ["run"] + common + ["--"] + Array($0) },
                starts.dropFirst().map { [RunWorker.variable: String($0)] }),
            let here = TemporaryFile()
        else { return nil }
        // This process, started and with its catalog loaded, runs the first share meanwhile.
        let outcomeHere = try runShare(
            Array(shares[0]), into: here, options: options, catalog: catalog, seed: seed, now: now, context: context)
        var finished: [(outcome: RunOutcome, source: ShareSource)] = [(outcomeHere, .here(here))]
        var notes: [Substring] = []
        for line in here.withContents({ RunWorker.notes(in: $0) }).split(separator: "\n") where !notes.contains(line) {
            notes.append(line)
        }
        for output in outputs {
            // A copy that stopped before its scenarios found a problem: the first one, as a
            // single process would have reported it.
            guard let (said, outcome) = output.withStandardOutput({ RunWorker.summary(of: $0) }),
                !outcome.entries.contains(where: { $0.status == .broken })
            else {
                // The annotations and reports first, then the copy's message, as one process says them.
                if let (_, outcome) = output.withStandardOutput({ RunWorker.summary(of: $0) }) {
                    try reportBroken(outcome, options: options, context: context)
                }
                try? context.standardError.write(String(decoding: output.standardError(), as: UTF8.self))
                throw .exited(ExitCode(rawValue: output.status) ?? .software)
            }
            for line in said.split(separator: "\n") where !notes.contains(line) { notes.append(line) }
            finished.append((outcome, .copy(output)))
        }
        let loaded = finished.flatMap(\.outcome.entries)
        if let pattern = options.filter, !loaded.contains(where: \.ran) {
            throw noMatch(pattern, names: loaded.map(\.result.name))
        }
        for line in notes { try? context.standardError.write(line + "\n") }
        var entries: [RunReport.Entry] = []
        var stopped = false
        var usedRunSeed = false
        var finalExit: ExitCode?
        for share in finished {
            guard !stopped else {
                entries += share.outcome.entries.map {
                    RunReport.Entry(result: .init(name: $0.result.name, file: $0.result.file), status: .skipped(nil))
                }
                continue
            }
            var failure: OutputError?
            share.source.withFrames { frames in
                do throws(OutputError) {
                    try RunWorker.replay(frames, to: context)
                } catch {
                    failure = error
                }
            }
            if let failure { throw .output(failure) }
            entries += share.outcome.entries
            usedRunSeed = usedRunSeed || share.outcome.usedRunSeed
            finalExit = RunOutcome.higher(finalExit, share.outcome.finalExit)
            stopped = options.failFast && share.outcome.entries.contains { $0.ran && !$0.result.passed }
        }
        return RunOutcome(entries: entries, usedRunSeed: usedRunSeed, finalExit: finalExit)
    }

    /// Where a share's frames wait: here, or with the copy that ran it.
    private enum ShareSource {
        case here(TemporaryFile)
        case copy(ProcessOutput)

        func withFrames(_ body: (UnsafeRawBufferPointer) -> Void) {
            switch self {
            case .here(let file): file.withContents(body)
            case .copy(let output): output.withStandardOutput(body)
            }
        }
    }

    /// Runs one share of `run --jobs` in this process as a copy runs its own, its frames
    /// written to `file`. A file of the share that does not load is reported as one
    /// process reports it.
    private static func runShare(
        _ files: [String], into file: TemporaryFile, options: RunOptions, catalog: Catalog, seed: UInt64, now: Int,
        context: RunContext
    ) throws(CLIError) -> RunOutcome {
        var share = options
        share.operands = files
        let framed = BufferedOutput(file.output, capacity: 1 << 18)
        let shareContext = RunWorker.framing(context, into: framed)
        var handedBack: RunOutcome?
        do throws(CLIError) {
            let outcome = try runHere(
                share, catalog: catalog, seed: seed, now: now, firstOrdinal: 0, context: shareContext,
                handBack: { handedBack = $0 }
            ) {
                try? framed.write(RunWorker.frame(.scenarios, ""))
            }
            do {
                try framed.flush()
            } catch {
                throw CLIError.output(error)
            }
            return outcome
        } catch {
            if let handedBack { try reportBroken(handedBack, options: options, context: context) }
            throw error
        }
    }

    /// The end of a run: the annotations, the reports, the closing line, the exit code.
    private static func finish(_ outcome: RunOutcome, options: RunOptions, seed: UInt64, context: RunContext)
        throws(CLIError) -> ExitCode
    {
        annotate(outcome, context: context)
        try writeReports(outcome, options: options)
        // The seed is worth printing only when it decided something: then it replays the run.
        let seedNote = outcome.usedRunSeed ? "; seed \(seed)" : ""
        try? context.standardError.write("\(RunReport.closingLine(outcome.entries))\(seedNote)\n")
        return try outcome.exitCode()
    }

    /// Under GitHub Actions, an `::error` annotation at each failed expectation and at each
    /// problem of a file that did not load.
    private static func annotate(_ outcome: RunOutcome, context: RunContext) {
        guard context.value(of: .githubActions) == "true" else { return }
        for entry in outcome.entries where !entry.skipped {
            for mismatch in entry.result.mismatches {
                try? context.standardError.write(
                    RunReport.annotation(mismatch, file: entry.result.file, combination: entry.result.combination)
                        + "\n")
            }
        }
    }

    /// Writes each `--report` asked for.
    private static func writeReports(_ outcome: RunOutcome, options: RunOptions) throws(CLIError) {
        for request in options.reports {
            do {
                try System.writeFile(request.path, Array(RunReport.render(outcome.entries, as: request.format).utf8))
            } catch {
                let reason = error == .missing ? "its directory does not exist" : Inputs.describe(error)
                throw .cannotWrite(
                    "cannot write the \(request.format.rawValue) report '\(MessageText.sanitized(request.path))': "
                        + "\(reason); give a path in a directory that exists and can be written")
            }
        }
    }

    /// The files `operands` name, directories listed: for `run --jobs` to share out.
    private static func scenarioFiles(_ operands: [String]) throws(CLIError) -> [String] {
        var files: [String] = []
        for operand in operands {
            guard System.isDirectory(operand) == true else {
                files.append(operand)
                continue
            }
            files += try jsonFiles(below: operand)
        }
        return files
    }

    /// The scenario files `operands` name: a file as it is, every `*.json` below a directory
    /// (in the order of their paths, hidden entries left out), and `-` for standard input.
    private static func scenarioSources(_ operands: [String], context: RunContext) throws(CLIError)
        -> [FixtureSource]
    {
        var sources: [FixtureSource] = []
        for operand in operands {
            if operand == "-" {
                guard !sources.contains(where: { $0.name == "stdin" }) else {
                    throw .usage("'-' (standard input) is given twice; give it once", command: .run)
                }
                do {
                    sources.append(
                        FixtureSource(name: "stdin", bytes: try context.readStandardInput(scenarioSizeLimit)))
                } catch .tooLarge(let limit) {
                    throw .invalidFixture(
                        FixtureError(
                            file: "stdin", position: nil, path: nil,
                            reason: "larger than the \(limit >> 20) MiB limit for scenario files"))
                } catch {
                    throw .noInput("standard input cannot be read: \(Inputs.describe(error))")
                }
            } else if System.isDirectory(operand) == true {
                let files = try jsonFiles(below: operand)
                guard !files.isEmpty else {
                    throw .noInput("directory '\(MessageText.sanitized(operand))' holds no .json scenario files")
                }
                for file in files {
                    sources.append(try Inputs.readInput(file, kind: "scenario file", limit: scenarioSizeLimit))
                }
            } else {
                sources.append(try Inputs.readInput(operand, kind: "scenario file", limit: scenarioSizeLimit))
            }
        }
        return sources
    }

    /// The `*.json` files below `directory`; see ``jsonFiles(below:depth:visited:)``.
    private static func jsonFiles(below directory: String) throws(CLIError) -> [String] {
        var visited: Set<[UInt64]> = []
        return try jsonFiles(below: directory, depth: 0, visited: &visited)
    }

    /// The `*.json` files below `directory`, depth first in name order: each directory
    /// once however many links lead to it, and at most 32 levels down.
    private static func jsonFiles(below directory: String, depth: Int, visited: inout Set<[UInt64]>) throws(CLIError)
        -> [String]
    {
        // Each directory once, however many links lead to it: a link to a parent is a loop.
        guard depth < 32, let identity = System.identity(directory), visited.insert(identity).inserted else {
            return []
        }
        let entries: [(name: String, isDirectory: Bool?)]
        do {
            entries = try System.directoryListing(directory)
        } catch {
            throw .noInput("directory '\(MessageText.sanitized(directory))' cannot be read: \(Inputs.describe(error))")
        }
        var files: [String] = []
        for (name, isDirectory) in entries where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if isDirectory == true {
                files += try jsonFiles(below: path, depth: depth + 1, visited: &visited)
            } else if name.hasSuffix(".json") {
                files.append(path)
            }
        }
        return files
    }
}
