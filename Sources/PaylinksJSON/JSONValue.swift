/// A place in a JSON text, counted from 1, as editors show it.
public struct TextPosition: Equatable, Sendable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column in characters (Unicode scalars), from 1.
    public var column: Int

    /// Creates a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The position of a byte offset in UTF-8 text; columns count Unicode scalars.
    public init(offset: Int, in bytes: [UInt8]) {
        var line = 1
        var column = 1
        var i = 0
        let end = min(offset, bytes.count)
        while i < end {
            if bytes[i] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if bytes[i] & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        self.init(line: line, column: column)
    }

    /// `line:column`, the form compilers and editors understand.
    public var description: String { "\(line):\(column)" }
}

/// The starts of a text's lines, to turn many byte offsets into positions at once.
package struct LineStarts {
    private let bytes: [UInt8]
    private let starts: [Int]

    /// The line starts of `bytes`.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") { starts.append(index + 1) }
        self.starts = starts
    }

    /// The position of `offset`, as ``TextPosition/init(offset:in:)`` counts it.
    package func position(of offset: Int) -> TextPosition {
        let offset = min(max(0, offset), bytes.count)
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var column = 1
        for byte in bytes[starts[low]..<offset] where byte & 0xC0 != 0x80 { column += 1 }
        return TextPosition(line: low + 1, column: column)
    }
}

/// A parsed JSON value that remembers where it stood in its text.
///
/// The place is kept as a byte offset, cheap to record for every value; a reader turns
/// it into a line and column with ``TextPosition/init(offset:in:)`` only to report it.
///
/// Objects keep their members in document order; numbers keep their exact spelling so
/// that a reader can tell `4.0` from `4` and catch an integer that overflows.
public struct JSONValue: Sendable {
    /// What the value is.
    public enum Kind: Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number, exactly as written.
        case number(String)
        /// A string, unescaped.
        case string(String)
        /// An array.
        case array([JSONValue])
        /// An object, its members in document order.
        case object([(key: String, value: JSONValue)])
    }

    /// What the value is.
    public var kind: Kind
    /// The byte offset where the value starts in its text.
    public var offset: Int
    /// For an object, the byte offset of each member's key, in member order.
    public var keyOffsets: [Int]

    /// Creates a value.
    public init(_ kind: Kind, at offset: Int, keyOffsets: [Int] = []) {
        self.kind = kind
        self.offset = offset
        self.keyOffsets = keyOffsets
    }

    /// The JSON type's name, for messages: "a string", "an object" ...
    public var typeDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue {
    /// What `text`, a JSON number, is as a whole number, or nil when it is not a JSON number.
    ///
    /// Figured exactly from the decimal digits, never through `Double`; its time is the
    /// text's length and it allocates nothing, however large the exponent (`1e999999999`).
    package static func wholeNumberReading(_ text: String) -> WholeNumberReading? {
        if let plain = plainInteger(text) { return .whole(plain) }
        guard let digits = JSONNumberDigits(text) else { return nil }
        guard !digits.isZero else { return .whole(0) }
        let outside: WholeNumberReading = digits.negative ? .belowInt : .aboveInt
        // A last significant digit after the point: not whole, however small or large.
        guard digits.exponent >= 0 else { return .notWhole }
        // Int's largest magnitude has 19 digits.
        guard digits.count + digits.exponent <= 19 else { return outside }
        var magnitude: UInt64 = 0
        digits.forEachDigit { magnitude = magnitude * 10 + UInt64($0) }
        for _ in 0..<digits.exponent {
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return outside }
            magnitude = product
        }
        if digits.negative {
            guard magnitude <= UInt64(Int.max) + 1 else { return outside }
            return .whole(magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude))
        }
        return magnitude <= UInt64(Int.max) ? .whole(Int(magnitude)) : outside
    }

    /// `text` read at once when it is spelled as most whole numbers are: an optional minus
    /// and at most 18 digits, the first not a 0 unless it is the only one; nil for any
    /// other spelling, which ``wholeNumberReading(_:)`` reads digit by digit.
    private static func plainInteger(_ text: String) -> Int? {
        var text = text
        return text.withUTF8(plainInteger)
    }

    /// The number `bytes` spell, read at once as ``plainInteger(_:)`` reads a text; nil for
    /// any other spelling.
    package static func plainInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count <= 19 else { return nil }
        var negative = false
        var magnitude = 0
        var digits = 0
        var first: UInt8 = 0
        for byte in bytes {
            if byte == UInt8(ascii: "-") && !negative && digits == 0 {
                negative = true
                continue
            }
            // At most 18 digits, below 10^18: well within Int, never an overflow.
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"), digits < 18 else { return nil }
            if digits == 0 { first = byte }
            magnitude = magnitude * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits > 0, first != UInt8(ascii: "0") || digits == 1 else { return nil }
        return negative ? -magnitude : magnitude
    }
}

/// What a JSON number is as a whole number, so that a reader can say why it refuses one:
/// a number that is whole but beyond `Int` is too large, not "not whole".
package enum WholeNumberReading: Equatable, Sendable {
    /// A whole number within `Int`.
    case whole(Int)
    /// A whole number above `Int.max`.
    case aboveInt
    /// A whole number below `Int.min`.
    case belowInt
    /// A number with a fraction that is not zero, however small (`1e-999999`).
    case notWhole
}

/// A JSON number's exact value, read from its text: a sign, its significant digits (no
/// leading or trailing zeros) and the power of ten they are multiplied by.
///
/// It keeps places in the text rather than a copy of the digits, so that reading it
/// allocates nothing and costs the text's length, however large the exponent.
package struct JSONNumberDigits {
    /// The number's text.
    private let bytes: String.UTF8View
    /// The first and last significant digits in `bytes`; nil for zero.
    private let first: String.UTF8View.Index?
    private let last: String.UTF8View.Index
    /// Whether the text starts with `-`.
    package let negative: Bool
    /// How many significant digits there are: 0 for zero.
    package let count: Int
    /// The power of ten the significant digits are multiplied by, held within ±2^40: past
    /// that no mantissa of a text that fits in memory can bring the value back to a whole
    /// number within `Int`, or to one with six digits after the point.
    package let exponent: Int

    /// The number `text` is, or nil when `text` is not a JSON number: digits on each side
    /// of a point (not `1.` nor `.5`), an optional sign in front and an optional exponent.
    package init?(_ text: String) {
        let bytes = text.utf8
        var index = bytes.startIndex
        let negative = index != bytes.endIndex && bytes[index] == UInt8(ascii: "-")
        if negative { index = bytes.index(after: index) }
        // The mantissa's digits, the point skipped: where they start and end, and how many
        // stood after the point.
        let digitsStart = index
        var digitCount = 0
        var fractionCount = 0
        var seenPoint = false
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if Self.isDigit(byte) {
                digitCount += 1
                if seenPoint { fractionCount += 1 }
            } else {
                break
            }
            index = bytes.index(after: index)
        }
        guard digitCount > fractionCount, !seenPoint || fractionCount > 0 else { return nil }
        let digitsEnd = index
        let exponentLimit = 1 << 40
        var exponent = 0
        if index != bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            index = bytes.index(after: index)
            var exponentNegative = false
            if index != bytes.endIndex && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index = bytes.index(after: index)
            }
            guard index != bytes.endIndex else { return nil }
            while index != bytes.endIndex {
                let byte = bytes[index]
                guard Self.isDigit(byte) else { return nil }
                exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), exponentLimit)
                index = bytes.index(after: index)
            }
            if exponentNegative { exponent = -exponent }
        }
        // The significant digits: leading and trailing zeros dropped, each trailing zero
        // raising the exponent by one.
        var first: String.UTF8View.Index?
        var last = digitsStart
        var position = 0
        var firstPosition = 0
        var lastPosition = 0
        index = digitsStart
        while index != digitsEnd {
            let byte = bytes[index]
            if Self.isDigit(byte) {
                if byte != UInt8(ascii: "0") {
                    if first == nil {
                        first = index
                        firstPosition = position
                    }
                    last = index
                    lastPosition = position
                }
                position += 1
            }
            index = bytes.index(after: index)
        }
        self.bytes = bytes
        self.first = first
        self.last = last
        self.negative = negative
        self.count = first == nil ? 0 : lastPosition - firstPosition + 1
        self.exponent = first == nil ? 0 : exponent - fractionCount + (digitCount - 1 - lastPosition)
    }

    /// Whether the number is zero, however it is spelled (`-0.0e5`).
    package var isZero: Bool { first == nil }

    /// Calls `body` with each significant digit's value, 0 to 9, most significant first.
    package func forEachDigit(_ body: (UInt8) -> Void) {
        guard var index = first else { return }
        while true {
            let byte = bytes[index]
            if Self.isDigit(byte) { body(byte - UInt8(ascii: "0")) }
            if index == last { break }
            index = bytes.index(after: index)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
