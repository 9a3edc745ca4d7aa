import PaylinksAppcharge
import PaylinksDelivery
import PaylinksFixtures
import PaylinksHTTP
import PaylinksSandbox

/// What `paylinks serve` makes of its options before the sandbox serves: the server, where
/// deliveries go, the settings the sandbox answers with, and the command line's own words.
extension ServeCommand {
    /// The server on `--host` and `--port`; what it refuses on its own is answered as the
    /// sandbox answers its errors, and logged once `refusals` has a log.
    ///
    /// It serves on a loop per core, and with `--data` on one: there every change waits
    /// for a sync, which costs as much for one change as for thirty, and one loop takes
    /// every connection's requests into each turn and syncs once for all of them, where a
    /// loop per core alternate turns of their halves, each with a sync of its own. On two
    /// cores under 32 connections creating sessions, one loop syncs once for 23 sessions
    /// rather than 14, answers 12% more of them a second, and spends a sixth less CPU on each.
    static func listen(_ options: RunOptions, refusals: RefusalLog) throws(CLIError) -> HTTPServer {
        do {
            return try HTTPServer(
                host: options.host, port: options.port,
                loops: options.dataDirectory == nil ? HTTPServer.defaultLoops : 1
            ) { refusal in
                refusals.note(refusal)
                return Sandbox.answer(to: refusal)
            }
        } catch {
            switch error {
            case .addressInUse(let address):
                throw .unavailable(
                    "\(address) is in use by another program; stop it, or pick another port with --port (0 picks a free one)"
                )
            case .cannotResolve(let host):
                throw .usage(
                    "--host '\(MessageText.sanitized(host))' is not an address to listen on; use 127.0.0.1, ::1 or 0.0.0.0",
                    command: .serve)
            default:
                throw .unavailable("\(error); pick another --host or --port")
            }
        }
    }

    /// Where awards and events go, signed with the credentials the options and the
    /// environment give, and the publisher token the sandbox takes; says on stderr which
    /// demo credentials are used and that a host other machines reach asks none.
    static func deliveries(_ options: RunOptions, context: RunContext) throws(CLIError) -> (
        configuration: SandboxService.Configuration, token: String
    ) {
        let uses = [options.awardUrl != nil ? "award callbacks" : nil, options.eventsUrl != nil ? "events" : nil]
            .compactMap { $0 }
        let signing = uses.isEmpty ? nil : try Signing(options: options, context: context)
        let events = try signing.flatMap { (signing) throws(CLIError) in
            try options.eventsUrl.map { (url) throws(CLIError) in try signing.events(to: url, options: options) }
        }
        signing?.note(uses: uses.joined(separator: " and "), context: context)
        let awards = signing.flatMap { signing in options.awardUrl.map { signing.awards(to: $0, options: options) } }
        let credentials = Credentials(
            tokenFromOption: options.publisherToken, tokenFromEnvironment: try context.headerValue(of: .publisherToken))
        let token = signing?.publisherToken ?? credentials.publisherToken
        if signing == nil && credentials.usesDemoToken {
            try? context.standardError.write(
                "note: the sandbox takes the demo publisher token '\(token)' (see the README); set "
                    + "PAYLINKS_PUBLISHER_TOKEN or --publisher-token to your studio's own\n")
        }
        if !isLoopback(options.host) {
            try? context.standardError.write(
                "warning: serving on \(options.host), which other machines can reach; its dashboard and control "
                    + "API ask no credentials\n")
        }
        return (SandboxService.Configuration(awards: awards, events: events), token)
    }

    /// Whether `host` is reached from this machine only.
    static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.")
    }

    /// The base URL this machine reaches the sandbox at, for `--port-file` and the command
    /// `serve -- CMD` runs: a sandbox on every address (`0.0.0.0`, `::`) is reached on loopback.
    static func localURL(_ options: RunOptions, port: Int) -> String {
        switch options.host {
        case "0.0.0.0": "http://127.0.0.1:\(port)"
        case "::": "http://[::1]:\(port)"
        default: baseURL(options, port: port)
        }
    }

    /// Writes the port file whole, or says why it cannot be.
    static func writePortFile(_ path: String, _ text: [UInt8]) throws(CLIError) {
        let shown = MessageText.sanitized(path)
        if System.isDirectory(path) == true {
            throw .cannotCreate(
                "--port-file '\(shown)' is a directory; give the path of a file to write, such as "
                    + "'\(shown.hasSuffix("/") ? shown : shown + "/")paylinks.url'")
        }
        do {
            try System.writeFileWhole(path, text)
        } catch {
            let reason = error == .missing ? "its directory does not exist" : Inputs.describe(error)
            throw .cannotCreate(
                "--port-file '\(shown)' cannot be written: \(reason); give a path in a directory that exists and "
                    + "that you may write to")
        }
    }

    /// Removes the port file at a stop, unless another program has written it since.
    static func removePortFile(_ path: String, holding text: [UInt8]) {
        guard (try? System.readFile(path, limit: text.count + 1)) == text else { return }
        System.removeFile(path)
    }

    /// The base URL of a sandbox listening on `port` at `--host`.
    static func baseURL(_ options: RunOptions, port: Int) -> String {
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        return "http://\(host):\(port)"
    }

    /// `settings` for a sandbox that `server` serves, taking `token`; and the line that
    /// says where it is.
    static func answering(
        _ settings: Sandbox.Settings, on server: HTTPServer, token: String, options: RunOptions
    ) -> (settings: Sandbox.Settings, greeting: String) {
        var answering = settings
        answering.baseURL = baseURL(options, port: server.port)
        answering.publisherToken = token
        answering.publicURL = options.publicUrl
        answering.allowedHosts = options.allowedHosts
        answering.eventsVersion = options.eventsVersion
        let handedOut =
            options.publicUrl.map { "; checkout URLs at \($0)" }
            ?? (isLoopback(options.host) ? "" : "; checkout URLs at the address each request came to (its Host)")
        let stops =
            options.command.first.map {
                "it runs '\(MessageText.sanitized($0))' and stops when that ends; SIGINT, SIGTERM and SIGHUP go to it"
            } ?? "SIGINT or SIGTERM stops it"
        return (answering, "paylinks sandbox at \(answering.baseURL)\(handedOut); \(stops)")
    }
}

/// What `paylinks serve -- CMD` does with CMD: refuses one that cannot run, says when it
/// ends, and ends one still running when the sandbox stops for another reason.
extension ServeCommand {
    /// The error for a command that cannot run, with what to do.
    static func commandProblem(_ problem: CommandStartError, program: String) -> CLIError {
        let shown = MessageText.sanitized(program)
        switch problem {
        case .notFound:
            return .commandNotFound(
                program.contains("/")
                    ? "'\(shown)', the command after '--', does not exist; check its path"
                    : "'\(shown)', the command after '--', is not found on PATH; check its name, or give its path")
        case .directory:
            return .cannotExecute(
                "'\(shown)', the command after '--', is a directory; give the program to run, as in '-- \(shown)/run'")
        case .cannotExecute(let reason):
            // EACCES and E2BIG as strerror words them; a script without its #! line runs with sh.
            switch reason {
            case "permission denied":
                return .cannotExecute(
                    "'\(shown)', the command after '--', cannot be executed: \(reason); make it executable (chmod +x), "
                        + "or run it through its interpreter, as in '-- sh \(shown)'")
            case "argument list too long":
                return .cannotExecute(
                    "'\(shown)', the command after '--', cannot be started: its arguments and the environment are "
                        + "too long together; pass fewer or shorter ones, or put them in a file it reads")
            default:
                return .cannotExecute(
                    "'\(shown)', the command after '--', cannot be executed: \(reason); run it through its "
                        + "interpreter, as in '-- sh \(shown)'")
            }
        }
    }

    /// Whether the sandbox should stop for `command`: once it has ended (saying so in the
    /// log, once), or at once when it could not start.
    static func ended(_ command: Result<ChildProcess, CommandStartError>, options: RunOptions, log: LogBuffer)
        -> () -> Bool
    {
        guard case .success(let child) = command else { return { true } }
        var said = false
        return {
            guard child.hasEnded else { return false }
            if !said, let ending = child.ending {
                said = true
                log.write(line: "'\(MessageText.sanitized(options.command[0]))' \(ending); the sandbox stops")
            }
            return true
        }
    }

    /// Ends `child` when the sandbox stopped before it ended (its output failed): SIGTERM,
    /// and SIGKILL after 10 s.
    static func stop(_ child: ChildProcess) {
        guard !child.hasEnded else { return }
        child.terminate()
        if !child.wait(milliseconds: 10_000) {
            child.kill()
            child.wait(milliseconds: nil)
        }
    }
}

/// Where the server's own refusals are logged (a request it cannot take, one too slow to
/// arrive, a connection past its limit), which its loops word on their threads, several at
/// once: nowhere until the log is made, which is after the server listens.
final class RefusalLog: Sendable {
    private let log = Locked<LogBuffer?>(nil)

    /// Logs each refusal from now on to `buffer`.
    func start(_ buffer: LogBuffer) {
        log.withLock { $0 = buffer }
    }

    /// Logs `refusal`, once there is a log.
    func note(_ refusal: HTTPServer.Refusal) {
        log.withLock { $0 }?.write(line: Sandbox.logLine(for: refusal))
    }
}

/// The sandbox's log goes to standard error through the buffer, a line at a time.
extension LogBuffer: SandboxLogSink {
    /// Writes `line` and its line feed.
    package func write(line: String) {
        var line = line
        line.withUTF8 { write(bytes: UnsafeRawBufferPointer($0), lineFeed: true) }
    }
}
