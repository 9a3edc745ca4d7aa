import Foundation
import Testing

@testable import PaylinksAppcharge
@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksHTTP
@testable import PaylinksKit

/// A responder made of closures, for the tests' servers: each request is answered as it
/// is by `answer`, and the server stops once `stopping` says so.
struct TestResponder: HTTPResponder {
    let stopping: @Sendable () -> Bool
    let answer: @Sendable (HTTPRequest) -> HTTPAnswer

    var isStopping: Bool { stopping() }

    func prepare(_ request: HTTPRequest) -> HTTPRequest { request }

    func respond(to request: HTTPRequest) -> HTTPAnswer { answer(request) }
}

/// A game server's events endpoint on a free loopback port, for one test: it keeps every
/// request it receives, raw, and answers each with the status `answer` gives for it.
final class EventReceiver: @unchecked Sendable {
    /// One request as it arrived.
    struct Received {
        let body: [UInt8]
        let headers: [String: String]

        /// The body, parsed.
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        }

        /// The V2 `eventName` and `result`, or the V1 `event`: `order.dispute.resolved (lost)`.
        var label: String {
            if let name = json["eventName"] as? String {
                return name + ((json["result"] as? String).map { " (\($0))" } ?? "")
            }
            return json["event"] as? String ?? "?"
        }

        /// Whether `signature` is HMAC-SHA256 with `key` over `t.body`, the exact bytes received.
        func isSigned(with key: String) -> Bool {
            let signature = headers["signature"] ?? ""
            guard let time = signature.split(separator: ",").first?.dropFirst(2), let milliseconds = Int(time) else {
                return false
            }
            return signature == GrantAward.signature(body: body, milliseconds: milliseconds, key: Array(key.utf8))
        }
    }

    let port: Int
    private let server: HTTPServer
    private let lock = NSLock()
    private var requests: [Received] = []
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled once for each request received.
    private let arrived = DispatchSemaphore(value: 0)

    /// A receiver answering the `n`-th request (from 1) with the status `answer(n, request)`.
    convenience init(answer: @escaping @Sendable (Int, HTTPRequest) -> Int = { _, _ in 200 }) throws {
        try self.init { count, request in
            HTTPServerResponse(status: answer(count, request), contentType: "application/json", body: Array("{}".utf8))
        }
    }

    /// A receiver answering the `n`-th request (from 1) with `respond(n, request)`.
    init(respond: @escaping @Sendable (Int, HTTPRequest) -> HTTPServerResponse) throws {
        server = try HTTPServer(host: "127.0.0.1", port: 0) { refused in
            HTTPServerResponse(status: refused.status, contentType: "text/plain", body: Array(refused.message.utf8))
        }
        port = server.port
        let thread = Thread { [self] in
            server.run(
                TestResponder(
                    stopping: { self.lock.withLock { self.stopping } },
                    answer: { request in
                        let received = Received(
                            body: request.body,
                            headers: Dictionary(
                                request.headers.map { ($0.name.lowercased(), $0.value) },
                                uniquingKeysWith: { a, _ in a }))
                        let count = self.lock.withLock {
                            self.requests.append(received)
                            return self.requests.count
                        }
                        self.arrived.signal()
                        return .ready(respond(count, request))
                    }))
            self.finished.signal()
        }
        thread.start()
    }

    var url: String { "http://127.0.0.1:\(port)/events" }

    /// Every request so far, oldest first.
    var received: [Received] { lock.withLock { requests } }

    /// Waits until `count` more requests have arrived, for 10 s at most each; whether they did.
    func wait(for count: Int) -> Bool {
        (0..<count).allSatisfy { _ in arrived.wait(timeout: .now() + 10) == .success }
    }

    deinit {
        lock.withLock { stopping = true }
        // The server notices within its poll interval; bounded, so a stuck one cannot hang the suite.
        _ = finished.wait(timeout: .now() + 10)
    }
}

/// The signed events a game's server receives: `trigger`, and `--events-url` on
/// `purchase` and `cancel`, against a receiver the tests start.
@Suite("Order events")
@MainActor
struct EventTests {
    static let seeded = ["--seed", "7", "--now", "1718182312"]

    static func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// The `event` objects of JSON output, in order.
    static func events(_ text: String) throws -> [[String: Any]] {
        try lines(text).compactMap { $0["event"] as? [String: Any] }
    }

    @Test("trigger order.refunded sends the whole story in order, each event signed over its exact bytes")
    func refundStory() throws {
        let receiver = try EventReceiver()
        let result = runCLI(["trigger", "order.refunded", "--events-url", receiver.url, "--json"] + Self.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        let received = receiver.received
        #expect(
            received.map(\.label) == [
                "order.created", "order.payment.resolved (success)", "order.completed", "order.refunded",
            ])
        #expect(received.allSatisfy { $0.isSigned(with: DemoCredentials.mainKey) })
        #expect(received.allSatisfy { $0.headers["x-project-id"] == DemoCredentials.projectId })
        #expect(received.allSatisfy { $0.headers["x-publisher-token"] == DemoCredentials.publisherToken })
        // A V2 event has no orderId: the receiver joins it to the grant by the award's purchaseId.
        let order = try #require(try Self.lines(result.stdout).compactMap { $0["order"] as? [String: Any] }.first)
        let refund = try #require(received.last?.json)
        let transactions = try #require(refund["transactions"] as? [[String: Any]])
        #expect(transactions.map { $0["type"] as? String } == ["paid", "refund"])
        #expect(transactions.allSatisfy { $0["purchaseId"] as? String == order["purchaseId"] as? String })
        // The whole $4.99 and its US sales tax, given back: negative.
        #expect(transactions.last?["amount"] as? String == "-5.43")
        #expect(Set(received.map { $0.json["eventId"] as? String ?? "" }).count == 4, "each event has its own id")
        // What was printed is what was received.
        #expect(try Self.events(result.stdout).map { $0["accepted"] as? Bool } == [true, true, true, true])
    }

    @Test("an event refused once is sent again with the same bytes and eventId; the output shows both attempts")
    func retriedWithTheSameId() throws {
        // Every first attempt of an event fails: requests 1, 3, 5, ...
        let receiver = try EventReceiver { count, _ in count.isMultiple(of: 2) ? 200 : 503 }
        let result = runCLI(["trigger", "order.completed", "--events-url", receiver.url, "--json"] + Self.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        let received = receiver.received
        #expect(received.count == 6)
        for pair in stride(from: 0, to: received.count, by: 2) {
            #expect(received[pair].body == received[pair + 1].body)
            #expect(received[pair].isSigned(with: DemoCredentials.mainKey))
            #expect(received[pair + 1].isSigned(with: DemoCredentials.mainKey))
        }
        let shown = try Self.events(result.stdout)
        #expect(shown.map { $0["attempt"] as? Int } == [1, 2, 1, 2, 1, 2])
        #expect(shown.map { $0["status"] as? Int } == [503, 200, 503, 200, 503, 200])
        #expect(shown.map { $0["sentAfterMilliseconds"] as? Int } == [0, 15_000, 0, 15_000, 0, 15_000])
        #expect(shown[0]["eventId"] as? String == shown[1]["eventId"] as? String)
    }

    @Test("an event refused on every attempt ends in exit 14, after V2's four attempts")
    func refusedEverywhere() throws {
        let receiver = try EventReceiver { _, _ in 500 }
        let result = runCLI(["trigger", "order.created", "--events-url", receiver.url, "--json"] + Self.seeded)
        #expect(result.exitCode == .eventRefused)
        #expect(result.exitCode.rawValue == 14)
        let shown = try Self.events(result.stdout)
        #expect(shown.map { $0["sentAfterMilliseconds"] as? Int } == [0, 15_000, 30_000, 930_000])
        #expect(shown.allSatisfy { $0["accepted"] as? Bool == false })
        #expect(receiver.received.count == 4)
    }

    @Test("V1 events carry the old names, the flat payload, seconds, and the award's orderId")
    func versionOne() throws {
        let receiver = try EventReceiver()
        let result = runCLI(
            ["trigger", "order.dispute.resolved", "--events-url", receiver.url, "--events-version", "v1", "--json"]
                + Self.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        let received = receiver.received
        #expect(
            received.map(\.label) == [
                "order_created", "payment_intent_success", "order_completed_success", "order_dispute_open",
                "order_dispute_lost",
            ])
        let order = try #require(try Self.lines(result.stdout).compactMap { $0["order"] as? [String: Any] }.first)
        for event in received {
            #expect(event.json["appChargeOrderId"] as? String == order["orderId"] as? String)
            #expect(event.json["eventId"] == nil)
            let seconds = try #require(event.json["timestamp"] as? Int)
            #expect((1_718_182_312...1_718_182_312 + 3600).contains(seconds), "Unix seconds, not milliseconds")
            #expect(event.isSigned(with: DemoCredentials.mainKey))
        }
    }

    @Test("V1 retries a server error only: a 4xx is the end of the event")
    func versionOneRetries() throws {
        let receiver = try EventReceiver { _, _ in 400 }
        let result = runCLI(
            ["trigger", "order.created", "--events-url", receiver.url, "--events-version", "v1"] + Self.seeded)
        #expect(result.exitCode == .eventRefused)
        #expect(receiver.received.count == 1)
    }

    @Test("--events-key-file signs events with a key of their own; the main key still signs awards")
    func separateKey() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("events.key")
        try Data("events-secret\n".utf8).write(to: keyFile)
        let receiver = try EventReceiver()
        let result = runCLI(
            ["trigger", "order.created", "--events-url", receiver.url, "--events-key-file", keyFile.path]
                + Self.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        let event = try #require(receiver.received.first)
        #expect(event.isSigned(with: "events-secret"))
        #expect(!event.isSigned(with: DemoCredentials.mainKey))
        #expect(!result.stdout.contains("events-secret") && !result.stderr.contains("events-secret"))
    }

    @Test("a declined payment and a canceled checkout end the story with the client's code")
    func clientEndings() throws {
        let receiver = try EventReceiver()
        let declined = runCLI(
            ["trigger", "order.payment.resolved", "--result", "failed", "--events-url", receiver.url] + Self.seeded)
        #expect(declined.exitCode == .purchaseFailed)
        #expect(receiver.received.map(\.label) == ["order.created", "order.payment.resolved (failed)"])
        let canceled = runCLI(["trigger", "order.canceled", "--events-url", receiver.url] + Self.seeded)
        #expect(canceled.exitCode == .purchaseCanceled)
        #expect(receiver.received.map(\.label).suffix(2) == ["order.created", "order.canceled"])
    }

    @Test("--fee-rate and --exchange-cost-rate set what V1's estimates leave the studio: a German $9.99 at 30% and 0%")
    func rates() throws {
        let result = runCLI(
            [
                "trigger", "order.completed", "--events-version", "v1", "--country", "DE", "--sku", "builders_bundle",
                "--fee-rate", "30%", "--exchange-cost-rate", "0%", "--json",
            ] + Self.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        let body = try #require(try Self.events(result.stdout).last?["body"] as? String)
        // $9.73 before tax: a fee of R(291.9) cents, and the rest the studio's.
        #expect(
            body.contains(#""pricePointMetadata":999,"estimatedPublisherNetAmount":6.81,"estimatedAppchargeFee":2.92,"#)
        )
        #expect(body.contains(#""originalPriceInDollar":9.99,"country":"DE","currency":"EUR","priceInDollar":9.73,"#))
    }

    @Test("--amount refunds part of the order: the refund transaction says how much")
    func partialRefund() throws {
        let result = runCLI(["trigger", "order.refunded", "--amount", "150", "--json"] + Self.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        let refund = try #require(try Self.events(result.stdout).last)
        let body = try #require(refund["body"] as? String)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let transactions = try #require(json["transactions"] as? [[String: Any]])
        #expect(transactions.last?["type"] as? String == "refund")
        // 150 of the price of 499, with its share of the tax: 543 × 150 / 499, rounded, given back.
        #expect(transactions.last?["amount"] as? String == "-1.63")
    }

    @Test("without --events-url, each event is shown with headers whose signature holds over the body shown")
    func shownAsSent() throws {
        let result = runCLI(["trigger", "order.dispute.opened", "--json"] + Self.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        let shown = try Self.events(result.stdout)
        #expect(
            shown.map { $0["name"] as? String } == [
                "order.created", "order.payment.resolved", "order.completed", "order.dispute.opened",
            ])
        for event in shown {
            let headers = try #require(event["headers"] as? [String: String])
            let body = try #require(event["body"] as? String)
            let received = EventReceiver.Received(body: Array(body.utf8), headers: headers)
            #expect(received.isSigned(with: DemoCredentials.mainKey))
            #expect(received.json["eventId"] as? String == event["eventId"] as? String)
        }
        #expect(runCLI(["trigger", "order.dispute.opened", "--json"] + Self.seeded).stdout == result.stdout)
    }

    @Test("purchase --events-url sends the order's creation and payment before its award, the completion after")
    func aroundTheAward() throws {
        let events = try EventReceiver()
        let awards = try ExampleGameServer()
        let result = runCLI(
            ["purchase", "--sku", "starter_pack_001", "--award-url", awards.url, "--events-url", events.url, "--json"]
                + Self.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        let kinds = try Self.lines(result.stdout).map { line in
            line["event"].map { ($0 as? [String: Any])?["name"] as? String ?? "?" }
                ?? (line["award"] != nil ? "award" : line["callback"] as? String ?? "?")
        }
        #expect(
            kinds == [
                "onInitialized", "order.created", "order.payment.resolved", "award", "onPurchaseSuccess",
                "order.completed",
            ])
        #expect(result.stderr.hasPrefix("note: award callbacks and events use the demo main key"))
    }

    @Test("cancel --events-url sends the order's creation and its cancel; a cancel before the order sends nothing")
    func cancels() throws {
        let receiver = try EventReceiver()
        let result = runCLI(["cancel", "--sku", "starter_pack_001", "--events-url", receiver.url] + Self.seeded)
        #expect(result.exitCode == .purchaseCanceled)
        #expect(receiver.received.map(\.label) == ["order.created", "order.canceled"])
        let early = runCLI(
            ["cancel", "--sku", "starter_pack_001", "--before-order", "--events-url", receiver.url] + Self.seeded)
        #expect(early.exitCode == .purchaseCanceled)
        #expect(receiver.received.count == 2)
    }

    @Test(
        "a bad event, result, amount, URL or key file gets one error line and its exit code",
        arguments: [
            (["trigger", "order.refund"], "unknown event 'order.refund'", ExitCode.usage),
            (["trigger", "order_refunded"], "'order_refunded' is the V1 name of order.refunded", .usage),
            (["trigger", "order.refunded", "--result", "won"], "order.refunded has no result", .usage),
            (
                ["trigger", "order.dispute.resolved", "--result", "wonn"],
                "--result for order.dispute.resolved takes won or lost", .usage
            ),
            (["trigger", "order.completed", "--amount", "100"], "--amount makes a refund partial", .usage),
            (
                ["trigger", "order.refunded", "--amount", "500"], "--amount 500 is more than the order's price, 499",
                .usage
            ),
            (["trigger", "order.refunded", "--amount", "0"], "--amount takes a whole number from 1", .usage),
            (["trigger", "order.created", "--events-url", "https://127.0.0.1/events"], "--events-url", .usage),
            (["trigger"], "trigger needs EVENT", .usage),
            (
                ["purchase", "--sku", "starter_pack_001", "--events-version", "v1"],
                "--events-version goes with --events-url", .usage
            ),
            (
                ["trigger", "order.created", "--events-key-file", "/nonexistent/events.key"], "events key file",
                .noInput
            ),
            (["trigger", "order.created", "--project-id", "a\u{e9}"], "--project-id goes in a header", .usage),
        ])
    func badInput(arguments: [String], message: String, code: ExitCode) {
        let result = runCLI(arguments + Self.seeded)
        #expect(result.exitCode == code)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test("an unknown event name suggests the closest one")
    func closestEvent() {
        let result = runCLI(["trigger", "order.refund"] + Self.seeded)
        #expect(result.stderr.contains("did you mean 'order.refunded'?"), "\(result.stderr)")
    }

    // MARK: Scenarios

    @Test("a scenario's refunds and disputes send their events to its eventsUrl, and expectations check them")
    func scenarioEvents() throws {
        let receiver = try EventReceiver()
        let path = try ScenarioTests.write([
            (
                "refunds.json",
                """
                {"configuration": {"eventsUrl": "\(receiver.url)", "seed": 1, "now": 1718182312}, "steps": [
                  {"step": "initialize"},
                  {"step": "purchase", "sku": "starter_pack_001"},
                  {"step": "refund", "amount": 200, "expect": {"state": "payment_refunded", "events": ["order.refunded"]}},
                  {"step": "purchase", "sku": "builders_bundle"},
                  {"step": "dispute", "outcome": "lost",
                   "expect": {"state": "payment_dispute_lost",
                              "events": ["order.dispute.opened", "order.dispute.resolved"]}}
                ]}
                """
            )
        ])[0]
        let result = runCLI(["run", path, "--json"])
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(result.stderr.contains("4 met, 0 failed"), "\(result.stderr)")
        let received = receiver.received
        #expect(
            received.map(\.label) == [
                "order.created", "order.payment.resolved (success)", "order.completed", "order.refunded",
                "order.created", "order.payment.resolved (success)", "order.completed", "order.dispute.opened",
                "order.dispute.resolved (lost)",
            ])
        #expect(received.allSatisfy { $0.isSigned(with: DemoCredentials.mainKey) })
        let refund = try #require(received[3].json["transactions"] as? [[String: Any]])
        // 200 of the price of 499, with its share of the tax: 543 × 200 / 499, rounded, given back.
        #expect(refund.last?["amount"] as? String == "-2.18")
        // Each event line carries the scenario and step it came from.
        let lines = try Self.lines(result.stdout).filter { $0["event"] != nil }
        #expect(lines.map { $0["step"] as? Int } == [2, 2, 2, 3, 4, 4, 4, 5, 5])
    }

    @Test("a refund the rules forbid is refused at its step with the rule, and the scenario fails")
    func refusedRefund() throws {
        let path = try ScenarioTests.write([
            (
                "twice.json",
                """
                {"steps": [{"step": "initialize"}, {"step": "purchase", "sku": "starter_pack_001"},
                  {"step": "refund"}, {"step": "refund"}, {"step": "dispute", "outcome": "open"}]}
                """
            )
        ])[0]
        let result = runCLI(["run", path])
        #expect(result.exitCode == .expectationsFailed)
        #expect(
            result.stderr.contains(
                "step 4 (refund): refund refused: the order was refunded already; a refunded order cannot be "
                    + "refunded again"), "\(result.stderr)")
        #expect(result.stderr.contains("step 5 (dispute): dispute refused: the order is payment_refunded"))
        let unpaid = try ScenarioTests.write([
            ("unpaid.json", #"{"steps": [{"step": "initialize"}, {"step": "refund"}]}"#)
        ])[0]
        #expect(runCLI(["run", unpaid]).stderr.contains("refund refused: no order was paid yet"))
    }

    @Test("a state or events expectation that does not hold says what came instead")
    func lifeMismatch() throws {
        let path = try ScenarioTests.write([
            (
                "wrong.json",
                """
                {"steps": [{"step": "initialize"},
                  {"step": "purchase", "sku": "starter_pack_001", "outcome": "declined",
                   "expect": {"state": "charge_succeed", "events": ["order.created"]}}]}
                """
            )
        ])[0]
        let result = runCLI(["run", path])
        #expect(result.exitCode == .expectationsFailed)
        #expect(result.stderr.contains("state: expected charge_succeed, got payment_failed"), "\(result.stderr)")
        #expect(result.stderr.contains("events: expected order.created, got order.created, order.payment.resolved"))
    }

    @Test("run --events-url sends the events of scenarios that name no eventsUrl of their own")
    func runOption() throws {
        let receiver = try EventReceiver()
        let path = try ScenarioTests.write([
            ("one.json", #"{"steps": [{"step": "initialize"}, {"step": "cancel", "sku": "starter_pack_001"}]}"#)
        ])[0]
        let result = runCLI(["run", path, "--events-url", receiver.url])
        // A scenario without expectations ends with its last callback's code: a cancel's.
        #expect(result.exitCode == .purchaseCanceled, "\(result.stderr)")
        #expect(receiver.received.map(\.label) == ["order.created", "order.canceled"])
        #expect(result.stderr.hasPrefix("note: events use the demo main key"))
        // The note ends on a whole phrase.
        #expect(result.stderr.contains("or --publisher-token, to your studio's own\n"), "\(result.stderr)")
    }

    @Test("the scenario files' event names and states are the events' and the orders' own")
    func oneVocabulary() throws {
        #expect(ScenarioLoader.eventNames == OrderEvent.Name.v2Names)
        #expect(ScenarioStep.DisputeOutcome.allCases.map(\.rawValue) == OrderLife.DisputeGoal.allCases.map(\.rawValue))
        let schema = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: DocumentedCommands.root.appendingPathComponent("Schemas/scenario.schema.json")))
                as? [String: Any])
        let expectation = try #require(
            ((schema["$defs"] as? [String: Any])?["expectation"] as? [String: Any])?["properties"] as? [String: Any])
        #expect((expectation["state"] as? [String: Any])?["enum"] as? [String] == OrderState.allCases.map(\.rawValue))
        #expect(
            ((expectation["events"] as? [String: Any])?["items"] as? [String: Any])?["enum"] as? [String]
                == OrderEvent.Name.v2Names)
    }

    // MARK: The sandbox

    @Test("serve --events-url sends each order's events; Initiate Refund refunds it and order.refunded follows")
    func sandboxEvents() throws {
        let receiver = try EventReceiver()
        let sandbox = try SandboxProcess(["--events-url", receiver.url])
        func post(_ path: String, _ headers: [HTTPHeader], _ body: String) throws -> HTTPResponse {
            let client = HTTPClient(url: try HTTPURL("http://127.0.0.1:\(sandbox.port)\(path)"))
            defer { client.close() }
            return try client.sendChecked(headers: headers, body: Array(body.utf8))
        }
        let body =
            #"{"priceDetails": {"price": 499, "currency": "USD"}, "offer": {"name": "Starter Pack", "sku": "#
            + #""starter_pack_001", "pricePointMetadata": 499}, "items": [{"name": "Gems", "sku": "gem_01", "#
            + #""quantity": 100}], "customer": {"id": "cust_1"}}"#
        let json = HTTPHeader("Content-Type", "application/json")
        let token = HTTPHeader("x-publisher-token", DemoCredentials.publisherToken)
        let created = try post("/checkout/v1/session", [json, token], body)
        #expect(created.status == 201)
        let session = try #require(try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])
        let purchaseId = try #require(session["purchaseId"] as? String)
        let paid = try post("/control/v1/sessions/\(purchaseId)/complete", [json], #"{"choice": "pay"}"#)
        let state = try #require(try JSONSerialization.jsonObject(with: Data(paid.body)) as? [String: Any])
        let orderId = try #require(state["orderId"] as? String)
        let refund = try post(
            "/checkout/api/v1/order/\(orderId)/refund", [token, HTTPHeader("x-user-id", "cust_1")], "")
        #expect(refund.status == 201)
        #expect(receiver.wait(for: 4), "four events arrive")
        #expect(
            receiver.received.map(\.label) == [
                "order.created", "order.payment.resolved (success)", "order.completed", "order.refunded",
            ])
        #expect(receiver.received.allSatisfy { $0.isSigned(with: DemoCredentials.mainKey) })
        let stopped = sandbox.stop()
        #expect(stopped.status == 0)
        #expect(stopped.stderr.contains("event order.refunded of \(purchaseId) attempt 1: accepted (200, "))
    }

    // MARK: Faults

    @Test("--fault duplicate delivers the event twice with the same eventId and bytes")
    func duplicateFault() throws {
        let receiver = try EventReceiver()
        let result = runCLI(
            ["trigger", "order.refunded", "--fault", "duplicate", "--events-url", receiver.url] + Self.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        let received = receiver.received
        #expect(received.map(\.label).suffix(2) == ["order.refunded", "order.refunded"])
        #expect(received[3].body == received[4].body)
    }

    @Test("--fault reorder sends the event before the one it follows: the refund before the completion")
    func reorderFault() throws {
        let receiver = try EventReceiver()
        let result = runCLI(
            ["trigger", "order.refunded", "--fault", "reorder", "--events-url", receiver.url] + Self.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(
            receiver.received.map(\.label) == [
                "order.created", "order.payment.resolved (success)", "order.refunded", "order.completed",
            ])
        let early = runCLI(["trigger", "order.created", "--fault", "reorder"] + Self.seeded)
        #expect(early.exitCode == .usage)
        #expect(early.stderr.contains("order.created follows none"))
    }

    @Test("--fault drop-first loses the first attempt: V2's retry brings the event 15 s later, V1 never does")
    func dropFault() throws {
        let receiver = try EventReceiver()
        let v2 = runCLI(
            ["trigger", "order.completed", "--fault", "drop-first", "--events-url", receiver.url, "--json"]
                + Self.seeded)
        #expect(v2.exitCode == .success, "\(v2.stderr)")
        let completed = try Self.events(v2.stdout).filter { $0["name"] as? String == "order.completed" }
        #expect(completed.map { $0["accepted"] as? Bool } == [false, true])
        #expect(completed.map { $0["sentAfterMilliseconds"] as? Int } == [0, 15_000])
        #expect(receiver.received.map(\.label).filter { $0 == "order.completed" }.count == 1)
        let v1 = runCLI(
            [
                "trigger", "order.completed", "--fault", "drop-first", "--events-url", receiver.url,
                "--events-version", "v1",
            ] + Self.seeded)
        #expect(v1.exitCode == .eventRefused)
        #expect(!receiver.received.map(\.label).contains("order_completed_success"))
    }

    @Test("--fault delay sends the event's first attempt 5 minutes after it happened")
    func delayFault() throws {
        let receiver = try EventReceiver()
        let result = runCLI(
            ["trigger", "order.canceled", "--fault", "delay", "--events-url", receiver.url, "--json"] + Self.seeded)
        #expect(result.exitCode == .purchaseCanceled)
        let shown = try Self.events(result.stdout)
        #expect(shown.map { $0["sentAfterMilliseconds"] as? Int } == [0, 300_000])
        let unsent = runCLI(["trigger", "order.canceled", "--fault", "delay"] + Self.seeded)
        #expect(unsent.exitCode == .usage)
        #expect(unsent.stderr.contains("--fault delay acts on the way to the game's server; give --events-url too"))
    }

    @Test("a scenario's eventFault holds a step's events back until the next step's have gone, or sends them twice")
    func scenarioFaults() throws {
        let receiver = try EventReceiver()
        let path = try ScenarioTests.write([
            (
                "faults.json",
                """
                {"configuration": {"eventsUrl": "\(receiver.url)"}, "steps": [{"step": "initialize"},
                  {"step": "purchase", "sku": "starter_pack_001", "eventFault": "reorder"},
                  {"step": "refund", "eventFault": "duplicate", "expect": {"events": ["order.refunded"]}}]}
                """
            )
        ])[0]
        let result = runCLI(["run", path])
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(
            receiver.received.map(\.label) == [
                "order.refunded", "order.refunded", "order.created", "order.payment.resolved (success)",
                "order.completed",
            ])
        #expect(ScenarioStep.EventFault.allCases.map(\.rawValue) == DeliveryFault.allCases.map(\.rawValue))
    }

    // MARK: Load

    @Test("purchase --count --events-url --concurrency sends every order's events as a load, written in order")
    func eventLoad() throws {
        // One refusal along the way: that event is retried and still arrives. More
        // checkouts than a batch holds, so the order holds across batches too.
        let receiver = try EventReceiver { count, _ in count == 7 ? 503 : 200 }
        let result = runCLI(
            [
                "purchase", "--sku", "starter_pack_001", "--count", "1100", "--events-url", receiver.url,
                "--concurrency", "4", "--json",
            ] + Self.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        let received = receiver.received
        #expect(received.count == 3301)
        #expect(Set(received.map { $0.json["eventId"] as? String ?? "" }).count == 3300)
        #expect(received.allSatisfy { $0.isSigned(with: DemoCredentials.mainKey) })
        // Each checkout's events and result in the order its order lived them, in the
        // checkouts' order.
        let lines = try Self.lines(result.stdout).dropFirst()
        var kinds: [String] = []
        for line in lines {
            if let event = line["event"] as? [String: Any], event["accepted"] as? Bool == true {
                kinds.append(event["name"] as? String ?? "?")
            } else if line["callback"] != nil {
                kinds.append("callback")
            }
        }
        let one = ["order.created", "order.payment.resolved", "callback", "order.completed"]
        #expect(kinds == Array(repeating: one, count: 1100).flatMap { $0 })
        // Between the event lines, the callbacks are exactly those of the same run without events.
        let plain = runCLI(["purchase", "--sku", "starter_pack_001", "--count", "1100", "--json"] + Self.seeded)
        let callbacks = result.stdout.split(separator: "\n").filter { !$0.hasPrefix(#"{"event":"#) }
        #expect(callbacks == plain.stdout.split(separator: "\n"))
        #expect(result.stderr.contains("events: 3300 in "), "\(result.stderr)")
        #expect(result.stderr.contains("over 4 connections") && result.stderr.contains("3301 attempts; no failures"))
        let orphan = runCLI(["purchase", "--sku", "starter_pack_001", "--concurrency", "4"] + Self.seeded)
        #expect(orphan.exitCode == .usage)
    }

    @Test("a load's checkouts predicted once proven send the very bytes that simulating each one sends")
    func provenLoad() throws {
        var runs: [(stdout: String, bodies: [[UInt8]])] = []
        let receiver = try EventReceiver()
        // --trace simulates every checkout; without it, the rest are predicted from the first three.
        for extra in [[], ["--trace"]] {
            let before = receiver.received.count
            let result = runCLI(
                [
                    "purchase", "--sku", "builders_bundle", "--count", "40", "--events-url", receiver.url,
                    "--concurrency", "2", "--format", "wire",
                ] + Self.seeded + extra)
            #expect(result.exitCode == .success, "\(result.stderr)")
            // Two connections deliver in their own order: compare what arrived, sorted.
            let bodies = receiver.received.dropFirst(before).map(\.body).sorted { $0.lexicographicallyPrecedes($1) }
            runs.append((result.stdout, bodies))
        }
        #expect(runs[0].bodies.count == 120)
        let sameBodies = runs[0].bodies == runs[1].bodies
        #expect(sameBodies, "the predicted checkouts' events differ from the simulated ones'")
        let sameOutput = runs[0].stdout == runs[1].stdout
        #expect(sameOutput, "the predicted checkouts' output differs from the simulated ones'")
    }

    // MARK: The example handler

    /// A player's balance of `sku` on the example game server, as its ledger says.
    static func balance(_ receiver: ExampleGameServer, sku: String = "gem_01") throws -> Int? {
        let response = try HTTPClient(url: try HTTPURL("http://127.0.0.1:\(receiver.port)/ledger?playerId=cust_98765"))
            .send(method: .get, headers: [], body: [])
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return (object?["balances"] as? [String: Int])?[sku]
    }

    /// Grants two orders of 100 gems on `receiver`, then triggers `event` against its
    /// award and events endpoints with `extra`; what the player holds after.
    func story(_ event: [String], on receiver: ExampleGameServer, seed: String) throws -> Int? {
        let award = receiver.url
        let events = "http://127.0.0.1:\(receiver.port)/events"
        let bought = runCLI([
            "purchase", "--sku", "starter_pack_001", "--count", "2", "--award-url", award, "--seed", seed,
        ])
        #expect(bought.exitCode == .success, "\(bought.stderr)")
        let result = runCLI(["trigger"] + event + ["--award-url", award, "--events-url", events, "--seed", seed + "1"])
        #expect(result.exitCode == .success, "\(result.stderr)")
        return try Self.balance(receiver)
    }

    @Test(
        "the example handler takes a refund or a lost dispute back once, however the events arrive",
        .enabled(if: ExampleGameServer.python != nil || runningInCI, "python3 is not installed"),
        arguments: [
            ["order.refunded"], ["order.refunded", "--fault", "duplicate"], ["order.refunded", "--fault", "reorder"],
            ["order.dispute.resolved", "--result", "lost", "--fault", "duplicate"],
        ])
    func exampleRevokesOnce(event: [String]) throws {
        // 200 before, 300 with the story's own grant, 200 once it is taken back.
        #expect(try story(event, on: try ExampleGameServer(), seed: "21") == 200)
    }

    @Test(
        "the example handler keeps what a won dispute or a partial refund leaves, and takes nothing never granted",
        .enabled(if: ExampleGameServer.python != nil || runningInCI, "python3 is not installed"))
    func exampleKeeps() throws {
        #expect(
            try story(["order.dispute.resolved", "--result", "won"], on: try ExampleGameServer(), seed: "22") == 300)
        #expect(try story(["order.refunded", "--amount", "100"], on: try ExampleGameServer(), seed: "23") == 300)
        let receiver = try ExampleGameServer()
        let events = "http://127.0.0.1:\(receiver.port)/events"
        // No award: the refund's order was never granted on this server.
        let result = runCLI(["trigger", "order.refunded", "--events-url", events] + Self.seeded)
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(try Self.balance(receiver) == nil)
    }

    @Test(
        "the example handler's flaws are the mistakes games make: no revocation, a second one, a 500 on a new field",
        .enabled(if: ExampleGameServer.python != nil || runningInCI, "python3 is not installed"))
    func exampleFlaws() throws {
        #expect(try story(["order.refunded"], on: try ExampleGameServer(flaw: "no-revoke"), seed: "24") == 300)
        #expect(
            try story(
                ["order.refunded", "--fault", "duplicate"], on: try ExampleGameServer(flaw: "revoke-twice"), seed: "25")
                == 100)
        // A field Appcharge may add tomorrow: the strict handler answers 500 and the event comes back.
        let strict = try ExampleGameServer(flaw: "strict-fields")
        let body = Array(#"{"eventName":"order.created","eventId":"e-1","newField":1}"#.utf8)
        let milliseconds = Int(Date().timeIntervalSince1970 * 1000)
        let client = HTTPClient(url: try HTTPURL("http://127.0.0.1:\(strict.port)/events"))
        defer { client.close() }
        let headers = [
            HTTPHeader("Content-Type", "application/json"),
            HTTPHeader("x-publisher-token", DemoCredentials.publisherToken),
            HTTPHeader(
                "signature",
                GrantAward.signature(body: body, milliseconds: milliseconds, key: Array(DemoCredentials.mainKey.utf8))),
        ]
        #expect(try client.send(headers: headers, body: body).status == 500)
        let correct = try ExampleGameServer()
        let other = HTTPClient(url: try HTTPURL("http://127.0.0.1:\(correct.port)/events"))
        defer { other.close() }
        #expect(try other.send(headers: headers, body: body).status == 200)
    }
}
