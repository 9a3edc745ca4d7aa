/// Values quoted in one-line messages.
public enum MessageText {
    /// A value as it can be quoted in a one-line message: control characters escaped,
    /// long values cut.
    public static func sanitized(_ value: String) -> String {
        let result = oneLine(String(String.UnicodeScalarView(value.unicodeScalars.prefix(80))))
        return value.unicodeScalars.count > 80 ? result + "..." : result
    }

    /// `line` as one line of a log or a terminal, whatever it quotes: every control
    /// character (C0, DEL and C1: line feeds, carriage returns, escape sequences) written
    /// as `\u{1B}`, so that nothing from outside can end a line, forge another, or move the
    /// cursor.
    public static func oneLine(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: isControl) else { return line }
        var result = ""
        for scalar in line.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
