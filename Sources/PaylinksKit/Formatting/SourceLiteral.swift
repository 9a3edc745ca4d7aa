/// Text as a string literal of a programming language: what the generated catalog and
/// `--format wire` write.
package enum SourceLiteral {
    /// The languages written.
    package enum Language: Sendable {
        /// `"a\u{1}"`.
        case swift
        /// `"a\u0001"`.
        case java
    }

    /// `text` in double quotes: quotes, backslashes and control characters escaped,
    /// everything else as it is.
    package static func quoted(_ text: String, _ language: Language = .swift) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result +=
                    language == .swift ? "\\u{\(hex)}" : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
