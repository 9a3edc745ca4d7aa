public import PaylinksAppcharge
public import PaylinksHTTP
import PaylinksKit

/// An audit of a game's Grant Award endpoint: valid callbacks must be granted, exactly
/// once per order however they are resent or raced, and forged, altered or replayed ones
/// refused, without re-serializing the JSON or dropping the publisher token.
@MainActor
public final class AwardAudit {
    /// The cases' names, in the order they run, as `--case` takes them.
    public nonisolated static let caseNames = AwardAuditCase.names

    private let destination: DeliveryDestination
    private let peer: AuditPeer
    private let clock: () -> Int
    private let seed: UInt64
    private let orders: AuditOrders
    private let watch: AuditWatch

    /// The endpoint, when it stopped answering in the middle of the run: the cases after
    /// it were not checked.
    public var stop: AuditStop? { watch.stop }

    /// An audit of the award endpoint `destination`, signing with its key; orders come
    /// from a simulator seeded with `seed`, so that every run sends fresh order ids.
    public init(_ destination: DeliveryDestination, seed: UInt64, clock: @escaping () -> Int = wallClockMilliseconds) {
        self.destination = destination
        peer = AuditPeer(url: destination.url, role: "the endpoint")
        watch = AuditWatch([peer])
        self.clock = clock
        self.seed = seed
        orders = AuditOrders(seed: seed, clock: clock)
    }

    /// Runs the named cases, or all of them, after the `valid` case, which every other
    /// stands on (it is reported when asked for or when it fails).
    ///
    /// When the endpoint stops answering (a connection refused) after it was reached, the
    /// cases after that are not checked, and ``stop`` says when.
    ///
    /// - Throws: ``AuditCannotRun`` when the valid callback gets no connection at all.
    public func run(_ cases: [AwardAuditCase] = AwardAuditCase.allCases) throws(AuditCannotRun) -> [AuditFinding] {
        watch.begin()
        let exchange = send(freshAward())
        if let failure = exchange.failure, failure.meansNothingListens {
            throw AuditCannotRun(reason: "nothing answers at \(destination.url): \(failure)")
        }
        let sent = "a valid callback for a new order"
        var valid = eventsLike(exchange, sent: sent) ?? grantCheck("valid", exchange, sent: sent)
        if watch.end("valid") {
            valid.summary += "; and nothing answers since: did the callback bring the endpoint down?"
        }
        let baseline = valid.verdict != .fail
        var findings: [AuditFinding] = []
        for auditCase in cases {
            if auditCase == .valid {
                findings.append(valid)
                continue
            }
            if watch.stop != nil {
                findings.append(watch.notChecked(auditCase.name))
                continue
            }
            watch.begin()
            let finding = baseline ? runCase(auditCase) : notMeaningful(auditCase)
            findings.append(watch.end(auditCase.name) ? watch.stopped(auditCase.name, finding) : finding)
        }
        if !baseline && !cases.contains(.valid) { findings.insert(valid, at: 0) }
        return findings
    }

    /// A failure of `valid` when the URL answers like an events handler: a 2xx that is not
    /// a grant to the callback, and a 2xx without a `publisherPurchaseId` to an order event
    /// signed with the same key, which an award endpoint refuses as no award.
    private func eventsLike(_ exchange: AuditExchange, sent: String) -> AuditFinding? {
        guard exchange.accepted, exchange.grantId == nil, let status = exchange.status else { return nil }
        let event = OrderEvent(
            .created, version: .v2, subject: OrderEvent.Subject(order: orders.fresh(), pricePointMetadata: 499),
            milliseconds: clock(), seed: seed, sequence: 1)
        let probe = send(
            body: event.body,
            headers: baseHeaders() + [
                HTTPHeader(
                    "signature", GrantAward.signature(body: event.body, milliseconds: clock(), key: destination.key))
            ])
        guard let eventStatus = probe.status, probe.accepted,
            !AwardAnswer(status: eventStatus, body: probe.body).has("publisherPurchaseId")
        else { return nil }
        return finding(
            "valid", .fail,
            "this URL answers like an events handler: \(status) without a publisherPurchaseId to the callback, and "
                + "\(eventStatus) to an order event as well",
            sent + ", then a valid order.created event", exchange,
            "check-award audits the game's award endpoint, which answers each Grant Award Callback with 200 "
                + "{\"publisherPurchaseId\": ...}; an events handler answers 2xx to whatever it verifies: give "
                + "check-award the award endpoint's URL (check-events audits the events handler)")
    }

    /// A case that says nothing while valid callbacks are not granted: one that sends valid
    /// callbacks is not sent; a refusal case is sent, and a refusal counts for nothing,
    /// but an acceptance or a server error is still a failure.
    private func notMeaningful(_ auditCase: AwardAuditCase) -> AuditFinding {
        let why = "not meaningful until the valid case passes: fix that first, then run the audit again"
        guard !auditCase.sendsValidCallbacks else {
            return AuditFinding(
                name: auditCase.name, verdict: .notMeaningful,
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
        let name = auditCase.name
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
        case .forged(let forgery):
            return rejection(name, forgery)
        case .namesSpaces:
            return acceptance(
                name, "a valid callback whose names hold spaces", offerName: "Starter Pack Deluxe Edition",
                suspect: AuditSuspect.spaces)
        case .namesSlashQuotes:
            return acceptance(
                name, "a valid callback whose names hold '/' and quotes", offerName: #"Gold/"Legendary"/Pack"#,
                suspect: AuditSuspect.slashes)
        case .namesUnicode:
            return acceptance(
                name, "a valid callback whose names hold non-ASCII letters and emoji", offerName: "Épée_de_Dragón_🐉",
                suspect: AuditSuspect.unicode)
        case .numbers:
            return acceptance(
                name, "a valid callback whose amounts include 850.5 and 100.0", offerName: nil,
                suspect: AuditSuspect.numbers, estimates: (fee: "100.0", net: "850.5"))
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

    private func grantCheck(_ name: String, _ exchange: AuditExchange, sent: String) -> AuditFinding {
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

    private func sameGrant(_ name: String, _ first: AuditExchange, _ second: AuditExchange, sent: String, why: String)
        -> AuditFinding
    {
        guard let one = first.grantId, let two = second.grantId else {
            return grantCheck(name, first.grantId == nil ? first : second, sent: sent)
        }
        return one == two
            ? finding(name, .pass, "both answered with the same grant, \(one)", sent, second, "")
            : finding(name, .fail, "granted twice: \(one), then \(two)", sent, second, why)
    }

    private func rejection(_ name: String, _ forgery: SignatureForgery) -> AuditFinding {
        let sent = forgery.sent("callback")
        let forged = forgery.forge(
            body: freshAward().body, milliseconds: clock(), key: destination.key, field: "priceInCents")
        let body = forged.body
        let headers = baseHeaders() + (forged.signature.map { [HTTPHeader("signature", $0)] } ?? [])
        let exchange = send(body: body, headers: headers)
        if let failure = exchange.answer.refusalFailure(accepting: "forge or replay awards") {
            return finding(name, .fail, failure.summary, sent, exchange, failure.why)
        }
        let status = exchange.status ?? 0
        if !exchange.hasErrorMessage {
            return finding(
                name, .warn, "refused (\(status)) without a publisherErrorMessage", sent, exchange,
                "the dashboard shows publisherErrorMessage to whoever investigates a failed award")
        }
        return finding(name, .pass, "refused (\(status))", sent, exchange, "")
    }

    /// A valid callback that differs from the plain one in one way, which the verifier may
    /// mangle before it hashes (`suspect` says how: "the body without its spaces?").
    @MainActor
    private func acceptance(
        _ name: String, _ sent: String, offerName: String?, suspect: String,
        estimates: (fee: String, net: String)? = nil
    ) -> AuditFinding {
        let exchange = send(freshAward(offerName: offerName, estimates: estimates))
        guard let id = exchange.grantId else {
            // The valid case was granted: any refusal of this one, a 4xx or a 5xx (a verifier
            // that throws), points at the verifier; no answer, or a 2xx that is not a grant,
            // at something else.
            guard let status = exchange.status, status >= 300 else { return grantCheck(name, exchange, sent: sent) }
            let serverError =
                status >= 500 ? "; and a refusal is a 4xx: Appcharge retries a 5xx and alerts the studio" : ""
            return finding(
                name, .fail, "a valid callback was refused (\(status))", sent, exchange,
                "one plain valid callback was granted and this one was not: the verifier hashes something other "
                    + "than the raw bytes received (\(suspect)), and the player paid and gets nothing\(serverError)")
        }
        return finding(name, .pass, "granted as \(id)", sent, exchange, "")
    }

    @MainActor
    private func tokenCheck(_ name: String, token: String?, sent: String) -> AuditFinding {
        let award = freshAward()
        var headers = [HTTPHeader("Content-Type", "application/json")]
        if let token { headers.append(HTTPHeader("x-publisher-token", token)) }
        headers.append(
            HTTPHeader("signature", GrantAward.signature(body: award.body, milliseconds: clock(), key: destination.key))
        )
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
        _ name: String, _ verdict: AuditFinding.Verdict, _ summary: String, _ sent: String, _ exchange: AuditExchange,
        _ why: String
    ) -> AuditFinding {
        AuditFinding(name: name, verdict: verdict, summary: summary, sent: sent, received: exchange.shown, why: why)
    }

    // MARK: Sending

    private func freshAward(offerName: String? = nil, estimates: (fee: String, net: String)? = nil) -> GrantAward {
        GrantAward(order: orders.fresh(offerName: offerName), basePriceInUSD: "4.99", estimates: estimates)
    }

    private func baseHeaders() -> [HTTPHeader] {
        [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", destination.publisherToken)]
    }

    private func send(_ award: GrantAward) -> AuditExchange {
        send(
            body: award.body,
            headers: baseHeaders() + [
                HTTPHeader(
                    "signature", GrantAward.signature(body: award.body, milliseconds: clock(), key: destination.key))
            ])
    }

    private func send(body: [UInt8], headers: [HTTPHeader]) -> AuditExchange {
        peer.send(body: body, headers: headers)
    }

    /// Two copies of a callback over two connections, both sent before either answer is read.
    private func sendTogether(_ award: GrantAward) -> (AuditExchange, AuditExchange) {
        peer.sendTogether(
            body: award.body,
            headers: baseHeaders() + [
                HTTPHeader(
                    "signature", GrantAward.signature(body: award.body, milliseconds: clock(), key: destination.key))
            ])
    }
}

/// An answer to an award, as the audit judges it.
extension AuditExchange {
    /// The grant's id when the answer is a grant.
    fileprivate var grantId: String? { answer.grantId }

    /// Why the exchange is not a grant.
    fileprivate var problem: String { answer.problem }

    fileprivate var hasErrorMessage: Bool { answer.hasErrorMessage }
}
