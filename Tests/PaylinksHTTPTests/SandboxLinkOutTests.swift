import ContractChecks
import Foundation
import PaylinksJSON
import PaylinksKit
import Testing

@testable import PaylinksAppcharge
@testable import PaylinksHTTP
@testable import PaylinksSandbox

/// Link Out in the sandbox: a session created with a `redirectUrl` sends the browser back
/// to the game with `status=success|fail|cancel` once its checkout ended, over a real
/// socket; what a session without one does stays as it was.
@Suite("The sandbox's Link Out")
struct SandboxLinkOutTests {
    static let token = "studio-publisher-token-0123456789"
    /// Where the game wants the browser back: a query and a fragment of its own.
    static let redirectUrl = "https://game.example/return?from=checkout#top"

    /// A session's body, with `redirectUrl` when given, as JSON text.
    static func body(redirectUrl: String?) -> String {
        var members = [
            #""priceDetails": {"price": 499, "currency": "USD"}"#,
            #""offer": {"name": "Starter Pack", "sku": "starter_pack_001", "pricePointMetadata": 499}"#,
            #""customer": {"id": "cust_98765"}"#, #""countryCode2": "US""#,
        ]
        if let redirectUrl {
            var writer = JSONWriter()
            writer.string(redirectUrl)
            members.append(#""redirectUrl": "# + String(decoding: writer.bytes, as: UTF8.self))
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A sandbox on a loopback port whose awards wait until the test delivers them.
    final class Served: @unchecked Sendable {
        let sandbox: Sandbox
        let running: HTTPServerTests.Running
        var port: Int { running.port }
        var host: String { "Host: 127.0.0.1:\(port)" }

        init(configure: (inout Sandbox.Settings) -> Void = { _ in }) throws {
            var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: token, seed: 7)
            configure(&settings)
            let sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { 1_718_182_312_000 })
            // The award waits for ``SandboxLinkOutTests/Served/deliver(_:failure:)``.
            sandbox.onPaid = { _, _ in }
            self.sandbox = sandbox
            let box = SandboxBrowserTests.Box(sandbox)
            running = try HTTPServerTests.Running(
                limits: HTTPServer.Limits(), handle: { request in box.sandbox.handle(request) },
                refusal: Sandbox.answer(to:))
        }

        /// Create Checkout Session with `redirectUrl`, in process: its answer.
        func create(redirectUrl: String?) -> HTTPServerResponse {
            sandbox.handleChecked(
                HTTPRequest(
                    method: .post, path: "/checkout/v1/session", query: "",
                    headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", token)],
                    body: Array(SandboxLinkOutTests.body(redirectUrl: redirectUrl).utf8), keepAlive: true))
        }

        /// A session created with `redirectUrl`: its token and purchase id.
        func session(redirectUrl: String?) throws -> (token: String, purchaseId: String) {
            let created = try SandboxLinkOutTests.json(create(redirectUrl: redirectUrl).body)
            return (
                try #require(created["checkoutSessionToken"] as? String),
                try #require(created["purchaseId"] as? String)
            )
        }

        /// The player's choice on the checkout page, as the browser sends the form.
        func choose(_ token: String, _ choice: String) throws -> SandboxBrowserTests.Answer {
            try send(
                "POST /checkout/\(token) HTTP/1.1\r\n\(host)\r\nOrigin: http://127.0.0.1:\(port)\r\n"
                    + "Content-Type: application/x-www-form-urlencoded",
                body: "formToken=\(sandbox.settings.formToken)&paymentMethod=Visa&choice=\(choice)")
        }

        /// `GET target` as a browser sends it.
        func get(_ target: String) throws -> SandboxBrowserTests.Answer {
            try send("GET \(target) HTTP/1.1\r\n\(host)")
        }

        /// The award of `purchaseId` came back: granted, or failed on every attempt.
        func deliver(_ purchaseId: String, failure: String?) {
            sandbox.awardDelivered(purchaseId: purchaseId, failureData: failure)
        }

        /// Sends `head` and `body` on a connection of its own; the whole answer.
        func send(_ head: String, body: String = "") throws -> SandboxBrowserTests.Answer {
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
            return SandboxBrowserTests.Answer(text)
        }

        deinit { _ = running.stop() }
    }

    static func json(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func json(_ text: String) throws -> [String: Any] { try json(Array(text.utf8)) }

    @Test(
        "the checkout's form sends the browser back with the order's status, once it ended",
        arguments: [
            ("pay", nil, "success"), ("pay", #"{"awardAttempts":3}"#, "fail"), ("decline", nil, "fail"),
            ("close", nil, "fail"), ("cancel", nil, "cancel"),
        ] as [(String, String?, String)])
    func statuses(choice: String, awardFailure: String?, status: String) throws {
        let served = try Served()
        let (token, purchaseId) = try served.session(redirectUrl: Self.redirectUrl)
        let chosen = try served.choose(token, choice)
        #expect(chosen.status == 303, "\(chosen.text.prefix(300))")
        #expect(chosen.header("Location") == "/checkout/\(token)")
        if choice == "pay" {
            // The award is under way: the page waits, and reloads itself every second.
            let waiting = try served.get("/checkout/\(token)")
            #expect(waiting.status == 200)
            #expect(waiting.body.contains("Finishing your purchase…"))
            #expect(waiting.body.contains(#"<meta http-equiv="refresh" content="1">"#))
            #expect(waiting.header("Location") == nil)
            served.deliver(purchaseId, failure: awardFailure)
        }
        let back = try served.get("/checkout/\(token)")
        #expect(back.status == 303, "\(back.text.prefix(300))")
        #expect(back.header("Location") == "https://game.example/return?from=checkout&status=\(status)#top")
        let state = try Self.json(try served.get("/control/v1/sessions/\(purchaseId)").body)
        #expect(state["redirect"] as? String == "https://game.example/return?from=checkout&status=\(status)#top")
    }

    @Test(
        "a Link Out checkout's form may end at the game's return address; another page's forms stay on the sandbox",
        arguments: [
            ("https://game.example/return?x=1", "form-action 'self' https://game.example;"),
            ("http://127.0.0.1:8080/back", "form-action 'self' http://127.0.0.1:8080;"),
            ("mygame://checkout", "form-action 'self' mygame:;"),
        ])
    func formAction(redirectUrl: String, directive: String) throws {
        let served = try Served()
        let (token, _) = try served.session(redirectUrl: redirectUrl)
        let policy = try #require(try served.get("/checkout/\(token)").header("Content-Security-Policy"))
        #expect(policy.contains(directive))
        #expect(policy.components(separatedBy: "form-action").count == 2)
        let (plain, _) = try served.session(redirectUrl: nil)
        #expect(
            try served.get("/checkout/\(plain)").header("Content-Security-Policy") == SandboxPage.contentSecurityPolicy)
    }

    @Test("a pending payment shows its page, then sends the browser back once it resolved")
    func pending() throws {
        let served = try Served()
        let (token, purchaseId) = try served.session(redirectUrl: "mygame://checkout/done")
        #expect(try served.choose(token, "pending").status == 303)
        let page = try served.get("/checkout/\(token)")
        #expect(page.status == 200)
        #expect(page.body.contains("Payment pending"))
        #expect(page.body.contains("the browser goes back to the game once it is resolved"))
        #expect(!page.body.contains("3004"), "a game without the SDK sees no 3004")
        let state = try Self.json(try served.get("/control/v1/sessions/\(purchaseId)").body)
        #expect(state["redirect"] == nil)
        let resolved = try served.send(
            "POST /control/v1/sessions/\(purchaseId)/resolve HTTP/1.1\r\n\(served.host)\r\n"
                + "Content-Type: application/json", body: #"{"outcome": "failed"}"#)
        #expect(resolved.status == 200, "\(resolved.text.prefix(300))")
        #expect(try served.get("/checkout/\(token)").header("Location") == "mygame://checkout/done?status=fail")
    }

    @Test("a session without a redirectUrl shows its result, and its state names no redirect")
    func withoutRedirectUrl() throws {
        let served = try Served()
        let (token, purchaseId) = try served.session(redirectUrl: nil)
        #expect(try served.choose(token, "pay").status == 303)
        served.deliver(purchaseId, failure: nil)
        let page = try served.get("/checkout/\(token)")
        #expect(page.status == 200)
        #expect(page.header("Location") == nil)
        #expect(page.body.contains("Payment complete"))
        let state = try Self.json(try served.get("/control/v1/sessions/\(purchaseId)").body)
        #expect(state["state"] as? String == "charge_succeed")
        #expect(state["redirect"] == nil)
    }

    @Test("the control API's complete takes cancel, tells it from close, and reports where the browser goes")
    func complete() throws {
        let served = try Served()
        for (choice, status) in [("cancel", "cancel"), ("close", "fail")] {
            let (_, purchaseId) = try served.session(redirectUrl: "https://game.example/return")
            let before = try Self.json(try served.get("/control/v1/sessions/\(purchaseId)").body)
            #expect(before["redirect"] == nil)
            let answer = try served.send(
                "POST /control/v1/sessions/\(purchaseId)/complete HTTP/1.1\r\n\(served.host)\r\n"
                    + "Content-Type: application/json", body: #"{"choice": "\#(choice)"}"#)
            #expect(answer.status == 200)
            let json = try Self.json(answer.body)
            #expect(json["state"] as? String == "payment_canceled")
            #expect(json["redirect"] as? String == "https://game.example/return?status=\(status)")
            let timeline = try served.get("/orders/\(purchaseId)").body
            #expect(
                timeline.contains(
                    choice == "cancel" ? "the player canceled the purchase: " : "the player closed the checkout: "))
        }
        let (_, purchaseId) = try served.session(redirectUrl: nil)
        let wrong = try served.send(
            "POST /control/v1/sessions/\(purchaseId)/complete HTTP/1.1\r\n\(served.host)\r\n"
                + "Content-Type: application/json", body: #"{"choice": "abort"}"#)
        #expect(wrong.status == 400)
        #expect(wrong.body.contains("is not one of pay, decline, pending, close, cancel"))
    }

    @Test("the checkout page offers both ways out, each in its own words; the client hears 3002 for both")
    func bothWaysOut() throws {
        let served = try Served()
        let (token, _) = try served.session(redirectUrl: nil)
        let page = try served.get("/checkout/\(token)").body
        #expect(page.contains(#"value="close">Close the window</button>"#))
        #expect(page.contains(#"value="cancel">Cancel purchase</button>"#))
        var callbacks: [Callback] = []
        let sandbox = Sandbox(
            catalog: .builtIn,
            settings: Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: Self.token, seed: 7),
            clock: { 1_718_182_312_000 })
        sandbox.onCallback = { callbacks.append($0) }
        for choice in ["close", "cancel"] {
            let created = sandbox.handleChecked(
                HTTPRequest(
                    method: .post, path: "/checkout/v1/session", query: "",
                    headers: [
                        HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", Self.token),
                    ],
                    body: Array(Self.body(redirectUrl: nil).utf8), keepAlive: true))
            let purchaseId = try #require(try Self.json(created.body)["purchaseId"] as? String)
            _ = sandbox.handleChecked(
                HTTPRequest(
                    method: .post, path: "/control/v1/sessions/\(purchaseId)/complete", query: "",
                    headers: [HTTPHeader("Content-Type", "application/json")],
                    body: Array(#"{"choice": "\#(choice)"}"#.utf8), keepAlive: true))
        }
        #expect(callbacks.map(\.name) == [.onPurchaseFailed, .onPurchaseFailed])
        #expect(callbacks.map { $0.error?.code } == [3002, 3002])
    }

    @Test(
        "a redirectUrl the browser should not be sent to is refused when the session is created",
        arguments: [
            "https://game.example/return\r\nSet-Cookie: a=b", "https://game.example/a b", "https://game.example/\u{7}",
            "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>",
            "/return", "game.example/return", "https://", "https:///return", "mygame:", "",
            "https://game.example/" + String(repeating: "a", count: 2048),
        ])
    func hostile(redirectUrl: String) throws {
        let served = try Served()
        let answer = served.create(redirectUrl: redirectUrl)
        #expect(answer.status == 400)
        let message = try #require(try Self.json(answer.body)["errorMessage"] as? String)
        #expect(message.hasPrefix("redirectUrl"))
        #expect(!message.contains("\r") && !message.contains("\n"))
        #expect(served.sandbox.sessions.count == 0)
    }

    @Test(
        "a redirectUrl with a scheme and what follows it is taken as sent",
        arguments: [
            "https://game.example/return?x=1&y=%20#frag", "http://127.0.0.1:8080/back", "mygame://checkout",
            "com.studio.game:/oauth/return",
        ])
    func taken(redirectUrl: String) throws {
        let served = try Served()
        #expect(served.create(redirectUrl: redirectUrl).status == 201)
        #expect(served.sandbox.sessions.all.first?.redirectUrl == redirectUrl)
    }

    @Test("the legacy link with the game's CheckoutPublicKey serves the checkout page")
    func legacyLink() throws {
        let served = try Served()
        let (token, _) = try served.session(redirectUrl: nil)
        let page = try served.get("/\(token)?cot=pk_sandbox_paylinks_demo")
        #expect(page.status == 200)
        #expect(page.body == (try served.get("/checkout/\(token)")).body)
        #expect(page.body.contains(#"action="/checkout/\#(token)""#))
        let custom = try Served { $0.checkoutPublicKey = "pk_live_studio" }
        let (other, _) = try custom.session(redirectUrl: nil)
        #expect(try custom.get("/\(other)?cot=pk_live_studio").status == 200)
        #expect(try custom.get("/\(other)?cot=pk_sandbox_paylinks_demo").status == 400)
    }

    @Test(
        "the legacy link without cot, or with another key, says the checkout does not load and how to fix the link",
        arguments: ["", "?cot=", "?cot=pk_other", "?other=pk_sandbox_paylinks_demo"])
    func legacyLinkRefused(query: String) throws {
        let served = try Served()
        let (token, _) = try served.session(redirectUrl: nil)
        let page = try served.get("/\(token)\(query)")
        #expect(page.status == 400)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.body.contains("The checkout does not load"))
        #expect(page.body.contains("CheckoutPublicKey"))
        #expect(page.body.contains("--checkout-public-key"))
        #expect(page.body.contains(#"<a href="/checkout/\#(token)">"#))
    }

    @Test("a single segment that is no session's token is nothing, whatever the method")
    func unknownSegment() throws {
        let served = try Served()
        for method in ["GET", "HEAD", "POST", "DELETE"] {
            let answer = try served.send("\(method) /nowhere?cot=pk_sandbox_paylinks_demo HTTP/1.1\r\n\(served.host)")
            #expect(answer.status == 404, "\(method)")
        }
        let answer = try served.get("/nowhere")
        #expect(
            try Self.json(answer.body)["errorMessage"] as? String
                == #"nothing at /nowhere; see the README's "A local sandbox""#)
        // The paths before it keep their own answers.
        #expect(try served.get("/").status == 200)
        #expect(try served.get("/clock").status == 405)
    }

    @Test("a record keeps whether the player canceled and the redirectUrl; an older record reads as closed")
    func records() throws {
        let served = try Served()
        let (_, purchaseId) = try served.session(redirectUrl: Self.redirectUrl)
        _ = try served.send(
            "POST /control/v1/sessions/\(purchaseId)/complete HTTP/1.1\r\n\(served.host)\r\n"
                + "Content-Type: application/json", body: #"{"choice": "cancel"}"#)
        let session = try #require(served.sandbox.sessions.all.first)
        let record = session.record
        #expect(String(decoding: record, as: UTF8.self).contains(#""canceledByPlayer":true"#))
        let read = try CheckoutSessions.Session(record: JSONParser.parse(record))
        #expect(read.canceledByPlayer && read.redirectUrl == Self.redirectUrl)
        #expect(read.redirect == "https://game.example/return?from=checkout&status=cancel#top")
        let older = String(decoding: record, as: UTF8.self)
            .replacingOccurrences(of: #","canceledByPlayer":true"#, with: "")
        let old = try CheckoutSessions.Session(record: JSONParser.parse(Array(older.utf8)))
        #expect(!old.canceledByPlayer)
        #expect(old.linkOutStatus == .fail)
    }

    @Test("a kept session whose redirectUrl breaks the rule is refused as damaged, never sent in a Location")
    func forgedRecord() throws {
        let served = try Served()
        let (_, purchaseId) = try served.session(redirectUrl: Self.redirectUrl)
        let session = try #require(served.sandbox.heldSessions.first { $0.purchaseId == purchaseId })
        let text = String(decoding: session.record, as: UTF8.self)
        #expect(try CheckoutSessions.Session(record: JSONParser.parse(session.record)).redirectUrl == Self.redirectUrl)
        for forged in [#"https://a.example/\r\nSet-Cookie: pwned=1"#, "javascript:alert(1)//", #"http://evil\\@good/"#]
        {
            let record = text.replacingOccurrences(of: "https://game.example/return?from=checkout#top", with: forged)
            #expect(record != text)
            #expect(throws: CheckoutSessions.Session.RecordProblem.self, "\(forged)") {
                try CheckoutSessions.Session(record: JSONParser.parse(Array(record.utf8)))
            }
        }
    }
}
