/// Reads one HTTP/1.1 response from the bytes a connection has delivered so far, however
/// they were split: the status line, the headers, and a body framed by `Content-Length`,
/// by chunks, or by the end of the connection. Pure: it sees bytes, never a socket, so
/// that it can be fuzzed and tested piece by piece.
struct HTTPResponseParser {
    /// What the bytes so far hold.
    enum Result: Equatable {
        /// A whole response, the bytes it took, and whether the connection may carry another.
        case complete(HTTPResponse, length: Int, keepAlive: Bool)
        /// Not yet a whole response: read more.
        case incomplete
    }

    /// The largest response taken, headers and body together.
    let maximumResponseSize: Int
    /// The request's method: the response to `HEAD` has no body.
    let method: HTTPMethod
    /// Whether the response keeps its headers; without, they are checked and read for the
    /// framing only, and the response has none.
    var keepsHeaders = true

    /// How far earlier reads of the same bytes got, each time with more of them: where the
    /// search for the head's end stopped, the head once read, and the chunks read whole, so
    /// that a response arriving in a thousand reads is read once, not from its start at
    /// every read.
    struct Progress {
        fileprivate var searchedTo: Int?
        fileprivate var head: (Head, bodyStart: Int)?
        fileprivate var chunks: (position: Int, body: [UInt8])?

        /// Nothing read yet.
        init() {}
    }

    /// The response at the start of `bytes`. `closed` says the connection has ended, so
    /// that a body without a length ends with the bytes.
    func parse(_ bytes: ArraySlice<UInt8>, closed: Bool) throws(HTTPError) -> Result {
        var progress = Progress()
        return try parse(bytes, closed: closed, resuming: &progress)
    }

    /// The response at the start of `bytes`, going on from `progress`, which an earlier
    /// call left from a prefix of the same bytes (start afresh with a new one once a
    /// response was taken off their front).
    func parse(_ bytes: ArraySlice<UInt8>, closed: Bool, resuming progress: inout Progress) throws(HTTPError)
        -> Result
    {
        let head: Head
        let bodyStart: Int
        if let known = progress.head {
            (head, bodyStart) = known
        } else {
            // The end may straddle the bytes searched before and the new ones.
            let from = max(bytes.startIndex, (progress.searchedTo ?? bytes.startIndex) - 3)
            guard let headEnd = HTTPBytes.find(HTTPBytes.crlfcrlf, in: bytes, from: from) else {
                guard bytes.count <= maximumResponseSize else { throw .responseTooLarge(limit: maximumResponseSize) }
                progress.searchedTo = bytes.endIndex
                return .incomplete
            }
            // A head past the limit is refused however many reads brought it, not only
            // when a read ends before its end.
            guard headEnd + 4 - bytes.startIndex <= maximumResponseSize else {
                throw .responseTooLarge(limit: maximumResponseSize)
            }
            head = try Self.head(bytes[bytes.startIndex..<headEnd], keepingHeaders: keepsHeaders)
            bodyStart = headEnd + 4
            progress.head = (head, bodyStart)
        }
        var response = HTTPResponse(status: head.status, headers: head.headers, body: [])
        let keepAlive = !head.closes
        if method == .head || head.status == 204 || head.status == 304 || (100..<200).contains(head.status) {
            return .complete(response, length: bodyStart - bytes.startIndex, keepAlive: keepAlive)
        }
        if head.chunked {
            guard let (body, end) = try chunkedBody(bytes, from: bodyStart, resuming: &progress.chunks) else {
                guard bytes.count <= maximumResponseSize + 65_536 else {
                    throw .responseTooLarge(limit: maximumResponseSize)
                }
                return .incomplete
            }
            response.body = body
            return .complete(response, length: end - bytes.startIndex, keepAlive: keepAlive)
        }
        if let length = head.contentLength {
            guard length <= maximumResponseSize else { throw .responseTooLarge(limit: maximumResponseSize) }
            guard bytes.endIndex - bodyStart >= length else { return .incomplete }
            response.body = Array(bytes[bodyStart..<bodyStart + length])
            return .complete(response, length: bodyStart + length - bytes.startIndex, keepAlive: keepAlive)
        }
        // No length: the body runs to the end of the connection.
        guard bytes.endIndex - bodyStart <= maximumResponseSize else {
            throw .responseTooLarge(limit: maximumResponseSize)
        }
        guard closed else { return .incomplete }
        response.body = Array(bytes[bodyStart...])
        return .complete(response, length: bytes.count, keepAlive: false)
    }

    /// What the status line and headers say.
    fileprivate struct Head {
        var status: Int
        var headers: [HTTPHeader]
        var closes: Bool
        var chunked: Bool
        var contentLength: Int?
    }

    private static func head(_ bytes: ArraySlice<UInt8>, keepingHeaders: Bool) throws(HTTPError) -> Head {
        let lineEnd = HTTPBytes.find(HTTPBytes.crlf, in: bytes, from: bytes.startIndex) ?? bytes.endIndex
        let (status, isHTTP10) = try self.status(bytes[bytes.startIndex..<lineEnd])
        let fields = try Self.fields(bytes, from: lineEnd + 2, keepingHeaders: keepingHeaders)
        return Head(
            status: status, headers: fields.headers, closes: isHTTP10 || fields.closes, chunked: fields.chunked,
            contentLength: fields.contentLength)
    }

    /// The field lines of `bytes` from `start`, the head's or (without `framing`) the
    /// trailers', each checked as strictly.
    private static func fields(
        _ bytes: ArraySlice<UInt8>, from start: Int, keepingHeaders: Bool, framing: Bool = true
    ) throws(HTTPError) -> HTTPFields {
        do {
            return try HTTPFields(bytes, from: start, keepingHeaders: keepingHeaders, framing: framing)
        } catch {
            switch error {
            case .noColon, .badName: throw .malformedResponse("a header has no ':'")
            case .notUTF8: throw .malformedResponse("the status line or headers are not UTF-8")
            case .badLength(let text): throw .malformedResponse("Content-Length is '\(text)'")
            case .badValue: throw .malformedResponse("a header's value holds a CR, an LF or a NUL")
            case .twoFramings: throw .malformedResponse("both Transfer-Encoding and Content-Length frame the body")
            case .noCoding: throw .malformedResponse("Transfer-Encoding names no transfer coding")
            }
        }
    }

    /// The status code of `HTTP/1.x NNN reason`, and whether the version is 1.0. The minor
    /// version is one digit; one past 1 is read as 1.1, the highest this reader knows
    /// (RFC 9110, 2.5).
    private static func status(_ line: ArraySlice<UInt8>) throws(HTTPError) -> (Int, Bool) {
        let prefix: StaticString = "HTTP/1."
        let start = line.startIndex
        var valid =
            line.count >= 12 && prefix.withUTF8Buffer { line[start..<start + 7].elementsEqual($0) }
            && HTTPBytes.isDigit(line[start + 7]) && line[start + 8] == 0x20
        var status = 0
        if valid {
            for byte in line[start + 9..<start + 12] {
                guard HTTPBytes.isDigit(byte) else {
                    valid = false
                    break
                }
                status = status * 10 + Int(byte - UInt8(ascii: "0"))
            }
            if line.count > 12 && line[start + 12] != 0x20 { valid = false }
            // The reason holds no control character but a tab: a bare LF in it would end the
            // line for another reader.
            if line.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) { valid = false }
        }
        guard valid, status >= 100 else {
            let text = String(decoding: line.prefix(80), as: UTF8.self)
            throw .malformedResponse("the status line is '\(text)'")
        }
        return (status, line[start + 7] == UInt8(ascii: "0"))
    }

    /// A chunked body that starts at `start`, and where it ends, trailers included; nil
    /// when the bytes end before it does, and then `resumed` holds the chunks read whole,
    /// to go on from at the next call.
    private func chunkedBody(
        _ bytes: ArraySlice<UInt8>, from start: Int, resuming resumed: inout (position: Int, body: [UInt8])?
    ) throws(HTTPError) -> ([UInt8], Int)? {
        var (position, body) = resumed ?? (start, [])
        resumed = nil
        // Bytes not read whole yet: the chunks before `position` are in `body`.
        func later() -> ([UInt8], Int)? {
            resumed = (position, body)
            return nil
        }
        while true {
            guard let lineEnd = HTTPBytes.find(HTTPBytes.crlf, in: bytes, from: position) else {
                guard bytes.endIndex - position <= Self.chunkLineLimit else {
                    throw .malformedResponse("a chunk's size line is longer than \(Self.chunkLineLimit) bytes")
                }
                return later()
            }
            let lineStart = position
            let line = bytes[position..<lineEnd]
            let sizeEnd = line.firstIndex(of: UInt8(ascii: ";")) ?? line.endIndex
            var digitsStart = position
            var digitsEnd = sizeEnd
            while digitsStart < digitsEnd, HTTPBytes.isBlank(line[digitsStart]) { digitsStart += 1 }
            while digitsEnd > digitsStart, HTTPBytes.isBlank(line[digitsEnd - 1]) { digitsEnd -= 1 }
            // Fifteen hex digits at most, so that the size cannot overflow.
            var size = (1...15).contains(digitsEnd - digitsStart) ? 0 : -1
            for byte in line[digitsStart..<digitsEnd] where size >= 0 {
                size = byte.hexDigit.map { size * 16 + $0 } ?? -1
            }
            guard size >= 0 else {
                throw .malformedResponse("a chunk size is '\(String(decoding: line.prefix(40), as: UTF8.self))'")
            }
            // An extension holds no control character but a tab: no bare LF, no NUL.
            guard !line[sizeEnd...].contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                throw .malformedResponse("a chunk extension holds a control character")
            }
            position = lineEnd + 2
            if size == 0 {
                // Trailers, if any, end with an empty line.
                var trailer = position
                while true {
                    guard let end = HTTPBytes.find(HTTPBytes.crlf, in: bytes, from: trailer) else {
                        position = lineStart
                        return later()
                    }
                    if end == trailer {
                        // Each trailer line is checked as a header line is.
                        _ = try Self.fields(bytes[..<end], from: position, keepingHeaders: false, framing: false)
                        return (body, end + 2)
                    }
                    trailer = end + 2
                }
            }
            guard body.count + size <= maximumResponseSize else { throw .responseTooLarge(limit: maximumResponseSize) }
            // The data ends in CRLF, refused as soon as a byte in its place is not.
            let after = position + size
            guard bytes.endIndex <= after || bytes[after] == 13, bytes.endIndex <= after + 1 || bytes[after + 1] == 10
            else { throw .malformedResponse("a chunk's data does not end in CRLF") }
            guard bytes.endIndex - position >= size + 2 else {
                position = lineStart
                return later()
            }
            body += bytes[position..<position + size]
            position += size + 2
        }
    }

    /// The longest line a chunk's size (and its extensions) may take: far more than a
    /// server writes, and short enough that waiting for its end is cheap.
    static let chunkLineLimit = 4096
}
