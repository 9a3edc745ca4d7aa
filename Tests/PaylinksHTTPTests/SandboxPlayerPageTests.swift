import Foundation
import PaylinksAppcharge
import PaylinksDelivery
import PaylinksHTTP
import Testing

@testable import PaylinksSandbox

/// A player's page, `GET /players/ID`: their orders, what Appcharge's books say they should
/// hold, and with `--ledger-url` what the game's ledger says they hold, read away from the
/// server's loop and within its bound whatever the ledger does.
@Suite("Sandbox player page")
struct SandboxPlayerPageTests {
    typealias Service = SandboxServiceTests

    /// A ledger on 127.0.0.1 that answers each `GET ?playerId=ID` with what `answer` gives
    /// for the player; `hold`, when given, is waited on (10 s at most) before it answers.
    final class Ledger: Sendable {
        let running: HTTPServerTests.Running
        let asked = Locked<[String]>([])

        init(hold: DispatchSemaphore? = nil, answer: @escaping @Sendable (String) -> (Int, String)) throws {
            let asked = asked
            running = try HTTPServerTests.Running(
                limits: .init(),
                handle: { request in
                    let player =
                        request.query.split(separator: "&").first { $0.hasPrefix("playerId=") }
                        .map { String($0.dropFirst("playerId=".count)) } ?? ""
                    asked.withLock { $0.append(player) }
                    _ = hold?.wait(timeout: .now() + 10)
                    let (status, body) = answer(player)
                    return HTTPServerResponse(status: status, contentType: "application/json", body: Array(body.utf8))
                })
        }

        var url: String { "http://127.0.0.1:\(running.port)/ledger" }
    }

    /// A service of a sandbox counting partial refunds by `rule`, its awards granted by
    /// `game`, its players' pages reading `ledger` when given.
    static func service(
        rule: PlayerBooks.PartialRefundRule = .keep, game: Service.GameServer = .granting(), ledger: String? = nil,
        log: Service.Log = Service.Log()
    ) throws -> SandboxService {
        let sandbox = Service.sandbox()
        sandbox.settings.partialRefund = rule
        let awards = DeliveryDestination(
            url: try HTTPURL(Service.awardURL), key: Array("main-key".utf8), publisherToken: "token-1")
        var configuration = SandboxService.Configuration(awards: awards, transport: game.transport)
        configuration.ledger = try ledger.map { try HTTPURL($0) }
        return SandboxService(sandbox: sandbox, configuration: configuration, journal: nil, log: log)
    }

    /// A session of `player` (a JSON string's contents), paid by a script: its purchase id,
    /// once its award is taken in.
    static func paid(_ service: SandboxService, player: String = "cust_1") throws -> String {
        let body = Service.session.replacingOccurrences(of: "\"cust_98765\"", with: "\"\(player)\"")
        let created = Service.send(
            service, .post, "/checkout/v1/session", body: body,
            headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1")])
        #expect(created.status == 201, "\(created.body)")
        let purchaseId = try #require(try created.json()["purchaseId"] as? String)
        #expect(
            Service.control(service, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pay"}"#).status == 200
        )
        #expect(try Service.tick(service) { try Service.state(service, purchaseId) != "charge_pending" })
        return purchaseId
    }

    /// The page of `player`, its id percent-encoded in the path.
    static func page(_ service: SandboxService, _ player: String = "cust_1") -> Service.Answer {
        Service.send(service, .get, "/players/\(PercentCoding.encoded(player))")
    }

    /// The books' row of `sku` on `page`, from its `<tr` to its `</tr>`.
    static func row(_ page: Service.Answer, sku: String = "gem_01") -> String {
        guard let start = page.body.range(of: "<tr data-sku=\"\(sku)\"") else { return "" }
        let rest = page.body[start.lowerBound...]
        return String(rest[..<(rest.range(of: "</tr>")?.upperBound ?? rest.endIndex)])
    }

    @Test("after a purchase the books say the player should hold its products, beside their order")
    func purchase() throws {
        let service = try Self.service()
        defer { service.finish() }
        let first = try Self.paid(service)
        let second = try Self.paid(service)
        let page = Self.page(service)
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("X-Frame-Options") == "DENY")
        let newer = try #require(page.body.range(of: "<tr data-purchase-id=\"\(second)\""))
        let older = try #require(page.body.range(of: "<tr data-purchase-id=\"\(first)\""))
        #expect(newer.lowerBound < older.lowerBound, "newest first")
        #expect(page.body.contains("href=\"/orders/\(first)\""))
        #expect(page.body.contains("href=\"/?player=cust_1\""))
        #expect(page.body.contains("<table class=\"books cards\">"))
        #expect(Self.row(page).contains("<td data-label=\"Books\">200</td>"), "\(Self.row(page))")
        #expect(!page.body.contains("data-label=\"Ledger\""), "no ledger, no column")
    }

    @Test("a full refund and a lost dispute take the products back; a partial refund keeps or revokes them")
    func refundsAndDisputes() throws {
        for rule in PlayerBooks.PartialRefundRule.allCases {
            let service = try Self.service(rule: rule)
            defer { service.finish() }
            let refunded = try Self.paid(service)
            let partial = try Self.paid(service)
            let lost = try Self.paid(service)
            _ = try Self.paid(service)
            #expect(Service.control(service, "/control/v1/sessions/\(refunded)/refund", "{}").status == 200)
            #expect(
                Service.control(service, "/control/v1/sessions/\(partial)/refund", #"{"amount": 200}"#).status == 200)
            #expect(
                Service.control(service, "/control/v1/sessions/\(lost)/dispute", #"{"outcome": "lost"}"#).status == 200)
            let page = Self.page(service)
            #expect(page.body.contains("Dispute lost"))
            #expect(page.body.contains("of it"), "the partial refund's amount beside its state")
            let held = rule == .keep ? 200 : 100
            #expect(Self.row(page).contains("<td data-label=\"Books\">\(held)</td>"), "\(rule): \(Self.row(page))")
            #expect(page.body.contains("--partial-refund \(rule.rawValue)"))
        }
    }

    @Test("an order whose award failed leaves its products unknown to the books, said in words")
    func failedAward() throws {
        let service = try Self.service(game: Service.GameServer { _ in DeliveryResponse(status: 500) })
        defer { service.finish() }
        let purchaseId = try Self.paid(service)
        #expect(try Service.state(service, purchaseId) == "charge_failed")
        let row = Self.row(Self.page(service))
        #expect(row.contains("The books cannot say"), "\(row)")
        #expect(row.contains("href=\"/orders/\(purchaseId)\""))
    }

    @Test("a ledger that agrees is shown beside the books; one that kept a refunded order's products differs, in words")
    func ledgerColumn() throws {
        let balances = Locked("{\"gem_01\": 100, \"coin_02\": 5}")
        let ledger = try Ledger { _ in (200, "{\"balances\": \(balances.withLock { $0 })}") }
        defer { #expect(ledger.running.stop()) }
        let log = Service.Log()
        let service = try Self.service(ledger: ledger.url, log: log)
        defer { service.finish() }
        let purchaseId = try Self.paid(service, player: "p 1&x")
        let agreeing = Self.page(service, "p 1&x")
        #expect(agreeing.status == 200)
        #expect(Self.row(agreeing).contains("<td data-label=\"Ledger\">100</td>"), "\(Self.row(agreeing))")
        #expect(!agreeing.body.contains("class=\"differs\""))
        #expect(!agreeing.body.contains("differs by"))
        #expect(agreeing.body.contains("which the books say they should not hold: 5 coin_02."))
        #expect(ledger.asked.withLock { $0 } == ["p%201%26x"], "the player's id goes percent-encoded")
        #expect(log.lines.contains("GET /players/p%201%26x answered once the ledger is read"), "\(log.lines)")

        #expect(Service.control(service, "/control/v1/sessions/\(purchaseId)/refund", "{}").status == 200)
        let differing = Self.page(service, "p 1&x")
        let row = Self.row(differing)
        #expect(row.contains("class=\"differs\""), "\(row)")
        #expect(row.contains("<td data-label=\"Books\">0</td>"))
        #expect(row.contains("differs by +100"))
        balances.withLock { $0 = "{}" }
        let emptied = Self.row(Self.page(service, "p 1&x"))
        #expect(emptied.contains("<td data-label=\"Ledger\">0</td>"), "a SKU the ledger leaves out holds 0: \(emptied)")
        #expect(!emptied.contains("differs"))
    }

    @Test("a ledger that is down, answers garbage or is slow still leaves a page, within the bound, saying what to fix")
    func ledgerProblems() throws {
        // Nothing listens: a port just freed.
        let (descriptor, port) = try loopbackListener()
        close(descriptor)
        let garbage = try Ledger { _ in (200, "<html>not a ledger</html>") }
        defer { #expect(garbage.running.stop()) }
        let slowRelease = DispatchSemaphore(value: 0)
        let slow = try Ledger(hold: slowRelease) { _ in (200, #"{"balances": {}}"#) }
        defer {
            slowRelease.signal()
            #expect(slow.running.stop())
        }
        let cases = [
            ("http://127.0.0.1:\(port)/ledger", "nothing answers at the ledger"),
            (garbage.url, "answered without a &quot;balances&quot; object"),
            (slow.url, "--ledger-url"),
        ]
        for (url, words) in cases {
            let service = try Self.service(ledger: url)
            defer { service.finish() }
            _ = try Self.paid(service)
            let start = ContinuousClock.now
            let page = Self.page(service)
            #expect(ContinuousClock.now - start < .seconds(6), "\(url): within 2 s to connect and 2 s to answer")
            #expect(page.status == 200)
            #expect(page.body.contains("<p class=\"ledger-problem\">The ledger could not be read: "), "\(url)")
            #expect(page.body.contains(words), "\(url): \(page.body)")
            #expect(Self.row(page).contains("<td data-label=\"Books\">100</td>"))
            #expect(!page.body.contains("data-label=\"Ledger\""))
        }
    }

    @Test("the books are those of the moment the page was asked for; past 4 readings at once the page says it is busy")
    func snapshotAndBusy() throws {
        let release = DispatchSemaphore(value: 0)
        let ledger = try Ledger(hold: release) { _ in (200, #"{"balances": {"gem_01": 100}}"#) }
        defer {
            for _ in 0..<8 { release.signal() }
            #expect(ledger.running.stop())
        }
        let service = try Self.service(ledger: ledger.url)
        defer { service.finish() }
        let purchaseId = try Self.paid(service)
        let request = HTTPRequest(
            method: .get, path: "/players/cust_1", query: "", headers: [], body: [], keepAlive: true)
        var waiting: [HTTPPromise] = []
        for _ in 0..<SandboxLedger.limit {
            guard case .awaited(let promise) = service.respond(to: service.prepare(request)) else {
                Issue.record("with a ledger the page awaits its reading")
                return
            }
            waiting.append(promise)
        }
        // Asked before the refund, answered after it: the books as they were asked for.
        #expect(Service.control(service, "/control/v1/sessions/\(purchaseId)/refund", "{}").status == 200)
        let busy = Self.page(service)
        #expect(busy.status == 200)
        #expect(busy.body.contains("readings of the ledger are under way already"), "\(busy.body)")
        #expect(Self.row(busy).contains("<td data-label=\"Books\">0</td>"))
        for _ in 0..<8 { release.signal() }
        for promise in waiting {
            let answer = try #require(promise.wait(milliseconds: 6000))
            let body = String(decoding: answer.body, as: UTF8.self)
            #expect(answer.status == 200)
            #expect(answer.headers.contains { $0 == HTTPHeader("X-Frame-Options", "DENY") })
            let row = Self.row(Service.Answer(status: answer.status, headers: answer.headers, body: body))
            #expect(row.contains("<td data-label=\"Books\">100</td>"), "\(row)")
        }
    }

    @Test("a hostile player id is escaped and wraps; a player without orders is a helpful 404")
    func hostileAndUnknown() throws {
        let service = try Self.service()
        defer { service.finish() }
        let hostile = #"<script>alert(1)</script>\"'"#
        _ = try Self.paid(service, player: hostile)
        let page = Self.page(service, #"<script>alert(1)</script>"'"#)
        #expect(page.status == 200, "\(page.body)")
        #expect(!page.body.contains("<script>alert"))
        #expect(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;"))
        #expect(page.body.contains("class=\"player-id mono\""))

        let missing = Self.page(service, "nobody<b>")
        #expect(missing.status == 404)
        #expect(missing.header("Content-Type") == "text/html; charset=utf-8")
        #expect(missing.body.contains("nobody&lt;b&gt;"))
        #expect(missing.body.contains("customer.id"))
        #expect(missing.body.contains("href=\"/\""))
        #expect(Service.send(service, .get, "/players/%zz").status == 404)
    }

    @Test("items whose quantities add up past Int's range show its end, and the sandbox goes on serving")
    func hugeQuantities() throws {
        let service = try Self.service()
        defer { service.finish() }
        let body = Service.session.replacingOccurrences(of: "\"cust_98765\"", with: "\"cust_big\"")
        let huge = body.replacingOccurrences(
            of: #""items": ["#,
            with: #""items": [{"name": "Gems", "sku": "gem_01", "quantity": 5000000000000000000}, "#
                + #"{"name": "Gems", "sku": "gem_01", "quantity": 5000000000000000000}, "#)
        #expect(huge != body, "the session's items were replaced")
        let created = Service.send(
            service, .post, "/checkout/v1/session", body: huge,
            headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1")])
        #expect(created.status == 201, "\(created.body)")
        let purchaseId = try #require(try created.json()["purchaseId"] as? String)
        _ = Service.control(service, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pay"}"#)
        #expect(try Service.tick(service) { try Service.state(service, purchaseId) != "charge_pending" })
        let page = Self.page(service, "cust_big")
        #expect(page.status == 200)
        #expect(Self.row(page).contains(String(Int.max)), "\(Self.row(page))")
        #expect(Service.send(service, .get, "/control/v1/health").status == 200)
    }
}
