import Foundation
import Testing

@testable import PaylinksAppcharge
@testable import PaylinksCommandLine
@testable import PaylinksHTTP

/// The example game server under orders whose awards and events come in an order the
/// audits never send: an award after its order's refund, Retry Award of an order granted
/// already, and a player's second refund; each flaw that only such a history shows, too.
@Suite(
    "The example game server's books over a history of orders",
    .enabled(if: ExampleGameServer.python != nil || runningInCI, "python3 is not installed"))
@MainActor
struct ExampleHistoryTests {
    /// What a player holds on `server` and what its handler noted, as its ledger says.
    static func ledger(_ server: ExampleGameServer, player: String = "cust_98765") throws -> (
        balances: [String: Int], notes: [String]
    ) {
        let response = try HTTPClient(url: try HTTPURL("http://127.0.0.1:\(server.port)/ledger?playerId=\(player)"))
            .send(method: .get, headers: [], body: [])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return (object["balances"] as? [String: Int] ?? [:], object["notes"] as? [String] ?? [])
    }

    /// Sends `body` to the award endpoint of `server`, signed now with the demo key as
    /// Appcharge signs it; the answer's status and its publisherPurchaseId.
    static func award(_ body: [UInt8], to server: ExampleGameServer) throws -> (status: Int, grant: String?) {
        let milliseconds = Int(Date().timeIntervalSince1970 * 1000)
        let client = HTTPClient(url: try HTTPURL(server.url))
        defer { client.close() }
        let response = try client.send(
            headers: [
                HTTPHeader("Content-Type", "application/json"),
                HTTPHeader("x-publisher-token", DemoCredentials.publisherToken),
                HTTPHeader(
                    "signature",
                    GrantAward.signature(
                        body: body, milliseconds: milliseconds, key: Array(DemoCredentials.mainKey.utf8))),
            ], body: body)
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return (response.status, object?["publisherPurchaseId"] as? String)
    }

    @Test(
        "an award that arrives after its order's refund or lost dispute is answered with a publisherPurchaseId, grants nothing and is noted; grant-after-refund grants it",
        arguments: [
            (["order.refunded"], "refund"), (["order.refunded", "--events-version", "v1"], "refund"),
            (["order.dispute.resolved", "--result", "lost"], "lost dispute"),
            (["order.dispute.resolved", "--result", "lost", "--events-version", "v1"], "lost dispute"),
        ])
    func awardAfterRefund(event: [String], how: String) throws {
        for flaw in [nil, "grant-after-refund"] {
            let server = try ExampleGameServer(flaw: flaw)
            let base = "http://127.0.0.1:\(server.port)"
            // The order's events reach the game, its award does not (Appcharge gave up on it)...
            let story = runCLI(
                ["trigger"] + event + ["--sku", "starter_pack_001", "--events-url", "\(base)/events", "--seed", "31"])
            #expect(story.exitCode == .success, "\(story.stderr)")
            #expect(try Self.ledger(server).balances["gem_01"] == nil)
            // ...and then it does, late: the same seed, the same order.
            for _ in 1...2 {
                let late = runCLI(["purchase", "--sku", "starter_pack_001", "--award-url", server.url, "--seed", "31"])
                #expect(late.exitCode == .success, "answered 200 with a publisherPurchaseId: \(late.stderr)")
            }
            let orders = try server.grants()
            #expect(orders.count == 1, "\(orders)")
            let order = try #require(orders.keys.first)
            let ledger = try Self.ledger(server)
            if flaw == nil {
                #expect(ledger.balances["gem_01"] == nil, "\(ledger)")
                #expect(ledger.notes == ["award of order \(order) after its \(how): not granted"], "\(ledger)")
            } else {
                #expect(ledger.balances["gem_01"] == 100, "\(ledger)")
                #expect(ledger.notes.isEmpty, "\(ledger)")
            }
        }
    }

    @Test(
        "an award after a partial refund or a won dispute of its order grants it, and an award before a refund is taken back",
        arguments: [["order.refunded", "--amount", "100"], ["order.dispute.resolved", "--result", "won"]])
    func awardAfterWhatKeeps(event: [String]) throws {
        let server = try ExampleGameServer()
        let base = "http://127.0.0.1:\(server.port)"
        let story = runCLI(
            ["trigger"] + event + ["--sku", "starter_pack_001", "--events-url", "\(base)/events", "--seed", "32"])
        #expect(story.exitCode == .success, "\(story.stderr)")
        let late = runCLI(["purchase", "--sku", "starter_pack_001", "--award-url", server.url, "--seed", "32"])
        #expect(late.exitCode == .success, "\(late.stderr)")
        let ledger = try Self.ledger(server)
        #expect(ledger.balances["gem_01"] == 100, "\(ledger)")
        #expect(!ledger.notes.contains { $0.contains("not granted") }, "\(ledger)")
        // In Appcharge's order, the award first: granted, then the refund takes it back.
        let inOrder = try ExampleGameServer()
        let refunded = runCLI([
            "trigger", "order.refunded", "--award-url", inOrder.url, "--events-url",
            "http://127.0.0.1:\(inOrder.port)/events", "--seed", "33",
        ])
        #expect(refunded.exitCode == .success, "\(refunded.stderr)")
        #expect(try Self.ledger(inOrder).balances["gem_01"] == 0)
    }

    @Test(
        "Retry Award of an order granted already, its answer lost, is its grant again; regrant-manual-retry grants twice"
    )
    func manualRetry() throws {
        // The award paylinks sends for one order, as the game's server receives it.
        let recorder = try EventReceiver { _, _ in
            HTTPServerResponse(
                status: 200, contentType: "application/json", body: Array(#"{"publisherPurchaseId":"g1"}"#.utf8))
        }
        let bought = runCLI([
            "purchase", "--sku", "starter_pack_001", "--award-url", "http://127.0.0.1:\(recorder.port)/award",
            "--seed", "34",
        ])
        #expect(bought.exitCode == .success, "\(bought.stderr)")
        let automatic = try #require(recorder.received.first?.body)
        let text = String(decoding: automatic, as: UTF8.self)
        #expect(text.contains(#""awardFlow":"auto""#), "\(text)")
        // Retry Award sends the same award with its flow manual_retry.
        let retry = Array(
            text.replacingOccurrences(of: #""awardFlow":"auto""#, with: #""awardFlow":"manual_retry""#).utf8)
        for (flaw, held) in [(nil, 100), ("regrant-manual-retry", 200)] {
            let server = try ExampleGameServer(flaw: flaw)
            let first = try Self.award(automatic, to: server)
            #expect(first.status == 200)
            let again = try Self.award(retry, to: server)
            #expect(again.status == 200)
            #expect(again.grant != nil)
            #expect((again.grant == first.grant) == (flaw == nil), "\(first) \(again)")
            #expect(try Self.ledger(server).balances["gem_01"] == held, "\(flaw ?? "correct")")
        }
    }

    @Test("a player's second refund, of another order, takes its items back; dedupe-by-player takes it for a copy")
    func secondRefund() throws {
        for (flaw, held) in [(nil, 0), ("dedupe-by-player", 100)] {
            let server = try ExampleGameServer(flaw: flaw)
            let events = "http://127.0.0.1:\(server.port)/events"
            for seed in ["35", "36"] {
                let refunded = runCLI([
                    "trigger", "order.refunded", "--award-url", server.url, "--events-url", events, "--seed", seed,
                ])
                #expect(refunded.exitCode == .success, "\(refunded.stderr)")
            }
            #expect(try server.grants().count == 2)
            #expect(try Self.ledger(server).balances["gem_01"] == held, "\(flaw ?? "correct")")
        }
    }

    @Test(
        "a flaw only a history shows passes every case of check-award and check-events",
        arguments: ["grant-after-refund", "regrant-manual-retry", "dedupe-by-player"])
    func auditsPass(flaw: String) throws {
        let server = try ExampleGameServer(flaw: flaw)
        let award = try BinaryTests.run(["check-award", server.url], environment: EventAuditTests.studioKeys)
        #expect(award.status == 0, "\(award.stdout)")
        for version in ["v2", "v1"] {
            let events = try BinaryTests.run(
                ["check-events"] + EventAuditTests.urls(server) + ["--events-version", version, "--ledger-wait", "1"],
                environment: EventAuditTests.studioKeys)
            #expect(events.status == 0, "\(events.stdout)")
            #expect(!events.stdout.contains("FAIL  "), "\(events.stdout)")
        }
    }
}
