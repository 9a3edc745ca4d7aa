public import PaylinksAppcharge
public import PaylinksHTTP

/// Where Appcharge's requests to the game's server go and how they are signed: the
/// endpoint, the studio's credentials, the events' version and how retries wait. One
/// value for awards, events and replays alike.
public struct DeliveryDestination: Sendable {
    /// The game server's endpoint.
    public var url: HTTPURL
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

    /// A destination at `url`, signed with `key` and `publisherToken`.
    public init(
        url: HTTPURL, key: [UInt8], publisherToken: String, projectId: String = DemoCredentials.projectId,
        version: OrderEvent.Version = .v2, waitsInRealTime: Bool = false
    ) {
        self.url = url
        self.key = key
        self.publisherToken = publisherToken
        self.projectId = projectId
        self.version = version
        self.waitsInRealTime = waitsInRealTime
    }
}
