/// The SDK's configuration (iOS `ACConfigModel`), as the game passes it to
/// ``PaymentLinksSimulator/initialize(configModel:customerId:delegate:)``.
///
/// A G2 `initialize` takes the player's customer id beside it, not in it.
public struct ACConfigModel: Equatable, Sendable {
    /// The publisher's checkout public key, safe to embed in an app; empty fails
    /// initialization with 2002.
    public var checkoutPublicKey: String
    /// `"sandbox"` or `"production"`; anything else fails initialization with 2001.
    public var environment: String
    /// Universal link for the external-browser mode (iOS only); one that is not an
    /// `https` URL with a host fails initialization with 2004.
    public var redirectUrl: String?

    /// Creates a configuration.
    public init(checkoutPublicKey: String, environment: String, redirectUrl: String? = nil) {
        self.checkoutPublicKey = checkoutPublicKey
        self.environment = environment
        self.redirectUrl = redirectUrl
    }
}
