import ContractChecks
import Foundation
import PaylinksAppcharge
import PaylinksKit
import Testing

@testable import PaylinksHTTP
@testable import PaylinksSandbox

/// What a web page the developer opens can do to a sandbox on their machine, over real
/// sockets: a sandbox on an `HTTPServer` on loopback, and raw requests that name the
/// `Host` and `Origin` a browser would send.
@Suite("The sandbox and the browser")
struct SandboxBrowserTests {
    /// The studio's publisher token, which no page may read.
    static let token = "studio-publisher-token-0123456789"
    /// A session's body, as the game's server sends it.
    static let body = #"""
        {"priceDetails": {"price": 499, "currency": "USD"},
         "offer": {"name": "Starter Pack", "sku": "starter_pack_001", "pricePointMetadata": 499},
         "customer": {"id": "cust_98765"}, "countryCode2": "US"}
        """#

    /// A sandbox on a free loopback port: an order whose award failed on every attempt
    /// (`charge_failed`, so that it can be refunded, disputed and its award retried), the
    /// award's delivery `dl_1`, and a fresh session nobody has paid yet.
    final class Served: @unchecked Sendable {
        let sandbox: Sandbox
        let running: HTTPServerTests.Running
        let purchaseId: String
        let orderId: String
        let fresh: (token: String, purchaseId: String)
        /// What the sandbox asked to send the game's server since it was set up: awards
        /// and replays.
        let sends = Counter()
        var port: Int { running.port }
        var formToken: String { sandbox.settings.formToken }

        init(configure: (inout Sandbox.Settings) -> Void = { _ in }) throws {
            var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: token, seed: 7)
            configure(&settings)
            let sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { 1_718_182_312_000 })
            func call(_ path: String, _ body: String) throws -> [String: Any] {
                let answer = sandbox.handleChecked(
                    HTTPRequest(
                        method: .post, path: path, query: "",
                        headers: [
                            HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", token),
                        ],
                        body: Array(body.utf8), keepAlive: true))
                return try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
            }
            sandbox.onPaid = { _, _ in }
            purchaseId = try #require(
                try call("/checkout/v1/session", SandboxBrowserTests.body)["purchaseId"] as? String)
            orderId = try #require(
                try call("/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pay"}"#)["orderId"] as? String)
            sandbox.awardDelivered(purchaseId: purchaseId, failureData: #"{"awardAttempts":3}"#)
            var attempt = DeliveryAttempt(
                number: 1, sentAfter: 0,
                headers: [
                    ("Content-Type", "application/json"), ("x-publisher-token", token), ("signature", "t=1,v1=ab"),
                ])
            attempt.judge(status: 500, body: Array("{}".utf8))
            sandbox.delivered(
                .award, purchaseId: purchaseId, name: "award", url: "http://127.0.0.1:8080/award",
                body: Array("{}".utf8), attempts: [attempt])
            let created = try call("/checkout/v1/session", SandboxBrowserTests.body)
            fresh = (
                try #require(created["checkoutSessionToken"] as? String), try #require(created["purchaseId"] as? String)
            )
            let sends = self.sends
            sandbox.onPaid = { _, _ in sends.add() }
            sandbox.onReplay = { _, _ in sends.add() }
            self.sandbox = sandbox
            let box = Box(sandbox)
            running = try HTTPServerTests.Running(
                limits: HTTPServer.Limits(), handle: { request in box.sandbox.handle(request) },
                refusal: Sandbox.answer(to:))
        }

        /// The state of a session, as the control API answers it.
        func state(_ purchaseId: String) throws -> String? {
            let answer = try send("GET /control/v1/sessions/\(purchaseId) HTTP/1.1\r\nHost: 127.0.0.1:\(port)")
            return try (JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])?["state"]
                as? String
        }

        /// Sends `head` (the request line and headers, without the blank line) and `body`
        /// on a connection of its own; the whole answer, status line first.
        func send(_ head: String, body: String = "") throws -> Answer {
            let client = try HTTPServerTests.Client(port: port)
            let length = body.isEmpty ? "" : "Content-Length: \(body.utf8.count)\r\n"
            let request = head + "\r\n" + length + "Connection: close\r\n\r\n" + body
            client.send(request)
            var text = ""
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                let chunk = client.read(within: 1000)
                if chunk.isEmpty { break }
                text += chunk
            }
            checkContract(request: request, answer: text)
            return Answer(text)
        }

        deinit { _ = running.stop() }
    }

    /// A count that the server's thread adds to and the test reads.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        /// Adds one.
        func add() { lock.withLock { count += 1 } }
        /// The count now.
        var value: Int { lock.withLock { count } }
    }

    /// The sandbox, for the server's thread: the server calls its handler one request at a
    /// time, as `serve` runs it.
    final class Box: @unchecked Sendable {
        let sandbox: Sandbox
        init(_ sandbox: Sandbox) { self.sandbox = sandbox }
    }

    /// An answer as it came over the socket.
    struct Answer {
        let text: String
        init(_ text: String) { self.text = text }
        /// The status code of the status line.
        var status: Int? { Int(text.split(separator: " ").dropFirst().first ?? "") }
        /// The first header named `name`.
        func header(_ name: String) -> String? {
            let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
            return head.components(separatedBy: "\r\n").dropFirst().first {
                $0.lowercased().hasPrefix(name.lowercased() + ":")
            }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
        /// What follows the head.
        var body: String { text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n") }
    }

    // MARK: DNS rebinding

    @Test(
        "a Host that names the sandbox by a name it does not serve gets 421, a page or a problem, without the token",
        arguments: [
            "rebind.evil.example:PORT", "127.0.0.1.evil.example:PORT", "LOCALHOST.evil.example", "a:b:c",
            "evil.example/<script>", "localhost.evil.example.", "notexample.com", "example.com.evil.example",
        ])
    func rebinding(host: String) throws {
        let served = try Served()
        let host = host.replacingOccurrences(of: "PORT", with: String(served.port))
        for path in ["/control/v1/deliveries", "/control/v1/deliveries/dl_1", "/orders/\(served.purchaseId)", "/"] {
            let answer = try served.send("GET \(path) HTTP/1.1\r\nHost: \(host)")
            #expect(answer.status == 421, "\(path): \(answer.text.prefix(200))")
            #expect(!answer.text.contains(Self.token.prefix(8)), "\(path)")
            let isPage = !path.hasPrefix("/control")
            #expect(answer.header("Content-Type")?.hasPrefix(isPage ? "text/html" : "application/json") == true)
            #expect(answer.body.contains("--allowed-host"), "\(path): the answer says how to serve the name")
        }
    }

    @Test(
        "the sandbox answers to its addresses, localhost, the --public-url host, each --allowed-host, and no Host",
        arguments: [
            "127.0.0.1:PORT", "localhost:PORT", "LocalHost", "[::1]:PORT", "192.168.1.20:PORT", "sandbox.local:PORT",
            "pay.example.com", nil, "localhost.:PORT", "app.localhost:PORT", "game_server:PORT", "example.com",
            "api.example.com:PORT",
        ] as [String?])
    func servedHosts(host: String?) throws {
        let served = try Served { settings in
            settings.allowedHosts = ["Sandbox.Local", "game_server", ".example.com"]
            settings.publicURL = "https://pay.example.com/sandbox"
        }
        let host = host?.replacingOccurrences(of: "PORT", with: String(served.port))
        // HTTP/1.0 names no Host at all.
        let head =
            host.map { "GET /control/v1/deliveries HTTP/1.1\r\nHost: \($0)" } ?? "GET /control/v1/deliveries HTTP/1.0"
        let answer = try served.send(head)
        #expect(answer.status == 200, "\(answer.text.prefix(300))")
        #expect(answer.body.contains(#""id":"dl_1""#))
    }

    @Test("a second Host header that names another site is refused as the first would be")
    func secondHost() throws {
        let served = try Served()
        let answer = try served.send(
            "GET /control/v1/deliveries HTTP/1.1\r\nHost: 127.0.0.1:\(served.port)\r\nHost: rebind.evil.example")
        #expect(answer.status == 421 || answer.status == 400, "\(answer.text.prefix(200))")
        #expect(!answer.text.contains(Self.token.prefix(8)))
    }

    // MARK: The publisher token

    @Test("the delivery history's listing, a delivery and the order's page show the publisher token masked")
    func tokenMasked() throws {
        let served = try Served()
        let host = "127.0.0.1:\(served.port)"
        for path in ["/control/v1/deliveries", "/control/v1/deliveries/dl_1", "/orders/\(served.purchaseId)"] {
            let answer = try served.send("GET \(path) HTTP/1.1\r\nHost: \(host)")
            #expect(answer.status == 200, "\(path)")
            #expect(!answer.text.contains(Self.token.prefix(8)), "\(path): \(answer.body.prefix(600))")
            #expect(
                answer.body.contains(
                    path.hasPrefix("/orders") ? "x-publisher-token: stud…" : #""x-publisher-token","stud…""#), "\(path)"
            )
        }
    }

    @Test("a token shorter than 16 characters is shown as … alone")
    func shortTokenMasked() {
        #expect(Sandbox.masked("token-1") == "…")
        #expect(Sandbox.masked(Self.token) == "stud…")
    }

    @Test("a name is cut at its limit in characters, not bytes, and marked … only when cut")
    func namesCutByCharacters() {
        let accented = String(repeating: "é", count: SandboxPage.nameLimit)
        #expect(SandboxPage.shortened(accented) == accented)
        #expect(SandboxPage.shortened(accented + "é") == accented + "…")
        #expect(SandboxPage.shortened("/orders/日本", to: 9) == "/orders/日…")
        #expect(SandboxPage.shortened("short", to: 5) == "short")
    }

    @Test("the journal and a replay keep the real publisher token")
    func tokenKept() throws {
        let served = try Served()
        var kept: [DeliveryHistory.Delivery] = []
        var replayed: [DeliveryHistory.Delivery] = []
        served.sandbox.persist = { changed in
            kept += changed.deliveries
            return nil
        }
        served.sandbox.onReplay = { delivery, _ in replayed.append(delivery) }
        let replay = served.sandbox.handleChecked(
            HTTPRequest(
                method: .post, path: "/control/v1/deliveries/dl_1/replay", query: "",
                headers: [HTTPHeader("Content-Type", "application/json")], body: Array(#"{"resign": false}"#.utf8),
                keepAlive: true))
        #expect(replay.status == 202)
        let sent = try #require(replayed.first?.attempts.first?.headers)
        #expect(sent.contains { $0.name == "x-publisher-token" && $0.value == Self.token })
        served.sandbox.delivered(
            .award, purchaseId: served.purchaseId, name: "award", url: "http://127.0.0.1:8080/award",
            body: Array("{}".utf8), attempts: replayed[0].attempts, replayOf: 1, resigned: false)
        let journal = String(decoding: try #require(kept.first).json, as: UTF8.self)
        #expect(journal.contains(#"["x-publisher-token","\#(Self.token)"]"#), "\(journal)")
    }

    // MARK: Cross-site requests

    /// A state change a page could send: its path (`ID`, `ORDER`, `TOKEN` and `FRESH`
    /// stand for the order's purchase id, its order id, the fresh session's token and
    /// purchase id), the `Content-Type` a form or a fetch without a preflight sends, and
    /// the body.
    struct Change: CustomTestStringConvertible, Sendable {
        let path: String
        let type: String?
        let body: String
        var testDescription: String { "POST \(path)" }

        init(_ path: String, _ type: String?, _ body: String = "") {
            self.path = path
            self.type = type
            self.body = body
        }

        /// The request with `served`'s ids and `extra` headers; a form carries the real
        /// token (with `token`), so that only what else the request says can refuse it.
        func head(_ served: Served, extra: [String] = [], token: Bool = true) -> (head: String, body: String) {
            let path = path.replacingOccurrences(of: "FRESH", with: served.fresh.purchaseId)
                .replacingOccurrences(of: "TOKEN", with: served.fresh.token)
                .replacingOccurrences(of: "ORDER", with: served.orderId)
                .replacingOccurrences(of: "ID", with: served.purchaseId)
            var body = self.body
            if token, type == "application/x-www-form-urlencoded" {
                body += (body.isEmpty ? "" : "&") + "formToken=\(served.formToken)"
            }
            let lines =
                ["POST \(path) HTTP/1.1", "Host: 127.0.0.1:\(served.port)"]
                + (type.map { ["Content-Type: \($0)"] } ?? []) + extra
            return (lines.joined(separator: "\r\n"), body)
        }
    }

    static let form = "application/x-www-form-urlencoded"

    /// Every route that changes the sandbox, as a page's form or fetch would reach it.
    static let changes: [Change] = [
        Change("/orders/ID/refund", form, "outcome=refunded"),
        Change("/orders/ID/dispute", "text/plain", "outcome=open"),
        Change("/orders/ID/retry-award", form),
        Change("/deliveries/dl_1/replay", form, "resign=true"),
        Change("/checkout/TOKEN", form, "choice=pay&paymentMethod=Visa"),
        Change("/checkout/TOKEN", form, "resolve=succeeded&minutes=5&paymentMethod=Visa"),
        Change("/clock", form, "advance=PT15M"),
        Change("/control/v1/sessions/ID/refund", "text/plain", #"{"outcome": "refunded"}"#),
        Change("/control/v1/sessions/ID/dispute", "text/plain", #"{"outcome": "open"}"#),
        Change("/control/v1/sessions/ID/retry-award", nil),
        Change("/control/v1/deliveries/dl_1/replay", nil),
        Change("/control/v1/sessions/FRESH/complete", "text/plain", #"{"choice": "pay"}"#),
        Change("/checkout/v3/cancel", nil),
        Change("/checkout/api/v1/order/ORDER/refund", nil),
        Change("/checkout/v1/session", "text/plain", body),
    ]

    /// What names a page of another site: its Origin, `null` (a sandboxed frame, a file),
    /// a Referer without an Origin, the sandbox's own host at another port, another
    /// machine's address at the sandbox's port.
    static let foreignSources = [
        "Origin: http://evil.example", "Origin: null", "Referer: http://evil.example/attack.html",
        "Origin: http://127.0.0.1:1", "Origin: http://10.0.0.9:PORT", "Origin: https://127.0.0.1:PORT",
    ]

    @Test("a state change from a page of another site is refused with 403, and nothing is sent", arguments: changes)
    func crossSite(change: Change) throws {
        let served = try Served()
        for source in Self.foreignSources {
            // The right content type for the control API: only the source can refuse it.
            let type = change.path.hasPrefix("/control") ? "application/json" : change.type
            let request = Change(change.path, type, change.body).head(
                served, extra: [source.replacingOccurrences(of: "PORT", with: String(served.port))])
            let answer = try served.send(request.head, body: request.body)
            #expect(answer.status == 403, "\(source): \(answer.text.prefix(300))")
        }
        #expect(served.sends.value == 0, "nothing goes to the game's server")
        #expect(try served.state(served.purchaseId) == "charge_failed")
        #expect(try served.state(served.fresh.purchaseId) == "created")
    }

    @Test(
        "the sandbox's own pages change it: the origin it was reached at, localhost, --public-url, and none at all",
        arguments: [
            ("127.0.0.1:PORT", "Origin: http://127.0.0.1:PORT"), ("127.0.0.1:PORT", "Origin: http://localhost:PORT"),
            ("[::1]:PORT", "Origin: http://[::1]:PORT"), ("sandbox.local:PORT", "Origin: http://sandbox.local:PORT"),
            ("127.0.0.1:PORT", "Referer: http://127.0.0.1:PORT/orders/x"),
            ("127.0.0.1:PORT", "Origin: https://pay.example.com"), ("127.0.0.1:PORT", nil),
        ] as [(String, String?)])
    func ownPages(host: String, source: String?) throws {
        let served = try Served { settings in
            settings.allowedHosts = ["sandbox.local"]
            settings.publicURL = "https://pay.example.com/sandbox"
        }
        let port = String(served.port)
        var lines = ["Host: \(host.replacingOccurrences(of: "PORT", with: port))"]
        if let source { lines.append(source.replacingOccurrences(of: "PORT", with: port)) }
        let refund = try served.send(
            "POST /orders/\(served.purchaseId)/refund HTTP/1.1\r\n\(lines.joined(separator: "\r\n"))\r\n"
                + "Content-Type: \(Self.form)",
            body: "outcome=refunded&formToken=\(served.formToken)")
        #expect(refund.status == 303, "\(refund.text.prefix(300))")
        #expect(try served.state(served.purchaseId) == "payment_refunded")
        let replay = try served.send(
            "POST /control/v1/deliveries/dl_1/replay HTTP/1.1\r\n\(lines.joined(separator: "\r\n"))\r\n"
                + "Content-Type: application/json")
        #expect(replay.status == 202, "\(replay.text.prefix(300))")
        #expect(served.sends.value == 1)
    }

    @Test(
        "a form sent without the sandbox's token, or with another run's, is refused with 403 and a page that says why",
        arguments: [
            "/orders/ID/refund", "/orders/ID/retry-award", "/orders/ID/resolve", "/deliveries/dl_1/replay",
            "/checkout/TOKEN", "/clock",
        ])
    func formToken(path: String) throws {
        let served = try Served()
        let change = Change(path, Self.form, path.hasPrefix("/checkout") ? "choice=pay" : "outcome=refunded")
        let other = Sandbox.newFormToken()
        #expect(other != served.formToken && other.count == 32)
        for (token, source) in [
            ("", nil), ("formToken=\(other)", nil), ("formToken=", "Origin: http://127.0.0.1:PORT"),
            ("formToken=\(served.formToken.dropLast())", nil),
        ] as [(String, String?)] {
            var request = change.head(
                served, extra: source.map { [$0.replacingOccurrences(of: "PORT", with: String(served.port))] } ?? [],
                token: false)
            request.body += token.isEmpty ? "" : "&" + token
            let answer = try served.send(request.head, body: request.body)
            #expect(answer.status == 403, "\(token): \(answer.text.prefix(300))")
            #expect(answer.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(answer.body.contains("Reload the page"))
        }
        #expect(served.sends.value == 0)
        #expect(try served.state(served.purchaseId) == "charge_failed")
        #expect(try served.state(served.fresh.purchaseId) == "created")
    }

    @Test(
        "the control API's changes take application/json only, an empty body too; anything else is 415",
        arguments: [nil, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
    func jsonOnly(type: String?) throws {
        let served = try Served()
        for path in [
            "/control/v1/sessions/ID/retry-award", "/control/v1/deliveries/dl_1/replay",
            "/control/v1/sessions/ID/refund", "/control/v1/sessions/FRESH/complete",
        ] {
            let request = Change(path, type, path.hasSuffix("complete") ? #"{"choice": "pay"}"# : "").head(served)
            let answer = try served.send(request.head, body: request.body)
            #expect(answer.status == 415, "\(path): \(answer.text.prefix(300))")
        }
        #expect(served.sends.value == 0)
        #expect(try served.state(served.fresh.purchaseId) == "created")
        let retry = Change("/control/v1/sessions/ID/retry-award", "application/json").head(served)
        #expect(try served.send(retry.head).status == 202)
        #expect(served.sends.value == 1)
    }

    @Test("the game's server calls Appcharge's API as it does Appcharge's: no Origin, its credentials in a header")
    func gameServer() throws {
        let served = try Served()
        let host = "Host: 127.0.0.1:\(served.port)"
        let cancel = try served.send(
            "POST /checkout/v3/cancel HTTP/1.1\r\n\(host)\r\nAuthorization: Bearer \(served.fresh.token)")
        #expect(cancel.status == 200, "\(cancel.text.prefix(300))")
        let refund = try served.send(
            "POST /checkout/api/v1/order/\(served.orderId)/refund HTTP/1.1\r\n\(host)\r\n"
                + "x-publisher-token: \(Self.token)\r\nx-user-id: support-1")
        #expect(refund.status == 201, "\(refund.text.prefix(300))")
        let report = try served.send(
            "POST /reporting/reports/orders HTTP/1.1\r\n\(host)\r\nx-publisher-token: \(Self.token)\r\n"
                + "Content-Type: application/json",
            body: #"{"startDate": "2024-06-12", "endDate": "2024-06-12"}"#)
        #expect(report.status == 200, "\(report.text.prefix(300))")
    }

    @Test("pages may not be framed: every HTML answer says so, a refusal's too; JSON needs not")
    func frames() throws {
        let served = try Served()
        let host = "Host: 127.0.0.1:\(served.port)"
        for head in [
            "GET / HTTP/1.1\r\n\(host)", "GET /orders/\(served.purchaseId) HTTP/1.1\r\n\(host)",
            "GET /checkout/\(served.fresh.token) HTTP/1.1\r\n\(host)", "GET /orders/pr_none HTTP/1.1\r\n\(host)",
            "GET / HTTP/1.1\r\nHost: rebind.evil.example", "HEAD / HTTP/1.1\r\n\(host)",
        ] {
            let answer = try served.send(head)
            #expect(answer.header("X-Frame-Options") == "DENY", "\(head)")
            let policy = answer.header("Content-Security-Policy") ?? ""
            #expect(policy.hasSuffix("frame-ancestors 'none'") && policy.hasPrefix("default-src 'none';"), "\(head)")
        }
        let json = try served.send("GET /control/v1/deliveries HTTP/1.1\r\n\(host)")
        #expect(json.status == 200 && json.header("X-Frame-Options") == nil)
    }

    @Test("the pages' forms carry the token, and a tester's click through them works")
    func formsCarryTheToken() throws {
        let served = try Served()
        let host = "Host: 127.0.0.1:\(served.port)"
        let order = try served.send("GET /orders/\(served.purchaseId) HTTP/1.1\r\n\(host)").body
        let field = #"<input type="hidden" name="formToken" value="\#(served.formToken)">"#
        #expect(order.components(separatedBy: "<form ").count - 1 == 4)
        #expect(order.components(separatedBy: field).count - 1 == 4, "each of the page's four forms")
        let checkout = try served.send("GET /checkout/\(served.fresh.token) HTTP/1.1\r\n\(host)").body
        #expect(checkout.contains(field))
        let paid = try served.send(
            "POST /checkout/\(served.fresh.token) HTTP/1.1\r\n\(host)\r\nOrigin: http://127.0.0.1:\(served.port)\r\n"
                + "Content-Type: \(Self.form)",
            body: "formToken=\(served.formToken)&paymentMethod=Visa&choice=pay")
        #expect(paid.status == 303)
        #expect(served.sends.value == 1, "the award goes out")
    }
}
