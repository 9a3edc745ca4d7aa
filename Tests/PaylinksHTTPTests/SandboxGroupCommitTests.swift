import Foundation
import PaylinksDelivery
import PaylinksHTTP
import PaylinksSandbox
import Testing

/// Group commit: what the requests of one turn of the server's loop change is kept in one
/// write, before any of their answers goes out; a write that fails fails exactly those
/// answers (503), and nothing of them happened. Each turn is driven as the server drives
/// it: ``SandboxService/beginBatch()``, the requests' `respond(to:)`, ``SandboxService/endBatch()``.
@Suite("Sandbox group commit")
struct SandboxGroupCommitTests {
    typealias Service = SandboxServiceTests

    /// A journal in memory that counts the changes it is handed.
    final class CountingJournal: SandboxJournal {
        let kept: InMemorySandboxJournal
        /// Changes handed to ``keep(_:live:)``, kept or not.
        private(set) var keeps = 0

        init(seed: UInt64) { kept = InMemorySandboxJournal(seed: seed) }

        var location: String { kept.location }
        var recordsRead: Int { kept.recordsRead }
        var warnings: [String] { kept.warnings }
        var onWarning: (String) -> Void {
            get { kept.onWarning }
            set { kept.onWarning = newValue }
        }

        func keep(_ changed: SandboxJournalChange, live: () -> SandboxJournalContents) -> String? {
            keeps += 1
            return kept.keep(changed, live: live)
        }

        /// Changes handed to ``ready(_:)``.
        private(set) var readied: [SandboxJournalChange] = []
        func ready(_ changed: SandboxJournalChange) { readied.append(changed) }

        func startRewrite(_ held: SandboxJournalContents) { kept.startRewrite(held) }
        func finishRewrite(waiting: Bool) { kept.finishRewrite(waiting: waiting) }
        func replace(with held: SandboxJournalContents) -> String? { kept.replace(with: held) }
    }

    static let json = [HTTPHeader("Content-Type", "application/json")]
    static let created = HTTPRequest(
        method: .post, path: "/checkout/v1/session", query: "",
        headers: json + [HTTPHeader("x-publisher-token", "token-1")], body: Array(Service.session.utf8),
        keepAlive: true)

    static func get(_ path: String) -> HTTPRequest {
        HTTPRequest(method: .get, path: path, query: "", headers: [], body: [], keepAlive: true)
    }

    static func pay(_ purchaseId: String) -> HTTPRequest {
        HTTPRequest(
            method: .post, path: "/control/v1/sessions/\(purchaseId)/complete", query: "", headers: json,
            body: Array(#"{"choice": "pay"}"#.utf8), keepAlive: true)
    }

    /// One turn of `requests`: each answer as `respond(to:)` made it, and as it stands once
    /// the turn has ended.
    static func turn(_ service: SandboxService, _ requests: [HTTPRequest]) -> (
        made: [HTTPAnswer], given: [HTTPServerResponse?]
    ) {
        service.beginBatch()
        let made = requests.map { service.respond(to: service.prepare($0)) }
        service.endBatch()
        return (made, made.map(\.made))
    }

    /// Whether `answer` waits for its turn's end: awaited, and not given yet.
    static func waits(_ answer: HTTPAnswer) -> Bool {
        if case .awaited(let promise) = answer { return promise.response == nil }
        return false
    }

    static func json(_ response: HTTPServerResponse?) throws -> [String: Any] {
        let body = Data(try #require(response).body)
        return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    @Test("a turn of five new sessions is kept in one write; each is 201 with an id of its own, found after a restart")
    func oneWriteForATurn() throws {
        let journal = CountingJournal(seed: 7)
        let service = try Service.service(journal: journal)
        service.beginBatch()
        let made = (0..<5).map { _ in service.respond(to: service.prepare(Self.created)) }
        #expect(made.allSatisfy(Self.waits), "no answer goes out before the turn's change is kept")
        #expect(journal.keeps == 0)
        service.endBatch()
        #expect(journal.keeps == 1)
        let given = made.map(\.made)
        #expect(given.map { $0?.status } == Array(repeating: 201, count: 5))
        let ids = try given.map { try #require(try Self.json($0)["purchaseId"] as? String) }
        #expect(Set(ids).count == 5)

        let sandbox = Service.sandbox(seed: 7)
        InMemorySandboxJournal(seed: 7, records: journal.kept.records).restore(into: sandbox)
        let again = try Service.service(sandbox)
        for id in ids { #expect(try Service.state(again, id) == "created") }
        let (_, next) = try Service.create(again)
        #expect(!ids.contains(next))
    }

    @Test("a turn whose write fails is 503 throughout: no session, no id used up, no award, no log but the warning")
    func failedTurn() throws {
        let game = SandboxServiceTests.GameServer.granting()
        let log = SandboxServiceTests.Log()
        let journal = CountingJournal(seed: 7)
        let service = try Service.service(game: game, journal: journal, log: log)
        defer { service.finish() }
        let (_, open) = try Service.create(service)
        let keptBefore = journal.kept.records.count
        journal.kept.refusal = "the disk is full"
        let logged = log.lines.count
        let (made, given) = Self.turn(service, [Self.created, Self.pay(open), Self.created])
        #expect(made.allSatisfy { if case .awaited = $0 { true } else { false } })
        #expect(journal.keeps == 2, "the first session, then the turn once")
        #expect(given.map { $0?.status } == [503, 503, 503])
        for response in given {
            #expect(try (Self.json(response)["errorMessage"] as? String)?.contains("nothing changed") == true)
        }
        let lines = log.lines[logged...]
        #expect(
            lines.allSatisfy {
                $0 == "warning: a change could not be kept, so it was not made: the disk is full"
                    || $0.hasSuffix(" 503")
            }, "\(lines)")
        #expect(lines.count == 6)
        #expect(service.sandbox.sessionCount == 1)
        #expect(service.deliveriesPending == 0, "no award was handed to the queue")
        #expect(journal.kept.records.count == keptBefore)

        journal.kept.refusal = nil
        #expect(try Service.state(service, open) == "created")
        let (_, again) = Self.turn(service, [Self.created, Self.pay(open)])
        #expect(again.map { $0?.status } == [201, 200])
        // The ids the failed turn took go to the next sessions: none is skipped.
        let reference = try Service.service()
        _ = try Service.create(reference)
        let (_, second) = try Service.create(reference)
        #expect(try Self.json(again[0])["purchaseId"] as? String == second)
        #expect(try Service.tick(service) { try Service.state(service, open) == "charge_succeed" })
        #expect(log.lines.filter { $0.hasPrefix("award \(open): POST") }.count == 1, "\(log.lines)")
    }

    @Test("awards that end while writes pause after a refusal are readied, not written, and kept with the next change")
    func readiedWhilePausing() throws {
        let game = SandboxServiceTests.GameServer.granting()
        let journal = CountingJournal(seed: 7)
        let service = try Service.service(game: game, journal: journal)
        defer { service.finish() }
        let (_, first) = try Service.create(service)
        let (_, second) = try Service.create(service)
        let keeps = journal.keeps
        // Paid in one turn, kept before their awards go; the awards end while the disk is full.
        #expect(Self.turn(service, [Self.pay(first), Self.pay(second)]).given.map { $0?.status } == [200, 200])
        journal.kept.refusal = "the disk is full"
        let paid = journal.keeps
        #expect(paid == keeps + 1)
        #expect(
            try Service.tick(service) {
                try Service.state(service, first) == "charge_succeed"
                    && Service.state(service, second) == "charge_succeed"
            })
        #expect(
            journal.keeps == paid + 1, "only the first outcome tries the disk; the clock stands still, so it pauses")
        // Each step readies what it changed, not all that waited before it: the sessions and
        // deliveries come once each, across the steps.
        #expect(Set(journal.readied.flatMap(\.sessions).map(\.purchaseId)) == [first, second])
        #expect(journal.readied.allSatisfy { $0.sessions.count <= 1 && $0.deliveries.count <= 1 })
        #expect(journal.readied.flatMap(\.deliveries).count == 2)

        journal.kept.refusal = nil
        _ = try Service.create(service)
        let records = journal.kept.records.suffix(5)
        let states = records.compactMap { if case .session(let session) = $0 { session.state.rawValue } else { nil } }
        #expect(states == ["charge_succeed", "charge_succeed", "created"], "\(records)")
        #expect(records.count { if case .delivery = $0 { true } else { false } } == 2)
    }

    @Test("a read after a change in the same turn waits for the write, and is 503 when it fails; one before does not")
    func readAfterChange() throws {
        let journal = CountingJournal(seed: 7)
        let service = try Service.service(journal: journal)
        let (_, open) = try Service.create(service)
        for refusal in [nil, "the disk is full"] {
            journal.kept.refusal = refusal
            service.beginBatch()
            let before = service.respond(to: service.prepare(Self.get("/control/v1/sessions/\(open)")))
            let change = service.respond(to: service.prepare(Self.created))
            let after = service.respond(to: service.prepare(Self.get("/control/v1/sessions/\(open)")))
            #expect(!Self.waits(before))
            #expect(before.made?.status == 200)
            #expect(Self.waits(change))
            #expect(Self.waits(after), "it may have read what the turn changed")
            service.endBatch()
            #expect(change.made?.status == (refusal == nil ? 201 : 503))
            #expect(after.made?.status == (refusal == nil ? 200 : 503))
        }
        #expect(service.sandbox.sessionCount == 2)
    }

    @Test("a turn that changes nothing is answered at once, without a write")
    func readsAnswerAtOnce() throws {
        let journal = CountingJournal(seed: 7)
        let service = try Service.service(journal: journal)
        let (_, open) = try Service.create(service)
        let (made, given) = Self.turn(
            service, [Self.get("/control/v1/sessions/\(open)"), Self.get("/control/v1/health"), Self.get("/nowhere")])
        #expect(!made.contains(where: Self.waits))
        #expect(!made.contains { if case .awaited = $0 { true } else { false } })
        #expect(given.map { $0?.status } == [200, 200, 404])
        #expect(journal.keeps == 1, "the session's creation alone")
    }

    @Test("a reset after a payment in the same turn finds the payment's award under way, as it would one at a time")
    func resetAfterAPayment() throws {
        let game = SandboxServiceTests.GameServer.granting()
        let journal = CountingJournal(seed: 7)
        let service = try Service.service(game: game, journal: journal)
        defer { service.finish() }
        let (_, open) = try Service.create(service)
        let reset = HTTPRequest(
            method: .post, path: "/control/v1/reset", query: "", headers: Self.json, body: [], keepAlive: true)
        let (_, given) = Self.turn(service, [Self.pay(open), reset])
        let bodies = given.map { String(decoding: $0?.body ?? [], as: UTF8.self) }
        #expect(given.map { $0?.status } == [200, 409], "\(bodies)")
        #expect(journal.keeps == 2, "the session, then the payment, kept before the reset was asked")
        #expect(try Service.tick(service) { try Service.state(service, open) == "charge_succeed" })
    }

    @Test("without a journal every answer is made at once, in a turn or not")
    func inMemoryAnswersAtOnce() throws {
        let service = try Service.service()
        let (made, given) = Self.turn(service, [Self.created, Self.created])
        #expect(!made.contains { if case .awaited = $0 { true } else { false } })
        #expect(given.map { $0?.status } == [201, 201])
    }

    @Test("served, the answers of pipelined changes and reads go out in the connection's order")
    func servedInOrder() throws {
        let journal = CountingJournal(seed: 7)
        let stop = Locked(false)
        let service = SandboxService(
            sandbox: Service.sandbox(), configuration: SandboxService.Configuration(), journal: journal,
            log: SandboxServiceTests.Log(), stopRequested: { stop.withLock { $0 } })
        let server = try HTTPServer(host: "127.0.0.1", port: 0, loops: 1, refusal: Sandbox.answer(to:))
        let running = Running(server: server, service: service)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            running.server.run(running.service)
            finished.signal()
        }.start()
        let client = try HTTPServerTests.Client(port: server.port)
        let host = "Host: 127.0.0.1:\(server.port)\r\n"
        let create =
            "POST /checkout/v1/session HTTP/1.1\r\n\(host)Content-Type: application/json\r\n"
            + "x-publisher-token: token-1\r\nContent-Length: \(Service.session.utf8.count)\r\n\r\n\(Service.session)"
        let health = "GET /control/v1/health HTTP/1.1\r\n\(host)\r\n"
        client.send(create + health + create + health)
        var received = ""
        for _ in 0..<100 where received.components(separatedBy: "HTTP/1.1 ").count < 5 {
            received += client.read(within: 100)
        }
        let statuses = received.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) }
        #expect(statuses == ["201", "200", "201", "200"], "\(received)")
        #expect(journal.kept.records.count == 2)
        stop.withLock { $0 = true }
        #expect(finished.wait(timeout: .now() + 5) == .success)
    }

    /// A server and the service it runs, handed to the server's thread.
    final class Running: @unchecked Sendable {
        let server: HTTPServer
        let service: SandboxService

        init(server: HTTPServer, service: SandboxService) {
            self.server = server
            self.service = service
        }
    }
}
