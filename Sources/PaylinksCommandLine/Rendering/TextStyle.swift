/// How text output marks what matters: plain, or with ANSI colours for a terminal.
package struct TextStyle: Sendable {
    private let enabled: Bool

    /// No colour.
    package static let plain = TextStyle(enabled: false)
    /// ANSI colours.
    package static let ansi = TextStyle(enabled: true)

    /// A success: bold green.
    func success(_ text: String) -> String { wrap(text, "1;32") }
    /// A failure: bold red.
    func failure(_ text: String) -> String { wrap(text, "1;31") }
    /// A status code: yellow.
    func code(_ text: String) -> String { wrap(text, "33") }
    /// A heading: bold.
    func heading(_ text: String) -> String { wrap(text, "1") }
    /// Secondary text: dim.
    func secondary(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ attributes: String) -> String {
        enabled ? "\u{1B}[\(attributes)m\(text)\u{1B}[0m" : text
    }
}
