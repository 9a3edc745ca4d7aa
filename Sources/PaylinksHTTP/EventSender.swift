public import PaylinksAppcharge

/// Sends the events of orders to a game's server as Appcharge does: signed with the
/// events key, with the publisher token and the project id, retried on the event's
/// version's schedule with the same body each time.
public final class EventSender {
    private let client: HTTPClient
    private let key: HMACSHA256.Key
    private let publisherToken: String
    private let projectId: String
    private let waitsInRealTime: Bool
    private let clock: @Sendable () -> Int

    /// A sender to `url`, signing with `key`; `clock` gives the wall clock in milliseconds
    /// for `t`. With `waitsInRealTime` the pauses between retries really pass.
    public init(
        url: HTTPURL, key: [UInt8], publisherToken: String, projectId: String, waitsInRealTime: Bool,
        clock: @escaping @Sendable () -> Int = wallClockMilliseconds
    ) {
        client = HTTPClient(
            url: url, connectTimeout: AwardSchedule.attemptTimeout, responseTimeout: AwardSchedule.attemptTimeout)
        self.key = HMACSHA256.Key(key)
        self.publisherToken = publisherToken
        self.projectId = projectId
        self.waitsInRealTime = waitsInRealTime
        self.clock = clock
    }

    /// The URL events go to.
    public var url: HTTPURL { client.url }

    /// Delivers `event` until it is accepted or its schedule ends, telling `onAttempt` of
    /// each attempt as it ends, with `fault` on the way; a retry starts only while
    /// `proceeding()` says so.
    public func deliver(
        _ event: OrderEvent, fault: DeliveryFault? = nil, onAttempt: (DeliveryAttempt) -> Void = { _ in },
        proceeding: () -> Bool = { true }
    ) -> [DeliveryAttempt] {
        EventDelivery.attempts(
            version: event.version, wait: { milliseconds in if waitsInRealTime { pause(milliseconds: milliseconds) } },
            send: { number, sentAfter in send(event, number: number, sentAfter: sentAfter) }, onAttempt: onAttempt,
            fault: fault, proceeding: proceeding)
    }

    /// One signed request and what its answer means.
    public func send(_ event: OrderEvent, number: Int = 1, sentAfter: Int = 0) -> DeliveryAttempt {
        let headers = event.headers(
            publisherToken: publisherToken, projectId: projectId, milliseconds: clock(), key: key)
        var attempt = DeliveryAttempt(number: number, sentAfter: sentAfter, headers: headers)
        let started = Deadline.nowMicroseconds()
        do {
            let response = try client.send(headers: headers.map { HTTPHeader($0.name, $0.value) }, body: event.body)
            attempt.judge(status: response.status)
        } catch {
            attempt.failure = error.description
        }
        attempt.microseconds = Deadline.nowMicroseconds() - started
        return attempt
    }

    /// Closes the connection.
    public func close() {
        client.close()
    }
}
