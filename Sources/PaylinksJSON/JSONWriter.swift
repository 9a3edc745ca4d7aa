/// What JSON is written to, a value at a time in document order: compact text
/// (``JSONWriter``), or the value itself (``JSONValueBuilder``), so that one description of
/// a shape gives both.
package protocol JSONSink {
    /// Opens an object: `{`.
    mutating func openObject()
    /// Closes the innermost object: `}`.
    mutating func closeObject()
    /// Opens an array: `[`.
    mutating func openArray()
    /// Closes the innermost array: `]`.
    mutating func closeArray()
    /// An object member's key, one of paylinks' own names; the next value is its value.
    mutating func key(_ key: StaticString)
    /// An object member's key from data: a scenario's, a fixture's.
    mutating func key(data key: String)
    /// A string value.
    mutating func string(_ value: String)
    /// An integer value.
    mutating func int(_ value: Int)
    /// A number exactly as spelled; `text` must be a valid JSON number.
    mutating func rawNumber(_ text: String)
    /// A Boolean value.
    mutating func bool(_ value: Bool)
    /// `null`.
    mutating func null()
}

extension JSONSink {
    /// An object member whose value is a string.
    package mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    /// An object member whose value is an integer.
    package mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        int(value)
    }

    /// An object member whose value is a Boolean.
    package mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }
}

/// Writes JSON by hand, in exactly the order the caller chooses: compact, or indented for
/// a reader.
///
/// The wire shape of paylinks' output is deliberate (the SDK's property names in their
/// documented order), so it is written field by field rather than left to an encoder.
package struct JSONWriter: JSONSink {
    /// The JSON written so far, as UTF-8.
    package private(set) var bytes: [UInt8] = []
    private var isFirstInContainer = true
    private var followsKey = false
    /// Spaces a level of nesting is indented by; 0 writes compact JSON.
    private let indent: Int
    /// How many containers are open.
    private var depth = 0

    /// Creates an empty writer of compact JSON, or, with `indent`, of JSON whose every
    /// member and element starts a line indented by that many spaces a level; with
    /// `capacity`, room for that many bytes is made at once, for an answer of a known size.
    package init(indent: Int = 0, capacity: Int = 0) {
        self.indent = indent
        bytes.reserveCapacity(capacity)
    }

    /// The JSON written so far.
    package var output: String { String(decoding: bytes, as: UTF8.self) }

    /// The JSON written so far and a line feed, as one line of JSON Lines: made at once,
    /// not as the JSON and then a copy with the line feed.
    package var line: String {
        String(unsafeUninitializedCapacity: bytes.count + 1) { buffer in
            let written = buffer.initialize(fromContentsOf: bytes)
            buffer[written] = UInt8(ascii: "\n")
            return written + 1
        }
    }

    private mutating func separate() {
        if followsKey {
            followsKey = false
        } else {
            if !isFirstInContainer { bytes.append(UInt8(ascii: ",")) }
            if depth > 0 { newLine() }
        }
        isFirstInContainer = false
    }

    /// Starts the next line at the depth's indentation, when the writer indents.
    private mutating func newLine() {
        guard indent > 0 else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * depth))
    }

    /// Closes the innermost container with `bracket`, on a line of its own when it holds
    /// anything and the writer indents.
    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if !isFirstInContainer { newLine() }
        bytes.append(bracket)
        isFirstInContainer = false
    }

    /// Opens an object: `{`.
    package mutating func openObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        depth += 1
        isFirstInContainer = true
    }

    /// Closes the innermost object: `}`.
    package mutating func closeObject() {
        close(UInt8(ascii: "}"))
    }

    /// Opens an array: `[`.
    package mutating func openArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        depth += 1
        isFirstInContainer = true
    }

    /// Closes the innermost array: `]`.
    package mutating func closeArray() {
        close(UInt8(ascii: "]"))
    }

    /// Writes an object member's key, one of paylinks' own names; the next value written
    /// is its value.
    package mutating func key(_ key: StaticString) {
        member { writer in
            writer.bytes.append(UInt8(ascii: "\""))
            writer.append(key)
            writer.bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Writes an object member's key from data: a scenario's, a fixture's.
    package mutating func key(data key: String) {
        member { writer in Self.appendQuoted(key, to: &writer.bytes) }
    }

    /// Writes an object member's key that is a whole number's digits: `"699"`, a price
    /// point's key, without making a string of it.
    package mutating func key(number: Int) {
        member { writer in
            writer.bytes.append(UInt8(ascii: "\""))
            writer.bytes.appendDecimal(number)
            writer.bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Writes a member's key, quoted by `quotedKey`, and what follows it: the next value
    /// written is its value.
    private mutating func member(_ quotedKey: (inout JSONWriter) -> Void) {
        separate()
        quotedKey(&self)
        bytes.append(UInt8(ascii: ":"))
        if indent > 0 { bytes.append(UInt8(ascii: " ")) }
        followsKey = true
    }

    /// Writes a string value.
    package mutating func string(_ value: String) {
        separate()
        Self.appendQuoted(value, to: &bytes)
    }

    /// Writes an integer value.
    package mutating func int(_ value: Int) {
        separate()
        bytes.appendDecimal(value)
    }

    /// Writes a number exactly as spelled; `text` must be a valid JSON number.
    package mutating func rawNumber(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
    }

    /// Writes a value already written as compact JSON by another writer.
    package mutating func json(_ value: [UInt8]) {
        separate()
        bytes.append(contentsOf: value)
    }

    /// Writes a Boolean value.
    package mutating func bool(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
    }

    /// Writes `null`.
    package mutating func null() {
        separate()
        append("null")
    }

    /// Appends paylinks' own text, which needs no escaping.
    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { utf8 in
            assert(!utf8.contains(where: Self.needsEscaping), "text that needs escaping")
            bytes.append(contentsOf: utf8)
        }
    }

    /// Appends `text` as a JSON string literal: quotes, backslashes and control
    /// characters escaped, everything else (including non-ASCII) as UTF-8.
    package static func appendQuoted(_ text: String, to output: inout String) {
        var bytes: [UInt8] = []
        appendQuoted(text, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal, as UTF-8: quotes, backslashes and control
    /// characters escaped, and so are the characters that a reader may take for the end of
    /// a line or that turn text around on a screen (the C1 controls, U+2028 and U+2029, the
    /// marks and overrides of direction), so that one line of JSON stays one line, read in
    /// the order written.
    package static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var index = 0
            while true {
                // Most bytes need no escaping: copied whole, up to the next byte that may.
                let plain = mayNeedEscaping.firstIndex(in: utf8, from: index)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[index..<plain]))
                index = plain
                guard index < utf8.count else { break }
                let byte = utf8[index]
                if let scalar = escapedScalar(in: utf8, at: index) {
                    appendEscape(scalar.value, to: &output)
                    index += scalar.width
                    continue
                }
                index += 1
                guard needsEscaping(byte) else {
                    output.append(byte)
                    continue
                }
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                default:
                    output.removeLast()
                    appendEscape(UInt32(byte), to: &output)
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// `\uXXXX` for a character of the Basic Multilingual Plane.
    private static func appendEscape(_ value: UInt32, to output: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        output.append(contentsOf: "\\u".utf8)
        for shift in [12, 8, 4, 0] { output.append(hex[Int((value >> UInt32(shift)) & 0x0F)]) }
    }

    /// The character at `index` of `utf8` that is escaped though it is not ASCII, and how
    /// many bytes it takes: a C1 control (U+0080 to U+009F), a mark of direction (U+200E,
    /// U+200F), a line or paragraph separator (U+2028, U+2029), an embedding or override
    /// (U+202A to U+202E) or an isolate (U+2066 to U+2069); nil for any other.
    private static func escapedScalar(in utf8: UnsafeBufferPointer<UInt8>, at index: Int)
        -> (value: UInt32, width: Int)?
    {
        switch utf8[index] {
        case 0xC2 where index + 1 < utf8.count && (0x80...0x9F).contains(utf8[index + 1]):
            return (UInt32(utf8[index + 1]), 2)
        case 0xE2 where index + 2 < utf8.count:
            let second = utf8[index + 1]
            let third = utf8[index + 2]
            let value = 0x2000 | (UInt32(second & 0x3F) << 6) | UInt32(third & 0x3F)
            switch (second, third) {
            case (0x80, 0x8E...0x8F), (0x80, 0xA8...0xAE), (0x81, 0xA6...0xA9): return (value, 3)
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The bytes of UTF-8 that may start something escaped: a control character, a quote, a
    /// backslash, or the first byte of a character ``escapedScalar(in:at:)`` escapes.
    private static let mayNeedEscaping = ByteSearch(
        below: 0x20, UInt8(ascii: "\""), UInt8(ascii: "\\"), 0xC2, 0xE2)

    /// Whether a byte of UTF-8 stands for itself in a JSON string: not a quote, a
    /// backslash or a control character. Bytes of non-ASCII characters all do.
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}

/// Builds the value a ``JSONWriter`` would have written, without the text: what parsing
/// that text would give, positions aside.
package struct JSONValueBuilder: JSONSink {
    /// An object or array not yet closed, with the key it stands under in its parent.
    private enum Open {
        case object(key: String, [(key: String, value: JSONValue)])
        case array(key: String, [JSONValue])
    }

    private var open: [Open] = []
    private var pendingKey = ""
    /// The value built, once its outermost object or array is closed (or a scalar given).
    package private(set) var value: JSONValue?

    /// An empty builder.
    package init() {}

    private mutating func add(_ kind: JSONValue.Kind, under key: String) {
        let value = JSONValue(kind, at: 0)
        switch open.popLast() {
        case .object(let outer, var members)?:
            members.append((key, value))
            open.append(.object(key: outer, members))
        case .array(let outer, var elements)?:
            elements.append(value)
            open.append(.array(key: outer, elements))
        case nil:
            self.value = value
        }
    }

    private mutating func add(_ kind: JSONValue.Kind) { add(kind, under: pendingKey) }

    package mutating func openObject() { open.append(.object(key: pendingKey, [])) }

    package mutating func closeObject() {
        guard case .object(let key, let members)? = open.popLast() else { return }
        add(.object(members), under: key)
    }

    package mutating func openArray() { open.append(.array(key: pendingKey, [])) }

    package mutating func closeArray() {
        guard case .array(let key, let elements)? = open.popLast() else { return }
        add(.array(elements), under: key)
    }

    package mutating func key(_ key: StaticString) {
        pendingKey = key.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    }

    package mutating func key(data key: String) { pendingKey = key }
    package mutating func string(_ value: String) { add(.string(value)) }
    package mutating func int(_ value: Int) { add(.number(String(value))) }
    package mutating func rawNumber(_ text: String) { add(.number(text)) }
    package mutating func bool(_ value: Bool) { add(.bool(value)) }
    package mutating func null() { add(.null) }
}
