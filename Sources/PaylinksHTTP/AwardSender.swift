public import PaylinksAppcharge
import PaylinksJSON

/// One attempt at delivering an award, as the command shows it.
public struct AwardAttempt: Sendable {
    /// 1, 2 or 3.
    public var number: Int
    /// When it was sent: milliseconds after the first attempt, by the retry schedule.
    public var sentAfter: Int
    /// The response's status, or nil when none came.
    public var status: Int?
    /// How long the exchange really took, in milliseconds.
    public var milliseconds: Int { microseconds / 1000 }
    /// How long the exchange really took, in microseconds.
    public var microseconds: Int
    /// The id the game's server granted the order under, when it did.
    public var publisherPurchaseId: String?
    /// The server's reason for a refusal, when it gave one.
    public var publisherErrorMessage: String?
    /// Why the attempt did not grant the order; nil when it did.
    public var failure: String?
    /// The request's headers, the signature included (never the key).
    public var headers: [HTTPHeader]

    /// Whether the order was granted.
    public var granted: Bool { failure == nil }
}

/// Signs award callbacks: the headers Appcharge sends, the signature over the exact body
/// at the moment of signing, and the request's bytes. A value, so that one thread can
/// sign while another sends.
public struct AwardSigner: Sendable {
    /// The URL awards go to.
    public let url: HTTPURL
    private let key: HMACSHA256.Key
    /// The headers every award has.
    private let fixedHeaders: [HTTPHeader]
    /// The start of every award's request, up to its signature.
    private let head: [UInt8]
    private let clock: @Sendable () -> Int

    /// A signer for `url` with `key`; `clock` gives the wall clock in milliseconds for `t`.
    public init(
        url: HTTPURL, key: [UInt8], publisherToken: String, clock: @escaping @Sendable () -> Int = wallClockMilliseconds
    ) {
        self.url = url
        self.key = HMACSHA256.Key(key)
        fixedHeaders = [
            HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", publisherToken),
        ]
        head = HTTPClient.head(method: "POST", url: url, headers: fixedHeaders)
        self.clock = clock
    }

    /// `award`'s request, signed now.
    public func sign(_ award: GrantAward) -> SignedAward {
        let signature = HTTPHeader("signature", GrantAward.signature(body: award.body, milliseconds: clock(), key: key))
        return SignedAward(
            headers: fixedHeaders + [signature],
            request: HTTPClient.encode(head: head, headers: [signature], body: award.body))
    }
}

/// An award's request, signed and encoded, ready to send.
public struct SignedAward: Sendable {
    /// Its headers, the signature included.
    public var headers: [HTTPHeader]
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
    private var pending: (attempt: AwardAttempt, start: Int)?

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
    public func deliver(_ award: GrantAward, onAttempt: (AwardAttempt) -> Void) -> [AwardAttempt] {
        var attempts: [AwardAttempt] = []
        var sentAfter = 0
        for (index, delay) in AwardSchedule.retryDelays.enumerated() {
            sentAfter += delay
            if delay > 0 && waitsInRealTime { pause(milliseconds: delay) }
            let attempt = send(award, number: index + 1, sentAfter: sentAfter)
            attempts.append(attempt)
            onAttempt(attempt)
            if attempt.granted { break }
        }
        return attempts
    }

    /// One signed request and what its response means.
    public func send(_ award: GrantAward, number: Int = 1, sentAfter: Int = 0) -> AwardAttempt {
        start(award, number: number, sentAfter: sentAfter)
        return finish()
    }

    /// What an answer means: a grant only with 200 and a non-empty publisherPurchaseId.
    private static func judge(_ response: HTTPResponse, into attempt: inout AwardAttempt) {
        attempt.status = response.status
        let answer = AwardAnswer(status: response.status, body: response.body)
        attempt.publisherErrorMessage = answer.members["publisherErrorMessage"]
        if response.status != 200 {
            attempt.failure = "the server answered \(response.status)"
        } else if let id = answer.grantId {
            attempt.publisherPurchaseId = id
        } else {
            attempt.failure = "200 without a non-empty string publisherPurchaseId"
        }
    }

    /// Sends an award, signed now, without waiting for the answer; ``finish()`` reads it.
    public func start(_ award: GrantAward, number: Int, sentAfter: Int) {
        start(signer.sign(award), number: number, sentAfter: sentAfter)
    }

    /// Sends a signed award without waiting for the answer; ``finish()`` reads it.
    public func start(_ award: SignedAward, number: Int, sentAfter: Int) {
        pending = (
            AwardAttempt(
                number: number, sentAfter: sentAfter, status: nil, microseconds: 0, publisherPurchaseId: nil,
                publisherErrorMessage: nil, failure: nil, headers: award.headers), Deadline.nowMicroseconds()
        )
        do {
            try client.start(encoded: award.request)
        } catch {
            pending?.attempt.failure = error.description
        }
    }

    /// The attempt ``start(_:number:sentAfter:)`` began, with its answer.
    public func finish() -> AwardAttempt {
        guard let (started, start) = pending else {
            return AwardAttempt(
                number: 0, sentAfter: 0, status: nil, microseconds: 0, publisherPurchaseId: nil,
                publisherErrorMessage: nil, failure: "nothing was sent", headers: [])
        }
        pending = nil
        var attempt = started
        if attempt.failure == nil {
            do {
                Self.judge(try client.finish(), into: &attempt)
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
