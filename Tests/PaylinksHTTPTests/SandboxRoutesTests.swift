import PaylinksHTTP
import PaylinksKit
import PaylinksSandbox
import Testing

/// The sandbox's routes, each asked with a method it does not take: 405, the methods it
/// takes in `Allow`, in the order it lists them, and the same in the problem's words.
@Suite("Sandbox routes")
struct SandboxRoutesTests {
    /// A route of the sandbox's, a method it refuses, and the methods it takes.
    struct Refused: Sendable, CustomTestStringConvertible {
        let path: String
        let method: HTTPMethod
        let allow: String

        init(_ method: HTTPMethod, _ path: String, allow: String) {
            self.path = path
            self.method = method
            self.allow = allow
        }

        var testDescription: String { "\(method) \(path)" }
    }

    /// A sandbox whose publisher token is `token-1`, on a clock that stands still.
    static func sandbox() -> Sandbox {
        Sandbox(
            catalog: .builtIn,
            settings: Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7),
            clock: { 1_718_182_312_000 })
    }

    static let refused: [Refused] = [
        Refused(.delete, "/", allow: "GET, HEAD"),
        Refused(HTTPMethod(rawValue: "M-SEARCH"), "/control/v1/health", allow: "GET, HEAD"),
        Refused(.get, "/checkout/v1/session", allow: "POST"),
        Refused(.head, "/checkout/v1/session", allow: "POST"),
        Refused(.get, "/checkout/v3/cancel", allow: "POST"),
        Refused(.put, "/checkout/abc", allow: "GET, HEAD, POST"),
        Refused(.delete, "/checkout/", allow: "GET, HEAD, POST"),
        Refused(.delete, "/control/v1/sessions/pur_1", allow: "GET, HEAD"),
        Refused(.get, "/control/v1/sessions/pur_1/complete", allow: "POST"),
        Refused(.get, "/control/v1/sessions/pur_1/refund", allow: "POST"),
        Refused(.get, "/control/v1/sessions/pur_1/dispute", allow: "POST"),
        Refused(.get, "/control/v1/sessions/pur_1/retry-award", allow: "POST"),
        Refused(.delete, "/orders/pur_1", allow: "GET, HEAD"),
        Refused(.get, "/orders/pur_1/refund", allow: "POST"),
        Refused(.get, "/orders/pur_1/anything", allow: "POST"),
        Refused(.get, "/deliveries/dl_1/replay", allow: "POST"),
        Refused(.get, "/reporting/reports/orders", allow: "POST"),
        Refused(.delete, "/reporting/financial-data/transactions", allow: "GET, HEAD"),
        Refused(.patch, "/control/v1/deliveries", allow: "GET, HEAD"),
        Refused(.options, "/control/v1/deliveries/dl_1", allow: "GET, HEAD"),
        Refused(.patch, "/v1/price-points", allow: "GET, HEAD, POST"),
        Refused(.post, "/v1/price-points/999", allow: "GET, HEAD, PUT, DELETE"),
        Refused(.get, "/control/v1/deliveries/dl_1/replay", allow: "POST"),
        Refused(.get, "/checkout/api/v1/order/ord_1/refund", allow: "POST"),
        Refused(.get, "/clock", allow: "POST"),
    ]

    @Test(
        "every row that takes GET takes HEAD, answered as GET is (RFC 9110, section 9.1)",
        arguments: [
            "/control/v1/sessions/pur_1", "/control/v1/deliveries", "/control/v1/deliveries/dl_1",
            "/reporting/financial-data/transactions", "/v1/price-points", "/v1/price-points/999",
        ])
    func headAsGet(path: String) {
        let sandbox = Self.sandbox()
        func answer(_ method: HTTPMethod) -> HTTPServerResponse {
            sandbox.handleChecked(
                HTTPRequest(
                    method: method, path: path, query: "", headers: [HTTPHeader("x-publisher-token", "token-1")],
                    body: [], keepAlive: true))
        }
        let get = answer(.get)
        let head = answer(.head)
        #expect(head.status != 405, "\(path)")
        #expect(head.status == get.status && head.headers == get.headers, "\(path)")
    }

    @Test(
        "a method is case-sensitive: get and Get are methods no row takes, 405 with Allow", arguments: ["get", "Get"])
    func lowercaseMethod(method: String) {
        let sandbox = Self.sandbox()
        let response = sandbox.handleChecked(
            HTTPRequest(
                method: HTTPMethod(rawValue: method), path: "/", query: "", headers: [], body: [], keepAlive: true))
        #expect(response.status == 405)
        #expect(response.headers.contains(HTTPHeader("Allow", "GET, HEAD")))
    }

    @Test("a route answers a method it does not take with 405 and the methods it takes", arguments: refused)
    func refuses(_ case: Refused) {
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
        settings.formToken = "form-token-1"
        let sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { 1_718_182_312_000 })
        var logs: [String] = []
        sandbox.onLog = { logs.append($0) }
        let response = sandbox.handleChecked(
            HTTPRequest(method: `case`.method, path: `case`.path, query: "", headers: [], body: [], keepAlive: true))
        #expect(response.status == 405)
        #expect(
            response.headers == [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Allow", `case`.allow)])
        let message = "\(`case`.path) takes \(`case`.allow), not \(`case`.method)"
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"errorCode":405,"errorMessage":"\#(message)"}"#)
        #expect(logs == ["\(`case`.method) \(`case`.path) 405"])
    }

    @Test("a path's segments are its route's exactly: an empty segment, a doubled or a trailing slash is another path")
    func segments() {
        let sandbox = Self.sandbox()
        for (path, status) in [
            ("/control/v1/health", 200), ("/control/v1/health/", 404), ("//control/v1/health", 404),
            ("/control//v1/health", 404), ("/control/v1/sessions/", 404), ("/", 200),
        ] {
            let response = sandbox.handleChecked(
                HTTPRequest(method: .get, path: path, query: "", headers: [], body: [], keepAlive: true))
            #expect(response.status == status, "\(path)")
        }
    }

    @Test("a method no RFC registers is answered as any method a path does not take: 405 with Allow, or 404")
    func unregistered() {
        let sandbox = Self.sandbox()
        for (path, allow) in [
            ("/", "GET, HEAD"), ("/checkout/v1/session", "POST"), ("/control/v1/clock", "GET, HEAD, POST"),
        ] {
            let response = sandbox.handleChecked(
                HTTPRequest(
                    method: HTTPMethod(rawValue: "QUERY"), path: path, query: "", headers: [], body: [],
                    keepAlive: true))
            #expect(response.status == 405)
            #expect(response.headers.contains(HTTPHeader("Allow", allow)))
            #expect(
                String(decoding: response.body, as: UTF8.self)
                    == #"{"errorCode":405,"errorMessage":"\#(path) takes \#(allow), not QUERY"}"#)
        }
        // A path no route names, and one that is no session's token, are nothing whatever the method.
        for path in ["/nowhere", "/a/b/c"] {
            let response = sandbox.handleChecked(
                HTTPRequest(
                    method: HTTPMethod(rawValue: "BREW"), path: path, query: "", headers: [], body: [],
                    keepAlive: true))
            #expect(response.status == 404, "\(path)")
        }
    }

    @Test(
        "a method a path does not take is 405 before the guard asks for a form token, JSON or an own Origin; a foreign Host is 421 first"
    )
    func methodBeforeGuard() {
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
        settings.formToken = "form-token-1"
        let sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { 1_718_182_312_000 })
        let cases: [(HTTPMethod, String, [HTTPHeader], Int)] = [
            (.post, "/control/v1/health", [], 405),
            (.post, "/orders/pur_1", [], 405),
            (.put, "/control/v1/health", [HTTPHeader("Origin", "http://evil.example")], 405),
            (.delete, "/orders/pur_1/refund", [HTTPHeader("Origin", "http://evil.example")], 405),
            (.post, "/control/v1/health", [HTTPHeader("Host", "evil.example")], 421),
            // A method the path takes still meets the guard.
            (.post, "/control/v1/reset", [], 415),
            (.post, "/orders/pur_1/refund", [], 403),
        ]
        for (method, path, headers, status) in cases {
            let response = sandbox.handleChecked(
                HTTPRequest(method: method, path: path, query: "", headers: headers, body: [], keepAlive: true))
            #expect(response.status == status, "\(method) \(path) \(headers)")
        }
    }

    /// A route the game's server calls with the publisher token, the headers it is sent
    /// with, and the refusal its API words.
    struct Guarded: Sendable, CustomTestStringConvertible {
        let method: HTTPMethod
        let path: String
        let headers: [HTTPHeader]
        let status: Int
        let body: String

        var testDescription: String { "\(method) \(path) \(headers.map { "\($0.name): \($0.value)" })" }
    }

    static let reporting = [
        (HTTPMethod.post, "/checkout/v1/session"), (.post, "/reporting/reports/orders"),
        (.get, "/reporting/financial-data/transactions"),
    ]
    static let forbidden = #"{"result":null,"errCode":-1,"message":"Forbidden resource"}"#

    static let guarded: [Guarded] =
        reporting.flatMap { method, path in
            [
                ("required", []), ("invalid", [HTTPHeader("x-publisher-token", "token-2")]),
                // Two tokens that differ are not the token, whichever comes first.
                ("invalid", [HTTPHeader("x-publisher-token", "token-1"), HTTPHeader("X-Publisher-Token", "token-2")]),
                ("invalid", [HTTPHeader("x-publisher-token", "token-2"), HTTPHeader("x-publisher-token", "token-1")]),
            ].map { reason, headers in
                Guarded(
                    method: method, path: path, headers: [HTTPHeader("Content-Type", "application/json")] + headers,
                    status: 401,
                    body: #"{"statusCode":401,"error":"Unauthorized","message":[{"validationErrorNumber":1,"#
                        + #""error":"Publisher token is \#(reason)."}],"requestUrl":"\#(path)"}"#)
            }
        }
        + [
            [HTTPHeader("x-user-id", "player-1")], [HTTPHeader("x-publisher-token", "token-1")],
            [HTTPHeader("x-publisher-token", "token-2"), HTTPHeader("x-user-id", "player-1")],
            [HTTPHeader("x-publisher-token", "token-1"), HTTPHeader("x-user-id", "")],
            [
                HTTPHeader("x-publisher-token", "token-1"), HTTPHeader("x-publisher-token", "token-2"),
                HTTPHeader("x-user-id", "player-1"),
            ],
        ].map { headers in
            Guarded(
                method: .post, path: "/checkout/api/v1/order/ord_1/refund", headers: headers, status: 403,
                body: forbidden)
        }

    @Test(
        "a route of the game's server refuses a call without its publisher token in its API's words", arguments: guarded
    )
    func guards(_ case: Guarded) {
        let sandbox = Self.sandbox()
        let response = sandbox.handleChecked(
            HTTPRequest(
                method: `case`.method, path: `case`.path, query: "", headers: `case`.headers, body: Array("{}".utf8),
                keepAlive: true))
        #expect(response.status == `case`.status)
        #expect(String(decoding: response.body, as: UTF8.self) == `case`.body)
    }
}
