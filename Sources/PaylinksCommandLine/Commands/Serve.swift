import PaylinksDelivery
import PaylinksFixtures
import PaylinksHTTP
import PaylinksKit
import PaylinksSandbox

/// `paylinks serve`: the sandbox on an HTTP server until SIGINT or SIGTERM; requests,
/// warnings and award attempts on stderr, a line each; the callbacks the game's client
/// receives on stdout. With `-- CMD`, until CMD ends instead, whose status it ends with.
enum ServeCommand: Subcommand {
    static func run(_ options: RunOptions, catalog: Catalog, context: RunContext) throws(CLIError) -> ExitCode {
        // A command that cannot run is refused before anything listens.
        if let program = options.command.first, let problem = context.findCommand(program) {
            throw commandProblem(problem, program: program)
        }
        // A stderr whose reader leaves only loses the log; a stdout whose reader leaves stops
        // the sandbox through its output's failure, below, not through SIGPIPE.
        context.ignoreBrokenPipes()
        // Room for every connection, the award pool and the files, past the usual 1,024.
        context.raiseDescriptorLimit(HTTPServer.Limits().connections + 1024)
        // What the sessions are made with; the rest of the settings follow once the server listens.
        var settings = Sandbox.Settings(baseURL: "", publisherToken: "", seed: options.seed ?? context.entropy())
        settings.sessionByteBudget = options.sessionBudget << 20
        settings.rateLimit = options.rateLimit
        settings.rates = options.rates
        settings.projectId = options.projectId
        settings.blockedPlayers = options.blockedPlayers
        settings.partialRefund = options.partialRefund
        settings.checkoutPublicKey = options.checkoutPublicKey
        // One clock for the sandbox and the signatures of what it sends.
        let clock: SandboxClock =
            options.clockMode == .virtual
            ? .virtual(at: (options.now ?? context.clock()) * 1000) : .reading { context.clock() * 1000 }
        // The data directory first: a bad one is refused before anything listens. Its records
        // go into a sandbox of its seed, which the journal's first line names, one at a time.
        var restored: Sandbox?
        let restorer = { (seed: UInt64) -> (Sandbox.Record) -> Void in
            settings.seed = seed
            let sandbox = Sandbox(catalog: catalog, settings: settings, clock: clock)
            restored = sandbox
            return sandbox.restore
        }
        // An import is read whole before the directory is: it takes the place of the journal's records.
        let imported = try options.importFile.map { (file) throws(CLIError) in
            try SandboxImport.read(file, seed: options.seed, virtual: clock.mode == .virtual, restorer: restorer)
        }
        let store = try options.dataDirectory.map { (directory) throws(CLIError) in
            try SandboxStore.open(
                directory, seed: imported?.seed ?? options.seed, importing: options.importFile,
                newSeed: { settings.seed },
                restorer: imported == nil ? restorer : { _ in { _ in } }
            ).store
        }
        if let store, imported != nil, let sandbox = restored,
            let failure = store.replace(with: sandbox.journalContents)
        {
            throw .cannotCreate(
                "\(failure); the imported state cannot be kept there: free the disk, or give another --data")
        }
        let refusals = RefusalLog()
        let server = try listen(options, refusals: refusals)
        // Written before anything else is said: a script waiting for it learns at once.
        let portFileText = Array("\(localURL(options, port: server.port))\n".utf8)
        if let portFile = options.portFile { try writePortFile(portFile, portFileText) }
        // Gone once the sandbox is: a script that finds it then would ask a URL nobody serves.
        defer { if let portFile = options.portFile { removePortFile(portFile, holding: portFileText) } }
        var (configuration, token) = try deliveries(options, context: context)
        configuration.transport = .http(clock: clock.signingClock)
        configuration.ledger = options.ledgerUrl
        let sandbox = restored ?? Sandbox(catalog: catalog, settings: settings, clock: clock)
        var (answered, greeting) = answering(sandbox.settings, on: server, token: token, options: options)
        answered.version = Help.version
        sandbox.settings = answered
        // Written a turn of the server's loop at a time by a thread of its own, so that a stderr
        // nobody reads stalls that thread and not the server (LogBuffer.swift says why).
        let log = LogBuffer(context.standardError)
        defer { log.finish(within: LogBuffer.closingMilliseconds) }
        server.onProblem = { line in log.write(line: "warning: \(MessageText.oneLine(line))") }
        refusals.start(log)
        let renderer = options.format.renderer(
            catalog: catalog, color: PaylinksCLI.usesColor(options, context: context), target: options.target,
            language: options.language)
        var outputFailure: OutputError?
        sandbox.onCallback = { callback in
            guard outputFailure == nil else { return }
            do throws(OutputError) { try context.standardOutput.write(renderer.render(callback)) } catch {
                outputFailure = error
            }
        }
        var stopRequested = { false }
        let service = SandboxService(
            sandbox: sandbox, configuration: configuration, journal: store, log: log,
            stopRequested: { stopRequested() || outputFailure != nil })
        if let file = options.importFile {
            let (sessions, deliveries) = (sandbox.sessionCount, sandbox.heldDeliveries.count)
            log.write(
                line: "imported \(MessageText.sanitized(file)): \(sessions) session\(sessions == 1 ? "" : "s") and "
                    + "\(deliveries) deliver\(deliveries == 1 ? "y" : "ies")")
            for warning in imported?.warnings ?? [] { log.write(line: warning) }
        }
        if let kept = sandbox.restoredClock.map({ ClockText.iso8601(milliseconds: $0) }) {
            if clock.mode == .wall, options.importFile == nil, let directory = options.dataDirectory {
                log.write(
                    line: "warning: the journal of '\(MessageText.sanitized(directory))' holds a virtual clock at "
                        + "\(kept), which the wall clock leaves aside; add --clock virtual to go on from it")
            } else if clock.mode == .virtual, options.now != nil {
                log.write(
                    line: "warning: --now (or SOURCE_DATE_EPOCH) is left aside: the clock goes on from \(kept), where "
                        + "the \(options.importFile == nil ? "journal's" : "imported") clock stood")
            }
        }
        service.start(greeting: greeting)
        if clock.mode == .virtual {
            log.write(
                line: "clock: virtual, at \(ClockText.iso8601(milliseconds: clock.now)); POST /control/v1/clock "
                    + #"with {"advance": "PT15M"} moves it"#)
        }
        var command: Result<ChildProcess, CommandStartError>?
        if !options.command.isEmpty {
            let started = Result { () throws(CommandStartError) in
                try context.startCommand(
                    options.command,
                    [
                        "PAYLINKS_SANDBOX_URL": localURL(options, port: server.port),
                        "PAYLINKS_PUBLISHER_TOKEN": answered.publisherToken,
                    ])
            }
            command = started
            stopRequested = ended(started, options: options, log: log)
            // The sandbox stops as soon as the command ends, not at the server's next look.
            if case .success(let child) = started { child.whenEnded(server.wakeUp) }
        } else {
            stopRequested = context.watchForStop()
        }
        server.run(service)
        service.finish()
        let child = try? command?.get()
        if let child {
            stop(child)
            child.takeBackTerminal()
        }
        if let outputFailure { throw .output(outputFailure) }
        log.write(line: "paylinks sandbox stopped")
        if case .failure(let problem)? = command { throw commandProblem(problem, program: options.command[0]) }
        return child?.exitStatus.map(ExitCode.init(passingOn:)) ?? .success
    }
}
