package import PaylinksHTTP

/// Where the events of orders go and how they are signed: sent to an events endpoint, or,
/// with none (`trigger`), shown as they would be sent. A ``DeliveryDestination`` whose URL
/// may be missing.
package struct EventSettings: Sendable {
    /// The game server's events endpoint; nil when the events are only shown.
    package var url: HTTPURL?
    /// How the events are signed and sent: the events key, else the main key.
    package var signing: DeliverySigning

    /// Settings of each member.
    package init(url: HTTPURL?, signing: DeliverySigning) {
        self.url = url
        self.signing = signing
    }

    /// The destination of events sent to `url`, signed as these settings say.
    package func destination(to url: HTTPURL) -> DeliveryDestination {
        DeliveryDestination(url: url, signing: signing)
    }
}
