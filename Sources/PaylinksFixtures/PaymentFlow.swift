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
}
