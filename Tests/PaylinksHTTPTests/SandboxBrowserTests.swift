import Foundation
import PaylinksAppcharge
import PaylinksKit
import Testing

@testable import PaylinksHTTP

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

    /// A sandbox on a free loopback port with one paid order and its award's delivery.
    final class Served: @unchecked Sendable {
        let sandbox: Sandbox
        let running: HTTPServerTests.Running
        let purchaseId: String
        var port: Int { running.port }

        init(configure: (inout Sandbox.Settings) -> Void = { _ in }) throws {
            var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: token, seed: 7)
            configure(&settings)
            let sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { 1_718_182_312_000 })
            let created = sandbox.handle(
                HTTPRequest(
                    method: .post, path: "/checkout/v1/session", query: "",
                    headers: [
                        HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", token),
                    ],
                    body: Array(SandboxBrowserTests.body.utf8), keepAlive: true))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])
            purchaseId = try #require(json["purchaseId"] as? String)
            var attempt = DeliveryAttempt(
                number: 1, sentAfter: 0,
                headers: [
                    ("Content-Type", "application/json"), ("x-publisher-token", token), ("signature", "t=1,v1=ab"),
                ])
            attempt.judge(status: 200, body: Array(#"{"publisherPurchaseId":"grant_1"}"#.utf8))
            sandbox.delivered(
                .award, purchaseId: purchaseId, name: "award", url: "http://127.0.0.1:8080/award",
                body: Array("{}".utf8), attempts: [attempt])
            self.sandbox = sandbox
            let box = Box(sandbox)
            running = try HTTPServerTests.Running(limits: HTTPServer.Limits()) { request in box.sandbox.handle(request)
            }
        }

        /// Sends `head` (the request line and headers, without the blank line) and `body`
        /// on a connection of its own; the whole answer, status line first.
        func send(_ head: String, body: String = "") throws -> Answer {
            let client = try HTTPServerTests.Client(port: port)
            let length = body.isEmpty ? "" : "Content-Length: \(body.utf8.count)\r\n"
            client.send(head + "\r\n" + length + "Connection: close\r\n\r\n" + body)
            var text = ""
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                let chunk = client.read(within: 1000)
                if chunk.isEmpty { break }
                text += chunk
            }
            return Answer(text)
        }

        deinit { _ = running.stop() }
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
            "evil.example/<script>",
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
            "pay.example.com", nil,
        ] as [String?])
    func servedHosts(host: String?) throws {
        let served = try Served { settings in
            settings.allowedHosts = ["Sandbox.Local"]
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

    @Test("the journal and a replay keep the real publisher token")
    func tokenKept() throws {
        let served = try Served()
        var kept: [DeliveryHistory.Delivery] = []
        var replayed: [DeliveryHistory.Delivery] = []
        served.sandbox.persist = { _, deliveries in
            kept += deliveries
            return nil
        }
        served.sandbox.onReplay = { delivery, _ in replayed.append(delivery) }
        let replay = served.sandbox.handle(
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
}
