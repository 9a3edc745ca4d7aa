public import PaylinksAppcharge
public import PaylinksHTTP

/// How deliveries reach the game's server: what makes the sender of each thread of a
/// queue of awards, of events and of replays. Over HTTP in a sandbox that serves, in
/// memory in a test, where every request is answered by a closure.
public struct DeliveryTransport: Sendable {
    /// Makes a sender of awards to a destination.
    public var awards: @Sendable (DeliveryDestination) -> AwardQueue.Sender
    /// Makes a sender of events to a destination.
    public var events: @Sendable (DeliveryDestination) -> EventQueue.Sender
    /// Makes a sender of replays, each to the URL its delivery went to.
    public var replays: @Sendable () -> DeliveryQueue<Replay>.Sender

    /// A transport made of its three factories.
    public init(
        awards: @escaping @Sendable (DeliveryDestination) -> AwardQueue.Sender,
        events: @escaping @Sendable (DeliveryDestination) -> EventQueue.Sender,
        replays: @escaping @Sendable () -> DeliveryQueue<Replay>.Sender
    ) {
        self.awards = awards
        self.events = events
        self.replays = replays
    }

    /// Over HTTP: awards signed and retried as ``AwardSender`` does, events as
    /// ``EventSender`` does, replays sent once as ``Replay/send()`` does; each signed at
    /// the time `clock` gives, Unix milliseconds.
    public static func http(clock: @escaping @Sendable () -> Int = wallClockMilliseconds) -> DeliveryTransport {
        DeliveryTransport(
            awards: { destination in
                let sender = AwardSender(destination, for: .award, clock: clock)
                return .init(deliver: { award, stop in sender.deliver(award, until: stop) }, close: sender.close)
            },
            events: { destination in
                let sender = EventSender(destination, for: .event, clock: clock)
                return .init(deliver: { event, stop in sender.deliver(event, until: stop) }, close: sender.close)
            },
            replays: { .init(deliver: { replay, _ in [replay.send(clock: clock)] }, close: {}) })
    }

    /// In memory: each request, signed as over HTTP at the time `clock` gives, is handed
    /// to `answer`, whose status and body are judged as an answer over HTTP is. Pauses
    /// between retries are not waited. `answer` is called on the queues' threads, several
    /// at once.
    public static func inMemory(
        clock: @escaping @Sendable () -> Int = wallClockMilliseconds,
        answer: @escaping @Sendable (DeliveryRequest) -> DeliveryResponse
    ) -> DeliveryTransport {
        DeliveryTransport(
            awards: { destination in
                let signer = DeliverySigner(destination, for: .award, clock: clock)
                return .init(
                    deliver: { award, stop in exchanges(award, signer: signer, until: stop, answer) }, close: {})
            },
            events: { destination in
                let signer = DeliverySigner(destination, for: .event, clock: clock)
                return .init(
                    deliver: { event, stop in exchanges(event, signer: signer, until: stop, answer) }, close: {})
            },
            replays: {
                .init(
                    deliver: { replay, _ in
                        // A URL that does not read fails before anything is sent, as over HTTP.
                        guard let url = try? HTTPURL(replay.delivery.url) else { return [replay.send(clock: clock)] }
                        let headers = replay.headers(to: url, clock: clock)
                        var attempt = DeliveryAttempt(number: 1, sentAfter: 0, headers: headers)
                        attempt.sentAt = clock()
                        let response = answer(DeliveryRequest(url: url, headers: headers, body: replay.body))
                        replay.take(response, into: &attempt)
                        return [attempt]
                    }, close: {})
            })
    }

    /// The attempts of `scheduled`'s item it says to send, each signed by `signer` and
    /// answered by `answer`.
    private static func exchanges(
        _ scheduled: Scheduled<some Deliverable>, signer: DeliverySigner, until stop: DeliveryStop,
        _ answer: @escaping @Sendable (DeliveryRequest) -> DeliveryResponse
    ) -> [DeliveryAttempt] {
        let item = scheduled.item
        let send = { (number: Int, sentAfter: Int) -> DeliveryAttempt in
            let signed = signer.sign(item)
            var attempt = DeliveryAttempt(number: number, sentAfter: sentAfter, headers: signed.headers)
            attempt.sentAt = signer.now
            item.take(
                answer(DeliveryRequest(url: signer.url, headers: signed.headers, body: item.body)), into: &attempt)
            return attempt
        }
        return scheduled.attempts(
            all: { item.attempts(wait: { _ in }, send: send, proceeding: { !stop.isStopped }) }, send: send)
    }
}

/// A request to the game's server as a transport in memory is handed it: where it goes,
/// its headers (the signature among them) and its body.
public struct DeliveryRequest: Sendable {
    /// The endpoint.
    public var url: HTTPURL
    /// The headers, in the order sent.
    public var headers: [(name: String, value: String)]
    /// The body's bytes.
    public var body: [UInt8]
}

/// The game's server's answer, as a transport in memory is given it.
public struct DeliveryResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The headers, in the order sent.
    public var headers: [(name: String, value: String)]
    /// The body's bytes.
    public var body: [UInt8]

    /// An answer of `status` with `body`.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

extension Deliverable {
    /// Judges `attempt` by `response` as the item judges an answer, keeping the answer's
    /// headers and the start of its body when `keepsExchange`: what every transport does
    /// with an answer that came.
    public func take(_ response: DeliveryResponse, into attempt: inout DeliveryAttempt, keepsExchange: Bool = true) {
        judge(&attempt, status: response.status, body: response.body)
        if keepsExchange {
            attempt.responseHeaders = response.headers
            attempt.responseBody = Array(response.body.prefix(DeliveryAttempt.responseBodyLimit))
        }
    }
}

extension Replay {
    /// The headers a replay to `url` is sent with: the first attempt's, its signature as
    /// it was, or those with a signature made with ``key`` at the time `clock` gives.
    public func headers(
        to url: HTTPURL, clock: @escaping @Sendable () -> Int = wallClockMilliseconds
    ) -> [(name: String, value: String)] {
        let exact = delivery.attempts.first?.headers ?? []
        guard let key else { return exact }
        let unsigned = exact.filter { $0.name.lowercased() != "signature" }
        return DeliverySigner(url: url, key: key, headers: unsigned, clock: clock).sign(self).headers
    }
}

extension DeliveryQueue where Item == Scheduled<GrantAward> {
    /// A queue of awards to `destination`, sent by at most `workers` threads at once over `transport`.
    public convenience init(destination: DeliveryDestination, workers: Int = 8, transport: DeliveryTransport = .http())
    {
        self.init(url: destination.url, workers: workers) { transport.awards(destination) }
    }
}

extension DeliveryQueue where Item == Scheduled<OrderEvent> {
    /// A queue of events to `destination`, sent by at most `workers` threads at once over `transport`.
    public convenience init(destination: DeliveryDestination, workers: Int = 8, transport: DeliveryTransport = .http())
    {
        self.init(url: destination.url, workers: workers) { transport.events(destination) }
    }
}
