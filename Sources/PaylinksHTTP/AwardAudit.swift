public import PaylinksAppcharge
import PaylinksKit

/// What one case of the audit found.
public struct AuditFinding: Sendable {
    /// How bad it is.
    public enum Verdict: String, Sendable {
        /// The endpoint did the right thing.
        case pass
        /// Money or security at risk.
        case fail = "FAIL"
        /// Hygiene: worth fixing, nothing lost.
        case warn
        /// Says nothing yet: the case needs a valid callback to be granted first, and the
        /// `valid` case was not.
        case notMeaningful = "n/a"
    }

    /// The case's name, as `--case` takes it.
    public var name: String
    /// The verdict.
    public var verdict: Verdict
    /// What happened, in a phrase.
    public var summary: String
    /// What was sent.
    public var sent: String
    /// What came back: the status and the start of the body, or why nothing did.
    public var received: String
    /// Why it matters; empty for a pass.
    public var why: String
}

/// An audit of a game's Grant Award endpoint: valid callbacks must be granted, exactly
/// once per order however they are resent or raced, and forged, altered or replayed ones
/// refused, without re-serializing the JSON or dropping the publisher token.
@MainActor
public final class AwardAudit {
    /// The cases' names, in the order they run, as `--case` takes them.
    public nonisolated static let caseNames = AwardAuditCase.allCases.map(\.rawValue)

    private let url: HTTPURL
    private let key: [UInt8]
    private let publisherToken: String
    private let clock: () -> Int
    private let simulator: PaymentLinksSimulator
    private var granted: [String: String] = [:]

    /// An audit of `url`, signing with `key`; orders come from a simulator seeded with
    /// `seed`, so that every run sends fresh order ids.
    public init(
        url: HTTPURL, key: [UInt8], publisherToken: String, seed: UInt64,
        clock: @escaping () -> Int = wallClockMilliseconds
    ) {
        self.url = url
        self.key = key
        self.publisherToken = publisherToken
        self.clock = clock
        simulator = PaymentLinksSimulator(seed: seed)
    }

    /// Why the audit could not run at all: nothing answers at the URL.
    public struct Unreachable: Error, Sendable, CustomStringConvertible {
        /// What the connection came to: refused, a host that does not resolve, a timeout.
        public var reason: String

        /// "nothing answers at ...: connection refused ...".
        public var description: String { reason }
    }

    /// Runs the named cases, or all of them, after the `valid` case, which every other
    /// stands on (it is reported when asked for or when it fails).
    ///
    /// - Throws: ``Unreachable`` when the valid callback gets no connection at all.
    public func run(_ cases: [AwardAuditCase] = AwardAuditCase.allCases) throws(Unreachable) -> [AuditFinding] {
        let exchange = send(freshAward())
        if let failure = exchange.failure, failure.meansNothingListens {
            throw Unreachable(reason: "nothing answers at \(url): \(failure)")
        }
        let valid = grantCheck("valid", exchange, sent: "a valid callback for a new order")
        let baseline = valid.verdict != .fail
        var findings: [AuditFinding] = []
        for auditCase in cases {
            if auditCase == .valid {
                findings.append(valid)
                continue
            }
            guard baseline else {
                findings.append(notMeaningful(auditCase))
                continue
            }
            findings.append(runCase(auditCase))
        }
        if !baseline && !cases.contains(.valid) { findings.insert(valid, at: 0) }
        return findings
    }

    /// A case that says nothing while valid callbacks are not granted: one that sends valid
    /// callbacks is not sent; a refusal case is sent, and a refusal counts for nothing,
    /// but an acceptance or a server error is still a failure.
    private func notMeaningful(_ auditCase: AwardAuditCase) -> AuditFinding {
        let why = "not meaningful until the valid case passes: fix that first, then run the audit again"
        guard !auditCase.sendsValidCallbacks else {
            return AuditFinding(
                name: auditCase.rawValue, verdict: .notMeaningful,
                summary: "not run: it needs a valid callback to be granted",
                sent: "nothing", received: "nothing", why: why)
        }
        var finding = runCase(auditCase)
        if finding.verdict != .fail {
            finding.verdict = .notMeaningful
            finding.summary += ", as a valid callback was"
            finding.why = why
        }
        return finding
    }

    // MARK: Cases

    @MainActor
    private func runCase(_ auditCase: AwardAuditCase) -> AuditFinding {
        let name = auditCase.rawValue
        switch auditCase {
        case .retry:
            let award = freshAward()
            let first = send(award)
            let again = send(award)
            return sameGrant(
                name, first, again, sent: "a valid callback, then the same callback again, as Appcharge retries",
                why:
                    "a retry would grant the order twice: answer every resend of an orderId with its first publisherPurchaseId"
            )
        case .race:
            let award = freshAward()
            let (first, second) = sendTogether(award)
            if first.grantId != nil, case .timedOut? = second.failure {
                return finding(
                    name, .fail, "the second connection got no answer while the first was kept open",
                    "two copies "
                        + "of one callback over two connections at the same moment", second,
                    "the endpoint serves one connection at a time, and an idle keep-alive connection holds it: "
                        + "Appcharge's attempts time out and the player is not granted; serve connections concurrently "
                        + "(a threading server) or close each after its answer")
            }
            return sameGrant(
                name, first, second, sent: "two copies of one callback over two connections at the same moment",
                why: "two copies in flight at once both grant: make the check-and-grant of an orderId atomic")
        case .differentOrder:
            let first = send(freshAward())
            let second = send(freshAward())
            guard let one = first.grantId, let two = second.grantId else {
                return grantCheck(
                    name, first.grantId == nil ? first : second, sent: "two valid callbacks for two orders")
            }
            return one != two
                ? finding(name, .pass, "two orders got two ids", "two valid callbacks for two orders", second, "")
                : finding(
                    name, .fail, "two different orders got the same publisherPurchaseId",
                    "two valid callbacks for two orders", second,
                    "the second order is treated as a resend of the first: its player paid and gets nothing")
        case .signatureDigit:
            return rejection(name, "a valid callback whose v1 has one hex digit changed") { body, t in
                var signature = Array(GrantAward.signature(body: body, milliseconds: t, key: self.key).utf8)
                signature[signature.count - 1] =
                    signature[signature.count - 1] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
                return (body, String(decoding: signature, as: UTF8.self))
            }
        case .bodyChanged:
            return rejection(name, "a callback whose body was changed after it was signed") { body, t in
                let signature = GrantAward.signature(body: body, milliseconds: t, key: self.key)
                let text = String(decoding: body, as: UTF8.self)
                let changed = text.replacingFirst(#""priceInCents":"#, with: #""priceInCents":1"#)
                return (Array(changed.utf8), signature)
            }
        case .otherKey:
            return rejection(name, "a callback signed with another key") { body, t in
                (body, GrantAward.signature(body: body, milliseconds: t, key: Array("not-the-main-key".utf8)))
            }
        case .staleT:
            return rejection(name, "a correctly signed callback whose t is ten minutes old") { body, t in
                (body, GrantAward.signature(body: body, milliseconds: t - 600_000, key: self.key))
            }
        case .tSeconds:
            return rejection(name, "a callback signed with t in seconds instead of milliseconds") { body, t in
                (body, GrantAward.signature(body: body, milliseconds: t / 1000, key: self.key))
            }
        case .noSignature:
            return rejection(name, "a callback without a signature header", signing: nil)
        case .malformedT:
            return rejection(name, "a signature whose t is not a number (t=abc)") { body, t in
                let valid = GrantAward.signature(body: body, milliseconds: t, key: self.key)
                return (body, "t=abc," + (valid.split(separator: ",").last.map(String.init) ?? ""))
            }
        case .v1Only:
            return rejection(name, "a signature with v1 alone, no t") { body, t in
                let valid = GrantAward.signature(body: body, milliseconds: t, key: self.key)
                return (body, valid.split(separator: ",").last.map(String.init) ?? "")
            }
        case .garbageSignature:
            return rejection(name, "a signature header that is not t=...,v1=...") { body, _ in (body, "garbage") }
        case .bodyOnly:
            return rejection(name, "the old scheme: v1 over the body alone, without t") { body, t in
                (body, "t=\(t),v1=\(HMACSHA256.hex(HMACSHA256.authenticate(body, key: self.key)))")
            }
        case .namesSpaces:
            return acceptance(
                name, "a valid callback whose names hold spaces", offerName: "Starter Pack Deluxe Edition")
        case .namesSlashQuotes:
            return acceptance(
                name, "a valid callback whose names hold '/' and quotes", offerName: #"Gold / "Legendary" Pack"#)
        case .namesUnicode:
            return acceptance(
                name, "a valid callback whose names hold non-ASCII letters and emoji", offerName: "Épée de Dragón — 🐉")
        case .numbers:
            return acceptance(
                name, "a valid callback whose amounts include 850.5 and 100.0", offerName: nil,
                estimates: (fee: "100.0", net: "850.5"))
        case .wrongToken:
            return tokenCheck(
                name, token: "not-the-publisher-token", sent: "a valid callback with a wrong x-publisher-token")
        case .missingToken:
            return tokenCheck(name, token: nil, sent: "a valid callback without an x-publisher-token")
        case .valid:
            return grantCheck(name, send(freshAward()), sent: "a valid callback for a new order")
        }
    }

    // MARK: Verdicts

    private func grantCheck(_ name: String, _ exchange: Exchange, sent: String) -> AuditFinding {
        guard let id = exchange.grantId else {
            return finding(
                name, .fail, "a valid callback was not granted: \(exchange.problem)", sent, exchange,
                "the player paid and gets nothing (\"Failed (Charged)\"): \(AwardAnswer.grantShape)")
        }
        if exchange.milliseconds > 2000 {
            return finding(
                name, .warn, "granted as \(id), but only after \(exchange.milliseconds) ms", sent, exchange,
                "Appcharge gives an attempt 10 s; a slow grant is close to a retry and a second grant")
        }
        return finding(name, .pass, "granted as \(id) in \(exchange.milliseconds) ms", sent, exchange, "")
    }

    private func sameGrant(_ name: String, _ first: Exchange, _ second: Exchange, sent: String, why: String)
        -> AuditFinding
    {
        guard let one = first.grantId, let two = second.grantId else {
            return grantCheck(name, first.grantId == nil ? first : second, sent: sent)
        }
        return one == two
            ? finding(name, .pass, "both answered with the same grant, \(one)", sent, second, "")
            : finding(name, .fail, "granted twice: \(one), then \(two)", sent, second, why)
    }

    private func rejection(_ name: String, _ sent: String, signing: (([UInt8], Int) -> ([UInt8], String))?)
        -> AuditFinding
    {
        let award = freshAward()
        var body = award.body
        var headers = baseHeaders()
        if let signing {
            let (signedBody, signature) = signing(award.body, clock())
            body = signedBody
            headers.append(HTTPHeader("signature", signature))
        }
        let exchange = send(body: body, headers: headers)
        guard let status = exchange.status else {
            return finding(
                name, .fail, "no answer: \(exchange.error ?? "")", sent, exchange,
                "a bad request should be refused with 4xx, not break the connection")
        }
        if (200..<300).contains(status) {
            return finding(
                name, .fail, "accepted (\(status))", sent, exchange,
                "anyone who can reach the endpoint can forge or replay awards: verify v1 = HMAC-SHA256(main key, "
                    + "t + \".\" + the raw body), in milliseconds, and refuse a t older than 5 minutes")
        }
        if status >= 500 {
            return finding(
                name, .fail, "answered \(status), a server error", sent, exchange,
                "Appcharge retries a 5xx and alerts the studio: refuse a bad signature with 4xx")
        }
        if !exchange.hasErrorMessage {
            return finding(
                name, .warn, "refused (\(status)) without a publisherErrorMessage", sent, exchange,
                "the dashboard shows publisherErrorMessage to whoever investigates a failed award")
        }
        return finding(name, .pass, "refused (\(status))", sent, exchange, "")
    }

    @MainActor
    private func acceptance(
        _ name: String, _ sent: String, offerName: String?, estimates: (fee: String, net: String)? = nil
    ) -> AuditFinding {
        let exchange = send(freshAward(offerName: offerName, estimates: estimates))
        guard let id = exchange.grantId else {
            // The valid case was granted: only a refusal of this one points at the verifier.
            guard let status = exchange.status, (400..<500).contains(status) else {
                return grantCheck(name, exchange, sent: sent)
            }
            return finding(
                name, .fail, "a valid callback was refused (\(status))", sent, exchange,
                "one plain valid callback was granted and this one was not: the verifier hashes something other "
                    + "than the raw bytes received (re-serialized JSON?), and the player paid and gets nothing")
        }
        return finding(name, .pass, "granted as \(id)", sent, exchange, "")
    }

    @MainActor
    private func tokenCheck(_ name: String, token: String?, sent: String) -> AuditFinding {
        let award = freshAward()
        var headers = [HTTPHeader("Content-Type", "application/json")]
        if let token { headers.append(HTTPHeader("x-publisher-token", token)) }
        headers.append(HTTPHeader("signature", GrantAward.signature(body: award.body, milliseconds: clock(), key: key)))
        let exchange = send(body: award.body, headers: headers)
        guard let status = exchange.status else {
            return finding(
                name, .fail, "no answer: \(exchange.error ?? "")", sent, exchange,
                "a bad request should be refused with 4xx, not break the connection")
        }
        if (200..<300).contains(status) {
            return finding(
                name, .warn, "accepted (\(status))", sent, exchange,
                "the endpoint does not check x-publisher-token, a second line of defence after the signature")
        }
        if status >= 500 {
            return finding(
                name, .fail, "answered \(status), a server error", sent, exchange,
                "Appcharge retries a 5xx and alerts the studio: refuse a wrong token with 4xx")
        }
        return finding(name, .pass, "refused (\(status))", sent, exchange, "")
    }

    private func finding(
        _ name: String, _ verdict: AuditFinding.Verdict, _ summary: String, _ sent: String, _ exchange: Exchange,
        _ why: String
    ) -> AuditFinding {
        AuditFinding(name: name, verdict: verdict, summary: summary, sent: sent, received: exchange.shown, why: why)
    }

    // MARK: Sending

    /// One exchange: the status and body, or why there was none.
    private struct Exchange {
        var status: Int?
        var body: [UInt8] = []
        var milliseconds = 0
        var failure: HTTPError?

        var error: String? { failure?.description }

        private var answer: AwardAnswer? { status.map { AwardAnswer(status: $0, body: body) } }

        /// The grant's id when the answer is a grant.
        var grantId: String? { answer?.grantId }

        /// Why the exchange is not a grant.
        var problem: String { answer?.problem ?? "no answer: \(error ?? "nothing came")" }

        var hasErrorMessage: Bool { !(answer?.members["publisherErrorMessage"] ?? "").isEmpty }

        var shown: String {
            guard let status else { return error.map { "no response: \($0)" } ?? "nothing" }
            let text = String(decoding: body.prefix(200), as: UTF8.self)
            return "\(status) \(text)\(body.count > 200 ? "..." : "")"
        }
    }

    @MainActor
    private func freshAward(offerName: String? = nil, estimates: (fee: String, net: String)? = nil) -> GrantAward {
        let recorder = RecordingDelegate()
        if simulator.configuration == nil {
            simulator.initialize(
                configModel: ACConfigModel(checkoutPublicKey: "pk_audit", environment: "sandbox"),
                customerId: "audit_player", delegate: recorder)
        }
        simulator.delegate = recorder
        if let session = try? simulator.createCheckoutSession(offerSku: "starter_pack_001", customerId: "audit_player")
        {
            simulator.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
            if let link = simulator.pendingDeepLink { simulator.handleDeepLink(link) }
        }
        var order =
            recorder.callbacks.last?.order
            ?? OrderResponseModel(
                date: 0, sessionToken: "", offerName: "Starter Pack", offerSku: "starter_pack_001", items: [],
                price: 499, currency: "USD", customerId: "audit_player", customerCountry: "US",
                paymentMethodName: PlayerAction.defaultPaymentMethod, orderId: String(clock()), purchaseId: "pr_audit")
        if let offerName {
            order.offerName = offerName
            order.items = order.items.map { item in
                var renamed = item
                renamed.name = offerName
                return renamed
            }
        }
        return GrantAward(order: order, basePriceInUSD: "4.99", estimates: estimates)
    }

    private func baseHeaders() -> [HTTPHeader] {
        [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", publisherToken)]
    }

    private func send(_ award: GrantAward) -> Exchange {
        send(
            body: award.body,
            headers: baseHeaders() + [
                HTTPHeader("signature", GrantAward.signature(body: award.body, milliseconds: clock(), key: key))
            ])
    }

    private func send(body: [UInt8], headers: [HTTPHeader]) -> Exchange {
        let client = HTTPClient(url: url, connectTimeout: 10, responseTimeout: 10)
        defer { client.close() }
        let start = Deadline.nowMilliseconds()
        do {
            let response = try client.send(headers: headers, body: body)
            return Exchange(
                status: response.status, body: response.body, milliseconds: Deadline.nowMilliseconds() - start)
        } catch {
            return Exchange(status: nil, milliseconds: Deadline.nowMilliseconds() - start, failure: error)
        }
    }

    /// Two copies of a callback over two connections, both sent before either answer is read.
    private func sendTogether(_ award: GrantAward) -> (Exchange, Exchange) {
        let headers =
            baseHeaders() + [
                HTTPHeader("signature", GrantAward.signature(body: award.body, milliseconds: clock(), key: key))
            ]
        let first = HTTPClient(url: url, connectTimeout: 10, responseTimeout: 10)
        let second = HTTPClient(url: url, connectTimeout: 10, responseTimeout: 10)
        defer {
            first.close()
            second.close()
        }
        func finish(_ client: HTTPClient, started: Bool, _ error: HTTPError?) -> Exchange {
            guard started else { return Exchange(status: nil, failure: error) }
            do {
                let response = try client.finish()
                return Exchange(status: response.status, body: response.body)
            } catch {
                return Exchange(status: nil, failure: error)
            }
        }
        var errors: [HTTPError?] = [nil, nil]
        var started = [false, false]
        for (index, client) in [first, second].enumerated() {
            do {
                try client.start(headers: headers, body: award.body)
                started[index] = true
            } catch {
                errors[index] = error
            }
        }
        return (finish(first, started: started[0], errors[0]), finish(second, started: started[1], errors[1]))
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstOccurrence(of: target) else { return self + " " }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }
}
