import Testing

@testable import _OpenAPIContract

/// The contract's matching of exchanges to a document's operations: templates, the literal
/// path over the template, status ranges, content types, parameters and bodies.
@Suite struct OpenAPIContractTests {
    /// A document small enough to read, with one of each thing the contract matches.
    static let text = ##"""
        {"openapi": "3.1.0", "paths": {
          "/items/{id}": {
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
            "get": {"parameters": [{"name": "verbose", "in": "query", "schema": {"type": "boolean"}},
                                   {"name": "limit", "in": "query", "required": true, "schema": {"type": "integer", "maximum": 10}},
                                   {"name": "x-token", "in": "header", "required": true, "schema": {"type": "string"}}],
              "responses": {
                "200": {"description": "d", "headers": {"X-Count": {"required": true, "schema": {"type": "integer"}}},
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
                "4XX": {"description": "d", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
                "default": {"description": "d", "content": {"text/plain": {"schema": {"const": "down"}}}}}},
            "post": {"requestBody": {"required": true, "content": {
                "application/json": {"schema": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}},
                "application/x-www-form-urlencoded": {"schema": {"type": "object", "required": ["name"], "properties": {"count": {"type": "integer", "maximum": 9}}, "additionalProperties": {"type": "string"}}}}},
              "responses": {"303": {"description": "d", "headers": {"Location": {"required": true, "schema": {"type": "string"}}}}}}},
          "/items/new": {"get": {"responses": {"200": {"description": "d",
              "content": {"text/html; charset=utf-8": {"schema": {"type": "string", "pattern": "^<!doctype"}}}}}},
            "head": {"responses": {"200": {"description": "d"}}}},
          "/{token}": {"get": {"responses": {"200": {"description": "d"}}}}},
         "webhooks": {"award": {"post": {
            "parameters": [{"name": "signature", "in": "header", "required": true, "schema": {"type": "string", "pattern": "^t="}}],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["id"]}}}},
            "responses": {"200": {"description": "d", "content": {"application/json": {"schema": {"const": {"ok": true}}}}}}}}},
         "components": {"schemas": {
           "Item": {"type": "object", "required": ["id"], "additionalProperties": false, "properties": {"id": {"type": "integer"}}},
           "Problem": {"type": "object", "required": ["errorCode"], "properties": {"errorCode": {"type": "integer"}}}}}}
        """##

    let contract: OpenAPIContract

    init() throws {
        contract = try OpenAPIContract(document: Array(Self.text.utf8))
    }

    /// A fine GET of an item: headers, parameters and body as documented.
    func getItem(
        path: String = "/items/7", query: String = "limit=3&verbose=true",
        requestHeaders: [OpenAPIContract.Header] = [("X-Token", "t")],
        status: Int = 200,
        responseHeaders: [OpenAPIContract.Header] = [("Content-Type", "application/json"), ("X-Count", "1")],
        body: String = ##"{"id": 7}"##
    ) -> [String] {
        contract.problems(
            method: "GET", path: path, query: query, requestHeaders: requestHeaders, status: status,
            responseHeaders: responseHeaders, responseBody: Array(body.utf8))
    }

    @Test func operationsAreListed() {
        #expect(
            contract.operations == [
                "GET /items/{id}", "POST /items/{id}", "GET /items/new", "HEAD /items/new", "GET /{token}",
            ])
        #expect(contract.webhooks == ["award"])
    }

    @Test func fineExchangeHasNoProblems() {
        #expect(getItem() == [])
    }

    @Test func renamedFieldIsCaught() {
        let problems = getItem(body: ##"{"itemId": 7}"##)
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.allSatisfy { $0.hasPrefix("GET /items/{id}: response 200 body") })
    }

    @Test func templateMatchesAnySegment() {
        #expect(getItem(path: "/items/x").contains { $0.contains("path parameter id") })
        // An empty segment matches a template too.
        #expect(getItem(path: "/items/").contains { $0.contains("path parameter id") })
        #expect(
            getItem(path: "/items/7/more") == [
                "GET /items/7/more: no path of the document matches /items/7/more (answered 200)"
            ])
    }

    @Test func literalPathWinsOverTemplate() {
        let html = [("Content-Type", "text/html; charset=utf-8")]
        #expect(
            contract.problems(
                method: "GET", path: "/items/new", status: 200, responseHeaders: html,
                responseBody: Array("<!doctype html>".utf8)) == [])
        #expect(
            contract.problems(
                method: "GET", path: "/items/new", status: 200, responseHeaders: html, responseBody: Array("<p>".utf8)
            ).count == 1)
    }

    @Test func headNeedsItsOperation() {
        #expect(
            contract.problems(
                method: "HEAD", path: "/items/new", status: 200,
                responseHeaders: [("Content-Type", "text/html; charset=utf-8")]) == [])
        #expect(
            contract.problems(method: "HEAD", path: "/items/7", status: 200)
                == ["HEAD /items/{id}: answered 200, but the document has no head operation at /items/{id}"])
    }

    @Test func undocumentedMethodIs405OrAProblem() {
        #expect(
            contract.problems(
                method: "DELETE", path: "/items/7", status: 405, responseHeaders: [("Allow", "GET, POST")]) == [])
        #expect(contract.problems(method: "DELETE", path: "/items/7", status: 405).count == 1)
        #expect(contract.problems(method: "DELETE", path: "/items/7", status: 200).count == 1)
    }

    @Test func statusRangesAndDefault() {
        #expect(
            getItem(
                status: 404, responseHeaders: [("Content-Type", "application/json")], body: ##"{"errorCode": 404}"##)
                == [])
        #expect(
            getItem(status: 404, responseHeaders: [("Content-Type", "application/json")], body: ##"{"code": 404}"##)
                .count == 1)
        #expect(getItem(status: 503, responseHeaders: [("Content-Type", "text/plain")], body: "down") == [])
        #expect(getItem(status: 503, responseHeaders: [("Content-Type", "text/plain")], body: "up").count == 1)
        let none = try? OpenAPIContract(
            document: Array(##"{"paths": {"/a": {"get": {"responses": {"200": {"description": "d"}}}}}}"##.utf8))
        #expect(none?.problems(method: "GET", path: "/a", status: 201) == ["GET /a: response 201 is not documented"])
    }

    @Test func contentTypes() {
        #expect(
            getItem(responseHeaders: [("content-type", "Application/JSON; charset=utf-8"), ("X-Count", "1")]) == [])
        #expect(getItem(responseHeaders: [("Content-Type", "text/html"), ("X-Count", "1")]).count == 1)
        #expect(getItem(responseHeaders: [("X-Count", "1")]).count == 1)
        let html = { (type: String) in
            self.contract.problems(
                method: "GET", path: "/items/new", status: 200, responseHeaders: [("Content-Type", type)],
                responseBody: Array("<!doctype html>".utf8))
        }
        #expect(html("TEXT/HTML; Charset=UTF-8") == [])
        #expect(html("text/html").count == 1)
        #expect(html("text/html; charset=latin1").count == 1)
    }

    @Test func responseHeaders() {
        #expect(
            getItem(responseHeaders: [("Content-Type", "application/json")]) == [
                "GET /items/{id}: response 200 has no X-Count header"
            ])
        #expect(getItem(responseHeaders: [("Content-Type", "application/json"), ("x-count", "many")]).count == 1)
    }

    @Test func requestParameters() {
        #expect(getItem(query: "limit=3").isEmpty)
        #expect(getItem(query: "limit=3.0").isEmpty)
        #expect(getItem(query: "limit=11").count == 1)
        #expect(getItem(query: "limit=three").count == 1)
        #expect(getItem(query: "") == ["GET /items/{id}: request has no query parameter limit"])
        #expect(getItem(query: "limit=3&verbose=yes").count == 1)
        #expect(getItem(requestHeaders: []) == ["GET /items/{id}: request has no header parameter x-token"])
        // A refused request is not held to the document: it may be wrong on purpose.
        #expect(
            getItem(
                query: "", status: 404, responseHeaders: [("Content-Type", "application/json")],
                body: ##"{"errorCode": 404}"##) == [])
    }

    @Test func requestBodies() {
        let post = { (type: String?, body: String) in
            self.contract.problems(
                method: "POST", path: "/items/7", requestHeaders: type.map { [("Content-Type", $0)] } ?? [],
                requestBody: Array(body.utf8), status: 303, responseHeaders: [("Location", "/items/7")])
        }
        #expect(post("application/json", ##"{"name": "a"}"##) == [])
        #expect(post("application/json", ##"{"title": "a"}"##).count == 1)
        #expect(post("application/json", "{").count == 1)
        #expect(post("application/x-www-form-urlencoded", "name=a+b&x=%2F") == [])
        #expect(post("application/x-www-form-urlencoded", "title=a").count == 1)
        // A form's field is read as its property's type reads it.
        #expect(post("application/x-www-form-urlencoded", "name=a&count=5") == [])
        #expect(post("application/x-www-form-urlencoded", "name=a&count=five").count == 1)
        #expect(post("application/x-www-form-urlencoded", "name=a&count=12").count == 1)
        #expect(post("text/plain", "name").count == 1)
        #expect(post(nil, "") == ["POST /items/{id}: request has no body, which the document requires"])
        #expect(
            contract.problems(
                method: "POST", path: "/items/7", requestHeaders: [("Content-Type", "application/json")],
                requestBody: Array(##"{"name": "a"}"##.utf8), status: 303)
                == ["POST /items/{id}: response 303 has no Location header"])
    }

    @Test func webhooks() {
        let body = Array(##"{"id": 1}"##.utf8)
        #expect(
            contract.webhookProblems(
                name: "award", headers: [("signature", "t=1,v1=ab"), ("Content-Type", "application/json")], body: body)
                == [])
        #expect(
            contract.webhookProblems(name: "award", headers: [("Content-Type", "application/json")], body: body).count
                == 1)
        #expect(
            contract.webhookProblems(
                name: "award", headers: [("signature", "v1=ab"), ("Content-Type", "application/json")], body: body
            ).count == 1)
        #expect(
            contract.webhookProblems(
                name: "award", headers: [("signature", "t=1"), ("Content-Type", "application/json")],
                body: Array("{}".utf8)
            ).count == 1)
        #expect(contract.webhookProblems(name: "refund", headers: [], body: body).count == 1)
        #expect(
            contract.webhookAnswerProblems(
                name: "award", status: 200, headers: [("Content-Type", "application/json")],
                body: Array(##"{"ok": true}"##.utf8)) == [])
        #expect(
            contract.webhookAnswerProblems(
                name: "award", status: 200, headers: [("Content-Type", "application/json")],
                body: Array(##"{"ok": false}"##.utf8)
            ).count == 1)
        #expect(contract.webhookAnswerProblems(name: "award", status: 500, headers: [], body: []).count == 1)
    }

    @Test func notJSONDocumentIsRefused() {
        #expect(throws: OpenAPIContract.DocumentError.self) { try OpenAPIContract(document: Array("{".utf8)) }
    }
}

/// Exchanges read from the wire.
@Suite struct OpenAPIContractWireTests {
    let contract: OpenAPIContract

    init() throws {
        contract = try OpenAPIContract(document: Array(OpenAPIContractTests.text.utf8))
    }

    func check(_ request: String, _ answer: String) -> [String] {
        contract.problems(request: Array(request.utf8), answer: Array(answer.utf8))
    }

    @Test func fineExchange() {
        let request = "GET /items/7?limit=2 HTTP/1.1\r\nHost: a\r\nX-Token: t\r\n\r\n"
        let answer =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Count: 1\r\nContent-Length: 9\r\n\r\n{\"id\": 7}"
        #expect(check(request, answer) == [])
        // What follows the first answer is not part of it.
        #expect(check(request, answer + "HTTP/1.1 200 OK\r\n\r\n") == [])
        #expect(check(request, answer.replacingOccurrences("\"id\"", "\"ix\"")).count == 2)
    }

    @Test func chunkedAnswer() {
        let request = "GET /items/7?limit=2 HTTP/1.1\r\nX-Token: t\r\n\r\n"
        let answer =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Count: 1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"id\r\n5\r\n\": 7}\r\n0\r\n\r\n"
        #expect(check(request, answer) == [])
    }

    @Test func requestBodyAndHead() {
        let request =
            "POST /items/7 HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 6\r\n\r\nname=a"
        #expect(check(request, "HTTP/1.1 303 See Other\r\nLocation: /items/7\r\nContent-Length: 0\r\n\r\n") == [])
        #expect(
            check(
                request.replacingOccurrences("name=a", "nome=a"),
                "HTTP/1.1 303 See Other\r\nLocation: /\r\nContent-Length: 0\r\n\r\n"
            ).count == 1)
        #expect(
            check(
                "HEAD /items/new HTTP/1.1\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 15\r\n\r\n") == [])
    }

    @Test func unreadableAnswer() {
        #expect(check("GET /items/new HTTP/1.1\r\n\r\n", "").count == 1)
    }
}

extension String {
    /// The text with every `target` replaced by `replacement`.
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        replacing(target, with: replacement)
    }
}
