import Foundation
import PaylinksHTTP
import Testing

@testable import PaylinksCommandLine

/// How `paylinks serve` stops: SIGTERM ends the pauses between retries and starts no retry.
@Suite("Stopping paylinks serve")
struct ServeStopTests {
    /// Creates a session on `sandbox` and pays it through the control API; its purchase id.
    static func pay(on sandbox: SandboxProcess) throws -> String {
        let purchaseId = try SandboxDataTests.create(sandbox.port)
        let paid = try SandboxDataTests.call(
            sandbox.port, .post, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pay"}"#)
        #expect(paid.status == 200)
        return purchaseId
    }

    @Test("SIGTERM during real-time pauses between retries (awards 10 s, V1 events 5 min) stops at once, no retry")
    func sigtermDuringPauses() throws {
        let awards = try EventReceiver { _, _ in 500 }
        let events = try EventReceiver { _, _ in 500 }
        let sandbox = try SandboxProcess([
            "--award-url", awards.url, "--award-wait", "real",
            "--events-url", events.url, "--events-wait", "real", "--events-version", "v1",
        ])
        let purchaseId = try Self.pay(on: sandbox)
        // Each endpoint has refused its first delivery: the pauses before the retries are under way.
        #expect(awards.wait(for: 1) && events.wait(for: 1))
        let stopped = sandbox.stop(within: 3)
        #expect(stopped.status == 0, "the stop waited out a pause (\(stopped.seconds) s)")
        #expect(awards.received.count == 1, "no award retry after SIGTERM")
        #expect(events.received.count == 1, "no event retry after SIGTERM")
        #expect(stopped.stderr.contains("award \(purchaseId) attempt 1: failed: the server answered 500 ("))
        #expect(stopped.stderr.contains(" of \(purchaseId): not sent, the sandbox stopped before its turn\n"))
        #expect(stopped.stderr.hasSuffix("paylinks sandbox stopped\n"))
    }
}
