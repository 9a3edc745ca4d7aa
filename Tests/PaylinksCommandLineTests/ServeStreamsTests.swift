import Foundation
import PaylinksHTTP
import Testing

@testable import PaylinksCommandLine

/// `paylinks serve` started with standard streams closed, or left by their readers: the log
/// goes nowhere and the sandbox serves on; a stdout it cannot write stops it, as it stops
/// every command; its journal never takes a stream's place.
@Suite("paylinks serve without its streams", .serialized)
struct ServeStreamsTests {
    /// A loopback port nothing listened on a moment ago: the one the system picks for a
    /// socket bound to port 0, which is closed at once.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits at most `seconds` for `process` to exit; whether it did.
    static func exited(_ process: Process, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        // Polled every 10 ms: the exit is what is waited for, the deadline only bounds it.
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return !process.isRunning
    }

    @Test(
        "started with stdout, stderr or all three closed, serve answers, keeps its journal, and stops: at SIGTERM with 0, or with 74 at the first callback it cannot write",
        arguments: [
            ("2>&-", false, 0), ("2>&-", true, 0), (">&- 2>&-", true, 74), (">&-", true, 74),
            ("<&- >&- 2>&-", true, 74),
        ])
    func closedAtStart(redirections: String, keepsData: Bool, status: Int32) throws {
        let directory = SandboxDataTests.DataDirectory("closed")
        let port = try Self.freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The shell closes the streams and becomes paylinks, so that SIGTERM reaches it.
        let script = #"port="$1"; shift; exec "$0" serve --port "$port" --seed 1 "$@" "# + redirections
        let data = keepsData ? ["--data", directory.path] : []
        process.arguments = ["-c", script, try BinaryTests.builtExecutable().path, String(port)] + data
        var environment = ProcessInfo.processInfo.environment
        environment["PAYLINKS_PUBLISHER_TOKEN"] = nil
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Nothing says where it listens when stderr is closed: it is asked until it answers,
        // every 20 ms, for 10 s at most.
        let deadline = Date().addingTimeInterval(10)
        var answering = false
        while !answering && process.isRunning && Date() < deadline {
            answering = (try? SandboxDataTests.call(port, .get, "/control/v1/deliveries"))?.status == 200
            if !answering { usleep(20_000) }
        }
        try #require(answering, "serve \(redirections) answered on port \(port)")
        let purchaseId = try SandboxDataTests.create(port)
        let paid = try SandboxDataTests.call(
            port, .post, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pay"}"#)
        #expect(paid.status == 200)
        let state = try #require(paid.json["state"] as? String)
        if status == 0 {
            // Every line logged went somewhere that does not end it.
            #expect(try SandboxDataTests.state(port, purchaseId) == state)
            kill(process.processIdentifier, SIGTERM)
        }
        // A closed stdout cannot take the payment's callback: that stops it, as a stdout
        // that cannot be written stops every command.
        #expect(Self.exited(process, within: 5), "it ended within 5 s")
        #expect(process.terminationReason == .exit && process.terminationStatus == status)
        guard keepsData else { return }
        // Started again on the same directory, it has the session as it was.
        let again = try SandboxProcess(["--data", directory.path])
        #expect(try SandboxDataTests.state(again.port, purchaseId) == state)
        #expect(again.stop().status == 0)
    }

    @Test("a stderr whose reader goes away after the address only loses the log: serve answers and stops with 0")
    func standardErrorReaderGone() throws {
        let sandbox = try SandboxProcess()
        try sandbox.closeStandardError()
        // 2.4 MB of log with no reader, each line's request answered within 2 s.
        #expect(try ServeStopTests.burst(300, to: sandbox) == 300, "every request answered")
        let purchaseId = try SandboxDataTests.create(sandbox.port)
        #expect(try SandboxDataTests.state(sandbox.port, purchaseId) == "created")
        let stopped = sandbox.stop(within: 5)
        #expect(stopped.status == 0, "exit status after \(stopped.seconds) s")
        #expect(sandbox.process.terminationReason == .exit)
    }

    @Test("a stdout whose reader goes away stops serve quietly with 141, as its stop does, not by SIGPIPE")
    func standardOutputReaderGone() throws {
        let sandbox = try SandboxProcess()
        try sandbox.closeStandardOutput()
        let purchaseId = try SandboxDataTests.create(sandbox.port)
        // The callback of the payment has no reader: the sandbox stops, within 10 s.
        _ = try? SandboxDataTests.call(
            sandbox.port, .post, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pay"}"#)
        try #require(Self.exited(sandbox.process, within: 10), "the sandbox stopped")
        let stopped = sandbox.ended()
        #expect(sandbox.process.terminationReason == .exit)
        #expect(stopped.status == ExitCode.brokenPipe.rawValue)
        #expect(!stopped.stderr.contains("error"), "\(stopped.stderr)")
    }
}
