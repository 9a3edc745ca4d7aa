import Foundation
import Testing

@testable import PaylinksCommandLine

/// `paylinks serve -- CMD`: the built binary runs CMD once the sandbox listens, with the
/// sandbox's URL and token in its environment, passes SIGTERM on to it, and stops with it,
/// ending with its status.
@Suite("serve -- CMD")
struct ServeCommandLineTests {
    /// A fresh directory for one test's files.
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "paylinks-cmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs `paylinks serve --port 0` and `arguments`, bounded by ``BinaryTests/run(_:environment:directory:launcher:)``.
    static func serve(_ arguments: [String], environment: [String: String] = [:]) throws -> BinaryTests.Outcome {
        var inherited = ProcessInfo.processInfo.environment
        inherited["PAYLINKS_PUBLISHER_TOKEN"] = nil
        return try BinaryTests.run(
            ["serve", "--port", "0"] + arguments, environment: inherited.merging(environment) { $1 })
    }

    /// Waits up to `seconds` for the file at `url` to exist; whether it does.
    static func waitForFile(_ url: URL, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !FileManager.default.fileExists(atPath: url.path) {
            guard Date() < deadline else { return false }
            // A poll with a bound: the file is looked for again until it is there or time is up.
            usleep(10_000)
        }
        return true
    }

    @Test("the command's exit status is paylinks', and the log ends as a stop's does")
    func exitStatusPassedOn() throws {
        let failed = try Self.serve(["--", "false"])
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(failed.stderr.hasSuffix("'false' exited with status 1; the sandbox stops\npaylinks sandbox stopped\n"))
        let three = try Self.serve(["--", "sh", "-c", "exit 3"])
        #expect(three.status == 3)
        let succeeded = try Self.serve(["--", "true"])
        #expect(succeeded.status == 0)
        #expect(
            succeeded.stderr.contains(
                "; it runs 'true' and stops when that ends; SIGINT, SIGTERM and SIGHUP go to it\n"))
        #expect(succeeded.stderr.hasSuffix("paylinks sandbox stopped\n"))
    }

    @Test("a command killed by signal 9 gives 137")
    func killedBySignal() throws {
        let killed = try Self.serve(["--", "sh", "-c", "kill -9 $$"])
        #expect(killed.status == 137)
        #expect(killed.stderr.contains("'sh' was killed by signal 9 (SIGKILL); the sandbox stops\n"))
        #expect(killed.stderr.hasSuffix("paylinks sandbox stopped\n"))
    }

    @Test("the command reaches the sandbox at PAYLINKS_SANDBOX_URL with curl", .enabled(if: hasCurl))
    func curlFromCommand() throws {
        let outcome = try Self.serve(["--", "sh", "-c", #"curl -sf "$PAYLINKS_SANDBOX_URL/control/v1/health""#])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix(#"{"status":"ok""#), "\(outcome.stdout)")
        #expect(outcome.stderr.contains("GET /control/v1/health 200"))
    }

    /// Whether curl is installed: in CI it is, and the test runs.
    static let hasCurl = runningInCI || FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")

    @Test("paylinks health run by the command finds the sandbox, and a failed check is the command's status")
    func healthFromCommand() throws {
        let paylinks = try BinaryTests.builtExecutable().path
        let ok = try Self.serve(["--", "sh", "-c", #""$0" health "$PAYLINKS_SANDBOX_URL""#, paylinks])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.hasPrefix("ok: paylinks sandbox \(Help.version) at http://127.0.0.1:"), "\(ok.stdout)")
        let wrong = try Self.serve(["--", "sh", "-c", #""$0" health "$PAYLINKS_SANDBOX_URL/elsewhere""#, paylinks])
        #expect(wrong.status == ExitCode.unavailable.rawValue, "\(wrong.stderr)")
    }

    @Test("the command's environment holds the sandbox's URL and token, beside what paylinks inherited")
    func environment() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let seen = directory.appendingPathComponent("seen")
        let portFile = directory.appendingPathComponent("url")
        let outcome = try Self.serve(
            [
                "--port-file", portFile.path, "--publisher-token", "studio-token", "--",
                "sh", "-c",
                #"{ cat "$1"; printf '%s\n%s\n%s\n' "$PAYLINKS_SANDBOX_URL" "$PAYLINKS_PUBLISHER_TOKEN" "$KEPT"; } > "$0""#,
                seen.path, portFile.path,
            ],
            environment: ["KEPT": "kept", "PAYLINKS_SANDBOX_URL": "http://stale.example"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // The port file's URL, as the command read it while the sandbox served, then its environment.
        let lines = try String(contentsOf: seen, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 4 && lines[0].hasPrefix("http://127.0.0.1:"), "\(lines)")
        #expect(Array(lines.dropFirst()) == [lines[0], "studio-token", "kept"])
    }

    @Test(
        "the command does not inherit the sandbox's listening socket",
        .enabled(if: runningInCI || FileManager.default.fileExists(atPath: "/proc/net/tcp")))
    func listenerNotInherited() throws {
        // The command lists its descriptors and the system's TCP sockets, then says the sandbox's port.
        let outcome = try Self.serve([
            "--", "sh", "-c", #"ls -l /proc/self/fd/; cat /proc/net/tcp; echo "port ${PAYLINKS_SANDBOX_URL##*:}""#,
        ])
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n")
        let port = try #require(lines.last.flatMap { Int($0.dropFirst("port ".count)) })
        // The listening socket's inode: local address ...:PORT (hex), state 0A (LISTEN).
        let hexPort = ":" + String(format: "%04X", port)
        let listening = lines.map { $0.split(separator: " ") }.first { fields in
            fields.count > 9 && fields[1].hasSuffix(hexPort) && fields[3] == "0A"
        }
        let inode = try #require(listening?[9], "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("socket:[\(inode)]"), "\(outcome.stdout)")
    }

    @Test("a port in use exits 69 and the command never runs")
    func portInUse() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("ran")
        let sandbox = try SandboxProcess()
        let outcome = try BinaryTests.run(
            ["serve", "--port", String(sandbox.port), "--", "sh", "-c", #"touch "$0""#, marker.path])
        #expect(outcome.status == ExitCode.unavailable.rawValue)
        #expect(
            outcome.stderr.hasSuffix(
                "is in use by another program; stop it, or pick another port with --port (0 picks a free one)\n"))
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the command ran")
        #expect(sandbox.stop().status == 0)
    }

    @Test("a script without its #! line runs with sh, as a shell runs it")
    func scriptWithoutInterpreterLine() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("script")
        try Data("echo \"ran with $1\"; exit 6\n".utf8).write(to: script)
        chmod(script.path, 0o755)
        let outcome = try Self.serve(["--", script.path, "its argument"])
        #expect(outcome.status == 6, "\(outcome.stderr)")
        #expect(outcome.stdout == "ran with its argument\n")
        #expect(outcome.stderr.hasSuffix("paylinks sandbox stopped\n"), "\(outcome.stderr)")
    }

    @Test(
        "SIGINT, SIGTERM or SIGHUP to paylinks reaches the command, and the sandbox answers until the command ends",
        arguments: [SIGINT, SIGTERM, SIGHUP])
    func signalPassedOn(signal: Int32) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ready = directory.appendingPathComponent("ready")
        let got = directory.appendingPathComponent("got")
        let paylinks = try BinaryTests.builtExecutable()
        let errors = Pipe()
        // On the signal the command asks the sandbox for its health, which it still answers, then exits 3.
        let (process, exited) = try Self.launch(
            [
                "serve", "--port", "0", "--", "sh", "-c",
                #"trap '"$0" health "$PAYLINKS_SANDBOX_URL" > "$1"; exit 3' INT TERM HUP; touch "$2"; "#
                    + #"while :; do sleep 0.05; done"#,
                paylinks.path, got.path, ready.path,
            ], errors: errors)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(Self.waitForFile(ready), "the command started")
        kill(process.processIdentifier, signal)
        #expect(exited.wait(timeout: .now() + 10) == .success, "paylinks ended with the command")
        #expect(process.terminationStatus == 3)
        let said = try String(contentsOf: got, encoding: .utf8)
        #expect(said.hasPrefix("ok: paylinks sandbox "), "\(said)")
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.hasSuffix("'sh' exited with status 3; the sandbox stops\npaylinks sandbox stopped\n"), "\(log)")
    }

    /// paylinks started with `arguments`, its stdout dropped and its stderr to `errors`
    /// (dropped without one), and a signal once it has exited.
    static func launch(_ arguments: [String], errors: Pipe? = nil) throws -> (
        process: Process, exited: DispatchSemaphore
    ) {
        let process = Process()
        process.executableURL = try BinaryTests.builtExecutable()
        process.arguments = arguments
        process.standardError = errors ?? FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        return (process, exited)
    }

    /// Whether the process `pid` has ended: gone, or a zombie nobody reaped yet.
    static func hasEnded(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
            return kill(pid, 0) != 0
        }
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    @Test("SIGTERM to paylinks reaches every process the command started, as timeout(1) sends it to the group")
    func signalReachesTheGroup() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = directory.appendingPathComponent("started")
        // A make that runs a test: the shell waits on a process of its own, which must end too.
        let (process, exited) = try Self.launch([
            "serve", "--port", "0", "--", "sh", "-c", #"sleep 60 & echo $! > "$0.new" && mv "$0.new" "$0"; wait"#,
            started.path,
        ])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(Self.waitForFile(started), "the command started its process")
        let sleeper = try #require(
            Int32(String(contentsOf: started, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(sleeper, SIGKILL) }
        kill(process.processIdentifier, SIGTERM)
        #expect(exited.wait(timeout: .now() + 10) == .success, "paylinks ended with the command")
        #expect(process.terminationStatus == 128 + SIGTERM)
        // A poll with a bound: the process is looked at again until it has ended or 5 s pass.
        let deadline = Date().addingTimeInterval(5)
        while !Self.hasEnded(sleeper) && Date() < deadline { usleep(10_000) }
        #expect(Self.hasEnded(sleeper), "the process the command started ended with it")
    }

    /// Runs `paylinks arguments` on a terminal of its own, through python3: types `input`
    /// once `ready` shows, and answers what the terminal showed and `status N`.
    static func onTerminal(_ arguments: [String], ready: String, input: String) throws -> BinaryTests.Outcome {
        let driver = #"""
            import os, pty, select, sys, time
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[3:])
            ready, typed = sys.argv[2].encode(), False
            seen, deadline = b"", time.time() + 10
            while time.time() < deadline:
                if select.select([fd], [], [], 0.05)[0]:
                    try:
                        chunk = os.read(fd, 4096)
                    except OSError:
                        break
                    if not chunk:
                        break
                    seen += chunk
                if not typed and ready in seen:
                    os.write(fd, os.environ["TYPED"].encode())
                    typed = True
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(seen.decode(errors="replace") + "status %d\n" % os.waitstatus_to_exitcode(status))
            """#
        let paylinks = try BinaryTests.builtExecutable().path
        return try BinaryTests.run(
            ["-c", driver, paylinks, ready, paylinks] + arguments,
            environment: ["PATH": "/usr/bin:/bin", "TYPED": input], launcher: "/usr/bin/python3")
    }

    @Test(
        "a command on paylinks' terminal reads it, as a job a shell gives the terminal to",
        .enabled(if: runningInCI || FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func commandReadsTheTerminal() throws {
        let outcome = try Self.onTerminal(
            ["serve", "--port", "0", "--", "sh", "-c", #"echo ready; read line; echo "read $line"; exit 4"#],
            ready: "ready", input: "hello\n")
        #expect(outcome.stdout.contains("read hello"), "\(outcome.stdout)")
        #expect(outcome.stdout.hasSuffix("paylinks sandbox stopped\r\nstatus 4\n"), "\(outcome.stdout)")
    }

    @Test(
        "a Ctrl-C at a terminal reaches the command, whose status paylinks ends with",
        .enabled(if: runningInCI || FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func controlC() throws {
        // python3 runs paylinks on a terminal of its own, types Ctrl-C once the command is
        // ready, and prints what the terminal showed and how paylinks ended.
        let outcome = try Self.onTerminal(
            [
                "serve", "--port", "0", "--", "sh", "-c",
                #"trap 'echo interrupted; exit 5' INT; echo ready; while :; do sleep 0.05; done"#,
            ],
            ready: "ready", input: "\u{03}")
        #expect(outcome.stdout.hasSuffix("paylinks sandbox stopped\r\nstatus 5\n"), "\(outcome.stdout)")
        #expect(outcome.stdout.components(separatedBy: "interrupted").count == 2, "once: \(outcome.stdout)")
    }
}
