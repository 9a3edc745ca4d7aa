/// Why a JSON text could not be parsed, and where.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    /// Where the problem was found.
    public var position: TextPosition
    /// What was wrong, in a phrase: "expected ':' after an object key".
    public var reason: String

    /// Whether the text held nothing but white space (or a byte order mark).
    public var isEmptyText: Bool { reason == Self.emptyText }
    /// The reason given for an empty text.
    static let emptyText = "the file is empty; expected a JSON value"

    /// What this says of a request's body, in a phrase that what to send can follow:
    /// "the body is empty", or "the body is not JSON: expected ... (line 3)".
    public var bodyProblem: String {
        isEmptyText ? "the body is empty" : "the body is not JSON: \(reason) (line \(position.line))"
    }
}

/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// It rejects what lenient parsers let through and a fixture author would regret:
/// invalid UTF-8, duplicate keys, trailing commas, comments, and nesting deeper than
/// ``maximumDepth``. Every value carries its position, so later checks can point at it.
public struct JSONParser {
    /// How deeply arrays and objects may nest; deeper input is refused, never recursed into.
    public static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// Parses one JSON text: a single value with nothing but white space around it.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipByteOrderMark()
        parser.skipWhitespace()
        guard parser.index < bytes.count else {
            throw parser.error(JSONSyntaxError.emptyText)
        }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
        }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Positions

    private func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(position: TextPosition(offset: offset ?? index, in: bytes), reason: reason)
    }

    /// A key as a reason quotes it: cut after 80 characters, so that a reason stays short
    /// however long the key a client sent.
    static func quoted(_ key: String) -> String {
        let limit = 80
        guard !key.unicodeScalars.dropFirst(limit).isEmpty else { return "\"\(key)\"" }
        return "\"\(String(String.UnicodeScalarView(key.unicodeScalars.prefix(limit))))...\""
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    // MARK: Lexing

    private mutating func skipByteOrderMark() {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            index = 3
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                index += 1
            default:
                return
            }
        }
    }

    private mutating func expect(_ literal: String, producing kind: JSONValue.Kind) throws(JSONSyntaxError)
        -> JSONValue
    {
        let start = index
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else {
                throw error("invalid literal; expected '\(literal)'", at: start)
            }
            index += 1
        }
        return JSONValue(kind, at: start)
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""):
            let start = index
            return JSONValue(.string(try parseString()), at: start)
        case UInt8(ascii: "t"): return try expect("true", producing: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", producing: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", producing: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(describeCurrent()); expected a value")
        }
    }

    private mutating func enterContainer() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw error("nesting deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        try enterContainer()
        index += 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return JSONValue(.object([]), at: start)
        }
        // Each object gathers its members in an array of its own, made with room for a few:
        // most objects have a handful, and the array is then the object's, moved, not copied.
        var members: [(key: String, value: JSONValue)] = []
        var keyOffsets: [Int] = []
        members.reserveCapacity(4)
        keyOffsets.reserveCapacity(4)
        // Small objects are checked for duplicate keys by a scan, large ones by a set. Keys
        // are compared by their UTF-8, scalar by scalar, as RFC 8259 compares them: "é" and
        // "e\u{301}" are two keys, though Swift's strings call them equal.
        var seen: Set<[UInt8]> = []
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()); expected an object key in double quotes")
            }
            let keyOffset = index
            let key = try parseString()
            let count = members.count
            let isDuplicate =
                count < 16
                ? members.contains {
                    $0.key.utf8.count == key.utf8.count && $0.key.utf8.elementsEqual(key.utf8)
                }
                : !seen.insert(Array(key.utf8)).inserted
            if count == 15 { seen = Set((members.map(\.key) + [key]).map { Array($0.utf8) }) }
            guard !isDuplicate else {
                throw error("duplicate key \(Self.quoted(key))", at: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()); expected ':' after the key \(Self.quoted(key))")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append((key, value))
            keyOffsets.append(keyOffset)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else {
                throw error("unexpected \(describeCurrent()); expected ',' or '}'")
            }
            index += 1
            depth -= 1
            // A single member is moved to an array of its own size: a text of many nested
            // one-member objects then keeps no spare room for three more in each.
            if members.count == 1 { return JSONValue(.object([members[0]]), at: start, keyOffsets: [keyOffsets[0]]) }
            return JSONValue(.object(members), at: start, keyOffsets: keyOffsets)
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        try enterContainer()
        index += 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return JSONValue(.array([]), at: start)
        }
        // Each array gathers its elements as an object gathers its members.
        var elements: [JSONValue] = []
        elements.reserveCapacity(4)
        while true {
            skipWhitespace()
            let element = try parseValue()
            elements.append(element)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else {
                throw error("unexpected \(describeCurrent()); expected ',' or ']'")
            }
            index += 1
            depth -= 1
            // A single element is kept as a single member is, with no spare room.
            if elements.count == 1 { return JSONValue(.array([elements[0]]), at: start) }
            return JSONValue(.array(elements), at: start)
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        let first = index
        func digits(_ parser: inout JSONParser) -> Int {
            var count = 0
            while parser.index < parser.bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index])
            {
                parser.index += 1
                count += 1
            }
            return count
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("a number needs digits after '-'") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                throw error("numbers may not have leading zeros")
            }
        } else if digits(&self) == 0 {
            throw error("a number needs digits after '-'")
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("a number needs digits after '.'") }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard digits(&self) > 0 else { throw error("a number needs digits in its exponent") }
        }
        let text = Self.text(bytes, first..<index)
        return JSONValue(.number(text), at: start)
    }

    /// The text of `range` of `bytes`, valid UTF-8, made from a buffer rather than a slice:
    /// the quicker way a string is made from bytes.
    private static func text(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // the opening quote
        // Most strings are plain ASCII with no escape: take them whole. Anything else
        // goes the careful way, which checks the UTF-8 and finds the exact place of an error.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
            bytes[end] >= 0x20, bytes[end] < 0x80
        {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let text = Self.text(bytes, index..<end)
            index = end + 1
            return text
        }
        var scalars = String.UnicodeScalarView()
        while true {
            guard index < bytes.count else { throw error("unterminated string; expected '\"'") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                index += 1
                scalars.append(try parseEscape())
            case 0..<0x20:
                throw error("control character 0x\(String(byte, radix: 16, uppercase: true)) in a string; escape it")
            case 0..<0x80:
                scalars.append(Unicode.Scalar(byte))
                index += 1
            default:
                scalars.append(try parseMultibyteScalar())
            }
        }
    }

    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error("unterminated escape sequence") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHexQuad()
            if (0xD800..<0xDC00).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("a high surrogate \\u escape must be followed by a low one") }
                index += 2
                let low = try parseHexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate in \\u escape") }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                if let scalar = Unicode.Scalar(value) { return scalar }
                throw error("invalid \\u escape")
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate in \\u escape") }
            return scalar
        default:
            index -= 1
            throw error("invalid escape sequence '\\\(describeCurrent())'")
        }
    }

    private mutating func parseHexQuad() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("unterminated \\u escape") }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("\\u must be followed by four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Decodes one UTF-8 sequence of two to four bytes, refusing overlong and invalid forms.
    private mutating func parseMultibyteScalar() throws(JSONSyntaxError) -> Unicode.Scalar {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, value) = (4, UInt32(lead & 0x07))
        default: throw error("invalid UTF-8 byte 0x\(String(lead, radix: 16, uppercase: true)); save the file as UTF-8")
        }
        guard index + length <= bytes.count else { throw error("truncated UTF-8 sequence; save the file as UTF-8") }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { throw error("invalid UTF-8 sequence; save the file as UTF-8") }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, let scalar = Unicode.Scalar(value) else {
            throw error("invalid UTF-8 sequence; save the file as UTF-8")
        }
        index += length
        return scalar
    }
}
