import Foundation
import PaylinksAppcharge
import PaylinksHTTP
import Testing

@testable import PaylinksCommandLine

/// `paylinks serve --clock virtual` and the example game server: each retry goes out at its
/// own moment on the clock, signed with it, once a move of the clock passes it and not
/// before; a game server that reads the sandbox's clock refuses a callback replayed past
/// its window, and takes the same callback signed anew. Nothing here sleeps: a move of the
/// clock is answered once every delivery out has ended and every timer it passed has fired.
@Suite(
    "paylinks serve on a virtual clock",
    .enabled(if: ExampleGameServer.python != nil || runningInCI, "python3 is not installed"))
struct VirtualClockTests {
    /// Where the clock starts: 2026-12-01T10:00:00Z, in Unix milliseconds.
    static let start = 1_796_119_200_000

    /// A sandbox on a virtual clock, sending its awards and events to the example game
    /// server, which reads its time from the sandbox's clock.
    final class Pair {
        let receiver: ExampleGameServer
        let sandbox: SandboxProcess

        /// The example server with `flaw`, then the sandbox on the port the server was
        /// told the clock is at, with `options`.
        init(flaw: String? = nil, _ options: [String] = []) throws {
            // The game server must know the sandbox's port before the sandbox knows the
            // game server's: the sandbox gets a port nothing listened on a moment ago.
            let port = try ServeStreamsTests.freePort()
            receiver = try ExampleGameServer(
                flaw: flaw, options: ["--clock-url", "http://127.0.0.1:\(port)/control/v1/clock"])
            let base = "http://127.0.0.1:\(receiver.port)"
            sandbox = try SandboxProcess(
                [
                    "--clock", "virtual", "--now", "2026-12-01T10:00:00Z", "--award-url", "\(base)/award",
                    "--events-url", "\(base)/events",
                ] + options, port: port)
        }

        /// Sends `body` to `path` on the sandbox; the answer's status and JSON object.
        func call(_ method: HTTPMethod, _ path: String, _ body: String = "") throws -> (
            status: Int, json: [String: Any]
        ) {
            // A move of the clock is answered once every timer it passed has fired: bounded
            // generously, never waited for by sleeping.
            let client = HTTPClient(
                url: try HTTPURL("http://127.0.0.1:\(sandbox.port)\(path)"), connectTimeout: 5, responseTimeout: 30)
            defer { client.close() }
            var headers = [HTTPHeader("Content-Type", "application/json")]
            if path == "/checkout/v1/session" {
                headers.append(HTTPHeader("x-publisher-token", DemoCredentials.publisherToken))
            }
            let response = try client.sendChecked(method: method, headers: headers, body: Array(body.utf8))
            let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
            return (response.status, json)
        }

        /// A session created and paid through the control API: its purchaseId.
        func paidSession() throws -> String {
            let created = try call(
                .post, "/checkout/v1/session",
                #"{"priceDetails": {"price": 499, "currency": "USD"}, "offer": {"name": "Starter Pack", "sku": "#
                    + #""starter_pack_001", "pricePointMetadata": 499}, "items": [{"name": "Gems", "sku": "gem_01", "#
                    + #""quantity": 100}], "customer": {"id": "cust_1"}}"#)
            #expect(created.status == 201)
            let purchaseId = try #require(created.json["purchaseId"] as? String)
            let paid = try call(.post, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pay"}"#)
            #expect(paid.status == 200)
            return purchaseId
        }

        /// Moves the clock by `duration` (ISO 8601); the timers the move fired, once it has
        /// reached its end, which it must be at.
        func advance(_ duration: String, reaching at: Int) throws -> [[String: Any]] {
            let moved = try call(.post, "/control/v1/clock", #"{"advance": "\#(duration)"}"#)
            #expect(moved.status == 200, "\(duration): \(moved.json)")
            #expect(moved.json["mode"] as? String == "virtual")
            #expect(moved.json["now"] as? String == VirtualClockTests.iso8601(at), "\(duration)")
            return try #require(moved.json["fired"] as? [[String: Any]], "\(duration): \(moved.json)")
        }

        /// The deliveries made for `purchaseId`, oldest first.
        func deliveries(_ purchaseId: String) throws -> [[String: Any]] {
            let listed = try call(.get, "/control/v1/deliveries?purchaseId=\(purchaseId)")
            #expect(listed.status == 200)
            let deliveries = try #require(listed.json["deliveries"] as? [[String: Any]])
            return deliveries.reversed()
        }
    }

    /// `milliseconds` as the control API writes a time.
    static func iso8601(_ milliseconds: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// What each attempt of `delivery` shows: when it was sent, the `t` its signature
    /// carries, and the status it was answered with.
    static func attempts(_ delivery: [String: Any]) throws -> [(sentAt: Int, signedAt: Int?, status: Int?)] {
        let attempts = try #require(delivery["attempts"] as? [[String: Any]])
        return try attempts.map { attempt in
            let request = try #require(attempt["request"] as? [String: Any])
            let headers = try #require(request["headers"] as? [[String]])
            let signature = headers.first { $0.first?.lowercased() == "signature" }?.last ?? ""
            let signedAt = signature.split(separator: ",").first { $0.hasPrefix("t=") }.flatMap { Int($0.dropFirst(2)) }
            let status = (attempt["response"] as? [String: Any])?["status"] as? Int
            return (try #require(attempt["sentAt"] as? Int), signedAt, status)
        }
    }

    /// The body of each answer to an attempt of `delivery`; "" for an attempt not answered.
    static func answers(_ delivery: [String: Any]) throws -> [String] {
        let attempts = try #require(delivery["attempts"] as? [[String: Any]])
        return attempts.map { ($0["response"] as? [String: Any])?["body"] as? String ?? "" }
    }

    /// The events' retries as Appcharge spaces them, for the envelope `serve` sends: the
    /// names of a paid order's events, the moves before each retry (one that stops a
    /// second short of it, one that reaches it) and when each retry is due after the first
    /// attempt.
    struct Schedule: CustomTestStringConvertible, Sendable {
        let options: [String]
        let names: [String]
        let moves: [(short: String, due: Int)]
        var testDescription: String { options.isEmpty ? "V2" : "V1" }

        static let v2 = Schedule(
            options: [], names: ["order.created", "order.payment.resolved (success)", "order.completed"],
            moves: [("PT14S", 15_000), ("PT14S", 30_000), ("PT14M59S", 930_000)])
        static let v1 = Schedule(
            options: ["--events-version", "v1"],
            names: ["order_created", "payment_intent_success", "order_completed_success"],
            moves: [("PT4M59S", 300_000), ("PT4M59S", 600_000), ("PT4M59S", 900_000)])
    }

    @Test(
        "with the events handler down, each event's attempts 2, 3 and 4 go at their own moments on the clock, signed with them, and a move short of a retry fires nothing",
        arguments: [Schedule.v2, Schedule.v1])
    func eventRetries(schedule: Schedule) throws {
        let pair = try Pair(flaw: "events-down", schedule.options)
        let purchaseId = try pair.paidSession()
        var now = Self.start
        var expected = [Self.start]
        for (number, move) in schedule.moves.enumerated() {
            // A move that stops a second before the retry is due fires nothing.
            now = Self.start + move.due - 1000
            #expect(try pair.advance(move.short, reaching: now).isEmpty, "before attempt \(number + 2)")
            if number == 0 {
                // The first move was answered once the first attempts had ended: all refused.
                let deliveries = try pair.deliveries(purchaseId)
                let award = try Self.attempts(try #require(deliveries.first { $0["kind"] as? String == "award" }))
                #expect(award.map(\.sentAt) == [Self.start])
                #expect(award.map(\.status) == [200], "the game server reads the sandbox's clock")
                let events = deliveries.filter { $0["kind"] as? String == "event" }
                #expect(events.compactMap { $0["name"] as? String } == schedule.names)
                for event in events {
                    #expect(try Self.attempts(event).map(\.status) == [503], "\(event["name"] ?? "")")
                    #expect(event["nextAttemptAt"] as? Int == Self.start + move.due, "\(event["name"] ?? "")")
                }
            }
            now += 1000
            let fired = try pair.advance("PT1S", reaching: now)
            #expect(fired.compactMap { $0["name"] as? String } == schedule.names, "attempt \(number + 2)")
            for entry in fired {
                #expect(entry["timer"] as? String == "retry")
                #expect(entry["kind"] as? String == "event")
                #expect(entry["at"] as? String == Self.iso8601(now))
                #expect(entry["attempt"] as? Int == number + 2)
                #expect(entry["result"] as? String == "refused: the server answered 503")
            }
            expected.append(now)
        }
        let events = try pair.deliveries(purchaseId).filter { $0["kind"] as? String == "event" }
        #expect(events.compactMap { $0["name"] as? String } == schedule.names)
        for event in events {
            let attempts = try Self.attempts(event)
            #expect(attempts.map(\.sentAt) == expected, "\(event["name"] ?? "")")
            #expect(attempts.map(\.signedAt) == expected, "each attempt is signed at its own moment")
            #expect(attempts.map(\.status) == [503, 503, 503, 503])
            #expect(event["nextAttemptAt"] == nil, "the fourth attempt is the last")
            #expect(event["succeeded"] as? Bool == false)
        }
        // The events have no retry left: a day on the clock fires nothing.
        #expect(try pair.advance("P1D", reaching: now + 86_400_000).isEmpty)
    }

    @Test(
        "an award replayed exactly six minutes on is refused as too old by a game server on the sandbox's clock; signed anew, it is granted, once"
    )
    func replayWindow() throws {
        let pair = try Pair()
        let purchaseId = try pair.paidSession()
        // Answered once the award and the events sent at the payment have ended.
        #expect(try pair.advance("PT6M", reaching: Self.start + 360_000).isEmpty)
        let award = try #require(try pair.deliveries(purchaseId).first { $0["kind"] as? String == "award" })
        let awardId = try #require(award["id"] as? String)
        #expect(award["kind"] as? String == "award")
        #expect(
            try Self.attempts(award).map { [$0.sentAt, $0.signedAt, $0.status] } == [[Self.start, Self.start, 200]])
        let grant = try #require(
            try JSONSerialization.jsonObject(with: Data(try Self.answers(award).first?.utf8 ?? "".utf8))
                as? [String: Any])
        #expect(grant["purchaseTime"] as? Int == Self.start, "the grant's time is the sandbox's")
        let grantId = try #require(grant["publisherPurchaseId"] as? String)

        for (resign, at) in [(false, Self.start + 360_000), (true, Self.start + 361_000)] {
            let replaying = try pair.call(
                .post, "/control/v1/deliveries/\(awardId)/replay", #"{"resign": \#(resign)}"#)
            #expect(replaying.status == 202)
            #expect(replaying.json["replaying"] as? String == awardId)
            // A move of the clock waits for the replay to end.
            #expect(try pair.advance("PT1S", reaching: at + 1000).isEmpty)
            let replay = try #require(
                try pair.deliveries(purchaseId).last { $0["replayOf"] as? String == awardId })
            #expect(replay["resigned"] as? Bool == resign)
            let attempts = try Self.attempts(replay)
            #expect(attempts.map(\.sentAt) == [at])
            let body = try Self.answers(replay).first ?? ""
            if resign {
                #expect(attempts.map(\.signedAt) == [at], "signed at the clock's time")
                #expect(attempts.map(\.status) == [200])
                #expect(body.contains(#""publisherPurchaseId": "\#(grantId)""#), "\(body)")
                #expect(replay["succeeded"] as? Bool == true)
            } else {
                #expect(attempts.map(\.signedAt) == [Self.start], "the old signature, byte for byte")
                #expect(attempts.map(\.status) == [401])
                #expect(body.contains("signature too old or from the future"), "\(body)")
                #expect(replay["succeeded"] as? Bool == false)
            }
        }
        #expect(try pair.receiver.grants().values.sorted() == [grantId], "one grant for the order")
    }

    @Test("a game server told to read a clock it cannot reach answers a signed award 503, and grants nothing")
    func clockUnreachable() throws {
        let port = try ServeStreamsTests.freePort()
        let receiver = try ExampleGameServer(options: ["--clock-url", "http://127.0.0.1:\(port)/control/v1/clock"])
        let outcome = try BinaryTests.run(
            ["purchase", "--sku", "starter_pack_001", "--award-url", receiver.url, "--seed", "1", "--json"])
        let awards = try AwardTests.lines(outcome.stdout).compactMap { $0["award"] as? [String: Any] }
        #expect(awards.compactMap { $0["status"] as? Int } == [503, 503, 503], "\(outcome.stdout)")
        for award in awards {
            #expect(
                award["publisherErrorMessage"] as? String
                    == "cannot read the clock at http://127.0.0.1:\(port)/control/v1/clock")
        }
        #expect(try receiver.grants().isEmpty)
    }
}
