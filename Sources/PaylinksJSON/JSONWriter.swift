/// Writes compact JSON by hand, in exactly the order the caller chooses.
///
/// The wire shape of paylinks' output is deliberate (the SDK's property names in their
/// documented order), so it is written field by field rather than left to an encoder.
package struct JSONWriter {
    /// The JSON written so far, as UTF-8.
    package private(set) var bytes: [UInt8] = []
    private var isFirstInContainer = true
    private var followsKey = false

    /// Creates an empty writer.
    package init() {}

    /// The JSON written so far.
    package var output: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func separate() {
        if followsKey {
            followsKey = false
        } else if !isFirstInContainer {
            bytes.append(UInt8(ascii: ","))
        }
        isFirstInContainer = false
    }

    /// Opens an object: `{`.
    package mutating func openObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        isFirstInContainer = true
    }

    /// Closes the innermost object: `}`.
    package mutating func closeObject() {
        bytes.append(UInt8(ascii: "}"))
        isFirstInContainer = false
    }

    /// Opens an array: `[`.
    package mutating func openArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        isFirstInContainer = true
    }

    /// Closes the innermost array: `]`.
    package mutating func closeArray() {
        bytes.append(UInt8(ascii: "]"))
        isFirstInContainer = false
    }

    /// Writes an object member's key, one of paylinks' own names; the next value written
    /// is its value.
    package mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        append(key)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        followsKey = true
    }

    /// Writes an object member's key from data: a scenario's, a fixture's.
    package mutating func key(data key: String) {
        separate()
        Self.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        followsKey = true
    }

    /// Writes an object member whose value is a string.
    package mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    /// Writes an object member whose value is an integer.
    package mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        int(value)
    }

    /// Writes an object member whose value is a Boolean.
    package mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// Writes a string value.
    package mutating func string(_ value: String) {
        separate()
        Self.appendQuoted(value, to: &bytes)
    }

    /// Writes an integer value.
    package mutating func int(_ value: Int) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // The digits, least significant first, then turned around in place.
        let start = bytes.count
        var rest = value.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
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

    /// Appends `text` as a JSON string literal, as UTF-8.
    package static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Most strings need no escaping: copy them whole.
            guard utf8.contains(where: needsEscaping) else {
                output.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
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
                    let hex = Array("0123456789ABCDEF".utf8)
                    output.append(contentsOf: "u00".utf8)
                    output.append(hex[Int(byte >> 4)])
                    output.append(hex[Int(byte & 0x0F)])
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Whether a byte of UTF-8 stands for itself in a JSON string: not a quote, a
    /// backslash or a control character. Bytes of non-ASCII characters all do.
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}
