import PaylinksKit

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
    }

    /// The fields in the order sent, names as sent, values without surrounding blanks.
    var headers: [HTTPHeader] = []
    /// `Content-Length`, when given.
    var contentLength: Int?
    /// Whether `Transfer-Encoding` names `chunked`.
    var chunked = false
    /// The transfer codings `Transfer-Encoding` names, lowercased, in order.
    var transferCodings: [String] = []
    /// Whether `Connection` says `close`.
    var closes = false
    /// Whether `Connection` says `keep-alive`.
    var keepsAlive = false

    /// Reads the field lines of `bytes`, from `start` to the end; each line ends in CRLF
    /// (the last may not).
    init(_ bytes: ArraySlice<UInt8>, from start: Int) throws(Problem) {
        var start = start
        while start < bytes.endIndex {
            let end = HTTPBytes.find(HTTPBytes.crlf, in: bytes, from: start) ?? bytes.endIndex
            defer { start = end + 2 }
            let line = bytes[start..<end]
            if line.isEmpty { continue }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw .noColon }
            var valueStart = colon + 1
            var valueEnd = line.endIndex
            while valueStart < valueEnd, HTTPBytes.isBlank(line[valueStart]) { valueStart += 1 }
            while valueEnd > valueStart, HTTPBytes.isBlank(line[valueEnd - 1]) { valueEnd -= 1 }
            guard !line[colon...].contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else { throw .badValue }
            let nameBytes = line[line.startIndex..<colon]
            guard !nameBytes.isEmpty, !nameBytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
                throw .badName
            }
            guard let name = HTTPBytes.text(nameBytes), let value = HTTPBytes.text(line[valueStart..<valueEnd])
            else { throw .notUTF8 }
            headers.append(HTTPHeader(name, value))
            if HTTPBytes.equalsIgnoringCase(nameBytes, "content-length") {
                guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(value),
                    contentLength == nil || contentLength == length
                else {
                    throw .badLength(String(value.prefix(40)))
                }
                contentLength = length
            } else if HTTPBytes.equalsIgnoringCase(nameBytes, "transfer-encoding") {
                let codings = value.lowercased().split(separator: ",").map { String($0.trimmingBlanks()) }
                transferCodings += codings.filter { !$0.isEmpty }
                chunked = transferCodings.last == "chunked"
            } else if HTTPBytes.equalsIgnoringCase(nameBytes, "connection") {
                let options = value.lowercased().split(separator: ",").map { $0.trimmingBlanks() }
                closes = closes || options.contains("close")
                keepsAlive = keepsAlive || options.contains("keep-alive")
            }
        }
        if !transferCodings.isEmpty && contentLength != nil { throw .twoFramings }
    }
}

/// Byte-level helpers of the HTTP parsers.
enum HTTPBytes {
    static let crlf: [UInt8] = [13, 10]
    static let crlfcrlf: [UInt8] = [13, 10, 13, 10]

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// `bytes` as text, or nil when they are not UTF-8. ASCII, what nearly every header
    /// holds, takes a shortcut past the validating decoder.
    static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Whether `bytes` spell `lowercase` in any case; `lowercase` is ASCII.
    static func equalsIgnoringCase(_ bytes: ArraySlice<UInt8>, _ lowercase: StaticString) -> Bool {
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
    static func find(_ needle: [UInt8], in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
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

extension Substring {
    /// The text without blanks at either end.
    fileprivate func trimmingBlanks() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
