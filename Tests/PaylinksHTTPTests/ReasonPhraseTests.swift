import Testing

@testable import PaylinksHTTP

/// The status line of every answer: its code and that code's reason phrase.
@Suite("Reason phrases")
struct ReasonPhraseTests {
    /// RFC 9110's table (section 15), with RFC 6585's additions.
    static let registered: [(Int, String)] = [
        (100, "Continue"), (101, "Switching Protocols"), (200, "OK"), (201, "Created"), (202, "Accepted"),
        (203, "Non-Authoritative Information"), (204, "No Content"), (205, "Reset Content"),
        (206, "Partial Content"), (300, "Multiple Choices"), (301, "Moved Permanently"), (302, "Found"),
        (303, "See Other"), (304, "Not Modified"), (305, "Use Proxy"), (307, "Temporary Redirect"),
        (308, "Permanent Redirect"), (400, "Bad Request"), (401, "Unauthorized"), (402, "Payment Required"),
        (403, "Forbidden"), (404, "Not Found"), (405, "Method Not Allowed"), (406, "Not Acceptable"),
        (407, "Proxy Authentication Required"), (408, "Request Timeout"), (409, "Conflict"), (410, "Gone"),
        (411, "Length Required"), (412, "Precondition Failed"), (413, "Content Too Large"), (414, "URI Too Long"),
        (415, "Unsupported Media Type"), (416, "Range Not Satisfiable"), (417, "Expectation Failed"),
        (421, "Misdirected Request"), (422, "Unprocessable Content"), (426, "Upgrade Required"),
        (428, "Precondition Required"), (429, "Too Many Requests"), (431, "Request Header Fields Too Large"),
        (500, "Internal Server Error"), (501, "Not Implemented"), (502, "Bad Gateway"),
        (503, "Service Unavailable"), (504, "Gateway Timeout"), (505, "HTTP Version Not Supported"),
        (511, "Network Authentication Required"),
    ]

    /// The first line of an answer with `status`.
    static func statusLine(_ status: Int) -> String {
        let bytes = HTTPServerResponse(status: status, body: []).encoded(closing: true)
        return String(decoding: bytes.prefix { $0 != 0x0D }, as: UTF8.self)
    }

    @Test("every registered status goes out with its own reason phrase", arguments: registered)
    func registeredPhrase(status: Int, phrase: String) {
        #expect(Self.statusLine(status) == "HTTP/1.1 \(status) \(phrase)")
    }

    @Test(
        "a status without a phrase of its own goes out with its class's name, never a made-up word",
        arguments: [
            (299, "Successful"), (199, "Informational"), (399, "Redirection"), (418, "Client Error"),
            (499, "Client Error"), (599, "Server Error"),
        ])
    func unregisteredPhrase(status: Int, phrase: String) {
        #expect(Self.statusLine(status) == "HTTP/1.1 \(status) \(phrase)")
    }

    @Test("a header that would split the answer (CR, LF or NUL in it) is left out, the others go out")
    func splittingHeader() {
        let answer = HTTPServerResponse(
            status: 303, contentType: "text/plain",
            headers: [
                HTTPHeader("Location", "https://a.example/\r\nSet-Cookie: pwned=1"), HTTPHeader("X-Kept", "yes"),
                HTTPHeader("X-Null", "a\u{0}b"),
            ], body: [])
        let text = String(decoding: answer.encoded(closing: true), as: UTF8.self)
        #expect(!text.contains("Set-Cookie") && !text.contains("Location") && !text.contains("X-Null"), "\(text)")
        #expect(text.contains("X-Kept: yes\r\n"))
    }

    @Test("an answer's bytes are its lines written whole, and a name with a CR, an LF or a NUL is left out too")
    func exactBytes() {
        let answer = HTTPServerResponse(
            status: 201,
            headers: [
                HTTPHeader("X-Caf\u{E9}", "cr\u{E8}me \u{1F600}"), HTTPHeader("X-Empty", ""),
                HTTPHeader("X-Bad\r\nSet-Cookie", "1"), HTTPHeader("X-Bad\n", "1"), HTTPHeader("X\u{0}", "1"),
                HTTPHeader("X-Pair", "\r\n"),
            ], body: Array("{}".utf8))
        for closing in [false, true] {
            for head in [false, true] {
                let expected =
                    "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\n"
                    + "X-Caf\u{E9}: cr\u{E8}me \u{1F600}\r\nX-Empty: \r\nContent-Length: 2\r\n"
                    + "Connection: \(closing ? "close" : "keep-alive")\r\n\r\n\(head ? "" : "{}")"
                #expect(answer.encoded(closing: closing, head: head) == Array(expected.utf8))
            }
        }
    }

    @Test(
        "a status and a Content-Length are written in decimal, at every power of ten",
        arguments: [0, 1, 9, 10, 99, 100, 101, 999, 1000, 1024, 65_535, 1_000_000, 123_456_789, Int.max, -1, -100])
    func decimals(value: Int) {
        var bytes: [UInt8] = [UInt8(ascii: "x")]
        HTTPBytes.appendDecimal(value, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x\(value)")
        let length = max(0, value % 10_000)
        let answer = HTTPServerResponse(status: 200, body: [UInt8](repeating: 0x61, count: length))
        #expect(
            String(decoding: answer.encoded(closing: true, head: true), as: UTF8.self).contains(
                "\r\nContent-Length: \(length)\r\n"))
    }
}
