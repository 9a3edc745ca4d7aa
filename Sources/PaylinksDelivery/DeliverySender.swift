public import PaylinksAppcharge
public import PaylinksHTTP
import PaylinksJSON
public import PaylinksKit

/// Signs what Appcharge sends the game's server: the headers it sends, the signature
/// over the exact body at the moment of signing, and the request's bytes. Awards carry
/// the publisher token; events the project id too. A value, so that one thread can sign
/// while another sends.
public struct DeliverySigner: Sendable {
    /// The URL the requests go to.
    public let url: HTTPURL
    private let key: HMACSHA256.Key
    /// The headers every request has.
    private let fixedHeaders: [(name: String, value: String)]
    /// The start of every request, up to its signature.
    private let head: [UInt8]
    private let clock: @Sendable () -> Int

    /// A signer of requests to `url` with `key` and `headers`; `clock` gives the wall clock
    /// in milliseconds for `t`.
    public init(
        url: HTTPURL, key: [UInt8], headers: [(name: String, value: String)],
        clock: @escaping @Sendable () -> Int = wallClockMilliseconds
    ) {
        self.url = url
        self.key = HMACSHA256.Key(key)
        fixedHeaders = headers
        head = HTTPClient.head(method: .post, url: url, headers: headers.map { HTTPHeader($0.name, $0.value) })
        self.clock = clock
    }

    /// A signer of what goes to `destination`, signed with its key: awards with
    /// `Content-Type` and `x-publisher-token`, events with `x-project-id` too.
    public init(
        _ destination: DeliveryDestination, for kind: DeliveryHistory.Kind,
        clock: @escaping @Sendable () -> Int = wallClockMilliseconds
    ) {
        let common = [("Content-Type", "application/json"), ("x-publisher-token", destination.publisherToken)]
        self.init(
            url: destination.url, key: destination.key,
            headers: kind == .event ? common + [("x-project-id", destination.projectId)] : common, clock: clock)
    }

    /// The time it signs at, Unix milliseconds.
    public var now: Int { clock() }

    /// `item`'s request, signed now, or at `earliest` (Unix milliseconds) when that is
    /// later: a run whose clock is ahead of the wall's never signs before what it sends
    /// happened.
    public func sign(_ item: some Deliverable, notBefore earliest: Int? = nil) -> SignedAward {
        let (request, signature) = encode(item, notBefore: earliest)
        let value = String(decoding: request[signature], as: UTF8.self)
        return SignedAward(headers: fixedHeaders + [("signature", value)], request: request)
    }

    /// `item`'s request, signed now, with no record of its headers: for a sender that
    /// keeps none.
    public func signUnrecorded(_ item: some Deliverable, notBefore earliest: Int? = nil) -> SignedAward {
        SignedAward(headers: [], request: encode(item, notBefore: earliest).request)
    }

    /// `item`'s request, signed as ``signUnrecorded(_:notBefore:)`` signs it, written into
    /// `request` in place of what it held: a sender reuses one buffer's memory.
    func signUnrecorded(_ item: some Deliverable, notBefore earliest: Int?, into request: inout [UInt8]) {
        _ = encode(item, notBefore: earliest, into: &request)
    }

    /// `item`'s request bytes, signed now (or at `earliest`, when later), and where the
    /// signature's value lies in them.
    private func encode(_ item: some Deliverable, notBefore earliest: Int?) -> (request: [UInt8], signature: Range<Int>)
    {
        var request: [UInt8] = []
        let signature = encode(item, notBefore: earliest, into: &request)
        return (request, signature)
    }

    /// Writes `item`'s request bytes, signed now (or at `earliest`, when later), into
    /// `request`; where the signature's value lies in them.
    private func encode(_ item: some Deliverable, notBefore earliest: Int?, into request: inout [UInt8]) -> Range<Int> {
        var signature = 0..<0
        let body = item.body
        HTTPClient.encode(head: head, body: body, into: &request) { request in
            request += "signature: ".utf8
            let start = request.count
            GrantAward.appendSignature(body: body, milliseconds: max(clock(), earliest ?? .min), key: key, to: &request)
            signature = start..<request.count
            request += "\r\n".utf8
        }
        return signature
    }
}

/// Signs award callbacks.
public typealias AwardSigner = DeliverySigner

/// A request, signed and encoded, ready to send.
public struct SignedAward: Sendable {
    /// Its headers, the signature included.
    public var headers: [(name: String, value: String)]
    /// Its bytes on the wire.
    public var request: [UInt8]
}

/// Sends what Appcharge sends a game's server, as it does: awards and events, each
/// attempt signed over the exact body, retried on the item's own schedule, one
/// kept-alive connection.
public final class DeliverySender {
    private let client: HTTPClient
    /// What signs each attempt.
    public let signer: DeliverySigner
    private let waitsInRealTime: Bool
    /// Whether each attempt keeps the exchange's headers and the answer's body.
    private let keepsExchanges: Bool
    private var pending: (attempt: DeliveryAttempt, start: Int)?
    /// Where requests are written when no exchange is kept: its memory serves each in turn.
    private var requestBuffer: [UInt8] = []
    /// When what is being delivered happened, Unix milliseconds on a run's own clock: no
    /// attempt is then signed before that moment and the time since it was due (a delay,
    /// the pauses between retries), so that its `t` never comes before the body's
    /// `timestamp` when the run's clock is ahead of the wall's; nil signs on the signer's
    /// clock alone.
    public var happenedAt: Int?

    /// A sender of what `signer` signs. With `waitsInRealTime`, the pauses between
    /// retries really pass; otherwise they are virtual, as all of paylinks' time. Without
    /// `keepsExchanges`, an attempt keeps its answer's status and what it means, not the
    /// request's headers nor the answer's headers and body: for a load, whose lines show
    /// none of them.
    public init(signer: DeliverySigner, waitsInRealTime: Bool, keepsExchanges: Bool = true) {
        client = HTTPClient(
            url: signer.url, connectTimeout: AwardSchedule.attemptTimeout,
            responseTimeout: AwardSchedule.attemptTimeout)
        // An exchange not kept needs no copy of the answer's headers.
        client.keepsHeaders = keepsExchanges
        self.signer = signer
        self.waitsInRealTime = waitsInRealTime
        self.keepsExchanges = keepsExchanges
    }

    /// A sender of awards or events (`kind`) to `destination`, signed with its key and
    /// waiting between attempts as it says; `clock` gives the wall clock in milliseconds
    /// for `t`.
    public convenience init(
        _ destination: DeliveryDestination, for kind: DeliveryHistory.Kind, keepsExchanges: Bool = true,
        clock: @escaping @Sendable () -> Int = wallClockMilliseconds
    ) {
        self.init(
            signer: DeliverySigner(destination, for: kind, clock: clock),
            waitsInRealTime: destination.waitsInRealTime, keepsExchanges: keepsExchanges)
    }

    /// The URL the requests go to.
    public var url: HTTPURL { client.url }

    /// Delivers `item` until an attempt is its last (an award granted, an event accepted
    /// or refused for good) or its schedule ends, with `fault` (an event's) or `awardFault` on
    /// the way; `onAttempt`
    /// sees each attempt as it ends. Once `stop` is requested, a pause under way ends and
    /// no retry starts.
    public func deliver(
        _ item: some Deliverable, fault: DeliveryFault? = nil, awardFault: AwardFault? = nil,
        onAttempt: (DeliveryAttempt) -> Void = { _ in }, until stop: DeliveryStop? = nil
    ) -> [DeliveryAttempt] {
        item.attempts(
            wait: { milliseconds in
                guard waitsInRealTime else { return }
                if let stop { stop.pause(milliseconds: milliseconds) } else { pause(milliseconds: milliseconds) }
            },
            send: { number, sentAfter in send(item, number: number, sentAfter: sentAfter) },
            onAttempt: onAttempt, fault: fault, fate: { awardFault?.fate(ofAttempt: $0) ?? .sent },
            proceeding: { !(stop?.isStopped ?? false) })
    }

    /// The attempts of `scheduled`'s item it says to send: one, or all on its schedule as
    /// ``deliver(_:fault:awardFault:onAttempt:until:)`` sends them.
    public func deliver(_ scheduled: Scheduled<some Deliverable>, until stop: DeliveryStop) -> [DeliveryAttempt] {
        scheduled.attempts(
            all: { deliver(scheduled.item, until: stop) },
            send: { number, sentAfter in send(scheduled.item, number: number, sentAfter: sentAfter) })
    }

    /// One signed request and what its response means.
    public func send(_ item: some Deliverable, number: Int = 1, sentAfter: Int = 0) -> DeliveryAttempt {
        start(sign(item, notBefore: happenedAt.map { $0 + sentAfter }), number: number, sentAfter: sentAfter)
        return finish(item)
    }

    /// `item`'s request, signed now (or at `earliest`, when later), with its headers when
    /// this sender keeps them.
    public func sign(_ item: some Deliverable, notBefore earliest: Int? = nil) -> SignedAward {
        guard !keepsExchanges else { return signer.sign(item, notBefore: earliest) }
        // Written over the last request, whose bytes were sent and let go of by now.
        signer.signUnrecorded(item, notBefore: earliest, into: &requestBuffer)
        return SignedAward(headers: [], request: requestBuffer)
    }

    /// Sends a request signed as `signed` without waiting for the answer; ``finish(_:)``
    /// reads it.
    public func start(_ signed: SignedAward, number: Int, sentAfter: Int) {
        var attempt = DeliveryAttempt(number: number, sentAfter: sentAfter, headers: signed.headers)
        attempt.sentAt = signer.now
        pending = (attempt, Deadline.nowMicroseconds())
        do {
            try client.start(encoded: signed.request)
        } catch {
            pending?.attempt.failure = error.description
        }
    }

    /// The attempt ``start(_:number:sentAfter:)`` began for `item`, with its answer, as
    /// `item` judges it.
    public func finish(_ item: some Deliverable) -> DeliveryAttempt {
        guard let (started, start) = pending else {
            var nothing = DeliveryAttempt(number: 0, sentAfter: 0, headers: [])
            nothing.failure = "nothing was sent"
            return nothing
        }
        pending = nil
        var attempt = started
        if attempt.failure == nil {
            do {
                let response = try client.finish()
                // A load keeps no exchange: its answers' headers are not copied at all.
                let headers = keepsExchanges ? response.headers.map { ($0.name, $0.value) } : []
                item.take(
                    DeliveryResponse(status: response.status, headers: headers, body: response.body), into: &attempt,
                    keepsExchange: keepsExchanges)
            } catch {
                attempt.failure = error.description
            }
        }
        attempt.microseconds = Deadline.nowMicroseconds() - start
        return attempt
    }

    /// The connection the started attempt's answer will come on, while ``finish(_:)`` would
    /// wait for it at `now` (milliseconds on the monotonic clock, one reading for many
    /// senders); nil when it would not.
    func awaitedSocket(at now: Int) -> Socket? {
        pending?.attempt.failure == nil ? client.awaitedSocket(at: now) : nil
    }

    /// Closes the connection.
    public func close() {
        client.close()
    }
}

/// Sends Grant Award Callbacks: signed, with the publisher token, on ``AwardSchedule``.
public typealias AwardSender = DeliverySender

/// Sends order events: signed with the events key, with the publisher token and the
/// project id, retried on the event's version's schedule.
public typealias EventSender = DeliverySender

/// A delivery the control API sends again, once: exactly as it was first sent (the same
/// headers, the signature with its old `t`) or newly signed with the key it was signed with.
public struct Replay: Deliverable {
    /// What is sent again.
    public var delivery: DeliveryHistory.Delivery
    /// The key to sign it with now; nil to send the first attempt's signature as it was.
    public var key: [UInt8]?
    /// How many moves of a virtual clock had begun when it was asked for: a move waits for
    /// what was asked for before it began.
    public var epoch = 0

    /// A replay of `delivery`, newly signed with `key` unless it is nil.
    public init(_ delivery: DeliveryHistory.Delivery, resigningWith key: [UInt8]?) {
        self.delivery = delivery
        self.key = key
    }

    /// The delivery's body, as it was.
    public var body: [UInt8] { delivery.body }
    /// One attempt.
    public var retryDelays: [Int] { [0] }

    /// As the delivery's kind judges an answer: an award's grant, an event's 2xx.
    public func judge(_ attempt: inout DeliveryAttempt, status: Int, body: [UInt8]) {
        switch delivery.kind {
        case .award: attempt.judge(status: status, body: body)
        case .event: attempt.judge(status: status)
        }
    }

    /// A replay is not retried.
    public func isLast(_ attempt: DeliveryAttempt) -> Bool { true }

    /// Sends it, signed (when it is) at the time `clock` gives; the attempt and its answer.
    public func send(clock: @escaping @Sendable () -> Int = wallClockMilliseconds) -> DeliveryAttempt {
        let headers = (delivery.attempts.first?.headers ?? []).filter { $0.name.lowercased() != "signature" }
        let url: HTTPURL
        do {
            url = try HTTPURL(delivery.url)
        } catch {
            var attempt = DeliveryAttempt(number: 1, sentAfter: 0, headers: headers)
            attempt.failure = "\(error)"
            return attempt
        }
        let sender = DeliverySender(
            signer: DeliverySigner(url: url, key: key ?? [], headers: headers, clock: clock), waitsInRealTime: false)
        defer { sender.close() }
        guard key == nil else { return sender.send(self) }
        let exact = delivery.attempts.first?.headers ?? headers
        let request = HTTPClient.encode(
            method: .post, url: url, headers: exact.map { HTTPHeader($0.name, $0.value) }, body: body)
        sender.start(SignedAward(headers: exact, request: request), number: 1, sentAfter: 0)
        return sender.finish(self)
    }
}
