import PaylinksAppcharge
import PaylinksFixtures
import PaylinksHTTP
import PaylinksKit

/// What a paylinks run reads from and writes to, so tests can supply their own.
public struct RunContext {
    /// Looks up an environment variable (`PAYLINKS_FIXTURES`).
    public var environment: (String) -> String?
    /// Where callbacks and requested listings go.
    public var standardOutput: any OutputSink
    /// Where diagnostics go.
    public var standardError: any OutputSink
    /// The clock, in Unix seconds, used when `--now` is absent.
    public var clock: () -> Int
    /// A fresh seed, used when `--seed` is absent.
    public var entropy: () -> UInt64
    /// Whether standard output is a terminal, where `--color auto` colours text.
    public var standardOutputIsTerminal: Bool
    /// Starts watching for a request to stop a server, and returns what tells whether one
    /// came: SIGINT and SIGTERM in the real process.
    public var watchForStop: () -> () -> Bool = { { false } }
    /// Milliseconds on a monotonic clock: how long each scenario of `run` took, for the
    /// JUnit report. Always 0 unless set, so that tests' reports are the same bytes.
    public var monotonicMilliseconds: @Sendable () -> Int = { 0 }
    /// Counts the processors, the default of `run --jobs`: asked only by a run that needs it.
    public var processorCount: () -> Int = { 1 }
    /// Runs copies of paylinks at once (`run --jobs`); nil where none can be started.
    public var runCopies: (([[String]], [[String: String]]) -> [ProcessOutput]?)?
    /// Reads standard input to its end, up to a limit in bytes: `run -`.
    public var readStandardInput: (Int) throws(FileSystemError) -> [UInt8] = { _ throws(FileSystemError) in [] }

    /// Creates a context.
    public init(
        environment: @escaping (String) -> String?, standardOutput: any OutputSink, standardError: any OutputSink,
        clock: @escaping () -> Int, entropy: @escaping () -> UInt64, standardOutputIsTerminal: Bool = false,
        watchForStop: @escaping () -> () -> Bool = { { false } }
    ) {
        self.environment = environment
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.clock = clock
        self.entropy = entropy
        self.standardOutputIsTerminal = standardOutputIsTerminal
        self.watchForStop = watchForStop
    }

    /// The real process: its environment, standard output and error, clock and entropy.
    public static func process() -> RunContext {
        var context = RunContext(
            environment: System.environmentVariable,
            standardOutput: FileDescriptorOutput(descriptor: 1),
            standardError: FileDescriptorOutput(descriptor: 2),
            clock: System.now,
            entropy: System.randomSeed,
            standardOutputIsTerminal: System.isTerminal(descriptor: 1),
            watchForStop: {
                System.catchStopSignals()
                return System.stopRequested
            })
        context.readStandardInput = { limit throws(FileSystemError) in try System.readStandardInput(limit: limit) }
        context.processorCount = { System.processorCount }
        context.monotonicMilliseconds = { System.monotonicMilliseconds() }
        context.runCopies = { System.runCopies($0, environment: $1) }
        return context
    }
}

/// The paylinks command line: parse, run, report, and say how it ended.
@MainActor
public enum PaylinksCLI {
    /// The largest fixture file paylinks reads; real fixtures are a few kilobytes.
    public static let fixtureSizeLimit = 1 << 20

    /// Runs a command line (`arguments[0]` is the program's name) and returns its exit code.
    public static func run(_ arguments: [String], context: RunContext = .process()) -> ExitCode {
        do {
            return try execute(ArgumentParser.parse(arguments), context: context)
        } catch {
            if let message = error.message {
                // If even standard error is gone, the exit code is all that is left to say it.
                try? context.standardError.write(message + "\n")
            }
            return error.exitCode
        }
    }

    private static func execute(_ invocation: Invocation, context: RunContext) throws(CLIError) -> ExitCode {
        switch invocation {
        case .help(let command):
            try write(command.map(Help.command) ?? Help.overview(), to: context.standardOutput)
            return .success
        case .version:
            try write("paylinks \(Help.version)\n", to: context.standardOutput)
            return .success
        case .run(let command, let given):
            let options = try environmentDefaults(given, command: command, environment: context.environment)
            // A scenario run picks each scenario's generation; everything else takes the options'.
            let loaded = try loadCatalog(options, environment: context.environment)
            let catalog = command == .run ? loaded : loaded.forGeneration(options.target.generation)
            switch command {
            case .initialize, .pricePoints, .purchase, .cancel:
                return try runFlow(command, options: options, catalog: catalog, context: context)
            case .errors:
                if let topic = options.operands.first {
                    guard let code = catalog.statusCode(matching: topic) else {
                        throw .usage(catalog.unknownStatusCodeMessage(topic), command: .errors)
                    }
                    try write(
                        CatalogListing.explain(
                            code, format: options.format, target: options.target, catalog: catalog,
                            fixtures: options.fixtures),
                        to: context.standardOutput)
                } else {
                    try write(
                        CatalogListing.statusCodes(
                            catalog, format: options.format, color: usesColor(options, context: context),
                            target: options.target, fixtures: options.fixtures),
                        to: context.standardOutput)
                }
                return .success
            case .offers:
                noteFallback(for: options.country, catalog: catalog, context: context)
                try write(
                    CatalogListing.offers(
                        catalog, country: options.country, format: options.format,
                        color: usesColor(options, context: context), platform: options.target.platform),
                    to: context.standardOutput)
                return .success
            case .countries:
                try write(
                    CatalogListing.countries(
                        catalog, format: options.format, color: usesColor(options, context: context)),
                    to: context.standardOutput)
                return .success
            case .run:
                return try runScenarios(options, catalog: catalog, context: context)
            case .checkAward:
                return try checkAward(options, context: context)
            case .serve:
                return try serve(options, catalog: catalog, context: context)
            case .completions:
                let name = options.operands.first ?? ""
                guard let shell = Completions.Shell.named(name) else {
                    let shells = Completions.Shell.allCases.map(\.rawValue)
                    let hint = Suggestion.hint(for: name, among: shells, quoted: .single) ?? ""
                    throw .usage(
                        "no completions for '\(MessageText.sanitized(name))': choose \(shells.joined(separator: ", "))\(hint)",
                        command: .completions)
                }
                try write(Completions.script(for: shell, catalog: catalog), to: context.standardOutput)
                return .success
            case .man:
                try write(ManPage.roff(), to: context.standardOutput)
                return .success
            }
        }
    }

    /// Says on standard error when a country has no prices of its own and gets the
    /// fallback country's, so that nobody mistakes US prices for local ones.
    static func noteFallback(for country: String, catalog: Catalog, context: RunContext) {
        guard catalog.localizations[country] == nil, let fallback = catalog.localization(for: country) else { return }
        try? context.standardError.write(
            "note: \(country) has no prices of its own; it gets the \(Catalog.fallbackCountry) prices "
                + "(\(fallback.data.currencyCode)). 'paylinks countries' lists the localized countries\n")
    }

    /// Whether text output is coloured: `--color always`, or `auto` on a terminal unless
    /// `NO_COLOR` is set (and not empty) or `TERM` is `dumb`. JSON never is.
    static func usesColor(_ options: RunOptions, context: RunContext) -> Bool {
        guard options.format == .text else { return false }
        switch options.color {
        case .always: return true
        case .never: return false
        case .auto:
            let noColor = context.value(of: .noColor).map { !$0.isEmpty } ?? false
            return context.standardOutputIsTerminal && !noColor && context.value(of: .term) != "dumb"
        }
    }

    private static func write(_ text: String, to sink: any OutputSink) throws(CLIError) {
        do {
            try sink.write(text)
        } catch {
            throw .output(error)
        }
    }

    // MARK: The flow

    private static func runFlow(_ command: Command, options: RunOptions, catalog: Catalog, context: RunContext)
        throws(CLIError) -> ExitCode
    {
        if let sku = options.sku, catalog.offer(sku: sku) == nil {
            let hint =
                Suggestion.hint(for: sku, among: catalog.offers.map(\.sku), quoted: .single)
                ?? "; offers: " + catalog.offers.map(\.sku).joined(separator: ", ")
            throw .usage("unknown SKU '\(MessageText.sanitized(sku))'\(hint)", command: command)
        }
        let failure = try options.error.map { (code) throws(CLIError) in
            try FailurePlan.resolve(code, failAt: options.failAt, command: command, catalog: catalog)
        }
        if command != .initialize { noteFallback(for: options.country, catalog: catalog, context: context) }
        let output = BufferedOutput(context.standardOutput)
        let renderer = options.format.renderer(
            catalog: catalog, color: usesColor(options, context: context), target: options.target,
            language: options.language)
        let delegate = RenderingDelegate(renderer: renderer, output: output)
        let seed = options.seed ?? context.entropy()
        let sdk = PaymentLinksSimulator(
            catalog: catalog, country: options.country, now: options.now ?? context.clock(), seed: seed,
            firstCheckoutIndex: options.index, target: options.target)
        if options.trace {
            let standardError = context.standardError
            sdk.trace = { event in
                try? standardError.write(
                    "trace +\(PaymentLinksSimulator.seconds(event.milliseconds))  \(event.message)\n")
            }
        }
        if let failure { sdk.injectFailure(code: failure.statusCode.code, at: failure.step) }
        var sender: AwardSender?
        var awards: AwardSettings?
        if let url = options.awardUrl {
            let settings = try awardSettings(url: url, options: options, context: context)
            awards = settings
            let awards = AwardSender(
                url: settings.url, key: settings.key, publisherToken: settings.publisherToken,
                waitsInRealTime: settings.waitsInRealTime)
            sdk.grantAwards(with: awards, renderer: renderer, delegate: delegate)
            sender = awards
        }
        defer { sender?.close() }

        sdk.initialize(
            configModel: ACConfigModel(
                checkoutPublicKey: options.checkoutPublicKey, environment: options.environment,
                redirectUrl: options.redirectUrl),
            customerId: options.customerId, delegate: delegate)
        /// One checkout of a purchase or cancel run, the injected failure armed again.
        func checkout() throws(CheckoutSessionError) {
            if let failure, failure.step == .purchase {
                sdk.injectFailure(code: failure.statusCode.code, at: .purchase)
            }
            try sdk.runCheckout(
                offerSku: options.sku ?? "", customerId: options.orderCustomerId ?? options.customerId,
                environment: options.sessionEnvironment ?? options.environment,
                player: playerAction(command, options: options).paying(
                    for: failure?.step == .purchase ? failure?.statusCode : nil, with: options.paymentMethod),
                deliverTwice: false)
        }
        if sdk.configuration != nil {
            switch command {
            case .pricePoints:
                sdk.getPricePoints()
            case .purchase where options.count > 1 && awards != nil:
                guard let awards else { break }
                let summary: String
                do {
                    summary = try sdk.runAwardLoad(
                        count: options.count, connections: options.concurrency, settings: awards, renderer: renderer,
                        delegate: delegate
                    ) { () throws(CheckoutSessionError) in try checkout() }
                } catch {
                    throw .internal("no checkout session for \(options.sku ?? "no SKU"): \(error)")
                }
                if let failure = delegate.failure { throw .output(failure) }
                do {
                    try output.flush()
                } catch {
                    throw .output(error)
                }
                try? context.standardError.write(summary + "\n")
            case .purchase, .cancel:
                var done = 0
                var firstResult: Callback?
                while done < options.count {
                    // Two simulated checkouts prove a template; the rest are written from it.
                    // Awards are real requests, each with its own answer: no template for them.
                    if done == 2, !options.trace, options.awardUrl == nil, let firstResult,
                        let secondResult = delegate.delivered.last,
                        let template = CheckoutLineTemplate(
                            renderer: renderer, result: firstResult, next: secondResult, index: options.index,
                            seed: seed)
                    {
                        try writeBulk(
                            template, seed: seed, indexes: (options.index + 2)..<(options.index + options.count),
                            flushing: output, to: context.standardOutput)
                        break
                    }
                    if done == 1 { firstResult = delegate.delivered.last }
                    done += 1
                    // Only the latest result decides the exit code; keep no more, so memory
                    // stays flat however many checkouts run.
                    delegate.begin(nil)
                    do {
                        try checkout()
                    } catch {
                        throw .internal("no checkout session for \(options.sku ?? "no SKU"): \(error)")
                    }
                    if delegate.failure != nil { break }
                }
            case .initialize, .errors, .offers, .countries, .run, .checkAward, .serve, .completions, .man:
                break
            }
        }
        if let failure = delegate.failure { throw .output(failure) }
        do {
            try output.flush()
        } catch {
            throw .output(error)
        }
        guard let last = delegate.delivered.last else { throw .internal("the flow ended without a callback") }
        return ExitCode(finishingWith: last, catalog: catalog)
    }

    // MARK: Awards

    /// Where awards go and how they are signed: the main key from `--main-key-file` or
    /// `PAYLINKS_MAIN_KEY`, the token from `--publisher-token` or `PAYLINKS_PUBLISHER_TOKEN`,
    /// else the documented demo ones, said once on stderr. The key is never shown.
    static func awardSettings(url: HTTPURL, options: RunOptions, context: RunContext) throws(CLIError)
        -> AwardSettings
    {
        var keyFromFile: [UInt8]?
        if let path = options.mainKeyFile {
            var bytes = try readInput(path, kind: "main key file", limit: 4096).bytes
            while let last = bytes.last, last == 10 || last == 13 || last == 32 || last == 9 { bytes.removeLast() }
            guard !bytes.isEmpty else {
                throw .noInput(
                    "the main key file '\(MessageText.sanitized(path))' is empty; put the studio's main key in it")
            }
            keyFromFile = bytes
        }
        let credentials = Credentials(
            keyFromFile: keyFromFile, keyFromEnvironment: context.value(of: .mainKey),
            tokenFromOption: options.publisherToken, tokenFromEnvironment: context.value(of: .publisherToken))
        // The demo setup is worth a note; a studio that set its key or token has chosen its own.
        if credentials.isDemo {
            try? context.standardError.write(
                "note: award callbacks use the demo main key and publisher token (see the README); set "
                    + "PAYLINKS_MAIN_KEY or --main-key-file, and PAYLINKS_PUBLISHER_TOKEN or --publisher-token, "
                    + "to your studio's\n")
        }
        return AwardSettings(
            url: url, key: credentials.key, publisherToken: credentials.publisherToken,
            waitsInRealTime: options.awardWait == .real)
    }

    /// `paylinks check-award URL`: the audit's findings on stdout, and exit 1 when one failed.
    private static func checkAward(_ options: RunOptions, context: RunContext) throws(CLIError) -> ExitCode {
        let text = options.operands.first ?? ""
        let url: HTTPURL
        do {
            url = try HTTPURL(text)
        } catch {
            throw .usage("\(error)", command: .checkAward)
        }
        let settings = try awardSettings(url: url, options: options, context: context)
        let audit = AwardAudit(
            url: url, key: settings.key, publisherToken: settings.publisherToken, seed: context.entropy())
        let findings: [AuditFinding]
        do {
            findings = try audit.run(options.auditCase.map { [$0] } ?? AwardAuditCase.allCases)
        } catch {
            throw .unavailable(
                // The URL was checked when it was read: its host and port hold no control characters.
                "\(error); start the game's award endpoint, or check the URL")
        }
        try write(
            AuditReport.render(
                findings, url: url.description, format: options.format, color: usesColor(options, context: context)),
            to: context.standardOutput)
        return findings.contains { $0.verdict == .fail } ? .expectationsFailed : .success
    }

    /// Writes the checkouts of `indexes` from a template, in blocks of whole lines,
    /// after what `buffered` holds.
    private static func writeBulk(
        _ template: CheckoutLineTemplate, seed: UInt64, indexes: Range<Int>, flushing buffered: BufferedOutput,
        to sink: any OutputSink
    ) throws(CLIError) {
        let blockSize = 1 << 16
        var block: [UInt8] = []
        block.reserveCapacity(blockSize + template.lineLength)
        do {
            try buffered.flush()
            for index in indexes {
                template.append(seed: seed, index: index, to: &block)
                if block.count >= blockSize {
                    try sink.write(contentsOf: block)
                    block.removeAll(keepingCapacity: true)
                }
            }
            try sink.write(contentsOf: block)
        } catch {
            throw .output(error)
        }
    }

    /// What the player does in a purchase or cancel run.
    private static func playerAction(_ command: Command, options: RunOptions) -> PlayerAction {
        if command == .purchase {
            return .pay(paymentMethodName: options.paymentMethod, outcome: options.outcome ?? .succeeded)
        }
        if options.beforeOrder { return .closeBeforeOrder }
        return .closeCheckout(via: options.closeMethod ?? .checkoutInterface)
    }

    // MARK: Fixtures

    /// `PAYLINKS_SEED` and `SOURCE_DATE_EPOCH` (the reproducible-builds convention) give
    /// the defaults of `--seed` and `--now`, so that a CI job replays the same bytes without
    /// either; the options win. `serve` keeps the real clock: its sessions expire.
    static func environmentDefaults(_ given: RunOptions, command: Command, environment: (String) -> String?)
        throws(CLIError) -> RunOptions
    {
        var options = given
        if options.seed == nil, let text = environment(EnvironmentVariable.seed.rawValue), !text.isEmpty {
            guard let seed = UInt64(text) else {
                throw .usage(
                    "PAYLINKS_SEED is '\(MessageText.sanitized(text))': give a number from 0 to \(UInt64.max), or unset it",
                    command: command)
            }
            options.seed = seed
        }
        if options.now == nil, command != .serve, let text = environment(EnvironmentVariable.sourceDateEpoch.rawValue),
            !text.isEmpty
        {
            guard let now = Int(text), (0...OptionSpec.maximumTimestamp).contains(now) else {
                throw .usage(
                    "SOURCE_DATE_EPOCH is '\(MessageText.sanitized(text))': give Unix seconds from 0 to "
                        + "\(OptionSpec.maximumTimestamp), or unset it", command: command)
            }
            options.now = now
        }
        return options
    }

    /// The catalog: built in, with the files of `--fixtures` or `PAYLINKS_FIXTURES` in
    /// place of the built-in ones they name.
    static func loadCatalog(_ options: RunOptions, environment: (String) -> String?) throws(CLIError) -> Catalog {
        let directory: String
        let origin: String
        if let path = options.fixtures {
            (directory, origin) = (path, "fixture directory '\(MessageText.sanitized(path))' (--fixtures)")
        } else if let path = environment(EnvironmentVariable.fixtures.rawValue), !path.isEmpty {
            (directory, origin) = (path, "fixture directory '\(MessageText.sanitized(path))' (PAYLINKS_FIXTURES)")
        } else {
            return Catalog.builtIn
        }
        let sources = try fixtureSources(in: directory, origin: origin)
        do {
            return try CatalogLoader.load(
                offers: sources[.offers], pricePoints: sources[.pricePoints], statusCodes: sources[.statusCodes],
                g1StatusCodes: sources[.g1StatusCodes], g3StatusCodes: sources[.g3StatusCodes])
        } catch {
            throw .invalidFixture(error)
        }
    }

    private static func fixtureSources(in directory: String, origin: String) throws(CLIError)
        -> [FixtureFile: FixtureSource]
    {
        let names: [String]
        do {
            names = try System.directoryEntries(directory)
        } catch .missing {
            throw .noInput(
                "\(origin) does not exist; give a directory holding offers.json, price-points.json or status-codes.json"
            )
        } catch .wrongKind {
            throw .noInput("\(origin) is a file, not a directory; give the directory that holds it")
        } catch {
            throw .noInput("\(origin) cannot be read: \(describe(error))")
        }
        let known = FixtureFile.allCases.map(\.rawValue)
        var sources: [FixtureFile: FixtureSource] = [:]
        for name in names where name.hasSuffix(".json") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            guard let file = FixtureFile(rawValue: name) else {
                let hint =
                    Suggestion.hint(for: name, among: known, quoted: .bare)
                    ?? "; fixture files are " + known.joined(separator: ", ")
                throw .invalidFixture(
                    FixtureError(file: path, position: nil, path: nil, reason: "not a fixture file name\(hint)"))
            }
            sources[file] = try readInput(path, kind: "fixture file", limit: fixtureSizeLimit)
        }
        guard !sources.isEmpty else {
            throw .noInput("\(origin) holds none of \(known.joined(separator: ", ")); add at least one")
        }
        return sources
    }

    /// Reads a file paylinks was pointed at: a missing or unreadable one is `noInput`
    /// (66), one over `limit` is invalid data (65), refused before it is read whole.
    static func readInput(_ path: String, kind: String, limit: Int) throws(CLIError) -> FixtureSource {
        let shown = MessageText.sanitized(path)
        do {
            return FixtureSource(name: path, bytes: try System.readFile(path, limit: limit))
        } catch .missing {
            throw .noInput("\(kind) '\(shown)' does not exist")
        } catch .wrongKind {
            throw .noInput("'\(shown)' is a directory; give the \(kind)s in it")
        } catch .tooLarge(let limit) {
            throw .invalidFixture(
                FixtureError(
                    file: path, position: nil, path: nil,
                    reason: "larger than the \(limit >> 20) MiB limit for \(kind)s"))
        } catch {
            throw .noInput("cannot read \(shown): \(describe(error))")
        }
    }

    static func describe(_ error: FileSystemError) -> String {
        switch error {
        case .missing: "it does not exist"
        case .wrongKind: "it is a directory"
        case .unreadable(let reason): reason
        case .tooLarge(let limit): "it is larger than \(limit) bytes"
        }
    }
}
