/// Values quoted in one-line messages.
public enum MessageText {
    /// A value as it can be quoted in a one-line message: control characters escaped,
    /// long values cut.
    public static func sanitized(_ value: String) -> String {
        var result = ""
        for scalar in value.unicodeScalars.prefix(80) {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return value.unicodeScalars.count > 80 ? result + "..." : result
    }
}
