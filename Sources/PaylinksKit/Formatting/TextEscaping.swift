/// One way to escape text for another language: a replacement for some characters, and
/// a spelling for the control characters that have none. The HTML of the checkout page,
/// the XML of a JUnit report and the string literals of the wire format all use it.
package struct TextEscaping: Sendable {
    /// What stands for each character that needs it.
    private let replacements: [Unicode.Scalar: String]
    /// How a control character without a replacement is written, from its value; nil
    /// leaves control characters as they are.
    private let control: (@Sendable (UInt32) -> String)?

    /// Escapes with `replacements`, and with `control` the control characters they leave.
    package init(_ replacements: [Unicode.Scalar: String], control: (@Sendable (UInt32) -> String)? = nil) {
        self.replacements = replacements
        self.control = control
    }

    /// `text` escaped.
    package func callAsFunction(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replacement = replacements[scalar] {
                result += replacement
            } else if let control, scalar.value < 0x20 || scalar.value == 0x7F {
                result += control(scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
