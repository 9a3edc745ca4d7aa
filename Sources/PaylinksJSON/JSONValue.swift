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
