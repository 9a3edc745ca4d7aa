import PaylinksAppcharge
import PaylinksFixtures
import PaylinksHTTP
import PaylinksKit

/// What a paylinks run reads from and writes to, so tests can supply their own.
package struct RunContext {
    /// Looks up an environment variable (`PAYLINKS_FIXTURES`).
    package var environment: (String) -> String?
    /// Where callbacks and requested listings go.
    package var standardOutput: any OutputSink
    /// Where diagnostics go.
    package var standardError: any OutputSink
    /// The clock, in Unix seconds, used when `--now` is absent.
    package var clock: () -> Int
    /// A fresh seed, used when `--seed` is absent.
    package var entropy: () -> UInt64
    /// Whether standard output is a terminal, where `--color auto` colours text.
    package var standardOutputIsTerminal: Bool
    /// Whether standard error is a terminal, where a long command shows its progress.
    package var standardErrorIsTerminal = false
    /// Starts watching for a request to stop a server, and returns what tells whether one
    /// came: SIGINT and SIGTERM in the real process.
    package var watchForStop: () -> () -> Bool = { { false } }
    /// Milliseconds on a monotonic clock: how long each scenario of `run` took, for the
    /// JUnit report. Always 0 unless set, so that tests' reports are the same bytes.
    package var monotonicMilliseconds: @Sendable () -> Int = { 0 }
    /// Counts the processors, the default of `run --jobs`: asked only by a run that needs it.
    package var processorCount: () -> Int = { 1 }
    /// Runs copies of paylinks at once (`run --jobs`); nil where none can be started.
    package var runCopies: (([[String]], [[String: String]]) -> [ProcessOutput]?)?
    /// Raises the process's limit of open descriptors toward a count: `serve`, whose
    /// connections and award pool need more than the usual 1,024. Does nothing unless set.
    package var raiseDescriptorLimit: (Int) -> Void = { _ in }
    /// Makes a write whose reader went away fail instead of ending the process: `serve`,
    /// whose log reader may leave while it serves. Does nothing unless set.
    package var ignoreBrokenPipes: () -> Void = {}
    /// Why a command `serve -- CMD` names cannot run, or nil when it can: found on `PATH`
    /// and executable. Every command runs unless set.
    package var findCommand: (String) -> CommandStartError? = { _ in nil }
    /// Starts a command beside the sandbox (`serve -- CMD`) with variables added to its
    /// environment; SIGINT, SIGTERM and SIGHUP go to its process group from then on. Refuses every command unless set.
    package var startCommand: ([String], [String: String]) throws(CommandStartError) -> ChildProcess = {
        _, _ throws(CommandStartError) in throw .cannotExecute("no command can be started here")
    }
    /// Reads standard input to its end, up to a limit in bytes: `run -`.
    package var readStandardInput: (Int) throws(FileSystemError) -> [UInt8] = { _ throws(FileSystemError) in [] }

    /// Creates a context.
    package init(
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
    /// Standard input, output or error that the process was started with closed is opened
    /// on /dev/null first, before anything else is opened.
    package static func process() -> RunContext {
        System.fillStandardDescriptors()
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
        context.standardErrorIsTerminal = System.isTerminal(descriptor: 2)
        context.raiseDescriptorLimit = { System.raiseDescriptorLimit(to: $0) }
        context.ignoreBrokenPipes = { System.ignoreBrokenPipeSignal() }
        context.monotonicMilliseconds = { System.monotonicMilliseconds() }
        context.runCopies = { System.runCopies($0, environment: $1) }
        context.findCommand = { System.findCommand($0) }
        context.startCommand = { arguments, added throws(CommandStartError) in
            try System.startCommand(arguments, adding: added)
        }
        return context
    }
}

/// The paylinks command line: parse, run, report, and say how it ended.
@MainActor
package enum PaylinksCLI {

    /// Runs a command line (`arguments[0]` is the program's name) and returns its exit code.
    package static func run(_ arguments: [String], context: RunContext = .process()) -> ExitCode {
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
        case .run(let command, let options) where [.health, .checkLinks].contains(command):
            // A check that passes or fails by what the sandbox or the files say alone: no fixture, no default read.
            return try command.implementation.run(options, catalog: .builtIn, context: context)
        case .run(let command, let given):
            let options = try Inputs.environmentDefaults(given, command: command, environment: context.environment)
            // A scenario run picks each scenario's generation; everything else takes the options'.
            let loaded = try Inputs.loadCatalog(options, environment: context.environment)
            let catalog = command == .run ? loaded : loaded.forGeneration(options.target.generation)
            return try command.implementation.run(options, catalog: catalog, context: context)
        }
    }

    /// Says on standard error when a country has no prices of its own and gets the
    /// fallback country's, so that nobody mistakes US prices for local ones.
    static func noteFallback(for country: String, catalog: Catalog, context: RunContext) {
        // Matched, not compared with nil: comparing two optional localizations would make
        // the run-time types of a pair of them.
        if case .some = catalog.ownLocalization(of: country) { return }
        guard let fallback = catalog.localization(for: country) else { return }
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

    /// Writes a command's output; a write that fails is the command's error.
    static func write(_ text: String, to sink: any OutputSink) throws(CLIError) {
        do {
            try sink.write(text)
        } catch {
            throw .output(error)
        }
    }
}
