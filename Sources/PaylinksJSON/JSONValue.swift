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
    /// Writes the value as compact JSON, members in their order, numbers as spelled.
    package func write(to writer: inout JSONWriter) {
        switch kind {
        case .null: writer.null()
        case .bool(let flag): writer.bool(flag)
        case .number(let text): writer.rawNumber(text)
        case .string(let text): writer.string(text)
        case .array(let elements):
            writer.openArray()
            for element in elements { element.write(to: &writer) }
            writer.closeArray()
        case .object(let members):
            writer.openObject()
            for (key, member) in members {
                writer.key(data: key)
                member.write(to: &writer)
            }
            writer.closeObject()
        }
    }
}

extension JSONValue {
    /// The value as an `Int` when it is a number whose value is whole and within `Int`'s
    /// range, however it is spelled: `499`, `499.0`, `499.00`, `4.99e2` and `4990e-1` are
    /// all 499, and `-0.0` is 0, as JSON Schema's `integer` takes them. Nil for `499.5`, for
    /// a whole number beyond `Int`, and for any value that is not a number.
    package var wholeNumber: Int? {
        guard case .number(let text) = kind else { return nil }
        return Self.wholeNumber(text)
    }

    /// The whole number `text`, a JSON number, stands for, or nil (see ``wholeNumber``).
    ///
    /// Figured exactly from the decimal digits, never through `Double`; its time is the
    /// text's length and it allocates nothing, however large the exponent (`1e999999999`).
    package static func wholeNumber(_ text: String) -> Int? {
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
            } else if isDigit(byte) {
                digitCount += 1
                if seenPoint { fractionCount += 1 }
            } else {
                break
            }
            index = bytes.index(after: index)
        }
        // Digits on each side of a point, as JSON writes a number: not `1.` nor `.5`.
        guard digitCount > fractionCount, !seenPoint || fractionCount > 0 else { return nil }
        let digitsEnd = index
        // The exponent, held within ±2^40: past that no mantissa of a text that fits in
        // memory can bring the value back to a whole number within `Int`, or to one at all.
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
                guard isDigit(byte) else { return nil }
                exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), exponentLimit)
                index = bytes.index(after: index)
            }
            if exponentNegative { exponent = -exponent }
        }
        // The significant digits: leading and trailing zeros dropped, each trailing zero
        // raising the exponent by one. Their value is that run times ten to `scale`.
        var first: String.UTF8View.Index?
        var last = digitsStart
        var position = 0
        var lastPosition = 0
        index = digitsStart
        while index != digitsEnd {
            let byte = bytes[index]
            if isDigit(byte) {
                if byte != UInt8(ascii: "0") {
                    if first == nil { first = index }
                    last = index
                    lastPosition = position
                }
                position += 1
            }
            index = bytes.index(after: index)
        }
        guard let first else { return 0 }
        let trailingZeros = digitCount - 1 - lastPosition
        let scale = exponent - fractionCount + trailingZeros
        // A last significant digit after the point: not whole.
        guard scale >= 0 else { return nil }
        var magnitude: UInt64 = 0
        var significant = 0
        index = first
        while true {
            let byte = bytes[index]
            if isDigit(byte) {
                significant += 1
                // Int's largest magnitude has 19 digits.
                guard significant + scale <= 19 else { return nil }
                magnitude = magnitude * 10 + UInt64(byte - UInt8(ascii: "0"))
            }
            if index == last { break }
            index = bytes.index(after: index)
        }
        for _ in 0..<scale {
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            magnitude = product
        }
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { return nil }
            return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
        }
        return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
