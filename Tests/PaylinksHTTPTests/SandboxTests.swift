import Foundation
import PaylinksHTTP
import PaylinksKit
import Testing

@testable import PaylinksAppcharge
@testable import PaylinksSandbox

/// The sandbox's answers, request by request, without a socket.
@MainActor
@Suite("Sandbox")
struct SandboxTests {
    final class Recorder {
        var now = 1_718_182_312_000
        var callbacks: [Callback] = []
        var logs: [String] = []
        var paid: [(String, GrantAward)] = []
    }

    let recorder = Recorder()
    let sandbox: Sandbox

    init() {
        let recorder = self.recorder
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
        settings.formToken = Self.formToken
        sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { recorder.now })
        sandbox.onCallback = { recorder.callbacks.append($0) }
        sandbox.onLog = { recorder.logs.append($0) }
    }

    /// The token the checkout page's form carries.
    static let formToken = "form-token-1"

    static let body = #"""
        {"priceDetails": {"price": 549, "currency": "EUR"},
         "offer": {"name": "Starter Pack", "sku": "starter_pack_001", "pricePointMetadata": 499},
         "items": [{"name": "Gems", "sku": "gem_01", "quantity": 100}],
         "customer": {"id": "cust_98765", "email": "player@example.com"}, "countryCode2": "DE",
         "sessionMetadata": {"campaign": "spring", "level": 12}}
        """#

    func request(
        _ method: HTTPMethod, _ path: String, body: String = "", headers: [HTTPHeader] = []
    ) -> HTTPServerResponse {
        sandbox.handleChecked(
            HTTPRequest(
                method: method, path: path, query: "", headers: headers, body: Array(body.utf8), keepAlive: true))
    }

    func create(_ body: String = Self.body, token: String? = "token-1", type: String = "application/json")
        -> HTTPServerResponse
    {
        var headers = [HTTPHeader("Content-Type", type)]
        if let token { headers.append(HTTPHeader("x-publisher-token", token)) }
        return request(.post, "/checkout/v1/session", body: body, headers: headers)
    }

    static func json(_ response: HTTPServerResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    func session() throws -> (token: String, purchaseId: String) {
        let created = try Self.json(create())
        return (
            try #require(created["checkoutSessionToken"] as? String), try #require(created["purchaseId"] as? String)
        )
    }

    func complete(_ purchaseId: String, _ body: String) -> HTTPServerResponse {
        request(
            .post, "/control/v1/sessions/\(purchaseId)/complete", body: body,
            headers: [HTTPHeader("Content-Type", "application/json")])
    }

    @Test("a session is created with the simulator's token for its seed, a purchase id, and URLs on the sandbox")
    func creates() throws {
        let response = create()
        #expect(response.status == 201)
        let json = try Self.json(response)
        let token = try #require(json["checkoutSessionToken"] as? String)
        let purchaseId = try #require(json["purchaseId"] as? String)
        #expect(token == CheckoutIdentifiers(seed: 7, index: 0).sessionToken)
        #expect(purchaseId.hasPrefix("pr_"))
        #expect(json["url"] as? String == "http://127.0.0.1:4010/checkout")
        #expect(json["parsedUrl"] as? String == "http://127.0.0.1:4010/checkout/\(token)#boot=\(purchaseId)")
        let second = try Self.json(create())
        #expect(second["purchaseId"] as? String != purchaseId)
    }

    @Test("a missing or wrong publisher token is 401 in the documented shape; other media types 415")
    func unauthorized() throws {
        for token in [nil, "wrong"] {
            let response = create(token: token)
            #expect(response.status == 401)
            let json = try Self.json(response)
            #expect(json["statusCode"] as? Int == 401)
            #expect(json["requestUrl"] as? String == "/checkout/v1/session")
            let message = try #require((json["message"] as? [[String: Any]])?.first)
            #expect(message["validationErrorNumber"] as? Int == 1)
            // The log says what was wrong and what to send, the token masked.
            let problem = token == nil ? "it sends no x-publisher-token" : "its x-publisher-token is not the sandbox's"
            #expect(
                recorder.logs.contains(
                    "warning: POST /checkout/v1/session refused: \(problem); send the sandbox's, '…', which serve "
                        + "takes from --publisher-token or PAYLINKS_PUBLISHER_TOKEN, else the demo token"),
                "\(recorder.logs)")
        }
        // A wrong media type: the answer and the log name the type sent.
        let wrongType = create(type: "text/plain")
        #expect(wrongType.status == 415)
        let reason =
            "send the body as Content-Type: application/json (with curl, -H 'Content-Type: application/json'); its "
            + "Content-Type is 'text/plain'"
        #expect(try Self.json(wrongType)["errorMessage"] as? String == reason)
        #expect(recorder.logs.contains("warning: POST /checkout/v1/session refused: \(reason)"), "\(recorder.logs)")
        let untyped = request(
            .post, "/checkout/v1/session", body: Self.body, headers: [HTTPHeader("x-publisher-token", "token-1")])
        #expect(untyped.status == 415)
        #expect(
            try Self.json(untyped)["errorMessage"] as? String
                == "send the body as Content-Type: application/json (with curl, -H 'Content-Type: application/json'); "
                + "it sends no Content-Type")
    }

    @Test(
        "a JSON body is named application/json in any case of its letters, with parameters or none",
        arguments: [
            ("application/json", 201), ("Application/JSON", 201), ("application/json; charset=utf-8", 201),
            ("APPLICATION/JSON;charset=UTF-8", 201), ("application/jsonx", 415),
            ("application/json ; charset=utf-8", 201), ("application/json\t;", 201),
            ("application/json x", 415),
            ("application/jso", 415), ("text/json", 415), ("", 415), ("application/\u{212A}son", 415),
            ("application/j\u{17F}on", 415),
        ])
    func mediaType(type: String, status: Int) {
        #expect(create(type: type).status == status, "\(type)")
    }

    @Test("a publisher token sent twice is the token when both copies agree, and refused when they differ")
    func repeatedToken() {
        func created(_ tokens: [String]) -> Int {
            let headers =
                [HTTPHeader("Content-Type", "application/json")] + tokens.map { HTTPHeader("x-publisher-token", $0) }
            return request(.post, "/checkout/v1/session", body: Self.body, headers: headers).status
        }
        #expect(created(["token-1", "token-1"]) == 201)
        #expect(created(["token-1", "wrong"]) == 401)
        #expect(created(["wrong", "token-1"]) == 401)
        #expect(created(["token-1", "token-1", "wrong"]) == 401)
    }

    @Test(
        "a body that breaks the documented rules is 400 naming the field",
        arguments: [
            ("{", "the body is not JSON"),
            ("", "the body is empty; send the session as a JSON object with priceDetails, offer and customer at least"),
            (" \r\n", "the body is empty; send the session as a JSON object"),
            ("[]", "the body must be an object, not an array"),
            (#"{"offer": {"name": "A", "sku": "a"}, "customer": {"id": "c"}}"#, "priceDetails is required"),
            (
                #"{"priceDetails": {"price": "4.99", "currency": "USD"}, "offer": {"name": "A", "sku": "a"}, "customer": {"id": "c"}}"#,
                "priceDetails.price must be a whole number of 0 or more, not a string"
            ),
            (
                #"{"priceDetails": {"price": -1, "currency": "USD"}, "offer": {"name": "A", "sku": "a"}, "customer": {"id": "c"}}"#,
                "priceDetails.price must be a whole number of 0 or more, not -1"
            ),
            (
                #"{"priceDetails": {"price": 499, "currency": "usd"}, "offer": {"name": "A", "sku": "a"}, "customer": {"id": "c"}}"#,
                "priceDetails.currency 'usd' is not an ISO 4217 code, such as USD or EUR"
            ),
            (
                #"{"priceDetails": {"price": 499, "currency": "USD"}, "offer": {"name": "", "sku": "a"}, "customer": {"id": "c"}}"#,
                "offer.name is empty; give the offer's name"
            ),
            (
                #"{"priceDetails": {"price": 499, "currency": "USD"}, "offer": {"name": "A", "sku": "a"}, "customer": {"id": ""}}"#,
                "customer.id is empty; send the player's id, the customerId the app gives the SDK"
            ),
            (
                #"{"priceDetails": {"price": 499, "currency": "USD"}, "offer": {"name": "A", "sku": "a"}, "customer": {"id": "c"}, "items": [{"name": "Gems", "sku": "g"}]}"#,
                "items[0].quantity is required"
            ),
            (
                #"{"priceDetails": {"price": 499, "currency": "USD"}, "offer": {"name": "A", "sku": "a"}, "customer": {"id": "c"}, "countryCode2": "UK"}"#,
                "countryCode2 'UK' is not an ISO 3166-1 alpha-2 code; did you mean GB?"
            ),
            (
                #"{"priceDetails": {"price": 499, "currency": "USD"}, "offer": {"name": "A", "sku": "a"}, "customer": {"id": "c"}, "countryCode2": "XQ"}"#,
                "countryCode2 'XQ' is not an ISO 3166-1 alpha-2 code, such as US or DE"
            ),
        ])
    func invalid(body: String, message: String) throws {
        let response = create(body)
        #expect(response.status == 400)
        let json = try Self.json(response)
        #expect(json["errorCode"] as? Int == 400)
        #expect((json["errorMessage"] as? String)?.hasPrefix(message) == true, "\(json)")
    }

    @Test(
        "a price written with a fraction of zeros or an exponent is the whole number it stands for",
        arguments: ["499", "499.0", "4.99e2", "4990E-1"])
    func wholeValuedPrice(price: String) throws {
        let body = Self.body.replacingOccurrences(of: #""price": 549"#, with: #""price": \#(price)"#)
        let response = create(body)
        #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        let purchaseId = try #require(try Self.json(response)["purchaseId"] as? String)
        let state = try Self.json(request(.get, "/control/v1/sessions/\(purchaseId)"))
        #expect(state["price"] as? Int == 499)
    }

    @Test("a price with a fraction that is not zero is refused as before")
    func fractionalPrice() throws {
        let response = create(Self.body.replacingOccurrences(of: #""price": 549"#, with: #""price": 499.5"#))
        #expect(response.status == 400)
        let json = try Self.json(response)
        let message = json["errorMessage"] as? String
        let refusal =
            "priceDetails.price must be a whole number of 0 or more, not 499.5; an amount is in the currency's minor "
            + "units, 499 for 4.99"
        #expect(message?.hasPrefix(refusal) == true, "\(json)")
    }

    @Test("a 400 names every problem of the body, not the first")
    func everyProblem() throws {
        let response = create(
            #"{"priceDetails": {"price": -1, "currency": "usd"}, "offer": {"name": "", "sku": "a"}, "customer": {"id": ""}, "countryCode2": "UK"}"#
        )
        #expect(response.status == 400)
        let json = try Self.json(response)
        let problems = try #require(json["problems"] as? [String])
        #expect(
            problems == [
                "priceDetails.price must be a whole number of 0 or more, not -1",
                "priceDetails.currency 'usd' is not an ISO 4217 code, such as USD or EUR",
                "offer.name is empty; give the offer's name",
                "customer.id is empty; send the player's id, the customerId the app gives the SDK",
                "countryCode2 'UK' is not an ISO 3166-1 alpha-2 code; did you mean GB?",
            ])
        #expect(json["errorMessage"] as? String == problems.joined(separator: "; "))
        // The log says why too, as the answer does.
        #expect(
            recorder.logs.contains("warning: POST /checkout/v1/session refused: \(problems.joined(separator: "; "))"),
            "\(recorder.logs)")
    }

    @Test("what the server refuses on its own has a log line of one line, its words escaped and cut short")
    func serverRefusalLogged() {
        #expect(
            Sandbox.logLine(for: .cannotTake(.bodyTooLarge(limit: 1 << 20)))
                == "warning: a request refused (413): the body is larger than 1024 KiB")
        #expect(
            Sandbox.logLine(for: .tooManyConnections(limit: 1024))
                == "warning: a connection refused (503): the server has 1024 connections open; try again")
        #expect(
            Sandbox.logLine(for: .tooSlow(seconds: 10))
                == "warning: a request refused (408): the request took longer than 10 s to arrive")
        let forged = Sandbox.logLine(for: .cannotTake(.unsupportedVersion("HTTP/1.\r\nPOST /x 201\u{1B}[2J")))
        #expect(
            forged
                == #"warning: a request refused (505): HTTP version 'HTTP/1.\u{D}\u{A}POST /x 201\u{1B}[2J' is not supported; send HTTP/1.1 or HTTP/1.0"#
        )
        // A request whose line was read is named by its method and path, cut short; the query left out.
        let line = HTTPRequestLine(method: "POST", target: "/control/v1/reset?x=\u{1B}")
        #expect(
            Sandbox.logLine(for: .cannotTake(.bodyTooLarge(limit: 1 << 20), request: line))
                == "warning: POST /control/v1/reset refused (413): the body is larger than 1024 KiB")
        let deep = HTTPRequestLine(method: "GET", target: "/" + String(repeating: "a", count: 300) + "\u{202E}")
        #expect(
            Sandbox.logLine(for: .cannotTake(.malformed("a header has no ':'"), request: deep))
                == "warning: GET /\(String(repeating: "a", count: 119))… refused (400): malformed request: a header has no ':'"
        )
        let long = Sandbox.logLine(for: .cannotTake(.malformed(String(repeating: "x", count: 5_000))))
        #expect(
            long == "warning: a request refused (400): malformed request: " + String(repeating: "x", count: 381) + "…")
    }

    @Test(
        "a refused change logs its words once, before its request line, whichever API refused it; a refused read does not"
    )
    func refusalsLogged() throws {
        let (_, purchaseId) = try session()
        func refusal(_ response: HTTPServerResponse) throws -> String {
            let json = try Self.json(response)
            let errors = (json["message"] as? [[String: Any]])?.compactMap { $0["error"] as? String }
            return try #require(json["errorMessage"] as? String ?? json["message"] as? String ?? errors?.first)
        }
        let priceHeaders = [HTTPHeader("x-publisher-token", "token-1")]
        let refused: [(() -> HTTPServerResponse, HTTPMethod, String, Int)] = [
            ({ complete("pr_missing", #"{"choice": "pay"}"#) }, .post, "/control/v1/sessions/pr_missing/complete", 404),
            ({ complete(purchaseId, #"{"choice": pay}"#) }, .post, "/control/v1/sessions/\(purchaseId)/complete", 400),
            (
                { complete(purchaseId, #"{"choice": "pay"}"#) }, .post, "/control/v1/sessions/\(purchaseId)/complete",
                200
            ),
            (
                { complete(purchaseId, #"{"choice": "pay"}"#) }, .post, "/control/v1/sessions/\(purchaseId)/complete",
                409
            ),
            (
                { request(.post, "/v1/price-points", body: #"{"priceInUsdCents": 999}"#, headers: priceHeaders) },
                .post, "/v1/price-points", 409
            ),
            ({ create(type: "text/plain") }, .post, "/checkout/v1/session", 415),
            (
                { request(.post, "/checkout/v3/cancel", headers: [HTTPHeader("Authorization", "Bearer nope")]) },
                .post, "/checkout/v3/cancel", 401
            ),
            ({ request(.post, "/nothing-here") }, .post, "/nothing-here", 404),
            ({ request(.get, "/control/v1/sessions/pr_missing") }, .get, "/control/v1/sessions/pr_missing", 404),
        ]
        for (send, method, path, status) in refused {
            recorder.logs.removeAll()
            let response = send()
            #expect(response.status == status, "\(path)")
            let warnings = recorder.logs.filter { $0.hasPrefix("warning: \(method) \(path) refused: ") }
            if status == 200 || method == .get || path == "/nothing-here" {
                #expect(warnings.isEmpty, "\(warnings)")
                continue
            }
            let words = try refusal(response)
            #expect(warnings == ["warning: \(method) \(path) refused: \(words)"], "\(recorder.logs)")
            // Said before the request's line, which ends what its request logged.
            #expect(recorder.logs.suffix(2).first == warnings.first, "\(recorder.logs)")
            #expect(recorder.logs.last == "\(method) \(path) \(status)", "\(recorder.logs)")
        }
        // A long path is cut in the warning, as what the answer quotes of it: the request's line has it whole.
        recorder.logs.removeAll()
        let long = String(repeating: "x", count: 2_000)
        #expect(complete(long, #"{"choice": "pay"}"#).status == 404)
        let warning = try #require(recorder.logs.first)
        let path = "/control/v1/sessions/\(long)/complete"
        #expect(
            warning.hasPrefix("warning: POST \(path.prefix(120))… refused: no checkout session has the purchase id"))
        #expect(warning.unicodeScalars.count < 600 && recorder.logs.last == "POST \(path) 404")
    }

    @Test(
        "a session with a member the reference has no field for is created, and the log names it with the field meant")
    func unknownFieldWarned() throws {
        let body = Self.body.replacingOccurrences(of: #""countryCode2": "DE""#, with: #""countryCode": "DE""#)
        let created = try Self.json(create(body))
        let purchaseId = try #require(created["purchaseId"] as? String)
        #expect(
            recorder.logs.contains(
                "warning: session \(purchaseId): countryCode is not a field of Create Checkout Session, and Appcharge "
                    + "ignores it; did you mean countryCode2?"),
            "\(recorder.logs)")
        #expect(try Self.json(create()).keys.contains("purchaseId"))
        #expect(recorder.logs.filter { $0.contains("is not a field") }.count == 1)
    }

    @Test("a firstSeenAt not in the past is refused with the log saying why, as the answer does")
    func futureFirstSeen() throws {
        let body = Self.body.replacingOccurrences(
            of: #""email": "player@example.com"}"#,
            with: #""email": "player@example.com", "identitySignals": {"firstSeenAt": "2030-01-01T00:00:00Z"}}"#)
        let response = create(body)
        #expect(response.status == 400)
        let message = try #require(try Self.json(response)["errorMessage"] as? String)
        #expect(message.hasPrefix("customer.identitySignals.firstSeenAt must be a past date: 2030-01-01T00:00:00.000Z"))
        #expect(recorder.logs.contains("warning: POST /checkout/v1/session refused: \(message)"), "\(recorder.logs)")
    }

    @Test("a 400 lists the first 20 problems of a body, then how many more: 10,000 bad items get a few kilobytes")
    func cappedProblems() throws {
        let items = Array(repeating: "1", count: 10_000).joined(separator: ",")
        let response = create(
            #"{"priceDetails": {"price": 1, "currency": "USD"}, "offer": {"name": "A", "sku": "a"}, "customer": {"id": "c"}, "items": [\#(items)]}"#
        )
        #expect(response.status == 400)
        #expect(response.body.count < 4096, "\(response.body.count) bytes")
        let problems = try #require(try Self.json(response)["problems"] as? [String])
        #expect(problems.count == 21)
        #expect(problems.first == "items[0] must be an object, not a number", "\(problems)")
        #expect(problems[19] == "items[19] must be an object, not a number")
        #expect(problems.last == "and 9980 more, not listed: correct these and send it again")
    }

    /// A reporting request with the publisher token: the orders report's body, or the
    /// transactions' query string.
    func report(orders body: String? = nil, transactions query: String = "") -> HTTPServerResponse {
        sandbox.handleChecked(
            HTTPRequest(
                method: body == nil ? .get : .post,
                path: body == nil ? "/reporting/financial-data/transactions" : "/reporting/reports/orders",
                query: query,
                headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1")],
                body: Array((body ?? "").utf8), keepAlive: true))
    }

    @Test("a reporting query's problems come in the order of its keys, the first 20, then how many more: few kilobytes")
    func reportingProblems() throws {
        let keys = (0..<10_000).map { #""k\#($0)": 1"# }.joined(separator: ", ")
        let orders = report(
            orders: #"{"startDate": "2024-06-12", "recordLimit": 0, \#(keys), "endDate": "2024-06-12"}"#)
        #expect(orders.status == 400)
        #expect(orders.body.count < 8192, "\(orders.body.count) bytes")
        let reasons = try #require(try Self.json(orders)["message"] as? [[String: Any]])
        #expect(reasons.map { $0["validationErrorNumber"] as? Int } == Array(1...21))
        let words = reasons.compactMap { $0["error"] as? String }
        #expect(words.first == "recordLimit must be a whole number from 1 to 1000, not '0'")
        #expect(words.dropFirst().prefix(19).map { String($0.prefix { $0 != " " }) } == (0..<19).map { "k\($0)" })
        #expect(words.last == "and 9981 more, not listed: correct these and send it again")

        let transactions = report(transactions: (0..<5_000).map { "p\($0)=1" }.joined(separator: "&"))
        #expect(transactions.status == 400)
        #expect(transactions.body.count < 8192, "\(transactions.body.count) bytes")
        let listed = try #require(try Self.json(transactions)["message"] as? [[String: Any]])
        #expect(listed.count == 21)
        #expect((listed.last?["error"] as? String)?.hasPrefix("and 4982 more, not listed") == true, "\(listed)")
    }

    @Test(
        "the checkout URLs come from --public-url, else from the request's Host, else the listening address",
        arguments: [
            (nil, "192.168.1.20:4010", "http://192.168.1.20:4010/checkout"),
            (nil, "[fe80::1]:4010", "http://[fe80::1]:4010/checkout"),
            (nil, "localhost:4010", "http://localhost:4010/checkout"),
            (nil, nil, "http://127.0.0.1:4010/checkout"),
            ("https://pay.example.com/sandbox", "192.168.1.20:4010", "https://pay.example.com/sandbox/checkout"),
        ] as [(String?, String?, String)])
    func handedOutURLs(publicURL: String?, host: String?, url: String) throws {
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
        settings.publicURL = publicURL
        let sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { 1_718_182_312_000 })
        var headers = [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1")]
        if let host { headers.append(HTTPHeader("Host", host)) }
        let response = sandbox.handleChecked(
            HTTPRequest(
                method: .post, path: "/checkout/v1/session", query: "", headers: headers, body: Array(Self.body.utf8),
                keepAlive: true))
        let json = try Self.json(response)
        #expect(json["url"] as? String == url)
        #expect((json["parsedUrl"] as? String)?.hasPrefix(url + "/") == true)
    }

    @Test("paying a session without pricePointMetadata warns that its award has no price point; with it, nothing")
    func zeroDollarWarning() throws {
        let without = Self.body.replacingOccurrences(of: #", "pricePointMetadata": 499"#, with: "")
        #expect(without != Self.body)
        for (body, warns) in [(without, true), (Self.body, false)] {
            recorder.logs = []
            let created = try Self.json(create(body))
            let token = try #require(created["checkoutSessionToken"] as? String)
            let response = request(
                .post, "/checkout/\(token)", body: "formToken=\(Self.formToken)&choice=pay&paymentMethod=Visa",
                headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")])
            #expect(response.status < 400)
            let warning = recorder.logs.first { $0.hasPrefix("warning:") }
            #expect(
                (warning?.contains("no offer.pricePointMetadata, so its award gives its price in US cents") ?? false)
                    == warns,
                "\(recorder.logs)")
        }
    }

    @Test("a redirectUrl is Link Out: the log says where the browser will be sent, as a note, not a warning")
    func redirectWarning() {
        let body = Self.body.replacingOccurrences(
            of: #""countryCode2": "DE","#, with: #""countryCode2": "DE", "redirectUrl": "https://game.example/back","#)
        #expect(create(body).status == 201)
        #expect(
            recorder.logs.contains {
                $0.hasPrefix(
                    "session for starter_pack_001 with a redirectUrl (Link Out): once it ends, the checkout "
                        + "sends the browser to https://game.example/back")
            }, "\(recorder.logs)")
        #expect(!recorder.logs.contains { $0.hasPrefix("warning:") })
    }

    @Test("unknown paths are 404 and wrong methods 405 with Allow")
    func routing() {
        #expect(request(.get, "/nowhere").status == 404)
        let wrong = request(.get, "/checkout/v1/session")
        #expect(wrong.status == 405)
        #expect(wrong.headers.contains(HTTPHeader("Allow", "POST")))
    }

    @Test("the checkout page shows the offer, the items and the country's price, every value escaped")
    func page() throws {
        let body = Self.body.replacingOccurrences(of: "Starter Pack", with: "<script>alert(1)</script>")
        let created = try Self.json(create(body))
        let token = try #require(created["checkoutSessionToken"] as? String)
        let page = request(.get, "/checkout/\(token)")
        #expect(page.status == 200)
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("Gems ×100"))
        #expect(html.contains("5,49 €"))
        for choice in ["pay", "decline", "pending", "close"] { #expect(html.contains("value=\"\(choice)\"")) }
        #expect(request(.get, "/checkout/nope").status == 404)
    }

    @Test("paying on the page grants the order and shows the result; the client gets onPurchaseSuccess")
    func payOnThePage() throws {
        let (token, purchaseId) = try session()
        recorder.now += 5_000
        let answer = request(
            .post, "/checkout/\(token)", body: "formToken=\(Self.formToken)&paymentMethod=Apple+Pay&choice=pay",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")])
        #expect(answer.status == 303)
        #expect(answer.headers.contains(HTTPHeader("Location", "/checkout/\(token)")))
        let result = String(decoding: request(.get, "/checkout/\(token)").body, as: UTF8.self)
        #expect(result.contains("Payment complete") && result.contains("charge_succeed"))
        guard case .onPurchaseSuccess(let order)? = recorder.callbacks.last else {
            Issue.record("no onPurchaseSuccess: \(recorder.callbacks)")
            return
        }
        #expect(order.purchaseId == purchaseId && order.sessionToken == token)
        #expect(order.paymentMethodName == "Apple Pay")
        #expect(order.price == 549 && order.currency == "EUR" && order.customerCountry == "DE")
        #expect(order.items == [OrderResponseModel.Item(name: "Gems", sku: "gem_01", quantity: "100")])
        #expect(order.date == 1_718_182_317)
        let state = try Self.json(request(.get, "/control/v1/sessions/\(purchaseId)"))
        #expect(state["state"] as? String == "charge_succeed")
        #expect(state["orderId"] as? String == order.orderId)
    }

    @Test(
        "each choice through the control API ends in its state and the client's callback",
        arguments: [
            ("decline", "payment_failed", 3003), ("pending", "payment_pending", 3004),
            ("close", "payment_canceled", 3002),
        ])
    func choices(choice: String, state: String, code: Int) throws {
        let (_, purchaseId) = try session()
        let answer = complete(purchaseId, #"{"choice": "\#(choice)"}"#)
        #expect(answer.status == 200)
        #expect(try Self.json(answer)["state"] as? String == state)
        #expect(recorder.callbacks.last?.error?.code == code)
        #expect(recorder.callbacks.count == 1)
        let again = complete(purchaseId, #"{"choice": "pay"}"#)
        #expect(again.status == 409)
    }

    @Test("with a G3 catalog, a closed checkout reaches the client on onPurchaseCanceled; a decline still fails")
    func g3Cancel() throws {
        let recorder = Recorder()
        let g3 = Sandbox(
            catalog: Catalog.builtIn.forGeneration(.g3),
            settings: Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7),
            clock: { recorder.now })
        g3.onCallback = { recorder.callbacks.append($0) }
        for choice in ["close", "decline"] {
            let headers = [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1")]
            let created = g3.handleChecked(
                HTTPRequest(
                    method: .post, path: "/checkout/v1/session", query: "", headers: headers,
                    body: Array(Self.body.utf8), keepAlive: true))
            let purchaseId = try #require(try Self.json(created)["purchaseId"] as? String)
            _ = g3.handleChecked(
                HTTPRequest(
                    method: .post, path: "/control/v1/sessions/\(purchaseId)/complete", query: "",
                    headers: [HTTPHeader("Content-Type", "application/json")],
                    body: Array(#"{"choice": "\#(choice)"}"#.utf8), keepAlive: true))
        }
        #expect(recorder.callbacks.map(\.name) == [.onPurchaseCanceled, .onPurchaseFailed])
        #expect(recorder.callbacks.map { $0.error?.code } == [3002, 3003])
    }

    @Test(
        "the award's fee and exchange cost follow the sandbox's rates: 15% and 1.5% unless told",
        arguments: [
            (nil, 9, 73, 403),
            (
                OrderMoney.Rates(
                    fee: ExactDecimal(significand: 30, scale: 0), exchangeCost: ExactDecimal(significand: 0, scale: 0)),
                0, 146, 339
            ),
        ]
            as [(OrderMoney.Rates?, Int, Int, Int)])
    func rates(rates: OrderMoney.Rates?, cost: Int, fee: Int, net: Int) throws {
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
        if let rates { settings.rates = rates }
        let sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { 1_718_182_312_000 })
        var paid: [GrantAward] = []
        sandbox.onPaid = { paid.append($1) }
        let headers = [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1")]
        let created = sandbox.handleChecked(
            HTTPRequest(
                method: .post, path: "/checkout/v1/session", query: "", headers: headers, body: Array(Self.body.utf8),
                keepAlive: true))
        let purchaseId = try #require(try Self.json(created)["purchaseId"] as? String)
        _ = sandbox.handleChecked(
            HTTPRequest(
                method: .post, path: "/control/v1/sessions/\(purchaseId)/complete", query: "",
                headers: [HTTPHeader("Content-Type", "application/json")], body: Array(#"{"choice": "pay"}"#.utf8),
                keepAlive: true))
        // 5.49 EUR with German tax: $4.85 before tax, $5.78 in all.
        let body = String(decoding: try #require(paid.first).body, as: UTF8.self)
        #expect(
            body.contains(
                #""priceInDollar":485,"taxInDollar":93,"originalPriceInDollar":499,"paymentPriceInDollar":499,"#
                    + #""priceTotalInDollar":578,"pricePointMetadata":499,"currency":"EUR","#
                    + #""currencyExchangeCost":\#(cost),"estimatedAppchargeFee":\#(fee),"#
                    + #""estimatedPublisherNetAmount":\#(net),"#), "\(body)")
    }

    @Test("the award decides a paid session: granted or, after every attempt failed, 3003 with its data")
    func awards() throws {
        var paid: [(String, GrantAward)] = []
        sandbox.onPaid = { paid.append(($0, $1)) }
        let (_, purchaseId) = try session()
        let answer = complete(purchaseId, #"{"choice": "pay", "paymentMethod": "Mastercard"}"#)
        #expect(try Self.json(answer)["state"] as? String == "charge_pending")
        let award = try #require(paid.first)
        #expect(award.0 == purchaseId)
        let body = String(decoding: award.1.body, as: UTF8.self)
        #expect(body.contains(#""playerId":"cust_98765","bundleName":"Starter Pack""#))
        #expect(body.contains(#""priceInCents":549"#) && body.contains(#""pricePointMetadata":499"#))
        #expect(
            body.contains(#""playerEmail":"player@example.com","sessionMetadata":{"campaign":"spring","level":12}"#))
        #expect(recorder.callbacks.isEmpty)
        sandbox.awardDelivered(purchaseId: purchaseId, failureData: #"{"awardAttempts":3}"#)
        #expect(
            try Self.json(request(.get, "/control/v1/sessions/\(purchaseId)"))["state"] as? String == "charge_failed")
        let failure = try #require(recorder.callbacks.last?.error)
        #expect(failure.code == 3003 && failure.data == #"{"awardAttempts":3}"#)
    }

    @Test(
        "a whole number too large for Int is more than the largest amount or quantity, and a tiny fraction is not whole",
        arguments: [
            (
                "priceDetails.price", "9223372036854775808",
                "is more than 1000000000000, the largest amount a session takes"
            ),
            ("priceDetails.price", "1e999999999", "is more than 1000000000000, the largest amount a session takes"),
            ("offer.pricePointMetadata", "1e30", "is more than 1000000000000, the largest amount a session takes"),
            (
                "items[0].quantity", "9223372036854775808",
                "is more than 9223372036854775807, the largest quantity a session takes"
            ),
            (
                "priceDetails.price", "1e-999999",
                "must be a whole number of 0 or more, not 1e-999999; an amount is in the currency's minor units, 499 "
                    + "for 4.99"
            ),
            ("items[0].quantity", "-1e999999999", "must be a whole number of 0 or more, not -1e999999999"),
        ])
    func wholeNumbersBeyondInt(field: String, number: String, message: String) throws {
        let body =
            switch field {
            case "priceDetails.price":
                Self.body.replacingOccurrences(of: #""price": 549"#, with: #""price": \#(number)"#)
            case "offer.pricePointMetadata":
                Self.body.replacingOccurrences(
                    of: #""pricePointMetadata": 499"#, with: #""pricePointMetadata": \#(number)"#)
            default: Self.body.replacingOccurrences(of: #""quantity": 100"#, with: #""quantity": \#(number)"#)
            }
        let refused = create(body)
        #expect(refused.status == 400)
        #expect(try Self.json(refused)["errorMessage"] as? String == "\(field) \(message)")
    }

    @Test(
        "amounts past the documented limit are a 400 naming the field; the largest one is paid and its award figured",
        arguments: ["priceDetails.price", "offer.pricePointMetadata"])
    func largeAmounts(field: String) throws {
        func body(_ amount: String) -> String {
            field == "priceDetails.price"
                ? Self.body.replacingOccurrences(of: #""price": 549"#, with: #""price": \#(amount)"#)
                : Self.body.replacingOccurrences(
                    of: #""pricePointMetadata": 499"#, with: #""pricePointMetadata": \#(amount)"#)
        }
        for amount in ["9223372036854775807", "1000000000001"] {
            let refused = create(body(amount))
            #expect(refused.status == 400)
            #expect(
                try Self.json(refused)["errorMessage"] as? String
                    == "\(field) is more than 1000000000000, the largest amount a session takes")
        }
        var paid: [GrantAward] = []
        sandbox.onPaid = { paid.append($1) }
        let created = try Self.json(create(body("1000000000000")))
        let purchaseId = try #require(created["purchaseId"] as? String)
        #expect(complete(purchaseId, #"{"choice": "pay"}"#).status == 200)
        let award = String(decoding: try #require(paid.first).body, as: UTF8.self)
        if field == "offer.pricePointMetadata" {
            #expect(
                award.contains(#""originalPriceInDollar":1000000000000,"paymentPriceInDollar":1000000000000,"#))
        } else {
            #expect(award.contains(#""priceInCents":1000000000000"#))
        }
    }

    @Test("a payment method longer than 64 bytes is a 400, on the control API and on the page")
    func longPaymentMethod() throws {
        let (token, purchaseId) = try session()
        let long = String(repeating: "V", count: 65)
        let answer = complete(purchaseId, #"{"choice": "pay", "paymentMethod": "\#(long)"}"#)
        #expect(answer.status == 400)
        let page = request(
            .post, "/checkout/\(token)", body: "formToken=\(Self.formToken)&choice=pay&paymentMethod=\(long)",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")])
        #expect(page.status == 400)
        #expect(complete(purchaseId, #"{"choice": "pay", "paymentMethod": "\#(long.dropLast())"}"#).status == 200)
    }

    @Test("past the session limit the oldest sessions are forgotten, so memory stays bounded")
    func sessionLimit() throws {
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
        settings.sessionLimit = 3
        let recorder = self.recorder
        let small = Sandbox(catalog: .builtIn, settings: settings, clock: { recorder.now })
        var purchaseIds: [String] = []
        for _ in 0..<5 {
            let response = small.handleChecked(
                HTTPRequest(
                    method: .post, path: "/checkout/v1/session", query: "",
                    headers: [
                        HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1"),
                    ],
                    body: Array(Self.body.utf8), keepAlive: true))
            purchaseIds.append(try #require(try Self.json(response)["purchaseId"] as? String))
        }
        #expect(small.sessionCount == 3)
        let states = purchaseIds.map {
            small.handleChecked(
                HTTPRequest(
                    method: .get, path: "/control/v1/sessions/\($0)", query: "", headers: [], body: [], keepAlive: true
                )
            ).status
        }
        #expect(states == [404, 404, 200, 200, 200])
    }

    @Test("a cancelled or expired session takes no payment")
    func cancelAndExpiry() throws {
        let (token, purchaseId) = try session()
        #expect(request(.post, "/checkout/v3/cancel").status == 401)
        #expect(
            request(.post, "/checkout/v3/cancel", headers: [HTTPHeader("Authorization", "Bearer nope")]).status == 401)
        let cancel = request(.post, "/checkout/v3/cancel", headers: [HTTPHeader("Authorization", "Bearer \(token)")])
        #expect(cancel.status == 200)
        #expect(String(decoding: cancel.body, as: UTF8.self) == #"{"isOrderCancelled":true}"#)
        #expect(complete(purchaseId, #"{"choice": "pay"}"#).status == 409)
        let (_, later) = try session()
        recorder.now += 3_600_000
        #expect(
            try Self.json(request(.get, "/control/v1/sessions/\(later)"))["state"] as? String == "payment_canceled")
        #expect(complete(later, #"{"choice": "pay"}"#).status == 409)
    }

    @Test("a cancel with another Authorization scheme than Bearer says the header to send")
    func cancelWithAnotherScheme() throws {
        let answer = request(.post, "/checkout/v3/cancel", headers: [HTTPHeader("Authorization", "Basic abc")])
        #expect(answer.status == 401)
        let message = try #require((try Self.json(answer)["message"] as? [[String: Any]])?.first)
        #expect(
            message["error"] as? String
                == "The Authorization header must be Authorization: Bearer <checkoutSessionToken>.")
    }

    @Test("a sandbox records its changes to be kept or undone only once something keeps them")
    func recordsWhatIsKept() {
        let settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
        let sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { 0 })
        #expect(!sandbox.sessions.recordsSteps)
        sandbox.persist = { _ in nil }
        #expect(sandbox.sessions.recordsSteps)
        sandbox.persist = nil
        #expect(!sandbox.sessions.recordsSteps)
    }

    @Test(
        "a session refused for want of room says, in true words, what the paid orders hold and what to do, with --data or in memory",
        arguments: [
            (true, "with another --data directory"),
            (false, "send POST /control/v1/reset to forget every session"),
        ])
    func fullWords(kept: Bool, advice: String) throws {
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
        settings.sessionByteBudget = 1 << 20
        let recorder = self.recorder
        let sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { recorder.now })
        if kept { sandbox.persist = { _ in nil } }
        let body = Self.body.replacingOccurrences(
            of: #""level": 12"#, with: #""level": 12, "blob": "\#(String(repeating: "x", count: 600_000))""#)
        func create() -> HTTPServerResponse {
            sandbox.handleChecked(
                HTTPRequest(
                    method: .post, path: "/checkout/v1/session", query: "",
                    headers: [
                        HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1"),
                    ],
                    body: Array(body.utf8), keepAlive: true))
        }
        let first = create()
        #expect(first.status == 201)
        let purchaseId = try #require(try Self.json(first)["purchaseId"] as? String)
        let paid = sandbox.handleChecked(
            HTTPRequest(
                method: .post, path: "/control/v1/sessions/\(purchaseId)/complete", query: "",
                headers: [HTTPHeader("Content-Type", "application/json")], body: Array(#"{"choice": "pay"}"#.utf8),
                keepAlive: true))
        #expect(paid.status == 200)
        let refused = create()
        #expect(refused.status == 503)
        let words = try #require(try Self.json(refused)["errorMessage"] as? String)
        let pattern =
            #/no room for a new session: 1 paid order holds (\d+) KiB of the sandbox's session budget, 1 MiB, and this session needs (\d+) KiB; a paid order is never forgotten, so start serve with a larger --session-budget, or (.+)/#
        let match = try #require(try pattern.wholeMatch(in: words), "\(words)")
        #expect(match.3 == advice)
        #expect((580...700).contains(Int(match.1) ?? 0) && (580...700).contains(Int(match.2) ?? 0), "\(words)")
    }

    @Test("the orders report gives each product the offer's price as paid, and the project's id as publisherId")
    func reportProductsAndProject() throws {
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
        settings.projectId = "studio-42"
        let recorder = self.recorder
        let sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { recorder.now })
        func send(_ path: String, _ body: String) -> HTTPServerResponse {
            sandbox.handleChecked(
                HTTPRequest(
                    method: .post, path: path, query: "",
                    headers: [
                        HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1"),
                    ],
                    body: Array(body.utf8), keepAlive: true))
        }
        let purchaseId = try #require(try Self.json(send("/checkout/v1/session", Self.body))["purchaseId"] as? String)
        #expect(send("/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pay"}"#).status == 200)
        let report = try Self.json(
            send("/reporting/reports/orders", #"{"startDate":"2024-06-12","endDate":"2024-06-12"}"#))
        let order = try #require((report["results"] as? [[String: Any]])?.first)
        #expect(order["publisherId"] as? String == "studio-42")
        let products = try #require((order["offerDetails"] as? [String: Any])?["products"] as? [[String: Any]])
        #expect(products.count == 1)
        #expect(products.first?["price"] as? Int == order["priceInCents"] as? Int)
        #expect(products.first?["price"] as? Int == 549)
        #expect(
            products.first?.keys.sorted() == ["amount", "currencyCode", "name", "price", "publisherProductId", "sku"])
    }

    // MARK: What an order's page says

    /// A paid order and a form of its page sent (`action`, with `fields`), as a browser
    /// sends it; the answer.
    func form(_ purchaseId: String, _ action: String, _ fields: String) -> HTTPServerResponse {
        request(
            .post, "/orders/\(purchaseId)/\(action)", body: "\(fields)&formToken=\(Self.formToken)",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")])
    }

    /// The order's page at `location`, a path and a query.
    func page(_ location: String) -> String {
        let parts = location.split(separator: "?", maxSplits: 1).map(String.init)
        let answer = sandbox.handleChecked(
            HTTPRequest(
                method: .get, path: parts[0], query: parts.count > 1 ? parts[1] : "", headers: [], body: [],
                keepAlive: true))
        return String(decoding: answer.body, as: UTF8.self)
    }

    @Test(
        "an order's page never shows text a link carries, as a notice or as a refusal",
        arguments: [
            "said=Your%20account%20is%20suspended%3B%20call%20%2B1%20555%200100&problem=1",
            "said=%3Cscript%3Ealert(1)%3C%2Fscript%3E", "said=1", "said=999999999999999999999", "said=-1", "said=",
        ])
    func linkTextNotShown(query: String) throws {
        let (_, purchaseId) = try session()
        #expect(complete(purchaseId, #"{"choice": "pay"}"#).status == 200)
        let html = page("/orders/\(purchaseId)?\(query)")
        #expect(html.contains("<h2>Actions</h2>"), "the order's page")
        #expect(!html.contains(#"<p class="said"#), "\(query)")
        #expect(!html.contains("suspended") && !html.contains("alert(1)"))
    }

    @Test("a form comes back to its order's page with a token the sandbox issued, and the page words it")
    func formOutcome() throws {
        let (_, purchaseId) = try session()
        #expect(complete(purchaseId, #"{"choice": "pay"}"#).status == 200)
        let refund = form(purchaseId, "refund", "amount=100&outcome=refunded")
        #expect(refund.status == 303)
        let done = try #require(refund.headers.first { $0.name == "Location" }?.value)
        #expect(done.hasPrefix("/orders/\(purchaseId)?said="))
        let issued = done.dropFirst("/orders/\(purchaseId)?said=".count)
        #expect(issued.count == 32 && issued.allSatisfy(\.isHexDigit), "a token, no words: \(done)")
        #expect(page(done).contains(#"<p class="said">done: the order is payment_refunded</p>"#))
        let refused = try #require(
            form(purchaseId, "dispute", "outcome=won").headers.first { $0.name == "Location" }?.value)
        #expect(
            page(refused).contains(
                #"<p class="said problem">the order is payment_refunded; a dispute needs a paid order"#))
        let badAmount = try #require(
            form(purchaseId, "refund", "amount=-5").headers.first { $0.name == "Location" }?.value)
        #expect(!badAmount.contains("problem"))
        #expect(
            page(badAmount).contains(
                #"<p class="said problem">the amount &#39;-5&#39; is not a whole number of minor units from 1 to 549, "#
                    + "the order&#39;s price; leave it empty to refund all of it</p>"))
        // Another order's page shows nothing of this one's notices.
        let (_, other) = try session()
        #expect(complete(other, #"{"choice": "pay"}"#).status == 200)
        let number = done.split(separator: "=").last.map(String.init) ?? ""
        #expect(!page("/orders/\(other)?said=\(number)").contains(#"<p class="said"#))
    }
}

/// The sandbox's pages and listings stay a bounded size however large what they show.
@MainActor
@Suite("Sandbox answers, bounded")
struct SandboxBoundedAnswersTests {
    @Test("the dashboard and an order's page shorten long names and bodies, and show the newest 100 deliveries")
    func pagesBounded() throws {
        let base = SandboxTests()
        let name = String(repeating: "n", count: 300_000)
        for _ in 0..<10 {
            #expect(base.create(SandboxTests.body.replacingOccurrences(of: "Starter Pack", with: name)).status == 201)
        }
        let home = base.request(.get, "/", headers: [HTTPHeader("Host", "127.0.0.1:4010")])
        #expect(home.status == 200)
        #expect(home.body.count < 64 << 10, "\(home.body.count) bytes for ten sessions of 300 KB names")
        let purchaseId = try #require(base.sandbox.heldSessions.first?.purchaseId)
        let large = Array(#"{"blob":""#.utf8) + [UInt8](repeating: 0x62, count: 256 << 10) + Array(#""}"#.utf8)
        for _ in 0..<150 {
            base.sandbox.delivered(
                .event, purchaseId: purchaseId, name: "order.completed", url: "http://127.0.0.1:1/events", body: large,
                attempts: [DeliveryAttempt(number: 1, sentAfter: 0, headers: [])])
        }
        let page = base.request(.get, "/orders/\(purchaseId)", headers: [HTTPHeader("Host", "127.0.0.1:4010")])
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(page.status == 200)
        #expect(page.body.count < 4 << 20, "\(page.body.count) bytes for 150 deliveries of 256 KiB")
        #expect(html.contains("The newest 100 deliveries are shown"))
        #expect(html.contains("bytes more: GET /control/v1/deliveries/dl_150 has them all"))
        // The listing pages by bytes: every delivery on some page, no page far past 8 MiB.
        var seen = Set<String>()
        var cursor = ""
        repeat {
            let answer = base.sandbox.handleChecked(
                HTTPRequest(
                    method: .get, path: "/control/v1/deliveries", query: "limit=100" + cursor,
                    headers: [HTTPHeader("Host", "127.0.0.1:4010")], body: [], keepAlive: true))
            #expect(answer.body.count < Reports.pageBytes + (4 << 20))
            let json = try SandboxTests.json(answer)
            let ids = (json["deliveries"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(!ids.isEmpty)
            seen.formUnion(ids)
            cursor = (json["nextCursor"] as? String).map { "&cursor=" + $0 } ?? ""
        } while !cursor.isEmpty && seen.count < 150
        #expect(seen.count == 150)
    }
}

/// What the sandbox keeps, through a `persist` that fails when a test says so.
@MainActor
@Suite("Sandbox keeping its changes")
struct SandboxKeepingTests {
    final class Disk {
        var full = false
        var written: [(sessions: [CheckoutSessions.Session], deliveries: [DeliveryHistory.Delivery])] = []
    }

    @Test(
        "on a full disk a change is 503 and undone; a read, or what waits from before, is not refused; it all goes with the next write"
    )
    func readsOnAFullDisk() throws {
        let base = SandboxTests()
        let disk = Disk()
        base.sandbox.persist = { changed in
            guard !disk.full else { return "no space left on device" }
            disk.written.append((changed.sessions, changed.deliveries))
            return nil
        }
        let created = try SandboxTests.json(base.create())
        let purchaseId = try #require(created["purchaseId"] as? String)
        disk.full = true
        // What the sandbox learns on its own waits in memory.
        base.sandbox.delivered(
            .event, purchaseId: purchaseId, name: "order.created", url: "http://127.0.0.1:1/events", body: [],
            attempts: [DeliveryAttempt(number: 1, sentAfter: 0, headers: [])])
        let state = base.request(.get, "/control/v1/sessions/\(purchaseId)", headers: [HTTPHeader("Host", "127.0.0.1")])
        #expect(state.status == 200)
        #expect(base.create().status == 503)
        #expect(base.sandbox.sessionCount == 1, "the refused session is not held")
        // For a second after a write failed, what waits is not written again for a read.
        disk.full = false
        _ = base.request(.get, "/control/v1/sessions/\(purchaseId)", headers: [HTTPHeader("Host", "127.0.0.1")])
        #expect(disk.written.count == 1)
        // A change is tried at once, and what waited goes with it.
        #expect(base.create().status == 201)
        #expect(disk.written.last?.deliveries.map(\.name) == ["order.created"])
        #expect(disk.written.last?.sessions.count == 1)
    }
}

// MARK: Refusals as pages

extension SandboxTests {
    /// A form sent to `path` with the form token, as a page of the sandbox sends it.
    func post(_ path: String, _ fields: String) -> HTTPServerResponse {
        request(
            .post, path, body: "\(fields)&formToken=\(Self.formToken)",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")])
    }

    /// Whether `response` is a page, as a browser shows a refusal.
    static func isPage(_ response: HTTPServerResponse) -> Bool {
        response.headers.contains(HTTPHeader("Content-Type", "text/html; charset=utf-8"))
            && String(decoding: response.body, as: UTF8.self).hasPrefix("<!DOCTYPE html>")
    }

    @Test(
        "a Host the sandbox does not serve is refused with a page on the pages, the legacy link's included, else JSON")
    func misdirectedByAudience() {
        for (path, page) in [
            ("/players/p1", true), ("/orders/pr_1", true), ("/abc", true), ("/", true), ("/openapi.json", false),
            ("/control/v1/health", false), ("/v1/price-points", false),
        ] {
            let answer = request(.get, path, headers: [HTTPHeader("Host", "evil.example")])
            #expect(answer.status == 421, "\(path)")
            #expect(Self.isPage(answer) == page, "\(path): \(answer.headers)")
        }
    }

    @Test("a checkout, order or delivery form refused is a short page with the same status")
    func formRefusalsArePages() throws {
        let (token, purchaseId) = try session()
        let bogus = post("/checkout/\(token)", "choice=bogus")
        #expect(bogus.status == 400)
        #expect(Self.isPage(bogus), "\(bogus.headers)")
        #expect(String(decoding: bogus.body, as: UTF8.self).contains("choose one of: pay"))
        let zap = post("/orders/\(purchaseId)/zap", "")
        #expect(zap.status == 404)
        #expect(Self.isPage(zap), "\(zap.headers)")
        let replay = post("/deliveries/zz/replay", "")
        #expect(replay.status == 404)
        #expect(Self.isPage(replay), "\(replay.headers)")
        #expect(String(decoding: replay.body, as: UTF8.self).contains("No delivery has the id"))
    }

    @Test("an order form for an order the sandbox does not hold is the 404 page at once, whatever its fields")
    func unknownOrderForms() {
        for (action, fields) in [
            ("refund", ""), ("refund", "amount=5"), ("dispute", "outcome=zz"), ("dispute", "outcome=open"),
            ("retry-award", ""), ("resolve", "outcome=maybe"), ("zap", ""),
        ] {
            let answer = post("/orders/nosuch/\(action)", fields)
            #expect(answer.status == 404, "\(action) \(fields)")
            #expect(Self.isPage(answer), "\(action) \(fields)")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("No such order"), "\(action) \(fields)")
        }
    }
}
