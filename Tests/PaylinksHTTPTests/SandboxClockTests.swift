import ContractChecks
import Foundation
import PaylinksAppcharge
import PaylinksDelivery
import PaylinksHTTP
import PaylinksKit
import PaylinksSandbox
import Testing

/// The sandbox on a virtual clock, served without a socket: time stands still until the
/// control API moves it, and then every expiry, retry and scheduled payment it passes
/// happens at its own time, in time order, before the move is answered.
@Suite("Sandbox clock")
struct SandboxClockTests {
    typealias Service = SandboxServiceTests
    /// 2026-12-01T10:00:00Z.
    static let start = 1_796_119_200_000

    /// A sandbox on a virtual clock at ``start``, its awards and V2 events answered by
    /// `game` (when given), its callbacks kept in `callbacks`.
    final class Served {
        let sandbox: Sandbox
        let service: SandboxService
        let log = Service.Log()
        var callbacks: [Callback] = []

        init(
            game: Service.GameServer? = nil, journal: (any SandboxJournal)? = nil, clock: SandboxClock? = nil,
            restoring: Bool = false
        ) throws {
            var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
            settings.formToken = Service.formToken
            let clock = clock ?? .virtual(at: SandboxClockTests.start)
            sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: clock)
            if restoring, let journal = journal as? InMemorySandboxJournal { journal.restore(into: sandbox) }
            let transport = game.map { $0.transport(clock: clock.signingClock) }
            let configuration = SandboxService.Configuration(
                awards: try game.map { _ in
                    DeliveryDestination(
                        url: try HTTPURL("http://game.test/award"), key: Array("main-key".utf8),
                        publisherToken: "token-1")
                },
                events: try game.map { _ in
                    DeliveryDestination(
                        url: try HTTPURL("http://game.test/events"), key: Array("events-key".utf8),
                        publisherToken: "token-1")
                }, transport: transport ?? .http())
            service = SandboxService(sandbox: sandbox, configuration: configuration, journal: journal, log: log)
            sandbox.onCallback = { [unowned self] callback in callbacks.append(callback) }
            service.start(greeting: "paylinks sandbox at http://127.0.0.1:4010")
        }

        func control(_ path: String, _ body: String = "") -> Service.Answer { Service.control(service, path, body) }

        /// Moves the clock by `duration`; the answer, which comes once it is there.
        func advance(_ duration: String) -> Service.Answer {
            control("/control/v1/clock", #"{"advance": "\#(duration)"}"#)
        }

        /// What the last move fired, as `timer purchaseId[ name attempt]`.
        func fired(_ answer: Service.Answer) throws -> [String] {
            let fired = try #require(try answer.json()["fired"] as? [[String: Any]])
            return fired.map { entry in
                [entry["at"], entry["timer"], entry["name"], entry["attempt"]].compactMap { $0.map { "\($0)" } }
                    .joined(separator: " ")
            }
        }

        func state(_ purchaseId: String) throws -> String? { try Service.state(service, purchaseId) }

        /// Takes in what the queues finished until nothing is out.
        func settle() -> Bool { Service.tick(service) { service.deliveriesPending == 0 } }
    }

    @Test("a session expires exactly an hour after its creation, not a millisecond sooner, with its order.canceled")
    func expiry() async throws {
        let game = Service.GameServer.granting()
        let served = try Served(game: game)
        let (_, purchaseId) = try Service.create(served.service)
        let early = served.advance("PT59M59.999S")
        #expect(early.status == 200, "\(early.body)")
        #expect(try served.fired(early).isEmpty)
        #expect(try served.state(purchaseId) == "created")
        let onTime = served.advance("PT0.001S")
        #expect(try served.fired(onTime) == ["2026-12-01T11:00:00.000Z expiry"])
        #expect(try onTime.json()["now"] as? String == "2026-12-01T11:00:00.000Z")
        #expect(try served.state(purchaseId) == "payment_canceled")
        #expect(served.settle())
        let sent = await game.requests(after: served.service)
        let names = sent.map { Self.field("eventName", in: $0) }
        #expect(names == ["order.created", "order.canceled"])
        #expect(sent.map { Self.field("timestamp", in: $0) } == ["1796122800000", "1796122800000"])
        #expect(sent.allSatisfy { Self.signedAt($0) == 1_796_122_800_000 })
    }

    @Test("a refused award is retried at +10 s and +10 s on the clock, each attempt signed at its own time")
    func awardRetries() async throws {
        let game = Service.GameServer { request in
            request.url.target == "/award"
                ? DeliveryResponse(status: 500, body: Array(#"{"publisherErrorMessage": "signature too old"}"#.utf8))
                : DeliveryResponse(status: 200)
        }
        let served = try Served(game: game)
        let (_, purchaseId) = try Service.create(served.service)
        #expect(served.control("/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pay"}"#).status == 200)
        #expect(served.settle())
        #expect(try served.state(purchaseId) == "charge_pending", "two retries wait on the clock")
        #expect(try served.fired(served.advance("PT9.999S")).isEmpty)
        let second = served.advance("PT0.001S")
        #expect(try served.fired(second) == ["2026-12-01T10:00:10.000Z retry award 2"])
        let entry = try #require((try second.json()["fired"] as? [[String: Any]])?.first)
        #expect(entry["result"] as? String == "refused: the server answered 500")
        #expect(try served.fired(served.advance("PT10S")) == ["2026-12-01T10:00:20.000Z retry award 3"])
        #expect(try served.state(purchaseId) == "charge_failed")
        #expect(served.callbacks.count == 1, "the client hears once, when the last attempt failed")
        #expect(
            served.log.lines.contains(
                "award \(purchaseId) attempt 3: failed: the server answered 500, saying \"signature too old\" (0 ms)"),
            "\(served.log.lines)")
        #expect(
            served.log.lines.contains { line in
                line.hasPrefix("dl_") && line.contains("(award of \(purchaseId)): given up after 3 attempts; ")
                    && line.hasSuffix("/replay sends it again")
            }, "\(served.log.lines)")
        let awards = await game.requests(after: served.service).filter { $0.url.target == "/award" }
        #expect(awards.map(Self.signedAt) == [Self.start, Self.start + 10_000, Self.start + 20_000])
    }

    @Test("V2 events refused are retried at +15 s, +15 s and +15 min, and a move past them all fires them in order")
    func eventRetries() async throws {
        let game = Service.GameServer { request in
            request.url.target == "/events"
                ? DeliveryResponse(status: 503)
                : DeliveryResponse(status: 200, body: Array(#"{"publisherPurchaseId": "pub-1"}"#.utf8))
        }
        let served = try Served(game: game)
        let (_, purchaseId) = try Service.create(served.service)
        #expect(served.control("/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pay"}"#).status == 200)
        #expect(served.settle())
        #expect(try served.state(purchaseId) == "charge_succeed")
        let all = served.advance("PT1H")
        let fired = try served.fired(all)
        // order.created, order.payment.resolved and order.completed, each retried three times.
        #expect(fired.count == 9, "\(fired)")
        #expect(
            fired.map { $0.components(separatedBy: " ")[0] }
                == fired.map { $0.components(separatedBy: " ")[0] }.sorted())
        #expect(fired.filter { $0.hasSuffix(" 4") }.allSatisfy { $0.hasPrefix("2026-12-01T10:15:30.000Z") })
        let events = await game.requests(after: served.service).filter { $0.url.target == "/events" }
        let completed = events.filter { Self.field("eventName", in: $0) == "order.completed" }
        #expect(completed.map(Self.signedAt) == [0, 15_000, 30_000, 930_000].map { Self.start + $0 })
        #expect(Set(completed.map { Self.field("eventId", in: $0) }).count == 1, "every retry is the same event")
    }

    @Test("a move waits for what its timers send, not for an award a payment sent while it was under way")
    func moveWaitsForItsOwn() async throws {
        let release = DispatchSemaphore(value: 0)
        let game = Service.GameServer { request in
            // The award hangs until the test lets it go; events are taken at once.
            if request.url.target == "/award" { release.wait() }
            return DeliveryResponse(status: 200, body: Array(#"{"publisherPurchaseId": "pub-1"}"#.utf8))
        }
        let served = try Served(game: game)
        let (_, unpaid) = try Service.create(served.service)
        let (_, paying) = try Service.create(served.service)
        let request = HTTPRequest(
            method: .post, path: "/control/v1/clock", query: "",
            headers: [HTTPHeader("Content-Type", "application/json")], body: Array(#"{"advance": "PT2H"}"#.utf8),
            keepAlive: true)
        guard case .awaited(let promise) = served.service.respond(to: served.service.prepare(request)) else {
            Issue.record("a move is answered once the clock is there")
            return
        }
        // The player pays while the clock moves: its award goes out, and hangs.
        #expect(served.control("/control/v1/sessions/\(paying)/complete", #"{"choice": "pay"}"#).status == 200)
        #expect(Service.tick(served.service) { promise.response != nil }, "the move does not wait for that award")
        let moved = try #require(promise.response)
        checkContract(request: request, response: moved)
        #expect(moved.status == 200)
        let body = String(decoding: moved.body, as: UTF8.self)
        #expect(body.contains(#""timer":"expiry","purchaseId":"\#(unpaid)""#), "\(body)")
        release.signal()
        #expect(served.settle())
        #expect(try served.state(paying) == "charge_succeed")
        served.service.finish()
    }

    @Test("a pending payment scheduled to succeed in 5 minutes is paid then: one award, its events once, no callback")
    func lateSuccess() async throws {
        let game = Service.GameServer.granting()
        let served = try Served(game: game)
        let (_, purchaseId) = try Service.create(served.service)
        #expect(served.control("/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pending"}"#).status == 200)
        #expect(served.callbacks.count == 1, "the client's 3004")
        let scheduled = served.control(
            "/control/v1/sessions/\(purchaseId)/resolve", #"{"outcome": "succeeded", "after": "PT5M"}"#)
        #expect(scheduled.status == 202, "\(scheduled.body)")
        let resolution = try #require(try scheduled.json()["resolution"] as? [String: Any])
        #expect(resolution["at"] as? String == "2026-12-01T10:05:00.000Z")
        #expect(try served.fired(served.advance("PT4M59S")).isEmpty)
        #expect(try served.state(purchaseId) == "payment_pending")
        #expect(try served.fired(served.advance("PT1S")) == ["2026-12-01T10:05:00.000Z resolution"])
        #expect(served.settle())
        #expect(try served.state(purchaseId) == "charge_succeed")
        #expect(served.callbacks.count == 1, "the client heard 3004 and hears nothing more")
        // A second resolve is refused: the order is no longer pending.
        let again = served.control("/control/v1/sessions/\(purchaseId)/resolve", #"{"outcome": "succeeded"}"#)
        #expect(again.status == 409)
        #expect(try served.fired(served.advance("P1D")).isEmpty, "nothing more is due")
        let transactions = Service.send(
            served.service, .get, "/reporting/financial-data/transactions",
            query: "startDate=2026-12-01&endDate=2026-12-02",
            headers: [HTTPHeader("x-publisher-token", "token-1")])
        #expect(transactions.status == 200, "\(transactions.body)")
        #expect(transactions.body.contains("2026-12-01T10:05:00"), "\(transactions.body)")
        let orders = Service.send(
            served.service, .post, "/reporting/reports/orders",
            body: #"{"startDate": "2026-12-01", "endDate": "2026-12-02"}"#,
            headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1")])
        #expect(orders.status == 200, "\(orders.body)")
        // The order was made when the session was, on the clock; it is paid now.
        #expect(orders.body.contains(#""createdAt":"2026-12-01T10:00:00.000Z""#), "\(orders.body)")
        #expect(orders.body.contains(#""state":"charge_succeed""#), "\(orders.body)")
        let sent = await game.requests(after: served.service)
        #expect(sent.filter { $0.url.target == "/award" }.count == 1)
        let names = sent.filter { $0.url.target == "/events" }.map { Self.field("eventName", in: $0) }
        #expect(names == ["order.created", "order.payment.resolved", "order.completed"])
        let award = try #require(sent.first(where: { $0.url.target == "/award" }))
        #expect(Self.field("purchaseDateAndTimeUtc", in: award) == "2026-12-01T10:05:00.000Z")
    }

    @Test("a pending payment that fails later ends as a decline, with order.payment.resolved failed and no callback")
    func lateFailure() async throws {
        let game = Service.GameServer.granting()
        let served = try Served(game: game)
        let (_, purchaseId) = try Service.create(served.service)
        #expect(served.control("/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pending"}"#).status == 200)
        let failed = served.control("/control/v1/sessions/\(purchaseId)/resolve", #"{"outcome": "failed"}"#)
        #expect(failed.status == 200, "\(failed.body)")
        #expect(try failed.json()["state"] as? String == "payment_failed")
        #expect(served.callbacks.count == 1)
        #expect(served.settle())
        let sent = await game.requests(after: served.service)
        #expect(sent.filter { $0.url.target == "/award" }.isEmpty)
        let events = sent.filter { $0.url.target == "/events" }
        #expect(events.map { Self.field("eventName", in: $0) } == ["order.created", "order.payment.resolved"])
        #expect(events.last.map { Self.field("result", in: $0) } == "failed")
    }

    @Test("the health says the sandbox answers, its version, its sessions, whether it keeps them, and its clock")
    func health() throws {
        let served = try Served(journal: InMemorySandboxJournal(seed: 7))
        _ = try Service.create(served.service)
        let health = Service.send(served.service, .get, "/control/v1/health")
        #expect(health.status == 200)
        #expect(
            health.body
                == #"{"status":"ok","version":"","sessions":1,"data":true,"clock":{"mode":"virtual","now":"2026-12-01T10:00:00.000Z"}}"#
        )
        #expect(Service.send(served.service, .head, "/control/v1/health").status == 200)
        let wall = try Served(clock: .reading { SandboxClockTests.start })
        #expect(
            Service.send(wall.service, .get, "/control/v1/health").body.contains(
                #""data":false,"clock":{"mode":"wall""#))
    }

    @Test("each input the clock and resolve refuse says what is wrong, and nothing changes")
    func refusals() throws {
        let served = try Served()
        let (_, purchaseId) = try Service.create(served.service)
        let cases: [(String, String, Int, String)] = [
            ("/control/v1/clock", #"{"advance": "15 minutes"}"#, 400, "ISO 8601 duration"),
            ("/control/v1/clock", #"{"advance": "PT0S"}"#, 400, "is zero"),
            ("/control/v1/clock", #"{"advance": "-PT5M"}"#, 400, "negative"),
            ("/control/v1/clock", #"{"advance": "P1M"}"#, 400, "years or months"),
            ("/control/v1/clock", #"{"advance": 900}"#, 400, "must be a string"),
            ("/control/v1/clock", #"{"advance": "PT1M", "to": "2026-12-02T00:00:00Z"}"#, 400, "exactly one"),
            ("/control/v1/clock", #"{"to": "2026-12-01T09:00:00Z"}"#, 409, "moves only forward"),
            ("/control/v1/clock", #"{"to": "2026-12-01T10:00:00Z"}"#, 409, "moves only forward"),
            ("/control/v1/clock", #"{"to": "yesterday"}"#, 400, "ISO 8601"),
            ("/control/v1/clock", #"{"advance": "P999999999D"}"#, 400, "end of 9999"),
            ("/control/v1/clock", "not json", 400, "the body is not JSON: invalid literal"),
            ("/control/v1/clock", "[1]", 400, "the body is an array, not a JSON object"),
            ("/control/v1/clock", #"{"advance": "PT1\#u{017F}"}"#, 400, "ISO 8601 duration"),
            ("/control/v1/clock", #"{"advance": "P99999999999999D"}"#, 400, "longer than the clock goes"),
            ("/control/v1/sessions/\(purchaseId)/resolve", #"{"outcome": "succeeded"}"#, 409, "payment_pending"),
            ("/control/v1/sessions/\(purchaseId)/resolve", #"{"outcome": "maybe"}"#, 400, "succeeded or failed"),
            ("/control/v1/sessions/\(purchaseId)/resolve", #"{"outcome": "failed", "after": "PT0S"}"#, 400, "zero"),
            ("/control/v1/sessions/\(purchaseId)/resolve", #"{"after": "PT5M"}"#, 400, "outcome is missing"),
            ("/control/v1/sessions/\(purchaseId)/resolve", #"{"outcome": "failed", "when": 1}"#, 400, "not \"when\""),
            ("/control/v1/sessions/nope/resolve", #"{"outcome": "failed"}"#, 404, "nope"),
        ]
        for (path, body, status, words) in cases {
            let answer = served.control(path, body)
            #expect(answer.status == status, "\(body): \(answer.body)")
            let message = try answer.json()["errorMessage"] as? String ?? ""
            #expect(message.contains(words), "\(body): \(message)")
            #expect(!message.contains("\n"))
        }
        #expect(Service.send(served.service, .head, "/control/v1/clock").status == 200)
        let clock = Service.send(served.service, .get, "/control/v1/clock")
        #expect(clock.body == #"{"mode":"virtual","now":"2026-12-01T10:00:00.000Z"}"#)
        #expect(try served.state(purchaseId) == "created")

        let wall = try Served(clock: .reading { SandboxClockTests.start })
        let refused = wall.advance("PT1M")
        #expect(refused.status == 409)
        #expect((try refused.json()["errorMessage"] as? String ?? "").contains("--clock virtual"))
        #expect(Service.send(wall.service, .get, "/control/v1/clock").body.contains(#""mode":"wall""#))
    }

    @Test("a sandbox stopped with a retry and a resolution on the clock resumes both where they were, neither twice")
    func resumes() async throws {
        let refusing = Service.GameServer { request in
            request.url.target == "/events" ? DeliveryResponse(status: 503) : DeliveryResponse(status: 200)
        }
        let journal = InMemorySandboxJournal(seed: 7)
        let first = try Served(game: refusing, journal: journal)
        let (_, pending) = try Service.create(first.service)
        #expect(first.control("/control/v1/sessions/\(pending)/complete", #"{"choice": "pending"}"#).status == 200)
        #expect(
            first.control("/control/v1/sessions/\(pending)/resolve", #"{"outcome": "failed", "after": "PT1H"}"#)
                .status == 202)
        #expect(first.settle())
        // order.created was refused once; its retry waits for +15 s.
        #expect(try first.fired(first.advance("PT10S")).isEmpty)
        first.service.finish()
        #expect(
            first.log.lines.contains { line in
                line.hasSuffix(
                    "(order.created of \(pending)): attempt 2, due at 2026-12-01T10:00:15.000Z on the clock, is sent "
                        + "once the clock passes it after the next start with this --data")
            }, "the stop says what waits on the clock")

        let granting = Service.GameServer.granting()
        let kept = InMemorySandboxJournal(seed: 7, records: journal.records)
        let second = try Served(
            game: granting, journal: kept, clock: .virtual(at: SandboxClockTests.start), restoring: true)
        #expect(
            Service.send(second.service, .get, "/control/v1/clock").body.contains("2026-12-01T10:00:10.000Z"),
            "the clock resumes where it stood")
        let fired = try second.fired(second.advance("PT2H"))
        #expect(
            fired == [
                "2026-12-01T10:00:15.000Z retry order.created 2",
                "2026-12-01T11:00:00.000Z resolution",
            ])
        #expect(try second.state(pending) == "payment_failed")
        #expect(try second.fired(second.advance("PT2H")).isEmpty, "nothing fires twice")
        let sent = await granting.requests(after: second.service)
        #expect(sent.map { Self.field("eventName", in: $0) } == ["order.created", "order.payment.resolved"])
    }

    /// The top-level `name` of a request's JSON body, as text.
    static func field(_ name: String, in request: DeliveryRequest) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
            let value = object[name]
        else { return "" }
        return "\(value)"
    }

    /// The `t` of a request's signature, Unix milliseconds.
    static func signedAt(_ request: DeliveryRequest) -> Int {
        let signature = request.headers.first { $0.name == "signature" }?.value ?? ""
        let t = signature.split(separator: ",").first { $0.hasPrefix("t=") }?.dropFirst(2) ?? ""
        return Int(t) ?? 0
    }
}
