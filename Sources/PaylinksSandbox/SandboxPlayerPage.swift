/// A player's page: their orders, and what Appcharge's books say they should hold.
extension SandboxPage {
    /// The player page's own rules of the style sheet.
    static let playerStyle = ""
}
