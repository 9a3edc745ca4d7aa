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
        "a malformed request line is quoted as sent, no character dropped: what shows it escapes it",
        arguments: [
            "G\u{E9}T / HTTP/1.1", "GET /\u{65E5}\u{672C} x HTTP/1.1", "GET /a\u{1}b HTTP/1.1",
            "GET /\u{1B}[2J HTTP/1.1",
        ])
    func requestLineQuoted(line: String) {
        #expect(refusal("\(line)\r\nHost: x\r\n\r\n") == .malformed("the request line is '\(line)'"))
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

    @Test("Transfer-Encoding with Content-Length is 400; an unknown coding 501; chunked not last, or twice, 400")
    func transferCodings() throws {
        #expect(
            refusal("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\nContent-Length: 2\r\n\r\nhi")
                == .malformed("both Transfer-Encoding and Content-Length frame the body"))
        #expect(
            refusal("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\nhi")?.status == 400)
        // A Transfer-Encoding that names nothing still frames the body for a reader in front of
        // this one: beside Content-Length it is two framings, and alone it is malformed.
        for value in ["", " ", ",", " , ,"] {
            #expect(
                refusal("POST / HTTP/1.1\r\nTransfer-Encoding:\(value)\r\nContent-Length: 2\r\n\r\nhi")
                    == .malformed("both Transfer-Encoding and Content-Length frame the body"))
            #expect(
                refusal("POST / HTTP/1.1\r\nTransfer-Encoding:\(value)\r\n\r\n")
                    == .malformed("Transfer-Encoding names no transfer coding"))
        }
        #expect(refusal("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n") == .unknownTransferCoding("gzip"))
        // A coding is compared in bytes: a Kelvin sign (U+212A), which Unicode lowercases to k,
        // is no k, so the body is not read as chunked, as a reader comparing bytes reads it.
        #expect(
            refusal("POST / HTTP/1.1\r\nTransfer-Encoding: chun\u{212A}ed\r\n\r\n0\r\n\r\n")
                == .unknownTransferCoding("chun\u{212A}ed"))
        #expect(
            refusal("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n")
                == .unknownTransferCoding("gzip"))
        #expect(
            refusal("POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n")
                == .malformed("chunked is not the last transfer coding"))
        #expect(
            refusal("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
                == .malformed("the chunked transfer coding is applied twice"))
        #expect(
            refusal("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
                == .malformed("an HTTP/1.0 request has Transfer-Encoding"))
        let text = "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n0\r\n\r\n"
        #expect(try parse(text) == .complete(Self.request(body: "", coding: "Chunked"), length: text.utf8.count))
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

    /// The request the chunked tests send: `POST /a`, its body as given.
    static func request(body: String, coding: String = "chunked", trailers: [HTTPHeader] = []) -> HTTPRequest {
        HTTPRequest(
            method: .post, path: "/a", query: "",
            headers: [HTTPHeader("Host", "x"), HTTPHeader("Transfer-Encoding", coding)],
            body: Array(body.utf8), keepAlive: true)
    }

    /// A chunked request's head, to which a body is added.
    static let chunkedHead = "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"

    /// What `bytes` give when they arrive one at a time, each read going on from the last:
    /// the first refusal or whole request, or `.incomplete`.
    func parsedByteByByte(_ bytes: [UInt8]) -> Result<HTTPRequestParser.Result, HTTPRequestError> {
        var progress = HTTPRequestParser.Progress()
        for end in 1...bytes.count {
            do {
                let result = try parser.parse(bytes[..<end], resuming: &progress)
                if result != .incomplete { return .success(result) }
            } catch {
                return .failure(error)
            }
        }
        return .success(.incomplete)
    }

    /// What `bytes` give arriving whole, then split in two at each byte, as
    /// ``parsedByteByByte(_:)`` does.
    func parsedWholeAndSplit(_ text: String) -> [Result<HTTPRequestParser.Result, HTTPRequestError>] {
        let bytes = Array(text.utf8)
        var results: [Result<HTTPRequestParser.Result, HTTPRequestError>] = []
        results.append(Result { () throws(HTTPRequestError) in try parser.parse(bytes[...]) })
        for split in 1..<bytes.count {
            var progress = HTTPRequestParser.Progress()
            results.append(
                Result { () throws(HTTPRequestError) in
                    let first = try parser.parse(bytes[..<split], resuming: &progress)
                    return first == .incomplete ? try parser.parse(bytes[...], resuming: &progress) : first
                })
        }
        results.append(parsedByteByByte(bytes))
        return results
    }

    @Test(
        "a chunked body is read whole, split anywhere, or a byte at a time, its extensions and trailers dropped",
        arguments: [
            ("5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", "hello world"),
            ("5;name=value\r\nhello\r\n6 ; a=\"b;c\" ;d\r\n world\r\n0;last\r\n\r\n", "hello world"),
            ("A\r\n0123456789\r\na\r\nabcdefghij\r\n0\r\nX-Sum: 1\r\nX-Other:two\r\n\r\n", "0123456789abcdefghij"),
            ("000000000000000B\r\n{\"a\":\"\r\n!\"}\r\n0000\r\n\r\n", "{\"a\":\"\r\n!\"}"),
            ("0\r\n\r\n", ""),
        ])
    func chunkedBody(chunks: String, body: String) {
        let text = Self.chunkedHead + chunks
        let expected = HTTPRequestParser.Result.complete(Self.request(body: body), length: text.utf8.count)
        for (index, result) in parsedWholeAndSplit(text).enumerated() {
            #expect(result == .success(expected), "split at \(index)")
        }
    }

    @Test("bytes after a chunked body's trailers are the next request's")
    func pipelinedAfterChunked() throws {
        let first = Self.chunkedHead + "2\r\nhi\r\n0\r\nX-T: 1\r\n\r\n"
        let second = "GET /b HTTP/1.1\r\nHost: x\r\n\r\n"
        let bytes = Array((first + second).utf8)
        guard case .complete(let request, let length) = try parser.parse(bytes[...]) else {
            Issue.record("expected a whole request")
            return
        }
        #expect(request.body == Array("hi".utf8) && length == first.utf8.count)
        guard case .complete(let next, let nextLength) = try parser.parse(bytes[length...]) else {
            Issue.record("expected the second request")
            return
        }
        #expect(next.method == .get && next.path == "/b" && nextLength == second.utf8.count)
    }

    @Test(
        "a malformed chunked body is 400, at the same byte however it was split",
        arguments: [
            ("g\r\nhello\r\n0\r\n\r\n", "a chunk size is not 1 to 16 hex digits: 'g'"),
            ("\r\n", "a chunk size is not 1 to 16 hex digits: ''"),
            ("-1\r\n", "a chunk size is not 1 to 16 hex digits: '-'"),
            ("0x5\r\n", "a chunk size is not 1 to 16 hex digits: '0x'"),
            (";a=b\r\n", "a chunk size is not 1 to 16 hex digits: ';'"),
            ("1 0\r\n", "a chunk size is not 1 to 16 hex digits: '1 0'"),
            ("00000000000000000001\r\nx\r\n0\r\n\r\n", "a chunk size is not 1 to 16 hex digits: '00000000000000000'"),
            ("5\r\nhelloX\r\n0\r\n\r\n", "a chunk's data does not end in CRLF"),
            ("5\r\nhello\n0\r\n\r\n", "a chunk's data does not end in CRLF"),
            ("5\r\nhello\r0\r\n\r\n", "a chunk's data does not end in CRLF"),
            ("5\nhello\r\n0\r\n\r\n", "a line of the chunked body does not end in CRLF"),
            ("5\rhello\r\n0\r\n\r\n", "a line of the chunked body does not end in CRLF"),
            ("5;a\nhello\r\n0\r\n\r\n", "a line of the chunked body does not end in CRLF"),
            ("0\r\n\n", "a line of the chunked body does not end in CRLF"),
            ("0\r\n\rX", "a line of the chunked body does not end in CRLF"),
            ("5;a=\u{1}\r\nhello\r\n0\r\n\r\n", "a chunk extension holds a control character"),
            ("0\r\nX-T 1\r\n\r\n", "a trailer's name is empty or holds a blank"),
            ("0\r\n: 1\r\n\r\n", "a trailer's name is empty or holds a blank"),
            ("0\r\nX-T\r\n\r\n", "a trailer has no ':'"),
            ("0\r\nX-T: a\nb\r\n\r\n", "a trailer's value holds a CR, an LF or a NUL"),
            ("0\r\nX-T: a\rb\r\n\r\n", "a trailer's value holds a CR, an LF or a NUL"),
        ])
    func malformedChunks(chunks: String, reason: String) {
        for (index, result) in parsedWholeAndSplit(Self.chunkedHead + chunks).enumerated() {
            #expect(result == .failure(.malformed(reason)), "split at \(index)")
        }
    }

    @Test("a chunked body is held to the body's limit as its sizes come, and its trailers to the head's")
    func chunkedLimits() throws {
        // 1,024 bytes of data are taken; one more is refused at the size that passes the limit.
        let full = String(repeating: "200\r\n" + String(repeating: "a", count: 512) + "\r\n", count: 2)
        guard case .complete(let request, _) = try parse(Self.chunkedHead + full + "0\r\n\r\n") else {
            Issue.record("a body of exactly the limit is taken")
            return
        }
        #expect(request.body.count == 1024)
        #expect(refusal(Self.chunkedHead + full + "1\r\n") == .bodyTooLarge(limit: 1024))
        #expect(refusal(Self.chunkedHead + "401\r\n") == .bodyTooLarge(limit: 1024))
        #expect(refusal(Self.chunkedHead + "ffffffffffffffff\r\n") == .bodyTooLarge(limit: 1024))
        // The body as sent, framing and all, is at most the body's limit and the head's.
        let tiny = String(repeating: "1;" + String(repeating: "e", count: 200) + "\r\nx\r\n", count: 20)
        #expect(refusal(Self.chunkedHead + tiny) == .bodyTooLarge(limit: 1024))
        // Trailers count with the head toward the head's limit.
        let trailer = "X-T: " + String(repeating: "t", count: 1024 - Self.chunkedHead.utf8.count) + "\r\n"
        #expect(refusal(Self.chunkedHead + "0\r\n" + trailer) == .headersTooLarge(limit: 1024))
        #expect(try parse(Self.chunkedHead + "0\r\nX-T: 1\r\n") == .incomplete)
        // A size line, its extensions included, is at most 4 KiB, whatever the limits.
        let roomy = HTTPRequestParser(maximumHeadSize: 16 << 10, maximumBodySize: 1 << 20)
        let longLine = Self.chunkedHead + "5;" + String(repeating: "e", count: 4094)
        #expect(try roomy.parse(Array((longLine + "\r\nhello\r\n0\r\n\r\n").utf8)[...]) != .incomplete)
        #expect(
            throws: HTTPRequestError.malformed("a chunk's size line is longer than 4096 bytes"),
            performing: { try roomy.parse(Array((longLine + "e").utf8)[...]) })
    }

    @Test("a chunked body arriving a byte at a time is read in time linear in its length")
    func chunkedLinear() {
        let parser = HTTPRequestParser(maximumHeadSize: 16 << 10, maximumBodySize: 1 << 20)
        let chunk = "100\r\n" + String(repeating: "a", count: 256) + "\r\n"
        let bytes = Array((Self.chunkedHead + String(repeating: chunk, count: 1024) + "0\r\n\r\n").utf8)
        var progress = HTTPRequestParser.Progress()
        var result = HTTPRequestParser.Result.incomplete
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for end in 1...bytes.count where result == .incomplete {
                result = (try? parser.parse(bytes[..<end], resuming: &progress)) ?? .incomplete
            }
        }
        guard case .complete(let request, let length) = result else {
            Issue.record("expected a whole request")
            return
        }
        #expect(request.body.count == 256 << 10 && length == bytes.count)
        // Read from its start at every byte, it would take minutes.
        #expect(elapsed < .seconds(10), "\(elapsed)")
    }

    @Test("a header's name is found in any case of its ASCII letters, and no other character folds")
    func namesInAnyCase() {
        #expect(HTTPHeader("Content-Type", "x").isNamed("content-type"))
        #expect(HTTPHeader("X-PUBLISHER-TOKEN", "x").isNamed("x-publisher-token"))
        #expect(!HTTPHeader("Content-Typ", "x").isNamed("content-type"))
        // `[` and `{` differ by the bit that folds a letter's case; they are no letters.
        #expect(!HTTPHeader("a[", "x").isNamed("a{"))
        #expect(!HTTPHeader("a@", "x").isNamed("a`"))
        // The Kelvin sign is no `k`, though Unicode folds it so.
        #expect(!HTTPHeader("\u{212A}ey", "x").isNamed("key"))
        let request = HTTPRequest(
            method: .get, path: "/", query: "", headers: [HTTPHeader("HOST", "a"), HTTPHeader("host", "b")], body: [],
            keepAlive: true)
        #expect(request.header("Host") == "a")
    }

    @Test("the query begins at the target's first `?` byte, whatever character a combining mark makes of it")
    func queryByByte() throws {
        for (target, path, query) in [
            ("/orders?q=a?b", "/orders", "q=a?b"), ("/orders", "/orders", ""), ("/p?\u{301}=1", "/p", "\u{301}=1"),
            ("/?", "/", ""),
        ] {
            guard case .complete(let request, _) = try parse("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n") else {
                Issue.record("\(target) was not read whole")
                continue
            }
            #expect(request.path == path)
            #expect(request.query == query)
        }
    }
}
