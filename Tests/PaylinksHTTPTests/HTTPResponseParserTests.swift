import Testing

@testable import PaylinksHTTP

/// The response parser on bytes alone: every way a connection can split a response, the
/// three ways a body is framed, and the malformed heads it refuses.
@Suite("HTTP response parser")
struct HTTPResponseParserTests {
    let parser = HTTPResponseParser(maximumResponseSize: 1024, method: .post)

    func parse(_ text: String, closed: Bool = false, parser: HTTPResponseParser? = nil) throws
        -> HTTPResponseParser.Result
    {
        try (parser ?? self.parser).parse(Array(text.utf8)[...], closed: closed)
    }

    /// The response in `text`, checking that no shorter prefix of it is one.
    func whole(_ text: String, followedBy next: String = "") throws -> (HTTPResponse, Int, Bool) {
        let bytes = Array(text.utf8)
        for end in 0..<bytes.count {
            #expect(try parser.parse(bytes[..<end], closed: false) == .incomplete, "complete after \(end) bytes")
        }
        guard case .complete(let response, let length, let keepAlive) = try parse(text + next) else {
            Issue.record("no response in \(text.debugDescription)")
            throw HTTPError.connectionClosed
        }
        // Read as a connection delivers it, a byte more at each read, going on from where
        // the last read stopped: the same response, once the last byte is in.
        var progress = HTTPResponseParser.Progress()
        let all = Array((text + next).utf8)
        for end in 0..<bytes.count {
            #expect(try parser.parse(all[..<end], closed: false, resuming: &progress) == .incomplete)
        }
        #expect(
            try parser.parse(all[...], closed: false, resuming: &progress)
                == .complete(response, length: length, keepAlive: keepAlive))
        return (response, length, keepAlive)
    }

    @Test("a chunk's size line that goes on past 4 KiB is refused at once, not waited for to the size limit")
    func longChunkLine() throws {
        let parser = HTTPResponseParser(maximumResponseSize: 1 << 20, method: .post)
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "x", count: 5000)
        #expect(throws: HTTPError.malformedResponse("a chunk's size line is longer than 4096 bytes")) {
            try parser.parse(Array(text.utf8)[...], closed: false)
        }
    }

    @Test("a Content-Length body ends at its length, and the next response's bytes are left")
    func contentLength() throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{\"a\":\"b\"}"
        let (response, length, keepAlive) = try whole(text, followedBy: "HTTP/1.1 204 No Content\r\n\r\n")
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"a":"b"}"#)
        #expect(response.header("content-type") == "application/json")
        #expect(length == text.utf8.count)
        #expect(keepAlive)
    }

    @Test("chunks are joined, extensions and trailers skipped, sizes in either case")
    func chunked() throws {
        let text =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n4;ext=1\r\n{\"id\r\nB \r\n\":\"x\\\"y\\\\\"}\r\n0\r\nX-Trailer: 1\r\n\r\n"
        let (response, length, _) = try whole(text, followedBy: "HTTP/1.1 200")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"id":"x\"y\\"}"#)
        #expect(length == text.utf8.count)
    }

    @Test(
        "trailers frame nothing: an empty Transfer-Encoding, or one beside a Content-Length, in them is skipped",
        arguments: [
            "Transfer-Encoding:\r\n", "Transfer-Encoding: ,\r\n", "Content-Length: 3\r\nTransfer-Encoding:\r\n",
            "Content-Length: x\r\nTransfer-Encoding: gzip\r\nConnection: close\r\n",
        ])
    func trailersFrameNothing(trailers: String) throws {
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\(trailers)\r\n"
        let (response, length, keepAlive) = try whole(text, followedBy: "HTTP/1.1 200")
        #expect(response.body == Array("{}".utf8))
        #expect(length == text.utf8.count)
        #expect(keepAlive)
    }

    @Test("a coding is compared in bytes: a Kelvin sign is no k, and the body runs to the close")
    func kelvinIsNoK() throws {
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: CHUN\u{212A}ED\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
        #expect(try parse(text) == .incomplete)
        guard case .complete(let response, _, let keepAlive) = try parse(text, closed: true) else {
            Issue.record("no response at the close")
            return
        }
        #expect(response.body == Array("2\r\n{}\r\n0\r\n\r\n".utf8))
        #expect(!keepAlive)
    }

    @Test("a body without a length runs to the close, and the connection is not kept")
    func untilClose() throws {
        let text = "HTTP/1.1 500 Internal Server Error\r\n\r\npartial"
        #expect(try parse(text) == .incomplete)
        guard case .complete(let response, let length, let keepAlive) = try parse(text, closed: true) else {
            Issue.record("no response at the close")
            return
        }
        #expect(response.status == 500)
        #expect(response.body == Array("partial".utf8))
        #expect(length == text.utf8.count)
        #expect(!keepAlive)
    }

    @Test("HEAD, 204, 304 and 1xx have no body; HTTP/1.0 and Connection: close end the connection")
    func noBodyAndClosing() throws {
        let head = HTTPResponseParser(maximumResponseSize: 1024, method: .head)
        for (text, parser) in [
            ("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n", head),
            ("HTTP/1.1 204 No Content\r\n\r\n", self.parser),
            ("HTTP/1.1 304 Not Modified\r\n\r\n", self.parser),
            ("HTTP/1.1 100 Continue\r\n\r\n", self.parser),
        ] {
            let result = try parse(text, parser: parser)
            guard case .complete(let response, let length, true) = result else {
                Issue.record("\(text.debugDescription): \(result)")
                continue
            }
            #expect(response.body.isEmpty)
            #expect(length == text.utf8.count)
        }
        for text in [
            "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nconnection: CLOSE\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nConnection: upgrade,\t close \r\nContent-Length: 0\r\n\r\n",
        ] {
            guard case .complete(_, _, let keepAlive) = try parse(text) else {
                Issue.record("\(text.debugDescription) is incomplete")
                continue
            }
            #expect(!keepAlive, "\(text.debugDescription)")
        }
        // An option that only begins like close does not close.
        for text in [
            "HTTP/1.1 200 OK\r\nConnection: keep-alive, closed\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nConnection: ,,\r\nContent-Length: 0\r\n\r\n",
            // A minor version past 1 is read as 1.1, which keeps the connection open.
            "HTTP/1.9 200 OK\r\nContent-Length: 0\r\n\r\n",
        ] {
            guard case .complete(_, _, let keepAlive) = try parse(text) else {
                Issue.record("\(text.debugDescription) is incomplete")
                continue
            }
            #expect(keepAlive, "\(text.debugDescription)")
        }
    }

    @Test(
        "a malformed head or framing is refused with its reason",
        arguments: [
            ("HTTP/2 200 OK\r\n\r\n", "malformed response: the status line is 'HTTP/2 200 OK'"),
            ("HTTP/1.x 200 OK\r\n\r\n", "malformed response: the status line is 'HTTP/1.x 200 OK'"),
            ("HTTP/1. 200 OK\r\n\r\n", "malformed response: the status line is 'HTTP/1. 200 OK'"),
            (
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: \r\nContent-Length: 2\r\n\r\nhi",
                "malformed response: both Transfer-Encoding and Content-Length frame the body"
            ),
            (
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: ,\r\n\r\n",
                "malformed response: Transfer-Encoding names no transfer coding"
            ),
            ("HTTP/1.1 20 OK\r\n\r\n", "malformed response: the status line is 'HTTP/1.1 20 OK'"),
            ("HTTP/1.1 2000 OK\r\n\r\n", "malformed response: the status line is 'HTTP/1.1 2000 OK'"),
            ("HTTP/1.1 099\r\n\r\n", "malformed response: the status line is 'HTTP/1.1 099'"),
            ("<html>\r\n\r\n", "malformed response: the status line is '<html>'"),
            ("HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "malformed response: a header has no ':'"),
            ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "malformed response: Content-Length is '-1'"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n", "malformed response: Content-Length is '1e3'"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "malformed response: a chunk size is 'zz'"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", "malformed response: a chunk size is ''"),
            (
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1 0\r\n",
                "malformed response: a chunk size is '1 0'"
            ),
            (
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n",
                "malformed response: a chunk size is 'fffffffffffffffff'"
            ),
            ("HTTP/1.1 200 OK\r\nContent-Length: 1025\r\n\r\n", "the response is larger than 1 KiB"),
            (
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n401\r\n",
                "the response is larger than 1 KiB"
            ),
        ])
    func malformed(text: String, reason: String) {
        #expect {
            _ = try parse(text)
        } throws: { error in
            (error as? HTTPError)?.description == reason
        }
    }

    @Test("headers that never end, or a body past the cap without a length, are too large")
    func unendingHead() {
        let longHead = "HTTP/1.1 200 OK\r\nX-Filler: " + String(repeating: "a", count: 1100)
        let longBody = "HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "a", count: 1100)
        for text in [longHead, longBody] {
            #expect(throws: HTTPError.responseTooLarge(limit: 1024)) { _ = try parse(text) }
        }
    }

    @Test("a response read without its headers is framed and refused exactly as one read with them")
    func withoutHeaders() throws {
        var bare = parser
        bare.keepsHeaders = false
        let texts = [
            "HTTP/1.1 200 OK\r\nServer: x\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nokHTTP/1.1",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nok",
            "HTTP/1.1 200 OK\r\nX-Name: caf\u{E9}\r\nContent-Length: 0\r\n\r\n",
        ]
        for text in texts {
            for closed in [false, true] {
                guard case .complete(let full, let length, let keepAlive) = try parse(text, closed: closed) else {
                    #expect(try parse(text, closed: closed, parser: bare) == .incomplete)
                    continue
                }
                var headless = full
                headless.headers = []
                #expect(
                    try parse(text, closed: closed, parser: bare)
                        == .complete(headless, length: length, keepAlive: keepAlive))
            }
        }
        let refused: [[UInt8]] = [
            Array("HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n".utf8),
            Array("HTTP/1.1 200 OK\r\nno colon\r\n\r\n".utf8),
            Array("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n".utf8),
            Array("HTTP/1.1 200 OK\r\nX-Name: ".utf8) + [0xFF] + Array("\r\n\r\n".utf8),
        ]
        for bytes in refused {
            var reasons: [String] = []
            for reader in [parser, bare] {
                do {
                    _ = try reader.parse(bytes[...], closed: true)
                    Issue.record("taken: \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                } catch {
                    reasons.append(error.description)
                }
            }
            #expect(reasons.count == 2 && reasons[0] == reasons[1], "\(reasons)")
        }
    }

    @Test(
        "a chunked body that misframes its data or trailers is refused, read with or without headers",
        arguments: [
            ("2\r\nokXX0\r\n\r\n", "a chunk's data does not end in CRLF"),
            ("2\r\nok\n0\r\n\r\n", "a chunk's data does not end in CRLF"),
            ("2\r\nokX", "a chunk's data does not end in CRLF"),
            ("2\r\nok\rX", "a chunk's data does not end in CRLF"),
            ("2;a\nb\r\nok\r\n0\r\n\r\n", "a chunk extension holds a control character"),
            ("2;a\u{0}\r\nok\r\n0\r\n\r\n", "a chunk extension holds a control character"),
            ("0\r\nno colon\r\n\r\n", "a header has no ':'"),
            ("0\r\nX-A: b\u{0}\r\n\r\n", "a header's value holds a CR, an LF or a NUL"),
            ("0\r\nX-A: b\nc\r\n\r\n", "a header's value holds a CR, an LF or a NUL"),
            ("0\r\n folded: x\r\n\r\n", "a header has no ':'"),
        ])
    func misframedChunks(chunks: String, reason: String) {
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks
        var bare = parser
        bare.keepsHeaders = false
        for reader in [parser, bare] {
            #expect(throws: HTTPError.malformedResponse(reason)) { _ = try parse(text, parser: reader) }
        }
    }

    @Test(
        "a head past the limit is refused in one read as in many, and a status line with a control character is refused"
    )
    func headLimitAndStatusLine() throws {
        let text =
            "HTTP/1.1 200 OK\r\nX-Filler: " + String(repeating: "a", count: 1100) + "\r\nContent-Length: 0\r\n\r\n"
        let bytes = Array(text.utf8)
        var progress = HTTPResponseParser.Progress()
        #expect(try parser.parse(bytes[..<1000], closed: false, resuming: &progress) == .incomplete)
        #expect(throws: HTTPError.responseTooLarge(limit: 1024)) {
            _ = try parser.parse(bytes[...], closed: false, resuming: &progress)
        }
        #expect(throws: HTTPError.responseTooLarge(limit: 1024)) { _ = try parse(text) }
        for line in ["HTTP/1.1 200 OK\nContent-Length: 2", "HTTP/1.1 200 O\u{0}K", "HTTP/1.1 200 OK\u{7F}"] {
            #expect(throws: HTTPError.malformedResponse("the status line is '\(line)'")) {
                _ = try parse(line + "\r\nContent-Length: 0\r\n\r\n")
            }
        }
    }

    @Test("header values are trimmed of blanks; names keep their case and are found in any")
    func headerValues() throws {
        guard
            case .complete(let response, _, _) = try parse(
                "HTTP/1.1 201 Created\r\nX-Id:\t abc \t\r\n\r\n", closed: true)
        else {
            Issue.record("incomplete")
            return
        }
        #expect(response.headers == [HTTPHeader("X-Id", "abc")])
        #expect(response.header("x-id") == "abc")
    }
}
