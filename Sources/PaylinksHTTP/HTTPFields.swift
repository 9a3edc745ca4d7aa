#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The header fields of an HTTP/1.1 message, the part requests and responses share: each
/// `Name: value` line after the first, and what the framing fields say.
struct HTTPFields {
    /// Why the fields cannot be read.
    enum Problem: Error, Equatable {
        /// A line has no colon.
        case noColon
        /// A name or value is not UTF-8.
        case notUTF8
        /// `Content-Length` is not a number of bytes: what it says.
        case badLength(String)
        /// A name is empty or holds a space, a tab or a control character.
        case badName
        /// A value holds a CR, an LF or a NUL (RFC 9110, 5.5).
        case badValue
        /// `Transfer-Encoding` and `Content-Length` both frame the message (RFC 9112, 6.3).
        case twoFramings
        /// `Transfer-Encoding` names no coding: each of its fields is empty, or commas and
        /// blanks.
        case noCoding
    }

    /// The fields in the order sent, names as sent, values without surrounding blanks.
    var headers: [HTTPHeader] = []
    /// `Content-Length`, when given.
    var contentLength: Int?
    /// Whether `Transfer-Encoding` names `chunked`.
    var chunked = false
    /// The transfer codings `Transfer-Encoding` names, lowercased, in order.
    var transferCodings: [String] = []
    /// Whether a `Transfer-Encoding` field came, one that names no coding included: a
    /// reader in front of this one may take it to frame the body.
    private var hasTransferEncoding = false
    /// Whether `Connection` says `close`.
    var closes = false
    /// Whether `Connection` says `keep-alive`.
    var keepsAlive = false

    /// Reads the field lines of `bytes`, from `start` to the end; each line ends in CRLF
    /// (the last may not). Without `keepingHeaders`, ``headers`` stays empty: every line is
    /// checked as strictly, and the framing read, but no name or value is copied out.
    /// Without `framing` (a chunked body's trailers, which frame nothing) every line is
    /// checked as strictly, and `Content-Length`, `Transfer-Encoding` and `Connection` are
    /// fields like any other.
    init(_ bytes: ArraySlice<UInt8>, from start: Int, keepingHeaders: Bool = true, framing: Bool = true)
        throws(Problem)
    {
        let first = start - bytes.startIndex
        var result = Self()
        try bytes.withUnsafeBufferPointer { (buffer) throws(Problem) in
            try result.read(buffer, from: first, keepingHeaders: keepingHeaders, framing: framing)
        }
        self = result
    }

    private init() {}

    /// Reads the field lines of `buffer` from `offset`: each byte looked at in place.
    private mutating func read(
        _ buffer: UnsafeBufferPointer<UInt8>, from offset: Int, keepingHeaders: Bool, framing: Bool
    ) throws(Problem) {
        guard let base = buffer.baseAddress else { return }
        // Room for the headers most requests send, made once.
        if keepingHeaders { headers.reserveCapacity(8) }
        var start = offset
        while start < buffer.count {
            // The line ends at the first CR that an LF follows: each CR found by the C
            // library's scan, which takes many bytes a step.
            var end = start
            while end < buffer.count {
                guard let hit = memchr(base + end, 13, buffer.count - end) else {
                    end = buffer.count
                    break
                }
                end = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
                if end + 1 < buffer.count && buffer[end + 1] == 10 { break }
                end += 1
            }
            defer { start = end + 2 }
            if end == start { continue }
            var colon = start
            while colon < end && buffer[colon] != UInt8(ascii: ":") { colon += 1 }
            guard colon < end else { throw .noColon }
            var valueStart = colon + 1
            var valueEnd = end
            while valueStart < valueEnd, HTTPBytes.isBlank(buffer[valueStart]) { valueStart += 1 }
            while valueEnd > valueStart, HTTPBytes.isBlank(buffer[valueEnd - 1]) { valueEnd -= 1 }
            var ascii = true
            for index in (colon + 1)..<end {
                let byte = buffer[index]
                guard byte != 13 && byte != 10 && byte != 0 else { throw .badValue }
                if byte >= 0x80 { ascii = false }
            }
            guard colon > start else { throw .badName }
            for index in start..<colon {
                let byte = buffer[index]
                guard byte > 0x20 && byte != 0x7F else { throw .badName }
                if byte >= 0x80 { ascii = false }
            }
            let nameBytes = UnsafeBufferPointer(rebasing: buffer[start..<colon])
            let valueBytes = UnsafeBufferPointer(rebasing: buffer[valueStart..<valueEnd])
            if !ascii {
                guard String(validating: nameBytes, as: UTF8.self) != nil,
                    String(validating: valueBytes, as: UTF8.self) != nil
                else { throw .notUTF8 }
            }
            let isLength = framing && HTTPBytes.equalsIgnoringCase(nameBytes, "content-length")
            let isCoding = framing && !isLength && HTTPBytes.equalsIgnoringCase(nameBytes, "transfer-encoding")
            // Valid UTF-8 by now: decoding repairs nothing.
            let value = keepingHeaders || isLength || isCoding ? String(decoding: valueBytes, as: UTF8.self) : ""
            if keepingHeaders { headers.append(HTTPHeader(String(decoding: nameBytes, as: UTF8.self), value)) }
            if isLength {
                guard !value.isEmpty, value.utf8.allSatisfy(HTTPBytes.isDigit), let length = Int(value),
                    contentLength == nil || contentLength == length
                else {
                    throw .badLength(String(value.prefix(40)))
                }
                contentLength = length
            } else if isCoding {
                hasTransferEncoding = true
                // Lowercased in ASCII alone, and compared in bytes: a coding is a token, and a
                // letter that Unicode folds to an ASCII one (the Kelvin sign to k) names none
                // this reader knows, as it names none to a reader that compares bytes.
                let lowered = String(decoding: valueBytes.lazy.map(HTTPBytes.lowercasedASCII), as: UTF8.self)
                let codings = lowered.split(separator: ",").map { String($0.trimmingBlanks()) }
                transferCodings += codings.filter { !$0.isEmpty }
                chunked = transferCodings.last.map(Self.isChunked) ?? false
            } else if framing && HTTPBytes.equalsIgnoringCase(nameBytes, "connection") {
                // The options, a comma between each, read in the bytes: nearly every message has one.
                var optionStart = 0
                while optionStart <= valueBytes.count {
                    var optionEnd = optionStart
                    while optionEnd < valueBytes.count && valueBytes[optionEnd] != UInt8(ascii: ",") { optionEnd += 1 }
                    var (first, last) = (optionStart, optionEnd)
                    while first < last, HTTPBytes.isBlank(valueBytes[first]) { first += 1 }
                    while last > first, HTTPBytes.isBlank(valueBytes[last - 1]) { last -= 1 }
                    let option = UnsafeBufferPointer(rebasing: valueBytes[first..<last])
                    closes = closes || HTTPBytes.equalsIgnoringCase(option, "close")
                    keepsAlive = keepsAlive || HTTPBytes.equalsIgnoringCase(option, "keep-alive")
                    optionStart = optionEnd + 1
                }
            }
        }
        if hasTransferEncoding && contentLength != nil { throw .twoFramings }
        if hasTransferEncoding && transferCodings.isEmpty { throw .noCoding }
    }

    /// Whether `coding`, lowercased, is `chunked`: byte for byte, not by Unicode's equivalence.
    static func isChunked(_ coding: String) -> Bool {
        coding.utf8.elementsEqual("chunked".utf8)
    }
}

/// Byte-level helpers of the HTTP parsers.
enum HTTPBytes {
    static let crlf: [UInt8] = [13, 10]
    static let crlfcrlf: [UInt8] = [13, 10, 13, 10]

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// Appends the decimal digits of `value`, written where they go, without making a
    /// string: a status and a `Content-Length` in every message.
    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        guard value >= 0 else {
            bytes += String(value).utf8
            return
        }
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// `byte` lowercased when it is an ASCII capital; any other byte as it is.
    static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// `bytes` as text, or nil when they are not UTF-8. ASCII, what nearly every header
    /// holds, takes a shortcut past the validating decoder.
    static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Whether `bytes` spell `lowercase` in any case; `lowercase` is ASCII.
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { wanted in
            for (byte, expected) in zip(bytes, wanted) {
                if lowercasedASCII(byte) != expected { return false }
            }
            return true
        }
    }

    /// Where `needle` first occurs in `bytes` at or after `start`: its first byte found by
    /// the C library's scan, which takes many bytes a step.
    static func find(_ needle: [UInt8], in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard let first = needle.first, start >= bytes.startIndex, bytes.endIndex - start >= needle.count else {
            return nil
        }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = start - bytes.startIndex
            let last = buffer.count - needle.count
            while offset <= last {
                guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else { return nil }
                let found = hit.assumingMemoryBound(to: UInt8.self) - UnsafeMutablePointer(mutating: base)
                var matched = 1
                while matched < needle.count && buffer[found + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return bytes.startIndex + found }
                offset = found + 1
            }
            return nil
        }
    }
}

extension Substring {
    /// The text without blanks at either end.
    fileprivate func trimmingBlanks() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
