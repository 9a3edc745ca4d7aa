public import PaylinksAppcharge
import PaylinksJSON

/// Signs award callbacks: the headers Appcharge sends, the signature over the exact body
/// at the moment of signing, and the request's bytes. A value, so that one thread can
/// sign while another sends.
public struct AwardSigner: Sendable {
    /// The URL awards go to.
    public let url: HTTPURL
    private let key: HMACSHA256.Key
    /// The headers every award has.
    private let fixedHeaders: [(name: String, value: String)]
    /// The start of every award's request, up to its signature.
    private let head: [UInt8]
    private let clock: @Sendable () -> Int

    /// A signer for `url` with `key`; `clock` gives the wall clock in milliseconds for `t`.
    public init(
        url: HTTPURL, key: [UInt8], publisherToken: String, clock: @escaping @Sendable () -> Int = wallClockMilliseconds
    ) {
        self.url = url
        self.key = HMACSHA256.Key(key)
        fixedHeaders = [("Content-Type", "application/json"), ("x-publisher-token", publisherToken)]
        head = HTTPClient.head(method: .post, url: url, headers: fixedHeaders.map { HTTPHeader($0.name, $0.value) })
        self.clock = clock
    }

    /// `award`'s request, signed now.
    public func sign(_ award: GrantAward) -> SignedAward {
        let signature = GrantAward.signature(body: award.body, milliseconds: clock(), key: key)
        return SignedAward(
            headers: fixedHeaders + [("signature", signature)],
            request: HTTPClient.encode(head: head, headers: [HTTPHeader("signature", signature)], body: award.body))
    }
}

/// An award's request, signed and encoded, ready to send.
public struct SignedAward: Sendable {
    /// Its headers, the signature included.
    public var headers: [(name: String, value: String)]
    /// Its bytes on the wire.
    public var request: [UInt8]
}

/// Sends Grant Award Callbacks to a game's server as Appcharge does: signed, with the
/// publisher token, on ``AwardSchedule``.
public final class AwardSender {
    private let client: HTTPClient
    /// What signs each attempt.
    public let signer: AwardSigner
    private let waitsInRealTime: Bool
    private var pending: (attempt: DeliveryAttempt, start: Int)?

    /// A sender to `url`, signing with `key`; `clock` gives the wall clock in
    /// milliseconds for `t`. With `waitsInRealTime`, the pauses between retries really
    /// pass; otherwise they are virtual, as all of paylinks' time.
    public init(
        url: HTTPURL, key: [UInt8], publisherToken: String, waitsInRealTime: Bool,
        clock: @escaping @Sendable () -> Int = wallClockMilliseconds
    ) {
        client = HTTPClient(
            url: url, connectTimeout: AwardSchedule.attemptTimeout, responseTimeout: AwardSchedule.attemptTimeout)
        signer = AwardSigner(url: url, key: key, publisherToken: publisherToken, clock: clock)
        self.waitsInRealTime = waitsInRealTime
    }

    /// The URL awards go to.
    public var url: HTTPURL { client.url }

    /// Delivers `award`, retrying until an attempt grants it or the schedule ends;
    /// `onAttempt` sees each attempt as it ends.
    /// A retry starts only while `proceeding()` says so.
    public func deliver(
        _ award: GrantAward, onAttempt: (DeliveryAttempt) -> Void = { _ in }, proceeding: () -> Bool = { true }
    ) -> [DeliveryAttempt] {
        AwardDelivery.attempts(
            wait: { milliseconds in if waitsInRealTime { pause(milliseconds: milliseconds) } },
            send: { number, sentAfter in send(award, number: number, sentAfter: sentAfter) },
            onAttempt: onAttempt, proceeding: proceeding)
    }

    /// One signed request and what its response means.
    public func send(_ award: GrantAward, number: Int = 1, sentAfter: Int = 0) -> DeliveryAttempt {
        start(award, number: number, sentAfter: sentAfter)
        return finish()
    }

    /// Sends an award, signed now, without waiting for the answer; ``finish()`` reads it.
    public func start(_ award: GrantAward, number: Int, sentAfter: Int) {
        start(signer.sign(award), number: number, sentAfter: sentAfter)
    }

    /// Sends a signed award without waiting for the answer; ``finish()`` reads it.
    public func start(_ award: SignedAward, number: Int, sentAfter: Int) {
        pending = (
            DeliveryAttempt(number: number, sentAfter: sentAfter, headers: award.headers), Deadline.nowMicroseconds()
        )
        do {
            try client.start(encoded: award.request)
        } catch {
            pending?.attempt.failure = error.description
        }
    }

    /// The attempt ``start(_:number:sentAfter:)`` began, with its answer.
    public func finish() -> DeliveryAttempt {
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
                attempt.judge(status: response.status, body: response.body)
            } catch {
                attempt.failure = error.description
            }
        }
        attempt.microseconds = Deadline.nowMicroseconds() - start
        return attempt
    }

    /// The connection the started attempt's answer will come on, while ``finish()`` would
    /// wait for it; nil when it would not.
    var awaitedSocket: Socket? {
        pending?.attempt.failure == nil ? client.awaitedSocket : nil
    }

    /// Closes the connection.
    public func close() {
        client.close()
    }
}
