import Foundation
import PaylinksHTTP
import Testing

@testable import PaylinksCommandLine

/// What a game's server receives follows the order's own life on Appcharge's side, on
/// every path of the command line: the events' transactions, their times and signatures,
/// their place among the client's callbacks, and the polls `--trace` shows.
@Suite("One order's life")
@MainActor
struct OrderTimelineTests {
    /// The events a JSON run showed, each with its parsed body.
    static func bodies(_ stdout: String) throws -> [(label: String, body: [String: Any])] {
        try EventTests.events(stdout).map { event in
            let body = try #require(
                try JSONSerialization.jsonObject(with: Data((event["body"] as? String ?? "").utf8)) as? [String: Any])
            let name = body["eventName"] as? String ?? body["event"] as? String ?? "?"
            return (name + ((body["result"] as? String).map { " (\($0))" } ?? ""), body)
        }
    }

    /// The `transactions` of an event body: each row's type and timestamp.
    static func transactions(_ body: [String: Any]) -> [String] {
        (body["transactions"] as? [[String: Any]] ?? []).map { "\($0["type"] ?? "?")@\($0["timestamp"] ?? "?")" }
    }

    @Test(
        "a paid transaction appears only once the payment succeeded; order.created goes out at the player's choice",
        arguments: [
            (["order.canceled"], ExitCode.purchaseCanceled, false, 1_718_182_318_590),
            (["order.payment.resolved", "--result", "failed"], .purchaseFailed, false, 1_718_182_330_590),
            (["order.completed"], .success, true, 1_718_182_330_590),
        ])
    func paidOnlyWhenPaid(event: [String], exit: ExitCode, paid: Bool, chosen: Int) throws {
        let result = runCLI(["trigger"] + event + ["--json"] + EventTests.seeded)
        #expect(result.exitCode == exit, "\(result.stderr)")
        let events = try Self.bodies(result.stdout)
        let created = try #require(events.first)
        #expect(created.label == "order.created")
        #expect(Self.transactions(created.body).isEmpty, "\(created.body)")
        // The player chose 18.59 s after the run began when paying, 6.59 s when closing the
        // checkout: the order exists from then, not from the session's creation.
        #expect(created.body["timestamp"] as? Int == chosen)
        for (label, body) in events.dropFirst() {
            let rows = Self.transactions(body)
            let expected = paid && label != "order.created" ? ["paid@1718182330000"] : []
            #expect(rows == expected, "\(label)")
        }
    }

    @Test("a transaction keeps the time it happened in every event that repeats it")
    func transactionsKeepTheirTime() throws {
        let result = runCLI(["trigger", "order.dispute.resolved", "--result", "won", "--json"] + EventTests.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        let events = try Self.bodies(result.stdout)
        #expect(
            events.map(\.label) == [
                "order.created", "order.payment.resolved (success)", "order.completed", "order.dispute.opened",
                "order.dispute.resolved (won)",
            ])
        let paid = "paid@1718182330000"
        #expect(
            events.map { Self.transactions($0.body) } == [
                [], [paid], [paid],
                [paid, "dispute_funds_withdrawn@1718182391190"],
                [paid, "dispute_funds_withdrawn@1718182391190", "dispute_funds_reinstated@1718182511190"],
            ])
    }

    @Test(
        "every event's timestamp is at or before its t, never ahead of the wall clock; a delayed one's t is 300 s later",
        arguments: ["v2", "v1"])
    func signedAfterItHappened(version: String) throws {
        let receiver = try EventReceiver()
        // Without --now, the story is placed so that the delayed refund happened 5 minutes ago.
        let before = Int(Date().timeIntervalSince1970 * 1000)
        let result = runCLI(
            [
                "trigger", "order.refunded", "--fault", "delay", "--events-url", receiver.url, "--events-version",
                version, "--seed", "7",
            ], clock: before / 1000)
        let after = Int(Date().timeIntervalSince1970 * 1000)
        #expect(result.exitCode == .success, "\(result.stderr)")
        let received = receiver.received
        #expect(received.map(\.label).count == 4)
        for (index, event) in received.enumerated() {
            let signature = event.headers["signature"] ?? ""
            let t = try #require(Int(signature.split(separator: ",").first?.dropFirst(2) ?? ""))
            let stamp = try #require(event.json["timestamp"] as? Int)
            // V1 says its time in seconds.
            let happened = version == "v1" ? stamp * 1000 : stamp
            #expect(happened <= t, "\(event.label): t \(t), timestamp \(stamp)")
            #expect(t <= after + 1_000, "\(event.label) signed ahead of the wall clock: t \(t), now \(after)")
            if index == received.count - 1 {
                let late = t - happened
                #expect((version == "v1" ? 300_000..<302_000 : 300_000..<301_001).contains(late), "\(late)")
            }
        }
    }

    @Test(
        "a long run without --now ends now: a handler that checks t against its clock takes every award and event",
        .enabled(if: ExampleGameServer.python != nil || runningInCI, "python3 is not installed"))
    func longRunEndsNow() throws {
        let game = try ExampleGameServer()
        let events = "http://127.0.0.1:\(game.port)/events"
        // 40 checkouts take over 12 minutes on the run's clock, more than the handler's window.
        let result = runCLI(
            [
                "purchase", "--sku", "starter_pack_001", "--count", "40", "--award-url", game.url, "--events-url",
                events,
                "--seed", "5", "--json",
            ],
            clock: Int(Date().timeIntervalSince1970))
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(try EventTests.balance(game) == 4_000)
    }

    @Test(
        "one timeline with or without --award-url: created, payment resolved, the award, the client's result, completed",
        .enabled(if: ExampleGameServer.python != nil || runningInCI, "python3 is not installed"))
    func oneTimeline() throws {
        let receiver = try EventReceiver()
        let game = try ExampleGameServer()
        let purchase = ["purchase", "--sku", "starter_pack_001", "--json", "--events-url", receiver.url, "--seed", "7"]
        var timelines: [[String]] = []
        for extra in [[], ["--award-url", game.url]] {
            let result = runCLI(purchase + extra, clock: Int(Date().timeIntervalSince1970))
            #expect(result.exitCode == .success, "\(result.stderr)")
            let lines = try EventTests.lines(result.stdout)
            timelines.append(
                lines.map { line in
                    if let callback = line["callback"] as? String { return callback }
                    if let event = line["event"] as? [String: Any] { return event["name"] as? String ?? "?" }
                    return line["award"] != nil ? "award" : "?"
                })
        }
        let events = ["order.created", "order.payment.resolved"]
        #expect(timelines[0] == ["onInitialized"] + events + ["onPurchaseSuccess", "order.completed"])
        #expect(timelines[1] == ["onInitialized"] + events + ["award", "onPurchaseSuccess", "order.completed"])
    }

    @Test("--trace's polls read the order's state at each poll, through the award's retries")
    func pollsFollowTheOrder() throws {
        let refusing = try EventReceiver { count, _ in
            count < 3
                ? HTTPServerResponse(status: 500, contentType: "application/json", body: Array("{}".utf8))
                : HTTPServerResponse(
                    status: 200, contentType: "application/json", body: Array(#"{"publisherPurchaseId":"g-1"}"#.utf8))
        }
        let granted = runCLI([
            "purchase", "--sku", "starter_pack_001", "--award-url", refusing.url, "--trace", "--seed", "7",
        ])
        #expect(granted.exitCode == .success, "\(granted.stderr)")
        let lines = granted.stderr.split(separator: "\n").map(String.init)
        let polls = lines.filter { $0.contains("poll #") || $0.contains("polls #") }
        // The award goes out as the player pays; the polls read charge_pending while its
        // retries wait, 10 s apart, and charge_succeed once it is granted.
        #expect(polls.dropLast().allSatisfy { $0.contains("charge_pending") }, "\(polls)")
        #expect(polls.last?.hasSuffix(": charge_succeed") == true, "\(polls)")
        #expect(polls.count >= 3, "polls between the retries: \(polls)")
        let retry = try #require(lines.firstIndex { $0.contains("award attempt 2: POST") })
        #expect(lines[..<retry].contains { $0.contains("charge_pending") }, "a poll before the retry")
        #expect(lines[retry...].contains { $0.contains("charge_pending") }, "a poll after the retry")

        let failing = try EventReceiver(answer: { _, _ in 500 })
        let failed = runCLI([
            "purchase", "--sku", "starter_pack_001", "--award-url", failing.url, "--trace", "--seed", "7",
        ])
        #expect(failed.exitCode == .purchaseFailed)
        let traced = failed.stderr.split(separator: "\n").filter { $0.contains("poll #") || $0.contains("polls #") }
        #expect(!traced.contains { $0.contains("charge_succeed") }, "\(traced)")
        #expect(traced.last?.hasSuffix(": charge_failed") == true, "\(traced)")
    }

    @Test(
        "the events follow what the order lived, not the client's status code: a payment the SDK gave up on is paid",
        arguments: ["3004", "3007"])
    func notFromTheStatusCode(code: String) throws {
        // 3004: the SDK's validation timed out; 3007: the SDK refused an order of another
        // customer. Either way the player paid, and Appcharge's side went on.
        let receiver = try EventReceiver()
        let result = runCLI(
            ["purchase", "--sku", "starter_pack_001", "--error", code, "--events-url", receiver.url, "--json"]
                + EventTests.seeded)
        #expect(result.exitCode == .purchaseFailed, "\(result.stderr)")
        #expect(
            try EventTests.lines(result.stdout).last?["event"] != nil, "order.completed follows the client's result")
        #expect(
            receiver.received.map(\.label) == [
                "order.created", "order.payment.resolved (success)", "order.completed",
            ])
        // A checkout that failed before the player did anything made no order.
        let unopened = try EventReceiver()
        let closed = runCLI(
            ["purchase", "--sku", "starter_pack_001", "--error", "3006", "--events-url", unopened.url]
                + EventTests.seeded)
        #expect(closed.exitCode == .purchaseFailed)
        #expect(unopened.received.isEmpty)
    }

    @Test("a story that goes another way says so, and --concurrency is refused where the checkouts run one by one")
    func storiesThatGoAnotherWay() throws {
        let refusing = try EventReceiver(answer: { _, _ in 500 })
        let receiver = try EventReceiver()
        let result = runCLI(
            ["trigger", "order.completed", "--award-url", refusing.url, "--events-url", receiver.url]
                + EventTests.seeded)
        #expect(result.exitCode == .purchaseFailed)
        #expect(result.stderr.contains("note: the story never reached order.completed (the order is charge_failed)"))
        #expect(receiver.received.map(\.label) == ["order.created", "order.payment.resolved (success)"])
        let both = runCLI([
            "purchase", "--sku", "starter_pack_001", "--count", "3", "--award-url", refusing.url, "--events-url",
            receiver.url, "--concurrency", "2",
        ])
        #expect(both.exitCode == .usage)
        #expect(both.stderr.contains("leave out --concurrency or one URL"), "\(both.stderr)")
    }

    /// Checks the rules every order's events keep, over bodies and `signature` headers in
    /// the order they went out: each `timestamp` at or before its `t`; no `paid` row before
    /// a successful payment; each row the same time in every event that repeats it.
    static func keepTheRules(_ events: [(body: [String: Any], signature: String)], _ what: String) {
        var paidSeen: Set<String> = []
        var rowTimes: [String: Int] = [:]
        for (body, signature) in events {
            let t = Int(signature.split(separator: ",").first?.dropFirst(2) ?? "") ?? -1
            let stamp = body["timestamp"] as? Int ?? .max
            let happened = body["event"] != nil ? stamp * 1000 : stamp
            #expect(happened <= t, "\(what): \(body["eventName"] ?? body["event"] ?? "?") t \(t), timestamp \(stamp)")
            let session = body["sessionId"] as? String ?? ""
            if body["eventName"] as? String == "order.payment.resolved", body["result"] as? String == "success" {
                paidSeen.insert(session)
            }
            for row in body["transactions"] as? [[String: Any]] ?? [] {
                let type = row["type"] as? String ?? "?"
                if type == "paid" { #expect(paidSeen.contains(session), "\(what): a paid row before the payment") }
                let key = "\(session) \(type)"
                let time = row["timestamp"] as? Int ?? -1
                #expect(rowTimes[key, default: time] == time, "\(what): \(key) moved")
                rowTimes[key] = time
            }
        }
    }

    @Test(
        "every trigger story keeps the rules, each event and result, V1 and V2",
        arguments: [
            ["order.created"], ["order.payment.resolved"], ["order.payment.resolved", "--result", "failed"],
            ["order.completed"], ["order.canceled"], ["order.refunded"], ["order.refunded", "--amount", "100"],
            ["order.dispute.opened"], ["order.dispute.resolved", "--result", "won"],
            ["order.dispute.resolved", "--result", "lost"],
        ], ["v2", "v1"])
    func triggerKeepsTheRules(event: [String], version: String) throws {
        let result = runCLI(["trigger"] + event + ["--json", "--events-version", version] + EventTests.seeded)
        let shown = try EventTests.events(result.stdout).map { event in
            (
                body: try #require(
                    try JSONSerialization.jsonObject(with: Data((event["body"] as? String ?? "").utf8))
                        as? [String: Any]),
                signature: (event["headers"] as? [String: String])?["signature"] ?? ""
            )
        }
        #expect(!shown.isEmpty)
        Self.keepTheRules(shown, event.joined(separator: " ") + " " + version)
    }

    @Test("a scenario's refund and dispute steps keep the rules on the wire", arguments: ["v2", "v1"])
    func scenarioKeepsTheRules(version: String) throws {
        let receiver = try EventReceiver()
        let result = runCLI(
            [
                "run", "Fixtures/scenarios/after-the-purchase.json", "--events-url", receiver.url, "--events-version",
                version,
            ], clock: Int(Date().timeIntervalSince1970))
        #expect(result.exitCode == .success, "\(result.stderr)")
        let received = receiver.received
        #expect(received.count >= 8)
        Self.keepTheRules(received.map { ($0.json, $0.headers["signature"] ?? "") }, "run " + version)
    }
}
