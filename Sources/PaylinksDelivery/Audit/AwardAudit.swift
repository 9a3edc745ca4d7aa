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
        let order = orders.fresh()
        let now = clock()
        let event = OrderEvent(
            .created, version: .v2,
            subject: OrderEvent.Subject(
                order: order, money: AuditOrders.money(of: order),
                transactions: OrderTransaction.told(by: .created, price: order.price, at: now)),
            milliseconds: now, seed: seed, sequence: 1)
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
            return AwardAuditVerdicts.differentOrders(name, first.answer, second.answer)
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
        AwardAuditVerdicts.grant(name, exchange.answer, sent: sent)
    }

    private func sameGrant(_ name: String, _ first: AuditExchange, _ second: AuditExchange, sent: String, why: String)
        -> AuditFinding
    {
        AwardAuditVerdicts.sameGrant(name, first.answer, second.answer, sent: sent, why: why)
    }

    private func rejection(_ name: String, _ forgery: SignatureForgery) -> AuditFinding {
        let sent = forgery.sent("callback")
        let forged = forgery.forge(
            body: freshAward().body, milliseconds: clock(), key: destination.key, field: "priceInCents")
        let body = forged.body
        let headers = baseHeaders() + (forged.signature.map { [HTTPHeader("signature", $0)] } ?? [])
        return AwardAuditVerdicts.refusal(name, send(body: body, headers: headers).answer, sent: sent)
    }

    /// A valid callback that differs from the plain one in one way, which the verifier may
    /// mangle before it hashes (`suspect` says how: "the body without its spaces?").
    @MainActor
    private func acceptance(
        _ name: String, _ sent: String, offerName: String?, suspect: String,
        estimates: (fee: String, net: String)? = nil
    ) -> AuditFinding {
        let exchange = send(freshAward(offerName: offerName, estimates: estimates))
        return AwardAuditVerdicts.acceptance(name, exchange.answer, sent: sent, suspect: suspect)
    }

    @MainActor
    private func tokenCheck(_ name: String, token: String?, sent: String) -> AuditFinding {
        let award = freshAward()
        var headers = [HTTPHeader("Content-Type", "application/json")]
        if let token { headers.append(HTTPHeader("x-publisher-token", token)) }
        headers.append(
            HTTPHeader("signature", GrantAward.signature(body: award.body, milliseconds: clock(), key: destination.key))
        )
        return AwardAuditVerdicts.token(name, send(body: award.body, headers: headers).answer, sent: sent)
    }

    private func finding(
        _ name: String, _ verdict: AuditFinding.Verdict, _ summary: String, _ sent: String, _ exchange: AuditExchange,
        _ why: String
    ) -> AuditFinding {
        AuditFinding(name: name, verdict: verdict, summary: summary, sent: sent, received: exchange.shown, why: why)
    }

    // MARK: Sending

    private func freshAward(offerName: String? = nil, estimates: (fee: String, net: String)? = nil) -> GrantAward {
        let order = orders.fresh(offerName: offerName)
        return GrantAward(order: order, money: AuditOrders.money(of: order), estimates: estimates)
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
}
