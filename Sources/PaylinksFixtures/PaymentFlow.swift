/// How a game takes the player to the checkout: through Appcharge's SDK, whose delegate
/// receives the callbacks, or by Link Out, without the SDK, where the game's server
/// creates the session with a `redirectUrl` and the game learns how the checkout ended
/// from the browser sent back to it.
package enum PaymentFlow: String, CaseIterable, Sendable {
    /// The SDK opens the checkout and calls the game's delegate.
    case sdk
    /// No SDK: the checkout sends the browser to `redirectUrl?status=...`.
    case linkOut = "link-out"

    /// The statuses a Link Out checkout's browser goes back with, as Appcharge spells them.
    package static let statuses = ["success", "fail", "cancel"]

    /// The most bytes a return URL may hold.
    package static let redirectUrlLimit = 2048

    /// Why `url` cannot be a Link Out return URL, in words that follow "the redirect URL";
    /// nil when it can: an absolute URL with a scheme, no control characters or spaces, at
    /// most 2,048 bytes, and not `javascript:` or `data:`, which a browser would run or show
    /// rather than hand to the game.
    package static func redirectUrlProblem(_ url: String) -> String? {
        if url.utf8.count > redirectUrlLimit {
            return "is \(url.utf8.count) bytes, more than \(redirectUrlLimit)"
        }
        if url.unicodeScalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "holds a space or a control character; percent-encode it"
        }
        guard let colon = url.firstIndex(of: ":"), let first = url.unicodeScalars.first,
            ("a"..."z").contains(first) || ("A"..."Z").contains(first),
            url[..<colon].unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "+-.".unicodeScalars.contains($0)
            }),
            url.index(after: colon) != url.endIndex
        else {
            return "is not an absolute URL with a scheme, such as https://game.example/return or mygame://return"
        }
        let scheme = url[..<colon].lowercased()
        if scheme == "javascript" || scheme == "data" {
            return "has the scheme \(scheme):, which a browser runs or shows instead of handing it to the game"
        }
        return nil
    }
}
