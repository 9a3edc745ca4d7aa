import PaylinksJSON

/// Values quoted in one-line messages, and text from outside as a terminal shows it.
public enum MessageText {
    /// A value as it can be quoted in a one-line message: control characters escaped,
    /// long values cut.
    public static func sanitized(_ value: String) -> String {
        let result = oneLine(String(String.UnicodeScalarView(value.unicodeScalars.prefix(80))))
        return value.unicodeScalars.count > 80 ? result + "..." : result
    }

    /// `line` as one line of a log or a terminal, whatever it quotes: every control
    /// character (C0, DEL and C1: line feeds, carriage returns, escape sequences, U+0085's
    /// next line, U+009B's control sequence introducer), the line and paragraph separators
    /// (U+2028, U+2029) and every bidirectional control (U+061C, U+200E, U+200F, U+202A to
    /// U+202E, U+2066 to U+2069) written as `\u{1B}`,
    /// so that nothing from outside can end a line, forge another, move the cursor, or
    /// show the text after it in another order than it has.
    ///
    /// Every text output of paylinks passes what others supplied through here: the log,
    /// the callbacks' blocks, the audits' findings, the listings' tables. JSON output
    /// escapes by JSON's rules instead.
    public static func oneLine(_ line: String) -> String {
        // Every character escaped is a byte below 0x20 or 0x7F in UTF-8, or starts with
        // 0xC2 (C1), 0xD8 (U+061C) or 0xE2 (the others): text without those bytes, the
        // usual, is returned after one look at its bytes, without decoding a character.
        var contiguous = line
        let mayEscape = contiguous.withUTF8 { bytes in mayBeEscaped.firstIndex(in: bytes) < bytes.count }
        guard mayEscape, line.unicodeScalars.contains(where: isEscaped) else { return line }
        var result = ""
        result.reserveCapacity(line.utf8.count + 16)
        for scalar in line.unicodeScalars {
            if isEscaped(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The bytes that start every character `oneLine` escapes.
    private static let mayBeEscaped = ByteSearch(below: 0x20, 0x7F, 0xC2, 0xD8, 0xE2)

    /// Whether `oneLine` writes `scalar` as an escape.
    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
