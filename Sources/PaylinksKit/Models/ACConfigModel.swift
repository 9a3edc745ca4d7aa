/// The SDK's configuration (iOS `ACConfigModel`), plus the player's customer id that a
/// G2 `initialize` takes beside it.
public struct ACConfigModel: Equatable, Sendable {
    /// The publisher's checkout public key, safe to embed in an app.
    public var checkoutPublicKey: String
    /// `"sandbox"` or `"production"`; anything else fails initialization with 2001.
    public var environment: String
    /// Universal link for the external-browser mode (iOS only).
    public var redirectUrl: String?
    /// The player's id in the game.
    public var customerId: String

    /// Creates a configuration.
    public init(checkoutPublicKey: String, environment: String, redirectUrl: String? = nil, customerId: String) {
        self.checkoutPublicKey = checkoutPublicKey
        self.environment = environment
        self.redirectUrl = redirectUrl
        self.customerId = customerId
    }
}
