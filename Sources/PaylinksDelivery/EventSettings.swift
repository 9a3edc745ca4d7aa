package import PaylinksAppcharge
package import PaylinksHTTP

/// Where the events of orders go and how they are signed: sent to an events endpoint, or,
/// with none (`trigger`), shown as they would be sent. Everything a ``DeliveryDestination``
/// holds but its URL, which may be missing.
package struct EventSettings: Sendable {
    /// The game server's events endpoint; nil when the events are only shown.
    package var url: HTTPURL?
    /// The events' payload version.
    package var version: OrderEvent.Version
    /// The events key: a separate one, else the main key.
    package var key: [UInt8]
    /// The publisher token sent with each event.
    package var publisherToken: String
    /// The project id events carry.
    package var projectId: String
    /// Whether the pauses between attempts are waited out in real time or only counted.
    package var waitsInRealTime: Bool

    /// Settings of each member.
    package init(
        url: HTTPURL?, version: OrderEvent.Version, key: [UInt8], publisherToken: String, projectId: String,
        waitsInRealTime: Bool
    ) {
        self.url = url
        self.version = version
        self.key = key
        self.publisherToken = publisherToken
        self.projectId = projectId
        self.waitsInRealTime = waitsInRealTime
    }

    /// The destination of events sent to `url`, signed as these settings say.
    package func destination(to url: HTTPURL) -> DeliveryDestination {
        DeliveryDestination(
            url: url, key: key, publisherToken: publisherToken, projectId: projectId, version: version,
            waitsInRealTime: waitsInRealTime)
    }
}
