import Foundation
import PaylinksHTTP
import Testing

@testable import PaylinksCommandLine

/// `paylinks health URL`, the built binary against a sandbox, a closed port and servers
/// that are not a sandbox: one line on stdout and 0, or one `error:` line and 69.
@Suite("paylinks health")
struct HealthTests {
    @Test("a started sandbox: 0 and one line, with or without a trailing slash", arguments: ["", "/"])
    func sandboxAnswers(slash: String) throws {
        let sandbox = try SandboxProcess()
        _ = try SandboxDataTests.create(sandbox.port)
        let outcome = try BinaryTests.run(["health", "http://127.0.0.1:\(sandbox.port)\(slash)"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == "ok: paylinks sandbox \(Help.version) at http://127.0.0.1:\(sandbox.port), 1 session\n")
        #expect(outcome.stderr.isEmpty)
        #expect(sandbox.stop().status == 0)
    }

    @Test("the health endpoint's own URL is taken for the sandbox's base URL")
    func endpointURL() throws {
        let sandbox = try SandboxProcess()
        let outcome = try BinaryTests.run(["health", "http://127.0.0.1:\(sandbox.port)/control/v1/health"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout == "ok: paylinks sandbox \(Help.version) at http://127.0.0.1:\(sandbox.port), 0 sessions\n")
        #expect(sandbox.stop().status == 0)
    }

    @Test(
        "a URL that is not a sandbox's base URL says what to give, with a sandbox's URL as the example",
        arguments: ["127.0.0.1:4010", "ftp://x", ""])
    func notABaseURL(text: String) throws {
        let outcome = try BinaryTests.run(["health", text])
        #expect(outcome.status == ExitCode.usage.rawValue)
        #expect(
            outcome.stderr.hasPrefix(
                "error: give the sandbox's base URL, such as http://127.0.0.1:4010, not '\(text)'"),
            "\(outcome.stderr)")
    }

    /// Checks that `arguments` end with 69 and one error line that starts with `message`.
    static func unavailable(_ arguments: [String], _ message: String) throws {
        let outcome = try BinaryTests.run(["health"] + arguments)
        #expect(outcome.status == ExitCode.unavailable.rawValue, "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.hasPrefix("error: " + message), "\(outcome.stderr)")
        #expect(outcome.stderr.filter { $0 == "\n" }.count == 1, "\(outcome.stderr)")
    }

    @Test("a closed port: 69, nothing answers")
    func closedPort() throws {
        // A port that was free a moment ago: a listener opened and closed.
        let port = try HTTPServer(host: "127.0.0.1", port: 0) { _ in HTTPServerResponse(status: 500, body: []) }.port
        try Self.unavailable(["http://127.0.0.1:\(port)"], "no sandbox answers at http://127.0.0.1:\(port): ")
    }

    @Test("a server that is not a sandbox: 69, whether it answers 200 with another body or 404")
    func notASandbox() throws {
        let other = try EventReceiver { _, _ in 200 }
        try Self.unavailable(
            ["http://127.0.0.1:\(other.port)"],
            "what answers at http://127.0.0.1:\(other.port) is not a paylinks sandbox")
        let missing = try EventReceiver { _, _ in 404 }
        try Self.unavailable(
            ["http://127.0.0.1:\(missing.port)"],
            "what answers at http://127.0.0.1:\(missing.port) is not a paylinks sandbox: GET /control/v1/health answered 404"
        )
    }

    @Test("a sandbox path that is not its base: 69, it answers 404 there")
    func wrongPath() throws {
        let sandbox = try SandboxProcess()
        try Self.unavailable(
            ["http://127.0.0.1:\(sandbox.port)/checkout"],
            "what answers at http://127.0.0.1:\(sandbox.port)/checkout is not a paylinks sandbox")
        #expect(sandbox.stop().status == 0)
    }

    @Test("a server that does not answer within --timeout: 69, said in time")
    func timeout() throws {
        // The server under test is slow on purpose: it answers past the 1 s asked for. The
        // sleep is its slowness, on its own thread; no assertion waits on it.
        let slow = try EventReceiver { _, _ in
            usleep(5_000_000)
            return 200
        }
        let start = Date()
        try Self.unavailable(
            ["http://127.0.0.1:\(slow.port)", "--timeout", "1"],
            "the sandbox at http://127.0.0.1:\(slow.port) did not answer within 1 s")
        // Well short of the server's 5 s, with room for the process's start on a busy machine.
        #expect(Date().timeIntervalSince(start) < 4)
    }
}
