import PaylinksKit

/// Text as a string literal of a programming language: what the generated catalog and
/// `--format wire` write.
package enum SourceLiteral {
    /// The languages written.
    package enum Language: Sendable {
        /// `"a\u{1}"`.
        case swift
        /// `"a\u0001"`.
        case java
        /// `@"a\001"`: an Objective-C string object, control characters in octal (which,
        /// unlike `\x`, stops after three digits).
        case objc
    }

    private static let common: [Unicode.Scalar: String] = [
        "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
    ]
    private static let swift = TextEscaping(common) { "\\u{\(String($0, radix: 16, uppercase: true))}" }
    private static let java = TextEscaping(common) { value in
        let hex = String(value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    private static let objc = TextEscaping(common) { value in
        let octal = String(value, radix: 8)
        return "\\" + String(repeating: "0", count: 3 - octal.count) + octal
    }

    /// `text` in double quotes: quotes, backslashes and control characters escaped,
    /// everything else as it is.
    package static func quoted(_ text: String, _ language: Language = .swift) -> String {
        switch language {
        case .swift: "\"" + swift(text) + "\""
        case .java: "\"" + java(text) + "\""
        case .objc: "@\"" + objc(text) + "\""
        }
    }
}
