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
/// publisher token, retried at once, after 10 s and after 10 s more, each attempt
/// allowed 10 s.
public final class AwardSender {
    /// When each attempt is sent, after the one before, in milliseconds.
    public static let retryDelays = [0, 10_000, 10_000]
    /// How long an attempt may take, in seconds.
    public static let attemptTimeout = 10.0

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
        client = HTTPClient(url: url, connectTimeout: Self.attemptTimeout, responseTimeout: Self.attemptTimeout)
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
        for (index, delay) in Self.retryDelays.enumerated() {
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

    /// The string members of a JSON object body; empty for anything else.
}

/// What a game's server answered to an award: a grant only with 200 and a non-empty
/// string `publisherPurchaseId`.
struct AwardAnswer {
    /// The string members of the body, when it is a JSON object.
    let members: [String: String]
    /// The id the order was granted under, when the answer is a grant.
    let grantId: String?
    /// Why the answer is not a grant, in a sentence that says what a grant is; nil for a grant.
    let problem: String?

    /// What a grant is, for the messages.
    static let grantShape = #"a grant is 200 with {"publisherPurchaseId": "<your id for it>"}, a non-empty string"#

    init(status: Int, body: [UInt8]) {
        var strings: [String: String] = [:]
        var idValue: JSONValue?
        let parsed = try? JSONParser.parse(body)
        if let parsed, case .object(let members) = parsed.kind {
            for member in members {
                if case .string(let text) = member.value.kind { strings[member.key] = text }
                if member.key == "publisherPurchaseId" { idValue = member.value }
            }
        }
        members = strings
        let id = strings["publisherPurchaseId"] ?? ""
        grantId = status == 200 && !id.isEmpty ? id : nil
        guard grantId == nil else {
            problem = nil
            return
        }
        if status != 200 {
            problem = "answered \(status), not 200; \(Self.grantShape)"
        } else if parsed == nil {
            problem = "answered 200 with a body that is not JSON; \(Self.grantShape)"
        } else if case .object = parsed?.kind {
            switch idValue?.kind {
            case nil: problem = "answered 200 without a publisherPurchaseId; \(Self.grantShape)"
            case .string?: problem = "answered 200 with an empty publisherPurchaseId; \(Self.grantShape)"
            case .number(let text)?:
                problem =
                    "answered 200 with publisherPurchaseId as a number (\(text)), not a string; answer \"\(text)\""
            default: problem = "answered 200 with a publisherPurchaseId that is not a string; \(Self.grantShape)"
            }
        } else {
            problem = "answered 200 with JSON that is not an object; \(Self.grantShape)"
        }
    }
}
