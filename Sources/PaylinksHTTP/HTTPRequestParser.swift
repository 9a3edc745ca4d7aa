/// Reads one HTTP/1.1 request from the bytes a connection has delivered so far, however
/// they were split. Pure, like ``HTTPResponseParser``: it sees bytes, never a socket.
struct HTTPRequestParser {
    /// What the bytes so far hold.
    enum Result: Equatable {
        /// A whole request and the bytes it took.
        case complete(HTTPRequest, length: Int)
        /// Not yet a whole request: read more.
        case incomplete
    }

    /// The largest request line and headers taken.
    let maximumHeadSize: Int
    /// The largest body taken.
    let maximumBodySize: Int

    /// The request at the start of `bytes`.
    func parse(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestError) -> Result {
        // Blank lines before a request are ignored (RFC 9112, 2.2).
        var start = bytes.startIndex
        // They count toward the head's limit, so that a client cannot send them forever.
        while bytes.endIndex - start >= 2, bytes[start] == 13, bytes[start + 1] == 10 { start += 2 }
        guard let headEnd = HTTPBytes.find(HTTPBytes.crlfcrlf, in: bytes, from: start) else {
            guard bytes.count <= maximumHeadSize else { throw .headersTooLarge(limit: maximumHeadSize) }
            return .incomplete
        }
        guard headEnd - bytes.startIndex <= maximumHeadSize else { throw .headersTooLarge(limit: maximumHeadSize) }
        let lineEnd = HTTPBytes.find(HTTPBytes.crlf, in: bytes, from: start) ?? headEnd
        let (method, target, isHTTP10) = try Self.requestLine(bytes[start..<lineEnd])
        let fields: HTTPFields
        do {
            fields = try HTTPFields(bytes[..<headEnd], from: lineEnd + 2)
        } catch {
            switch error {
            case .noColon: throw .malformed("a header has no ':'")
            case .badName: throw .malformed("a header's name is empty or holds a blank")
            case .notUTF8: throw .malformed("a header is not UTF-8")
            case .badLength(let text): throw .malformed("Content-Length is '\(text)'")
            case .badValue: throw .malformed("a header's value holds a CR, an LF or a NUL")
            case .twoFramings: throw .malformed("both Transfer-Encoding and Content-Length frame the body")
            }
        }
        if let unknown = fields.transferCodings.first(where: { $0 != "chunked" }) {
            throw .unknownTransferCoding(String(unknown.prefix(40)))
        }
        if fields.chunked { throw .lengthRequired }
        let length = fields.contentLength ?? 0
        guard length <= maximumBodySize else { throw .bodyTooLarge(limit: maximumBodySize) }
        let bodyStart = headEnd + 4
        guard bytes.endIndex - bodyStart >= length else { return .incomplete }
        let question = target.firstIndex(of: "?")
        let request = HTTPRequest(
            method: HTTPMethod(rawValue: method), path: String(target[..<(question ?? target.endIndex)]),
            query: question.map { String(target[target.index(after: $0)...]) } ?? "", headers: fields.headers,
            body: Array(bytes[bodyStart..<bodyStart + length]),
            keepAlive: isHTTP10 ? fields.keepsAlive && !fields.closes : !fields.closes)
        return .complete(request, length: bodyStart + length - bytes.startIndex)
    }

    /// Whether the bytes so far hold a whole head that asks for `100 Continue` before its
    /// body is sent (`Expect: 100-continue`, RFC 9110, 10.1.1), its body not all there.
    func expectsContinue(_ bytes: ArraySlice<UInt8>) -> Bool {
        var start = bytes.startIndex
        while bytes.endIndex - start >= 2, bytes[start] == 13, bytes[start + 1] == 10 { start += 2 }
        guard let headEnd = HTTPBytes.find(HTTPBytes.crlfcrlf, in: bytes, from: start),
            let lineEnd = HTTPBytes.find(HTTPBytes.crlf, in: bytes, from: start),
            let fields = try? HTTPFields(bytes[..<headEnd], from: lineEnd + 2)
        else { return false }
        return fields.headers.contains { $0.name.lowercased() == "expect" && $0.value.lowercased() == "100-continue" }
    }

    /// Whether `byte` is a `tchar` (RFC 9110, section 5.6.2): a letter, a digit, or one of
    /// ``!#$%&'*+-.^_`|~``. A method is any token of them, case-sensitive (section 9.1):
    /// `get`, `Get` and `M-SEARCH` are methods, unknown ones, not malformed requests.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// `METHOD TARGET HTTP/1.x`: the method, the target, and whether the version is 1.0.
    private static func requestLine(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> (String, String, Bool) {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, let method = HTTPBytes.text(parts[0]),
            !method.isEmpty, method.utf8.allSatisfy(Self.isTokenCharacter),
            let target = HTTPBytes.text(parts[1]), target.hasPrefix("/"),
            !target.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F })
        else {
            let shown = String(decoding: line.prefix(80), as: UTF8.self).filter { $0.isASCII && !$0.isNewline }
            throw .malformed("the request line is '\(shown)'")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        switch version {
        case "HTTP/1.1": return (method, target, false)
        case "HTTP/1.0": return (method, target, true)
        default: throw .unsupportedVersion(String(version.prefix(20)))
        }
    }
}
