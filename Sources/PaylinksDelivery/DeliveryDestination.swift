public import PaylinksAppcharge
public import PaylinksHTTP

/// Where Appcharge's requests to the game's server go and how they are signed: the
/// endpoint, and the ``DeliverySigning`` of every request sent there. One value for
/// awards, events and replays alike.
public struct DeliveryDestination: Sendable {
    /// The game server's endpoint.
    public var url: HTTPURL
    /// How the requests to it are signed and sent.
    public var signing: DeliverySigning

    /// A destination at `url`, signed and sent as `signing` says.
    public init(url: HTTPURL, signing: DeliverySigning) {
        self.url = url
        self.signing = signing
    }

    /// A destination at `url`, signed with `key` and `publisherToken`.
    public init(
        url: HTTPURL, key: [UInt8], publisherToken: String, projectId: String = DemoCredentials.projectId,
        version: OrderEvent.Version = .v2, waitsInRealTime: Bool = false
    ) {
        self.init(
            url: url,
            signing: DeliverySigning(
                key: key, publisherToken: publisherToken, projectId: projectId, version: version,
                waitsInRealTime: waitsInRealTime))
    }

    /// The signing's key.
    public var key: [UInt8] { signing.key }
    /// The signing's publisher token.
    public var publisherToken: String { signing.publisherToken }
    /// The signing's project id.
    public var projectId: String { signing.projectId }
    /// The signing's events' version.
    public var version: OrderEvent.Version { signing.version }
    /// Whether the signing's pauses are waited out in real time.
    public var waitsInRealTime: Bool { signing.waitsInRealTime }
}

/// How Appcharge's requests to the game's server are signed and sent, wherever they go:
/// the studio's credentials, the events' version and how retries wait. A
/// ``DeliveryDestination`` is one of these with an endpoint; events shown rather than
/// sent (`trigger` without an events URL) are signed by one alone.
public struct DeliverySigning: Sendable {
    /// The key that signs: the main key for awards, the events key for events.
    public var key: [UInt8]
    /// The publisher token sent with each request.
    public var publisherToken: String
    /// The project id events carry.
    public var projectId: String
    /// The events' payload version; awards have one shape.
    public var version: OrderEvent.Version
    /// Whether the pauses between attempts are waited out in real time or only counted.
    public var waitsInRealTime: Bool

    /// Signing with `key` and `publisherToken`.
    public init(
        key: [UInt8], publisherToken: String, projectId: String = DemoCredentials.projectId,
        version: OrderEvent.Version = .v2, waitsInRealTime: Bool = false
    ) {
        self.key = key
        self.publisherToken = publisherToken
        self.projectId = projectId
        self.version = version
        self.waitsInRealTime = waitsInRealTime
    }
}
