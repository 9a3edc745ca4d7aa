import Foundation
import PaylinksDelivery
import PaylinksHTTP
import PaylinksSandbox
import Testing

/// `POST /control/v1/reset` and `GET /control/v1/export`, served without a socket: what a
/// reset forgets, when it waits, and what its journal then holds.
@Suite("Sandbox reset and export")
struct SandboxResetTests {
    typealias Service = SandboxServiceTests

    @Test("a reset forgets every session, the journal holds none, and the next session takes the first id again")
    func forgets() throws {
        let journal = InMemorySandboxJournal(seed: 7)
        let log = Service.Log()
        let service = try Service.service(journal: journal, log: log)
        defer { service.finish() }
        let (_, first) = try Service.create(service)
        _ = try Service.create(service)
        let reset = Service.control(service, "/control/v1/reset")
        #expect(reset.status == 200)
        #expect(reset.body == #"{"reset":true,"sessions":0,"deliveries":0,"forgotten":{"sessions":2,"deliveries":0}}"#)
        #expect(log.lines.contains("sandbox reset: 2 sessions and 0 deliveries forgotten"))
        #expect(Service.send(service, .get, "/control/v1/sessions/\(first)").status == 404)
        #expect(journal.records.count == 1, "how many sessions were made, and nothing else")
        #expect(try Service.create(service).purchaseId == first)
    }

    @Test("a reset the journal cannot keep is 503, and nothing is forgotten")
    func unkept() throws {
        let journal = InMemorySandboxJournal(seed: 7)
        let service = try Service.service(journal: journal)
        defer { service.finish() }
        let (_, purchaseId) = try Service.create(service)
        journal.refusal = "the disk is full"
        let reset = Service.control(service, "/control/v1/reset", "{}")
        #expect(reset.status == 503)
        #expect(reset.body.contains("the disk is full"))
        journal.refusal = nil
        #expect(try Service.state(service, purchaseId) == "created")
    }

    @Test(
        "a reset takes {} or nothing, as JSON, and only from a client that is no page",
        arguments: [
            (#"{"sessions":true}"#, [HTTPHeader("Content-Type", "application/json")], 400),
            ("{}", [], 415),
            ("{}", [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Origin", "http://evil.example")], 403),
            ("", [HTTPHeader("Content-Type", "application/json")], 200),
        ])
    func refused(body: String, headers: [HTTPHeader], status: Int) throws {
        let service = try Service.service()
        defer { service.finish() }
        let (_, purchaseId) = try Service.create(service)
        #expect(Service.send(service, .post, "/control/v1/reset", body: body, headers: headers).status == status)
        #expect(try Service.state(service, purchaseId) == (status == 200 ? nil : "created"))
    }

    @Test("a refused reset says why: a body that is no JSON object, or options it does not take")
    func refusalSaysWhy() throws {
        let service = try Service.service()
        defer { service.finish() }
        let json = [HTTPHeader("Content-Type", "application/json")]
        let notJSON = Service.send(service, .post, "/control/v1/reset", body: "xx", headers: json)
        #expect(
            notJSON.body.contains(
                "the body is not JSON: unexpected 'x'; expected a value (line 1); send {} or an empty body"),
            "\(notJSON.body)")
        let options = Service.send(service, .post, "/control/v1/reset", body: #"{"all":true}"#, headers: json)
        #expect(options.body.contains("reset takes no options; send {} or an empty body"), "\(options.body)")
    }

    @Test("a reset waits for no delivery: while an award is out it is 409, and once it ended it goes through")
    func waitsForDeliveries() throws {
        let release = DispatchSemaphore(value: 0)
        let game = Service.GameServer { _ in
            release.wait()
            return DeliveryResponse(status: 200, body: Array(#"{"publisherPurchaseId": "pub-1"}"#.utf8))
        }
        let service = try Service.service(game: game)
        defer { service.finish() }
        let (token, purchaseId) = try Service.create(service)
        let pay = Service.send(
            service, .post, "/checkout/\(token)",
            body: "formToken=\(Service.formToken)&choice=pay&paymentMethod=Visa",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")])
        #expect(pay.status == 303)
        let busy = Service.control(service, "/control/v1/reset")
        #expect(busy.status == 409)
        #expect(busy.body.contains("1 delivery to the game's server is under way"), "\(busy.body)")
        release.signal()
        #expect(try Service.tick(service) { try Service.state(service, purchaseId) == "charge_succeed" })
        #expect(Service.control(service, "/control/v1/reset").status == 200)
        #expect(Service.send(service, .get, "/control/v1/deliveries").body.contains(#""deliveries":[]"#))
    }

    @Test("an export is the journal's format: its first line, a line a session, as a download")
    func export() throws {
        let service = try Service.service()
        defer { service.finish() }
        _ = try Service.create(service)
        let exported = Service.send(service, .get, "/control/v1/export")
        #expect(exported.status == 200)
        #expect(exported.header("Content-Type") == "application/x-ndjson")
        #expect(exported.header("Content-Disposition") == #"attachment; filename="paylinks-sandbox.jsonl""#)
        let lines = exported.body.split(separator: "\n")
        #expect(lines.first == #"{"format":"paylinks-sandbox","version":1,"seed":"7","sessionsMade":1}"#)
        #expect(lines.count == 2)
        #expect(lines.last?.hasPrefix(#"{"session":{"index":0,"#) == true)
    }
}
