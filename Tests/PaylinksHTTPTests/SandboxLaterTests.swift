import ContractChecks
import PaylinksAppcharge
import Testing

@testable import PaylinksHTTP
@testable import PaylinksSandbox

/// The answers whose size follows what a client sent: their status and headers decided
/// under the server's lock, their bodies made later, outside it, so that the server's
/// budget of answers not taken bounds them as it bounds the reports.
@Suite("Sandbox answers made later")
struct SandboxLaterTests {
    typealias Service = SandboxServiceTests

    /// The answer to `method` at `path`, as the server has it from the service.
    static func answer(_ service: SandboxService, _ method: HTTPMethod = .get, _ path: String) -> HTTPAnswer {
        let request = HTTPRequest(method: method, path: path, query: "", headers: [], body: [], keepAlive: true)
        let answer = service.respond(to: service.prepare(request))
        // A body made later is made once, by the test that reads it; one ready now is checked.
        if case .ready(let response) = answer { checkContract(request: request, response: response) }
        return answer
    }

    /// A session whose offer name is `size` `<` and whose customer id is `size` `c`: its
    /// token and purchase id.
    static func large(_ service: SandboxService, size: Int) throws -> (token: String, purchaseId: String) {
        let body = """
            {"priceDetails": {"price": 549, "currency": "EUR"},
             "offer": {"name": "\(String(repeating: "<", count: size))", "sku": "starter_pack_001", "pricePointMetadata": 499},
             "items": [{"name": "Gems", "sku": "gem_01", "quantity": 100}],
             "customer": {"id": "\(String(repeating: "c", count: size))"}, "countryCode2": "DE"}
            """
        let created = Service.send(
            service, .post, "/checkout/v1/session", body: body,
            headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1")])
        #expect(created.status == 201, "\(created.body.prefix(200))")
        let json = try created.json()
        return (try #require(json["checkoutSessionToken"] as? String), try #require(json["purchaseId"] as? String))
    }

    /// The head and the body of an answer made later; nil, and an issue, for one made already.
    static func later(_ answer: HTTPAnswer, _ what: String) -> (head: HTTPServerResponse, body: [UInt8])? {
        guard case .later(let head, let body) = answer else {
            Issue.record("\(what) is made at once, under the server's lock")
            return nil
        }
        return (head, body())
    }

    @Test("the checkout page and the control API's state of a session megabytes large are made later")
    func largeSession() throws {
        let service = try Service.service()
        defer { service.finish() }
        let size = 200_000
        let (token, purchaseId) = try Self.large(service, size: size)

        for method in [HTTPMethod.get, .head] {
            let page = try #require(Self.later(Self.answer(service, method, "/checkout/\(token)"), "\(method) page"))
            #expect(page.head.status == 200)
            #expect(page.head.body.isEmpty)
            #expect(page.head.headers.contains { $0 == HTTPHeader("Content-Type", "text/html; charset=utf-8") })
            #expect(page.head.headers.contains { $0 == HTTPHeader("X-Frame-Options", "DENY") })
            // The name in the title and in the heading, each `<` as `&lt;`.
            #expect(page.body.count > 2 * 4 * size)
        }

        let state = try #require(
            Self.later(Self.answer(service, .get, "/control/v1/sessions/\(purchaseId)"), "the session's state"))
        #expect(state.head.status == 200)
        #expect(state.head.body.isEmpty)
        #expect(state.body.count > size)
        #expect(String(decoding: state.body, as: UTF8.self).contains(String(repeating: "c", count: size)))
    }

    @Test("a script's choice on a session megabytes large answers its state made later")
    func largeCompletion() throws {
        let service = try Service.service()
        defer { service.finish() }
        let size = 200_000
        let (_, purchaseId) = try Self.large(service, size: size)
        let request = HTTPRequest(
            method: .post, path: "/control/v1/sessions/\(purchaseId)/complete", query: "",
            headers: [HTTPHeader("Content-Type", "application/json")], body: Array(#"{"choice": "decline"}"#.utf8),
            keepAlive: true)
        let answer = service.respond(to: service.prepare(request))
        let state = try #require(Self.later(answer, "the state after a choice"))
        #expect(state.head.status == 200)
        #expect(state.head.body.isEmpty)
        let text = String(decoding: state.body, as: UTF8.self)
        #expect(text.contains(#""state":"payment_failed""#))
        #expect(text.contains(String(repeating: "c", count: size)))
    }

    @Test("a page made later is written from the session as it stood when asked, not as it stands when sent")
    func snapshot() throws {
        let service = try Service.service()
        defer { service.finish() }
        let (token, purchaseId) = try Service.create(service)
        let page = Self.answer(service, .get, "/checkout/\(token)")
        let state = Self.answer(service, .get, "/control/v1/sessions/\(purchaseId)")
        let closed = Service.send(
            service, .post, "/checkout/\(token)",
            body: "formToken=\(Service.formToken)&choice=close&paymentMethod=Visa",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")])
        #expect(closed.status == 303)
        #expect(String(decoding: page.response.body, as: UTF8.self).contains("<button type=\"submit\""))
        #expect(String(decoding: state.response.body, as: UTF8.self).contains(#""state":"created""#))
    }

    @Test("a normal session's checkout page and state are the bytes they were, and HEAD says the GET's length")
    func sameBytes() throws {
        let service = try Service.service()
        defer { service.finish() }
        let (token, purchaseId) = try Service.create(service)

        let page = Self.answer(service, .get, "/checkout/\(token)").response
        #expect(page.status == 200)
        #expect(page.body.count == 7_971)
        let digest = HMACSHA256.hex(SHA256.hash(page.body))
        #expect(digest == "14108caf9bec78f2478c30e4f2dfd09684aed44d55fa3e390df9f64c2eac64a7")
        let head = Self.answer(service, .head, "/checkout/\(token)").response.encoded(closing: false, head: true)
        #expect(head == Array(page.encoded(closing: false).dropLast(page.body.count)))

        let state = Self.answer(service, .get, "/control/v1/sessions/\(purchaseId)").response
        #expect(state.status == 200)
        #expect(state.headers == [HTTPHeader("Content-Type", "application/json")])
        #expect(
            String(decoding: state.body, as: UTF8.self)
                == #"{"purchaseId":"pr_asvduvhtnn2i4wp4s6sccct5","state":"created","offerSku":"starter_pack_001","#
                + #""price":549,"currency":"EUR","customerId":"cust_98765","countryCode2":"DE"}"#)
    }
}
