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
    let method: String

    /// The response at the start of `bytes`. `closed` says the connection has ended, so
    /// that a body without a length ends with the bytes.
    func parse(_ bytes: ArraySlice<UInt8>, closed: Bool) throws(HTTPError) -> Result {
        guard let headEnd = Self.find(crlfcrlf, in: bytes, from: bytes.startIndex) else {
            guard bytes.count <= maximumResponseSize else { throw .responseTooLarge(limit: maximumResponseSize) }
            return .incomplete
        }
        let head = try Self.head(bytes[bytes.startIndex..<headEnd])
        let bodyStart = headEnd + 4
        var response = HTTPResponse(status: head.status, headers: head.headers, body: [])
        let keepAlive = !head.closes
        if method == "HEAD" || head.status == 204 || head.status == 304 || (100..<200).contains(head.status) {
            return .complete(response, length: bodyStart - bytes.startIndex, keepAlive: keepAlive)
        }
        if head.chunked {
            guard let (body, end) = try chunkedBody(bytes, from: bodyStart) else {
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
    private struct Head {
        var status: Int
        var headers: [HTTPHeader]
        var closes: Bool
        var chunked: Bool
        var contentLength: Int?
    }

    private static func head(_ bytes: ArraySlice<UInt8>) throws(HTTPError) -> Head {
        let lineEnd = find(crlf, in: bytes, from: bytes.startIndex) ?? bytes.endIndex
        let statusLine = bytes[bytes.startIndex..<lineEnd]
        let (status, isHTTP10) = try self.status(statusLine)
        var head = Head(status: status, headers: [], closes: isHTTP10, chunked: false, contentLength: nil)
        var start = lineEnd + 2
        while start < bytes.endIndex {
            let end = find(crlf, in: bytes, from: start) ?? bytes.endIndex
            defer { start = end + 2 }
            let line = bytes[start..<end]
            if line.isEmpty { continue }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw .malformedResponse("a header has no ':'")
            }
            var valueStart = colon + 1
            var valueEnd = line.endIndex
            while valueStart < valueEnd, isBlank(line[valueStart]) { valueStart += 1 }
            while valueEnd > valueStart, isBlank(line[valueEnd - 1]) { valueEnd -= 1 }
            let nameBytes = line[line.startIndex..<colon]
            let valueBytes = line[valueStart..<valueEnd]
            guard let name = String(validating: nameBytes, as: UTF8.self),
                let value = String(validating: valueBytes, as: UTF8.self)
            else { throw .malformedResponse("the status line or headers are not UTF-8") }
            head.headers.append(HTTPHeader(name, value))
            if equalsIgnoringCase(nameBytes, "content-length") {
                guard let length = Int(value), length >= 0 else {
                    throw .malformedResponse("Content-Length is '\(value.prefix(40))'")
                }
                head.contentLength = length
            } else if equalsIgnoringCase(nameBytes, "transfer-encoding") {
                head.chunked = head.chunked || value.lowercased().contains("chunked")
            } else if equalsIgnoringCase(nameBytes, "connection") {
                head.closes = head.closes || value.lowercased() == "close"
            }
        }
        return head
    }

    /// The status code of `HTTP/1.x NNN reason`, and whether the version is 1.0.
    private static func status(_ line: ArraySlice<UInt8>) throws(HTTPError) -> (Int, Bool) {
        let prefix = Array("HTTP/1.".utf8)
        let start = line.startIndex
        var valid = line.count >= 12 && line[start..<start + 7].elementsEqual(prefix) && line[start + 8] == 0x20
        var status = 0
        if valid {
            for byte in line[start + 9..<start + 12] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                    valid = false
                    break
                }
                status = status * 10 + Int(byte - UInt8(ascii: "0"))
            }
            if line.count > 12 && line[start + 12] != 0x20 { valid = false }
        }
        guard valid, status >= 100 else {
            let text = String(decoding: line.prefix(80), as: UTF8.self)
            throw .malformedResponse("the status line is '\(text)'")
        }
        return (status, line[start + 7] == UInt8(ascii: "0"))
    }

    /// A chunked body that starts at `start`, and where it ends, trailers included; nil
    /// when the bytes end before it does.
    private func chunkedBody(_ bytes: ArraySlice<UInt8>, from start: Int) throws(HTTPError) -> ([UInt8], Int)? {
        var body: [UInt8] = []
        var position = start
        while true {
            guard let lineEnd = Self.find(crlf, in: bytes, from: position) else { return nil }
            let line = bytes[position..<lineEnd]
            let sizeEnd = line.firstIndex(of: UInt8(ascii: ";")) ?? line.endIndex
            var digitsStart = position
            var digitsEnd = sizeEnd
            while digitsStart < digitsEnd, Self.isBlank(line[digitsStart]) { digitsStart += 1 }
            while digitsEnd > digitsStart, Self.isBlank(line[digitsEnd - 1]) { digitsEnd -= 1 }
            // Fifteen hex digits at most, so that the size cannot overflow.
            var size = (1...15).contains(digitsEnd - digitsStart) ? 0 : -1
            for byte in line[digitsStart..<digitsEnd] where size >= 0 {
                size = Self.hexDigit(byte).map { size * 16 + $0 } ?? -1
            }
            guard size >= 0 else {
                throw .malformedResponse("a chunk size is '\(String(decoding: line.prefix(40), as: UTF8.self))'")
            }
            position = lineEnd + 2
            if size == 0 {
                // Trailers, if any, end with an empty line.
                while true {
                    guard let end = Self.find(crlf, in: bytes, from: position) else { return nil }
                    defer { position = end + 2 }
                    if end == position { return (body, end + 2) }
                }
            }
            guard body.count + size <= maximumResponseSize else { throw .responseTooLarge(limit: maximumResponseSize) }
            guard bytes.endIndex - position >= size + 2 else { return nil }
            body += bytes[position..<position + size]
            position += size + 2
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    /// Whether `bytes` spell `lowercase` in any case; `lowercase` is ASCII.
    private static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { wanted in
            var index = bytes.startIndex
            for expected in wanted {
                let byte = bytes[index]
                let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                if lowered != expected { return false }
                index += 1
            }
            return true
        }
    }

    /// Where `needle` first occurs in `bytes` at or after `start`.
    private static func find(_ needle: [UInt8], in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard let first = needle.first, bytes.endIndex - start >= needle.count else { return nil }
        var index = start
        let last = bytes.endIndex - needle.count
        while index <= last {
            if bytes[index] == first {
                var offset = 1
                while offset < needle.count && bytes[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return index }
            }
            index += 1
        }
        return nil
    }
}

private let crlf: [UInt8] = [13, 10]
private let crlfcrlf: [UInt8] = [13, 10, 13, 10]
