/// Writes compact JSON by hand, in exactly the order the caller chooses.
///
/// The wire shape of paylinks' output is deliberate (the SDK's property names in their
/// documented order), so it is written field by field rather than left to an encoder.
package struct JSONWriter {
    /// The JSON written so far.
    package private(set) var output: String = ""
    private var isFirstInContainer = true
    private var followsKey = false

    /// Creates an empty writer.
    package init() {}

    private mutating func separate() {
        if followsKey {
            followsKey = false
        } else if !isFirstInContainer {
            output += ","
        }
        isFirstInContainer = false
    }

    /// Opens an object: `{`.
    package mutating func openObject() {
        separate()
        output += "{"
        isFirstInContainer = true
    }

    /// Closes the innermost object: `}`.
    package mutating func closeObject() {
        output += "}"
        isFirstInContainer = false
    }

    /// Opens an array: `[`.
    package mutating func openArray() {
        separate()
        output += "["
        isFirstInContainer = true
    }

    /// Closes the innermost array: `]`.
    package mutating func closeArray() {
        output += "]"
        isFirstInContainer = false
    }

    /// Writes an object member's key; the next value written is its value.
    package mutating func key(_ key: String) {
        separate()
        Self.appendQuoted(key, to: &output)
        output += ":"
        followsKey = true
    }

    /// Writes an object member whose value is a string.
    package mutating func field(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    /// Writes an object member whose value is an integer.
    package mutating func field(_ name: String, _ value: Int) {
        key(name)
        int(value)
    }

    /// Writes an object member whose value is a Boolean.
    package mutating func field(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// Writes a string value.
    package mutating func string(_ value: String) {
        separate()
        Self.appendQuoted(value, to: &output)
    }

    /// Writes an integer value.
    package mutating func int(_ value: Int) {
        separate()
        output += String(value)
    }

    /// Writes a number exactly as spelled; `text` must be a valid JSON number.
    package mutating func rawNumber(_ text: String) {
        separate()
        output += text
    }

    /// Writes a Boolean value.
    package mutating func bool(_ value: Bool) {
        separate()
        output += value ? "true" : "false"
    }

    /// Writes `null`.
    package mutating func null() {
        separate()
        output += "null"
    }

    /// Appends `text` as a JSON string literal: quotes, backslashes and control
    /// characters escaped, everything else (including non-ASCII) as UTF-8.
    package static func appendQuoted(_ text: String, to output: inout String) {
        output += "\""
        var needsEscaping = false
        for byte in text.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            needsEscaping = true
            break
        }
        guard needsEscaping else {
            output += text
            output += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
