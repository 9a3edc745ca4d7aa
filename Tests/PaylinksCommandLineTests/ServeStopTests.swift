import Foundation
import PaylinksHTTP
import Testing

@testable import PaylinksCommandLine

/// How `paylinks serve` stops: SIGTERM ends the pauses between retries, starts no retry, and
/// tells every delivery queue before waiting for any; a stderr nobody reads holds neither the
/// requests nor the exit.
@Suite("Stopping paylinks serve")
struct ServeStopTests {
    /// What an endpoint's answers hold back, set by the test as it goes.
    final class Holding: @unchecked Sendable {
        private let lock = NSLock()
        private var text: String?

        /// The text whose requests are held (a purchase id, a whole body), nil when none is.
        var held: String? {
            get { lock.withLock { text } }
            set { lock.withLock { text = newValue } }
        }

        /// Holds `request` for `seconds` when its body has the text held: the endpoint's
        /// own slowness, what the stop is tested against; no assertion waits on it.
        func hold(_ request: HTTPRequest, seconds: Double) {
            if let held, String(decoding: request.body, as: UTF8.self).contains(held) {
                usleep(UInt32(seconds * 1_000_000))
            }
        }
    }

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
        // Well short of the shortest pause, 10 s, with room for a busy machine.
        let stopped = sandbox.stop(within: 6)
        #expect(stopped.status == 0, "the stop waited out a pause (\(stopped.seconds) s)")
        #expect(awards.received.count == 1, "no award retry after SIGTERM")
        #expect(events.received.count == 1, "no event retry after SIGTERM")
        #expect(stopped.stderr.contains("award \(purchaseId) attempt 1: failed: the server answered 500 ("))
        #expect(stopped.stderr.contains(" of \(purchaseId): not sent, the sandbox stopped before its turn\n"))
        #expect(stopped.stderr.hasSuffix("paylinks sandbox stopped\n"))
    }

    @Test("SIGTERM tells every queue before waiting for any: no replay starts while an award is waited for")
    func everyQueueToldFirst() throws {
        let awardHeld = Holding()
        let replayHeld = Holding()
        let awards = try EventReceiver { _, request in
            awardHeld.hold(request, seconds: 3)
            return 500
        }
        let events = try EventReceiver { _, request in
            replayHeld.hold(request, seconds: 1)
            return 200
        }
        let sandbox = try SandboxProcess(["--award-url", awards.url, "--events-url", events.url])
        // A first order, whose first event is replayed below: its award refused three times, at once.
        let first = try Self.pay(on: sandbox)
        #expect(awards.wait(for: 3))
        var delivery: [String: Any]?
        let deadline = Date().addingTimeInterval(10)
        // The history lists a delivery once the server's loop has taken it: polled, up to 10 s.
        while delivery == nil && Date() < deadline {
            let listed = try SandboxDataTests.call(
                sandbox.port, .get, "/control/v1/deliveries?kind=event&purchaseId=\(first)")
            delivery = (listed.json["deliveries"] as? [[String: Any]])?.last
            if delivery == nil { usleep(10_000) }
        }
        let replayed = try #require(delivery?["id"] as? String)
        let body = try #require(delivery?["body"] as? String)
        // A second order, whose award the endpoint holds for 3 s: the award queue's stop waits for it.
        let second = try SandboxDataTests.create(sandbox.port)
        awardHeld.held = second
        let paid = try SandboxDataTests.call(
            sandbox.port, .post, "/control/v1/sessions/\(second)/complete", #"{"choice": "pay"}"#)
        #expect(paid.status == 200)
        #expect(awards.wait(for: 1), "the second award arrived and is held")
        // Six replays of the first order's event, each held 1 s: two under way, four waiting.
        replayHeld.held = body
        for _ in 0..<6 {
            let answer = try SandboxDataTests.call(sandbox.port, .post, "/control/v1/deliveries/\(replayed)/replay")
            #expect(answer.status == 202)
        }
        let stopped = sandbox.stop(within: 10)
        #expect(stopped.status == 0)
        // The event itself, then the replays: at most the two the queue's threads had taken
        // when SIGTERM came (fewer on a busy machine) were sent, and every other is named unsent.
        let sent = events.received.filter { $0.body == Array(body.utf8) }.count - 1
        let unsent =
            stopped.stderr.components(separatedBy: "replay of \(replayed): not sent, the sandbox stopped").count - 1
        #expect(sent <= 2, "\(sent) replays sent: only those under way at SIGTERM")
        #expect(sent + unsent == 6, "\(sent) sent and \(unsent) named unsent, of six")
    }

    /// The log lines the sandbox's stderr said were dropped, in all.
    static func dropped(_ log: String) -> Int {
        log.split(separator: "\n").reduce(0) { total, line in
            guard line.hasPrefix("warning: "), line.hasSuffix(" dropped while standard error was not being read"),
                let count = Int(line.dropFirst("warning: ".count).prefix { $0.isNumber })
            else { return total }
            return total + count
        }
    }

    /// Sends `count` requests whose log lines are 8 KiB each (the path, answered 404) over
    /// one connection, each answered within 2 s or not at all: how many were answered in time.
    static func burst(_ count: Int, to sandbox: SandboxProcess) throws -> Int {
        let path = "/" + String(repeating: "a", count: 8000)
        let client = HTTPClient(
            url: try HTTPURL("http://127.0.0.1:\(sandbox.port)\(path)"), connectTimeout: 2, responseTimeout: 2)
        defer { client.close() }
        for answered in 0..<count {
            guard let response = try? client.sendChecked(method: .get, headers: [], body: []), response.status == 404
            else {
                return answered
            }
        }
        return count
    }

    @Test("a stderr pipe nobody reads stalls no request; read again, it says how many log lines were dropped")
    func undrainedStandardError() throws {
        // The sandbox's stderr is read up to the line that says where it listens, then not at all.
        let sandbox = try SandboxProcess()
        // 2.4 MB of log: past the pipe's 64 KiB and the log's own 1 MiB.
        #expect(try Self.burst(300, to: sandbox) == 300, "every request answered within 2 s")
        let read = sandbox.readStandardError(
            until: " dropped while standard error was not being read\n", within: 10)
        #expect(Self.dropped(read) > 0)
        let stopped = sandbox.stop(within: 5)
        #expect(stopped.status == 0)
        let log = read + stopped.stderr
        // Each request's line is in the log, or counted among the dropped.
        let logged = log.split(separator: "\n").filter { $0.hasPrefix("GET /aaaa") }.count
        #expect(logged + Self.dropped(log) == 300)
        #expect(log.hasSuffix("paylinks sandbox stopped\n"))
    }

    @Test("SIGTERM with a stderr pipe nobody reads exits within a second or so, what was left unwritten")
    func exitWithUndrainedStandardError() throws {
        let sandbox = try SandboxProcess()
        #expect(try Self.burst(300, to: sandbox) == 300, "every request answered within 2 s")
        let stopped = sandbox.stop(within: 4)
        #expect(stopped.status == 0, "the exit waited for a reader that never came (\(stopped.seconds) s)")
    }
}
