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

    /// How far earlier reads of the same bytes got, each time with more of them: where the
    /// blank lines before the request end, where the search for the head's end stopped, the
    /// head once read, and the chunks of a chunked body read so far; so that a request
    /// arriving in a thousand reads is read once, not from its start at every read.
    struct Progress {
        fileprivate var start: Int?
        fileprivate var searchedTo: Int?
        fileprivate var head: Head?
        fileprivate var chunks: ChunkedBodyReader?
        /// The request's method and path, once its request line is read.
        fileprivate(set) var requestLine: HTTPRequestLine?

        /// Nothing read yet.
        init() {}
    }

    /// What the request line and headers say, once read whole.
    fileprivate struct Head {
        var line: HTTPRequestLine
        var isHTTP10: Bool
        var fields: HTTPFields
        /// Where the body starts.
        var bodyStart: Int
    }

    /// The request at the start of `bytes`.
    func parse(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestError) -> Result {
        var progress = Progress()
        return try parse(bytes, resuming: &progress)
    }

    /// The request at the start of `bytes`, going on from `progress`, which an earlier call
    /// left from a prefix of the same bytes (start afresh with a new one once a request was
    /// taken off their front). Its body is framed by `Content-Length`, by chunks, or by
    /// neither, and then empty (RFC 9112, 6.3).
    func parse(_ bytes: ArraySlice<UInt8>, resuming progress: inout Progress) throws(HTTPRequestError) -> Result {
        let head: Head
        if let known = progress.head {
            head = known
        } else {
            guard let read = try self.head(bytes, resuming: &progress) else { return .incomplete }
            head = read
            progress.head = read
        }
        let bodyStart = head.bodyStart
        let body: [UInt8]
        let end: Int
        if head.fields.chunked {
            if progress.chunks == nil {
                progress.chunks = ChunkedBodyReader(
                    start: bodyStart, headSize: bodyStart - bytes.startIndex, maximumHeadSize: maximumHeadSize,
                    maximumBodySize: maximumBodySize)
            }
            // Read in place, so that the data read so far is added to, never copied.
            guard let bodyEnd = try progress.chunks?.read(bytes) else { return .incomplete }
            (body, end) = (progress.chunks?.body ?? [], bodyEnd)
        } else {
            let length = head.fields.contentLength ?? 0
            guard length <= maximumBodySize else { throw .bodyTooLarge(limit: maximumBodySize) }
            guard bytes.endIndex - bodyStart >= length else { return .incomplete }
            (body, end) = (Array(bytes[bodyStart..<bodyStart + length]), bodyStart + length)
        }
        let fields = head.fields
        let (path, query) = head.line.pathAndQuery
        let request = HTTPRequest(
            method: HTTPMethod(rawValue: head.line.method), path: path, query: query, headers: fields.headers,
            body: body, keepAlive: head.isHTTP10 ? fields.keepsAlive && !fields.closes : !fields.closes)
        return .complete(request, length: end - bytes.startIndex)
    }

    /// The head at the start of `bytes` once it is whole, read and held to the framing rules;
    /// nil before.
    private func head(_ bytes: ArraySlice<UInt8>, resuming progress: inout Progress) throws(HTTPRequestError)
        -> Head?
    {
        // Blank lines before a request are ignored (RFC 9112, 2.2).
        var start = progress.start ?? bytes.startIndex
        // They count toward the head's limit, so that a client cannot send them forever.
        while bytes.endIndex - start >= 2, bytes[start] == 13, bytes[start + 1] == 10 { start += 2 }
        progress.start = start
        // The end may straddle the bytes searched before and the new ones.
        let from = max(start, (progress.searchedTo ?? start) - 3)
        guard let headEnd = HTTPBytes.find(HTTPBytes.crlfcrlf, in: bytes, from: from) else {
            // The end, when it comes, is at the earliest in the last three bytes.
            guard bytes.count - 3 <= maximumHeadSize else { throw .headersTooLarge(limit: maximumHeadSize) }
            progress.searchedTo = bytes.endIndex
            return nil
        }
        guard headEnd - bytes.startIndex <= maximumHeadSize else { throw .headersTooLarge(limit: maximumHeadSize) }
        let lineEnd = HTTPBytes.find(HTTPBytes.crlf, in: bytes, from: start) ?? headEnd
        let (method, target, isHTTP10) = try Self.requestLine(bytes[start..<lineEnd])
        let line = HTTPRequestLine(method: method, target: target)
        progress.requestLine = line
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
            case .noCoding: throw .malformed("Transfer-Encoding names no transfer coding")
            }
        }
        // Chunked must be the last coding, and applied once, or the body's end cannot be
        // known (RFC 9112, 6.1 and 6.3).
        let chunkings = fields.transferCodings.count(where: HTTPFields.isChunked)
        if chunkings > 0 && !fields.chunked { throw .malformed("chunked is not the last transfer coding") }
        if chunkings > 1 { throw .malformed("the chunked transfer coding is applied twice") }
        if let unknown = fields.transferCodings.first(where: { !HTTPFields.isChunked($0) }) {
            throw .unknownTransferCoding(String(unknown.prefix(40)))
        }
        // HTTP/1.0 has no transfer codings: its framing is faulty (RFC 9112, 6.1), as nginx says.
        if isHTTP10 && fields.chunked { throw .malformed("an HTTP/1.0 request has Transfer-Encoding") }
        return Head(line: line, isHTTP10: isHTTP10, fields: fields, bodyStart: headEnd + 4)
    }

    /// Whether the head `progress` holds, read whole by ``parse(_:resuming:)`` and its body
    /// not all there, asks for `100 Continue` before its body is sent (`Expect:
    /// 100-continue`, RFC 9110, 10.1.1).
    func expectsContinue(_ progress: Progress) -> Bool {
        guard let head = progress.head else { return false }
        return head.fields.headers.contains {
            $0.isNamed("expect") && $0.value.lowercased() == "100-continue"
        }
    }

    /// Whether `byte` is a `tchar` (RFC 9110, section 5.6.2): a letter, a digit, or one of
    /// ``!#$%&'*+-.^_`|~``. A method is any token of them, case-sensitive (section 9.1):
    /// `get`, `Get` and `M-SEARCH` are methods, unknown ones, not malformed requests.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// `METHOD TARGET HTTP/1.x`: the method, the target, and whether the version is 1.0.
    private static func requestLine(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> (String, String, Bool) {
        // Three parts, a space between each, read in the bytes: the method a token, the
        // target UTF-8 from a slash on with no blank or control byte.
        let space = UInt8(ascii: " ")
        guard let methodEnd = line.firstIndex(of: space), methodEnd > line.startIndex,
            let targetEnd = line[(methodEnd + 1)...].firstIndex(of: space),
            !line[(targetEnd + 1)...].contains(space),
            line[..<methodEnd].allSatisfy(Self.isTokenCharacter),
            line[methodEnd + 1..<targetEnd].first == UInt8(ascii: "/"),
            !line[methodEnd + 1..<targetEnd].contains(where: { $0 <= 0x20 || $0 == 0x7F }),
            let target = HTTPBytes.text(line[methodEnd + 1..<targetEnd])
        else {
            // Quoted as sent, every character kept: what shows it (the log, a JSON answer)
            // escapes it by its own rules.
            let shown = String(decoding: line.prefix(80), as: UTF8.self)
            throw .malformed("the request line is '\(shown)'")
        }
        let method = String(decoding: line[..<methodEnd], as: UTF8.self)
        let version = line[(targetEnd + 1)...]
        if version.elementsEqual("HTTP/1.1".utf8) { return (method, target, false) }
        if version.elementsEqual("HTTP/1.0".utf8) { return (method, target, true) }
        throw .unsupportedVersion(String(String(decoding: version, as: UTF8.self).prefix(20)))
    }
}
