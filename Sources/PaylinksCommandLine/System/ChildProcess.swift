import PaylinksHTTP

// The command `serve -- CMD` runs beside the sandbox: found, started with posix_spawnp in
// a process group of its own, waited for on a thread of its own, and sent, with every
// process it started, the SIGINT, SIGTERM and SIGHUP paylinks receives.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a command cannot be run, as a shell tells the two apart: 127 and 126.
package enum CommandStartError: Error, Equatable, Sendable {
    /// Nothing of the name is found: on `PATH`, or at the path given.
    case notFound
    /// It is found but cannot be executed: the system's reason.
    case cannotExecute(String)
    /// It names a directory.
    case directory
}

/// A command paylinks started, waited for on a thread of its own from its start, so that
/// whoever asks learns at once whether it has ended.
package final class ChildProcess: Sendable {
    /// Its process id, which is its process group's too.
    private let pid: pid_t
    /// Whether it was given the terminal, which paylinks takes back once it ends.
    private let hasTerminal: Bool
    /// Its status as `waitpid` gave it, once it has ended.
    private let ended = Locked<Int32?>(nil)

    fileprivate init(pid: pid_t, hasTerminal: Bool) {
        self.pid = pid
        self.hasTerminal = hasTerminal
        let ended = ended
        let waiter = BackgroundWork<Void>.thread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            ended.withLock { $0 = status }
            ended.broadcast()
        }
        if waiter == nil {
            // No thread to wait on: it is waited for here, and what paylinks serves waits with it.
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            ended.withLock { $0 = status }
        }
    }

    /// Calls `action` on a thread of its own once it has ended (at once when it has), so
    /// that whoever waits on something else hears of it without asking; nothing when no
    /// thread can be made, and then asking is the way.
    package func whenEnded(_ action: @escaping @Sendable () -> Void) {
        _ = BackgroundWork<Void>.thread { [self] in
            wait(milliseconds: nil)
            action()
        }
    }

    /// Whether it has ended.
    package var hasEnded: Bool {
        ended.withLock { $0 != nil }
    }

    /// Waits at most `milliseconds` (nil: however long it takes) for it to end; whether it has.
    @discardableResult
    package func wait(milliseconds: Int?) -> Bool {
        ended.withLock(waitingAtMost: milliseconds, until: { $0 != nil }) { _, ended in ended }
    }

    /// Its exit status once it has ended, as a shell gives it: its code, or 128 plus the
    /// number of the signal that ended it; nil while it runs.
    package var exitStatus: Int32? {
        ended.withLock { $0 }.map { status in
            let signal = status & 0x7F
            return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        }
    }

    /// How it ended, in words for the log: `exited with status 3`, `was killed by signal 9
    /// (SIGKILL)`; nil while it runs.
    package var ending: String? {
        ended.withLock { $0 }.map { status in
            let signal = status & 0x7F
            guard signal != 0 else { return "exited with status \((status >> 8) & 0xFF)" }
            return "was killed by signal \(signal)" + (Self.signalNames[signal].map { " (\($0))" } ?? "")
        }
    }

    /// The names of the signals that most often end a command.
    private static let signalNames: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGABRT: "SIGABRT", SIGKILL: "SIGKILL",
        SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM",
    ]

    /// Asks it and the processes it started to end, with SIGTERM.
    package func terminate() {
        if !hasEnded { _ = signalProcess(-pid, SIGTERM) }
    }

    /// Ends it and the processes it started at once, with SIGKILL.
    package func kill() {
        if !hasEnded { _ = signalProcess(-pid, SIGKILL) }
    }

    /// Makes paylinks' own process group the terminal's foreground again, when the command
    /// had been given it; the processes the command left behind are in the background.
    package func takeBackTerminal() {
        guard hasTerminal else { return }
        System.foreground(getpgrp())
    }
}

/// The C library's `kill`, which ``ChildProcess/kill()`` hides.
private func signalProcess(_ pid: pid_t, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}

extension System {
    /// Whether `name` names a program to run: found on `PATH` (or at the path, when it has
    /// a `/`) as a regular file that may be executed. Nil when it does; else why not.
    package static func findCommand(_ name: String) -> CommandStartError? {
        if name.contains("/") { return executable(name) }
        guard !name.isEmpty else { return .notFound }
        let path = environmentVariable("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
        var problem = CommandStartError.notFound
        for directory in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
            switch executable(candidate) {
            case nil: return nil
            // A shell says a file found but not executable only when no other is.
            case .cannotExecute(let reason)?: if problem == .notFound { problem = .cannotExecute(reason) }
            case .notFound?, .directory?: continue
            }
        }
        return problem
    }

    /// Whether the file at `path` may be executed; nil when it may.
    private static func executable(_ path: String) -> CommandStartError? {
        var info = stat()
        guard stat(path, &info) == 0 else { return .notFound }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .directory }
        guard access(path, X_OK) == 0 else { return .cannotExecute(String(cString: strerror(errno)).lowercased()) }
        return nil
    }

    /// Starts `arguments` (the program, found on `PATH`, and its arguments) with this
    /// process's environment and `added` in place of any variable of the same name, its
    /// standard streams this process's, and the signals this process ignores or catches
    /// back at their defaults. It leads a process group of its own, as under `timeout(1)`,
    /// so that what is passed on reaches every process it started (a `make` and the tests
    /// it runs); from then on the SIGINT, SIGTERM and SIGHUP this process receives are
    /// passed on to that group, instead of stopping a server. When paylinks holds the
    /// terminal (its group is the foreground one), the command's group is given it, as a
    /// shell gives a job: a Ctrl-C reaches the command's processes alone, and a shell or a
    /// test that reads the terminal can.
    package static func startCommand(_ arguments: [String], adding added: [String: String]) throws(CommandStartError)
        -> ChildProcess
    {
        guard let program = arguments.first else { throw .notFound }
        forwardStopSignals()
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGXFSZ, SIGQUIT, SIGHUP, SIGTTIN, SIGTTOU] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let terminal = isatty(STDIN_FILENO) == 1 && tcgetpgrp(STDIN_FILENO) == getpgrp()
        let variables = environment(adding: added)
        var pid = pid_t()
        var spawned = withCStrings(arguments) { argv in
            withCStrings(variables) { envp in posix_spawnp(&pid, program, nil, &attributes, argv, envp) }
        }
        // A file the system does not run is a script without its #! line, which a shell runs
        // with sh (as execvp does too).
        if spawned == ENOEXEC {
            spawned = withCStrings(["sh"] + arguments) { argv in
                withCStrings(variables) { envp in posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, envp) }
            }
        }
        guard spawned == 0 else {
            throw spawned == ENOENT ? .notFound : .cannotExecute(String(cString: strerror(spawned)).lowercased())
        }
        // Its group is given the terminal before it reads it; one stopped for reading it
        // first (SIGTTIN) goes on.
        if terminal {
            foreground(pid)
            kill(-pid, SIGCONT)
        }
        childToSignal = pid
        // A signal that came before the command had a process id.
        let early = signalBeforeChild
        if early != 0 { kill(-pid, early) }
        return ChildProcess(pid: pid, hasTerminal: terminal)
    }

    /// Makes `group` the foreground process group of the terminal on standard input. The
    /// SIGTTOU a background group's call would bring is ignored meanwhile.
    fileprivate static func foreground(_ group: pid_t) {
        let previous = signal(SIGTTOU, SIG_IGN)
        _ = tcsetpgrp(STDIN_FILENO, group)
        signal(SIGTTOU, previous)
    }

    /// Makes SIGINT, SIGTERM and SIGHUP go to the command's process group, and unblocks
    /// them, as ``catchStopSignals()`` does for a server alone.
    private static func forwardStopSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for forwarded in [SIGINT, SIGTERM, SIGHUP] {
            signal(forwarded, forwardSignal)
            sigaddset(&signals, forwarded)
        }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

}

/// The command whose process group SIGINT, SIGTERM and SIGHUP are passed on to, once
/// started; 0 before.
nonisolated(unsafe) private var childToSignal: pid_t = 0
/// A signal that came before the command was started, passed on once it is.
nonisolated(unsafe) private var signalBeforeChild: sig_atomic_t = 0

/// The handler of SIGINT, SIGTERM and SIGHUP while a command runs: `kill` alone, which a
/// handler may call, to the command's whole process group.
private func forwardSignal(_ signal: Int32) {
    let child = childToSignal
    if child > 0 {
        _ = kill(-child, signal)
    } else {
        signalBeforeChild = signal
    }
}
