import ContractChecks
import Foundation
import PaylinksAppcharge
import PaylinksDelivery
import PaylinksHTTP
import PaylinksKit
import PaylinksSandbox
import Testing

/// The sandbox as `serve` runs it, the service with its queues, journal and log, served
/// without a socket: each request prepared and answered as the server does, deliveries
/// answered in memory, and `tick()` called as the server calls it between events.
@Suite("Sandbox service")
struct SandboxServiceTests {
    /// The log, a line at a time.
    final class Log: SandboxLogSink {
        var lines: [String] = []
        func write(line: String) { lines.append(line) }
        func flush() {}
    }

    /// The game's server, in memory: it answers each request with `answer` and keeps
    /// what it was sent, in the order it came.
    final class GameServer: Sendable {
        private let answer: @Sendable (DeliveryRequest) -> DeliveryResponse
        private let sent: AsyncStream<DeliveryRequest>
        private let arriving: AsyncStream<DeliveryRequest>.Continuation

        init(answer: @escaping @Sendable (DeliveryRequest) -> DeliveryResponse) {
            self.answer = answer
            (sent, arriving) = AsyncStream.makeStream(of: DeliveryRequest.self)
        }

        /// A game's server that grants every award as `pub-1`.
        static func granting() -> GameServer {
            GameServer { _ in DeliveryResponse(status: 200, body: Array(#"{"publisherPurchaseId": "pub-1"}"#.utf8)) }
        }

        var transport: DeliveryTransport { transport(clock: wallClockMilliseconds) }

        /// Requests to it, each signed at the time `clock` gives.
        func transport(clock: @escaping @Sendable () -> Int) -> DeliveryTransport {
            .inMemory(clock: clock) { [self] request in
                arriving.yield(request)
                return answer(request)
            }
        }

        /// Everything it was sent, once `service` has finished: nothing more comes then.
        func requests(after service: SandboxService) async -> [DeliveryRequest] {
            service.finish()
            arriving.finish()
            var requests: [DeliveryRequest] = []
            for await request in sent {
                // Every award, event and replay the sandbox sent keeps its webhook's schema.
                checkWebhook(headers: request.headers, body: request.body)
                requests.append(request)
            }
            return requests
        }
    }

    /// What a request came to: its status, headers and body.
    struct Answer {
        var status: Int
        var headers: [HTTPHeader]
        var body: String

        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

        func json() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        }
    }

    static let formToken = "form-token-1"
    static let awardURL = "http://game.test/award"
    static let session = #"""
        {"priceDetails": {"price": 549, "currency": "EUR"},
         "offer": {"name": "Starter Pack", "sku": "starter_pack_001", "pricePointMetadata": 499},
         "items": [{"name": "Gems", "sku": "gem_01", "quantity": 100}],
         "customer": {"id": "cust_98765", "email": "player@example.com"}, "countryCode2": "DE"}
        """#

    /// A sandbox of seed 7 on June 12, 2024, whose form token is known.
    static func sandbox(seed: UInt64 = 7) -> Sandbox {
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: seed)
        settings.formToken = formToken
        return Sandbox(catalog: .builtIn, settings: settings, clock: { 1_718_182_312_000 })
    }

    /// A service of `sandbox` whose awards go to `game` when there is one.
    static func service(
        _ sandbox: Sandbox = sandbox(), game: GameServer? = nil, journal: (any SandboxJournal)? = nil, log: Log = Log()
    ) throws -> SandboxService {
        let awards = try game.map { _ in
            DeliveryDestination(url: try HTTPURL(awardURL), key: Array("main-key".utf8), publisherToken: "token-1")
        }
        let configuration = SandboxService.Configuration(awards: awards, transport: game?.transport ?? .http())
        return SandboxService(sandbox: sandbox, configuration: configuration, journal: journal, log: log)
    }

    /// `request` prepared and answered as the server does it.
    static func send(
        _ service: SandboxService, _ method: HTTPMethod, _ path: String, query: String = "", body: String = "",
        headers: [HTTPHeader] = []
    ) -> Answer {
        let request = HTTPRequest(
            method: method, path: path, query: query, headers: headers, body: Array(body.utf8), keepAlive: true)
        let answer: Answer
        switch service.respond(to: service.prepare(request)) {
        case .ready(let response):
            answer = Answer(
                status: response.status, headers: response.headers, body: String(decoding: response.body, as: UTF8.self)
            )
        case .later(let head, let body):
            answer = Answer(status: head.status, headers: head.headers, body: String(decoding: body(), as: UTF8.self))
        case .awaited(let promise):
            // Given by the service's turns, as a server's loop takes them; bounded, not a sleep.
            let deadline = ContinuousClock.now + .seconds(30)
            while promise.response == nil && ContinuousClock.now < deadline {
                service.tick()
                _ = promise.wait(milliseconds: 5)
            }
            let response = promise.response ?? HTTPServerResponse(status: 599, body: Array("never given".utf8))
            answer = Answer(
                status: response.status, headers: response.headers, body: String(decoding: response.body, as: UTF8.self)
            )
        }
        checkContract(
            request: request, status: answer.status, headers: answer.headers,
            body: method == .head ? [] : Array(answer.body.utf8))
        return answer
    }

    /// A POST to the control API, as a script sends it.
    static func control(_ service: SandboxService, _ path: String, _ body: String = "") -> Answer {
        send(service, .post, path, body: body, headers: [HTTPHeader("Content-Type", "application/json")])
    }

    /// A new session, created as the game's server creates it: its token and purchase id.
    static func create(_ service: SandboxService) throws -> (token: String, purchaseId: String) {
        let created = send(
            service, .post, "/checkout/v1/session", body: session,
            headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1")])
        #expect(created.status == 201, "\(created.body)")
        let json = try created.json()
        return (try #require(json["checkoutSessionToken"] as? String), try #require(json["purchaseId"] as? String))
    }

    /// A session's state, as the control API says it.
    static func state(_ service: SandboxService, _ purchaseId: String) throws -> String? {
        try send(service, .get, "/control/v1/sessions/\(purchaseId)").json()["state"] as? String
    }

    /// Calls `tick()` as the server does between events until `done` holds: the queues'
    /// threads deliver in memory at once, so the bound of 5 s only ends a run that broke.
    static func tick(_ service: SandboxService, until done: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<500 {
            service.tick()
            if try done() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// A session paid on its checkout page, its award granted by `game` and taken in.
    static func paid(_ service: SandboxService, game: GameServer) throws -> String {
        let (token, purchaseId) = try create(service)
        let pay = send(
            service, .post, "/checkout/\(token)", body: "formToken=\(formToken)&choice=pay&paymentMethod=Visa",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")])
        #expect(pay.status == 303)
        #expect(try tick(service) { try state(service, purchaseId) == "charge_succeed" })
        return purchaseId
    }

    @Test("a session paid on its checkout page sends its award; the order is paid once a tick takes the grant")
    func payment() async throws {
        let game = GameServer.granting()
        let log = Log()
        let service = try Self.service(game: game, log: log)
        defer { service.finish() }
        let (token, purchaseId) = try Self.create(service)
        let pay = Self.send(
            service, .post, "/checkout/\(token)", body: "formToken=\(Self.formToken)&choice=pay&paymentMethod=Visa",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")])
        #expect(pay.status == 303)
        #expect(pay.header("Location") == "/checkout/\(token)")
        #expect(try Self.state(service, purchaseId) == "charge_pending", "no tick has taken the award's answer in")
        #expect(log.lines.contains("session \(purchaseId) paid with Visa"))
        #expect(log.lines.contains("award \(purchaseId): POST \(Self.awardURL)"))

        #expect(try Self.tick(service) { try Self.state(service, purchaseId) == "charge_succeed" })
        #expect(log.lines.contains("award \(purchaseId) attempt 1: granted as pub-1 (0 ms)"), "\(log.lines)")
        #expect(service.deliveriesPending == 0)
        let sent = await game.requests(after: service)
        #expect(sent.count == 1)
        #expect(sent.first?.url.description == Self.awardURL)
        let headers = sent.first?.headers ?? []
        #expect(headers.contains { $0.name == "x-publisher-token" && $0.value == "token-1" })
        #expect(headers.contains { $0.name == "signature" && $0.value.hasPrefix("t=") })
        let body = String(decoding: sent.first?.body ?? [], as: UTF8.self)
        #expect(body.contains(purchaseId))
    }

    @Test("an award the game's server refuses leaves the order charge_failed, and the log says each attempt's answer")
    func refusedAward() async throws {
        let game = GameServer { _ in DeliveryResponse(status: 500) }
        let log = Log()
        let service = try Self.service(game: game, log: log)
        let (_, purchaseId) = try Self.create(service)
        #expect(
            Self.control(service, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pay"}"#)
                .status == 200)
        #expect(try Self.tick(service) { try Self.state(service, purchaseId) != "charge_pending" })
        #expect(try Self.state(service, purchaseId) == "charge_failed")
        let attempts = log.lines.filter { $0.hasPrefix("award \(purchaseId) attempt ") }
        #expect(attempts.count == AwardSchedule.retryDelays.count)
        #expect(attempts.first == "award \(purchaseId) attempt 1: failed: the server answered 500 (0 ms)")
        #expect(await game.requests(after: service).count == AwardSchedule.retryDelays.count)
    }

    @Test("a replay goes exactly, with the first signature, or re-signed, with a new one; the history has both")
    func replays() async throws {
        let game = GameServer.granting()
        let log = Log()
        let service = try Self.service(game: game, log: log)
        let purchaseId = try Self.paid(service, game: game)

        let exact = Self.control(service, "/control/v1/deliveries/dl_1/replay", #"{"resign": false}"#)
        #expect(exact.status == 202)
        #expect(exact.body == #"{"replaying":"dl_1","resign":false}"#)
        #expect(log.lines.contains("replay of dl_1 (award of \(purchaseId)): POST \(Self.awardURL)"))
        #expect(Self.tick(service) { log.lines.contains("replay of dl_1: accepted") })

        // The signature's t is in milliseconds: a new one differs from the first once the
        // clock has moved past the millisecond the first was signed in, which is before now.
        let now = wallClockMilliseconds()
        while wallClockMilliseconds() == now {}
        let resigned = Self.control(service, "/control/v1/deliveries/dl_1/replay")
        #expect(resigned.status == 202)
        #expect(resigned.body == #"{"replaying":"dl_1","resign":true}"#)
        #expect(Self.tick(service) { log.lines.count { $0 == "replay of dl_1: accepted" } == 2 })

        let listed = try Self.send(service, .get, "/control/v1/deliveries").json()
        let deliveries = try #require(listed["deliveries"] as? [[String: Any]])
        let replays = deliveries.filter { $0["replayOf"] as? String == "dl_1" }
        #expect(replays.count == 2)
        #expect(Set(replays.compactMap { $0["resigned"] as? Bool }) == [true, false])

        let sent = await game.requests(after: service)
        let signatures = sent.map { request in request.headers.first { $0.name == "signature" }?.value }
        #expect(signatures.count == 3, "the award, then its two replays")
        #expect(signatures.allSatisfy { $0?.hasPrefix("t=") == true })
        #expect(signatures[1] == signatures[0], "exactly as it was")
        #expect(signatures[2] != signatures[0], "newly signed")
        #expect(sent.allSatisfy { $0.body == sent[0].body && $0.url.description == Self.awardURL })
    }

    @Test("the orders report shows a paid order with its state and player; without the publisher token it is refused")
    func report() throws {
        let game = GameServer.granting()
        let service = try Self.service(game: game)
        defer { service.finish() }
        _ = try Self.paid(service, game: game)
        let query = #"{"startDate": "2024-01-01", "endDate": "2024-12-31"}"#
        let json = [HTTPHeader("Content-Type", "application/json")]
        let report = Self.send(
            service, .post, "/reporting/reports/orders", body: query,
            headers: json + [HTTPHeader("x-publisher-token", "token-1")])
        #expect(report.status == 200)
        let body = try report.json()
        #expect(body["totalCount"] as? Int == 1)
        let row = try #require((body["results"] as? [[String: Any]])?.first)
        #expect(row["state"] as? String == "charge_succeed")
        #expect(row["playerId"] as? String == "cust_98765")
        #expect(row["priceInCents"] as? Int == 549)
        let refused = Self.send(
            service, .post, "/reporting/reports/orders", body: query,
            headers: json + [HTTPHeader("x-publisher-token", "token-2")])
        #expect(refused.status == 401)
    }

    @Test("the order page's refund form, with its form token, refunds the order; without it, nothing happens")
    func refundForm() throws {
        let game = GameServer.granting()
        let service = try Self.service(game: game)
        defer { service.finish() }
        let purchaseId = try Self.paid(service, game: game)
        let form = [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")]

        let forged = Self.send(
            service, .post, "/orders/\(purchaseId)/refund", body: "amount=100&outcome=refunded&formToken=guessed",
            headers: form)
        #expect(forged.status == 403)
        #expect(try Self.state(service, purchaseId) == "charge_succeed")

        let refund = Self.send(
            service, .post, "/orders/\(purchaseId)/refund",
            body: "amount=100&outcome=refunded&formToken=\(Self.formToken)", headers: form)
        #expect(refund.status == 303)
        let location = try #require(refund.header("Location"))
        #expect(location.hasPrefix("/orders/\(purchaseId)?said="))
        let page = Self.send(
            service, .get, "/orders/\(purchaseId)", query: String(location.dropFirst("/orders/\(purchaseId)?".count)))
        #expect(page.body.contains(#"<p class="said">done: the order is payment_refunded</p>"#))
        #expect(try Self.state(service, purchaseId) == "payment_refunded")
    }

    @Test("a service made from a journal another kept has its sessions back, says so, and hands out no id twice")
    func restore() throws {
        let journal = InMemorySandboxJournal(seed: 7)
        let first = try Self.service(journal: journal)
        let (_, purchaseId) = try Self.create(first)
        #expect(
            Self.control(first, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pay"}"#)
                .status == 200)
        #expect(journal.records.count == 2, "the session as created, then as paid")

        let kept = InMemorySandboxJournal(seed: journal.seed, records: journal.records)
        let sandbox = Self.sandbox(seed: kept.seed)
        kept.restore(into: sandbox)
        let log = Log()
        let second = try Self.service(sandbox, journal: kept, log: log)
        second.start(greeting: "paylinks sandbox at http://127.0.0.1:4010")
        #expect(
            log.lines == [
                "sandbox data in memory: 1 session and 0 deliveries kept", "paylinks sandbox at http://127.0.0.1:4010",
            ])
        #expect(kept.rewrites == 1, "two records of one session: the superseded one goes")
        #expect(try Self.state(second, purchaseId) == "charge_succeed")
        let (_, next) = try Self.create(second)
        #expect(next != purchaseId)
    }

    @Test("a change the journal cannot keep is answered 503 and not made")
    func unkept() throws {
        let journal = InMemorySandboxJournal(seed: 7)
        let service = try Self.service(journal: journal)
        journal.refusal = "the disk is full"
        let created = Self.send(
            service, .post, "/checkout/v1/session", body: Self.session,
            headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1")])
        #expect(created.status == 503)
        #expect(journal.records.isEmpty)
        #expect(service.sandbox.sessionCount == 0)
    }

    /// Whether a stop was asked, as `serve`'s signal watch says it.
    final class StopAsked {
        var asked = false
    }

    @Test("once a stop is asked, a payment answered while the server finishes gets no attempt: its award waits")
    func stopHoldsNewAwards() async throws {
        let game = GameServer.granting()
        let log = Log()
        let stop = StopAsked()
        let awards = DeliveryDestination(
            url: try HTTPURL(Self.awardURL), key: Array("main-key".utf8), publisherToken: "token-1")
        let service = SandboxService(
            sandbox: Self.sandbox(),
            configuration: SandboxService.Configuration(awards: awards, transport: game.transport),
            journal: nil, log: log, stopRequested: { stop.asked })
        let (token, purchaseId) = try Self.create(service)
        #expect(!service.isStopping)
        stop.asked = true
        #expect(service.isStopping)
        // The server still answers what was arriving when the stop came.
        let pay = Self.send(
            service, .post, "/checkout/\(token)", body: "formToken=\(Self.formToken)&choice=pay&paymentMethod=Visa",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")])
        #expect(pay.status == 303)
        let sent = await game.requests(after: service)
        #expect(sent.isEmpty, "no attempt starts after the stop")
        #expect(log.lines.contains("award \(purchaseId): not sent, the sandbox stopped before its turn"))
        #expect(try Self.state(service, purchaseId) == "charge_pending")
    }
}
