import Testing

@testable import PaylinksHTTP

/// The request parser's framing rules, where RFC 9110 and 9112 say a recipient must
/// reject, and the limits a client cannot sidestep.
@Suite("HTTP request parser")
struct HTTPRequestParserTests {
    let parser = HTTPRequestParser(maximumHeadSize: 1024, maximumBodySize: 1024)

    func parse(_ text: String) throws(HTTPRequestError) -> HTTPRequestParser.Result {
        try parser.parse(Array(text.utf8)[...])
    }

    /// The error `text` is refused with, or nil when it is taken.
    func refusal(_ text: String) -> HTTPRequestError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("a request with a body is read whole, its method a type, its query apart")
    func wholeRequest() throws {
        let text = "POST /a?b=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi"
        guard case .complete(let request, let length) = try parse(text + "GET") else {
            Issue.record("expected a whole request")
            return
        }
        #expect(request.method == .post && request.path == "/a" && request.query == "b=1")
        #expect(request.body == Array("hi".utf8) && length == text.utf8.count)
    }

    @Test(
        "a method is any case-sensitive token, an unknown one too, and what is not a token is 400",
        arguments: ["get", "Get", "GET2", "M-SEARCH", "x!#$%&'*+-.^_`|~1"])
    func methodToken(method: String) throws {
        guard case .complete(let request, _) = try parse("\(method) / HTTP/1.1\r\nHost: x\r\n\r\n") else {
            Issue.record("expected a whole request")
            return
        }
        #expect(request.method.rawValue == method)
    }

    @Test("a method with a character outside tchar is 400", arguments: ["GE(T", "G/T", "GET:", "G\"T", "GÉT", "G{T"])
    func methodNotToken(method: String) {
        #expect(refusal("\(method) / HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 400)
    }

    @Test(
        "a bare CR, LF or NUL in a header value is 400",
        arguments: ["X-A: a\rb", "X-A: a\nb", "X-A: a\u{0}b"])
    func controlInValue(header: String) {
        #expect(
            refusal("GET / HTTP/1.1\r\nHost: x\r\n\(header)\r\n\r\n")
                == .malformed(
                    "a header's value holds a CR, an LF or a NUL"))
    }

    @Test("Content-Length is digits only: +5, -0, 0x5 and an empty value are 400", arguments: ["+5", "-0", "0x5", ""])
    func signedLength(value: String) {
        let text = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \(value)\r\n\r\n12345"
        #expect(refusal(text)?.status == 400)
    }

    @Test("Transfer-Encoding with Content-Length is 400; an unknown coding 501; chunked alone 411")
    func transferCodings() {
        #expect(
            refusal("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\nContent-Length: 2\r\n\r\nhi")
                == .malformed("both Transfer-Encoding and Content-Length frame the body"))
        #expect(
            refusal("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\nhi")?.status == 400)
        #expect(refusal("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n") == .unknownTransferCoding("gzip"))
        #expect(refusal("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n") == .lengthRequired)
    }

    @Test("blank lines before a request count toward the head's limit: CRLF alone, forever, is 431")
    func leadingBlankLines() throws {
        #expect(refusal(String(repeating: "\r\n", count: 600)) == .headersTooLarge(limit: 1024))
        #expect(
            refusal(String(repeating: "\r\n", count: 510) + "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                == .headersTooLarge(limit: 1024))
        guard case .complete(let request, _) = try parse("\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n") else {
            Issue.record("a few blank lines before a request are ignored")
            return
        }
        #expect(request.method == .get)
        #expect(try parse(String(repeating: "\r\n", count: 10)) == .incomplete)
    }
}
