public import PaylinksAppcharge
public import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// An audit of a game's events handler: valid events accepted (2xx) whatever their fields,
/// forged, altered or replayed ones refused with a 4xx, and, with the game's award
/// endpoint and ledger, the money: a refund or a lost dispute takes an order's products
/// back exactly once, however often and in whatever order its events arrive, and never
/// what was not granted.
@MainActor
public final class EventAudit {
    /// The cases' names, in the order they run, as `--case` takes them.
    public nonisolated static let caseNames = EventAuditCase.names

    /// The events handler under audit, with the events key, the token, the project id and
    /// the events' version.
    let events: DeliveryDestination
    /// The game's award endpoint, which grants the orders the money cases refund, with the
    /// main key.
    let award: DeliveryDestination?
    let seed: UInt64
    let clock: () -> Int
    let orders: AuditOrders
    let handler: AuditPeer
    let awardPeer: AuditPeer?
    /// The game's ledger, which the money cases read.
    let ledger: AuditLedger?
    private let watch: AuditWatch

    /// The endpoint, when one stopped answering in the middle of the run: the cases after
    /// it were not checked.
    public var stop: AuditStop? { watch.stop }
    /// What kept the money cases from running, given the award endpoint and the ledger: the
    /// first thing that did, and how many cases it kept.
    public internal(set) var hold: AuditHold?
    /// How many events and players the audit has made, so that each is new.
    private var made = 0

    /// The events' version.
    var version: OrderEvent.Version { events.version }

    /// An audit of the events handler `events`, signed as it says and with events of its
    /// version; with `award`, the award endpoint that grants the orders the money cases
    /// refund, and `ledger`, where the game's ledger answers `GET <ledger>?playerId=ID` with
    /// `{"balances": {SKU: n}}`. Orders and event ids come from `seed`, so that every run
    /// sends fresh ones. A money case watches the ledger for `ledgerWait` milliseconds at
    /// most after the handler's answer.
    public init(
        events: DeliveryDestination, award: DeliveryDestination?, ledger: HTTPURL?, seed: UInt64,
        ledgerWait: Int = 5000, clock: @escaping () -> Int = wallClockMilliseconds
    ) {
        self.events = events
        self.award = award
        self.seed = seed
        self.clock = clock
        orders = AuditOrders(seed: seed, clock: clock)
        handler = AuditPeer(url: events.url, role: "the events handler")
        awardPeer = award.map { AuditPeer(url: $0.url, role: "the award endpoint") }
        self.ledger = ledger.map { AuditLedger(url: $0, wait: ledgerWait) }
        watch = AuditWatch([handler] + [awardPeer, self.ledger?.peer].compactMap { $0 })
    }

    /// Runs the named cases, or all of them, after the `valid` case, which every other
    /// stands on (it is reported when asked for or when it fails).
    ///
    /// When one of the endpoints stops answering (a connection refused) after it was
    /// reached, the cases after that are not checked, and ``stop`` says when.
    ///
    /// - Throws: ``AuditCannotRun`` when nothing answers at the handler, the award endpoint
    ///   or the ledger, or the ledger does not answer in its contract's shape.
    public func run(_ cases: [EventAuditCase] = EventAuditCase.allCases) throws(AuditCannotRun) -> [AuditFinding] {
        let order = orders.fresh(player: newPlayer())
        watch.begin()
        let exchange = send(event(.created, of: order))
        if let failure = exchange.failure, failure.meansNothingListens {
            throw AuditCannotRun(reason: "nothing answers at \(events.url): \(failure)")
        }
        let sent = "a valid \(called(.created)) event for a new order"
        var valid =
            EventAuditVerdicts.awardLike(exchange.answer, sent: sent) ?? acceptance("valid", exchange, sent: sent)
        if watch.end("valid") {
            valid.summary += "; and nothing answers since: did the event bring the handler down?"
        }
        let baseline = valid.verdict != .fail
        if baseline, watch.stop == nil, cases.contains(where: \.followsMoney), let ledger, award != nil {
            _ = try ledger.balances(of: newPlayer())
        }
        var findings: [AuditFinding] = []
        for auditCase in cases {
            if auditCase == .valid {
                findings.append(valid)
            } else if watch.stop != nil {
                findings.append(watch.notChecked(auditCase.name))
            } else if auditCase.followsMoney, let missing = missingEndpoints {
                findings.append(EventAuditVerdicts.notChecked(auditCase.name, missing))
            } else if !baseline && auditCase.sendsValidEvents {
                findings.append(
                    AuditFinding(
                        name: auditCase.name, verdict: .notMeaningful,
                        summary: "not run: it needs a valid event to be accepted", sent: "nothing",
                        received: "nothing", why: EventAuditVerdicts.fixValidFirst))
            } else {
                watch.begin()
                var finding: AuditFinding
                do {
                    finding = try runCase(auditCase)
                } catch {
                    // An endpoint that answered before and listens no more, or answers no more
                    // as it did, ends the run with what it found; one that never answered is
                    // the audit's start failing.
                    if !watch.end(auditCase.name) {
                        guard watch.everyEndpointAnswered else { throw error }
                        watch.halt(during: auditCase.name, reason: error.reason)
                    }
                    findings.append(watch.stopped(auditCase.name, nil))
                    continue
                }
                if !baseline && finding.verdict != .fail {
                    finding.verdict = .notMeaningful
                    finding.summary += ", as a valid event was"
                    finding.why = EventAuditVerdicts.fixValidFirst
                }
                findings.append(watch.end(auditCase.name) ? watch.stopped(auditCase.name, finding) : finding)
            }
        }
        if !baseline && !cases.contains(.valid) { findings.insert(valid, at: 0) }
        return findings
    }

    /// Why the money cases cannot run, or nil when they can.
    var missingEndpoints: String? {
        missingOptions.map { "it needs \($0.options), \($0.purpose)" }
    }

    /// What the money cases need and were not given: the options, and what for; nil when
    /// they have all they need.
    public var missingOptions: (options: String, purpose: String)? {
        switch (award, ledger) {
        case (nil, nil): ("--award-url and --ledger-url", "to grant an order and then read what its player holds")
        case (nil, _): ("--award-url", "to grant the order it then refunds or disputes")
        case (_, nil): ("--ledger-url", "to read what the player holds before and after")
        default: nil
        }
    }

    // MARK: Events

    func newPlayer() -> String {
        made += 1
        return "audit_\(String(seed % 1_000_000_007, radix: 36))_\(made)"
    }

    /// The event `name` of `order`, as the audit's version names and shapes it.
    func event(_ name: OrderEvent.Name, of order: OrderResponseModel, refundAmount: Int? = nil) -> OrderEvent {
        made += 1
        let now = clock()
        return OrderEvent(
            name, version: version,
            subject: OrderEvent.Subject(
                order: order, money: AuditOrders.money(of: order),
                transactions: OrderTransaction.told(by: name, price: order.price, refundAmount: refundAmount, at: now)),
            milliseconds: now, seed: seed, sequence: made)
    }

    /// The event as the version names it, for what a finding says was sent.
    func called(_ event: OrderEvent.Name) -> String {
        version == .v2 ? event.v2Name + (event.result.map { " (\($0))" } ?? "") : event.v1Name
    }

    func baseHeaders() -> [HTTPHeader] {
        [
            HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", events.publisherToken),
            HTTPHeader("x-project-id", events.projectId),
        ]
    }

    func headers(signing body: [UInt8]) -> [HTTPHeader] {
        baseHeaders() + [
            HTTPHeader(
                "signature", GrantAward.signature(body: body, milliseconds: clock(), key: events.key))
        ]
    }

    func send(_ event: OrderEvent) -> AuditExchange { send(body: event.body) }

    func send(body: [UInt8]) -> AuditExchange { handler.send(body: body, headers: headers(signing: body)) }
}

extension OrderTransaction {
    /// The movements an audit's event of `name` tells of, all at `milliseconds`: the
    /// payment, then the refund of `refundAmount` (all of `price` when nil) or the dispute's
    /// funds. The audit's orders have no history of their own; their events carry what
    /// their name implies.
    static func told(by name: OrderEvent.Name, price: Int, refundAmount: Int? = nil, at milliseconds: Int)
        -> [OrderTransaction]
    {
        func row(_ kind: Kind, _ amount: Int) -> OrderTransaction {
            OrderTransaction(kind, amount: amount, milliseconds: milliseconds, number: 0)
        }
        switch name {
        case .refunded: return [row(.paid, price), row(.refund, refundAmount ?? price)]
        case .disputeOpened, .disputeLost: return [row(.paid, price), row(.disputeFundsWithdrawn, price)]
        case .disputeWon:
            return [row(.paid, price), row(.disputeFundsWithdrawn, price), row(.disputeFundsReinstated, price)]
        default: return [row(.paid, price)]
        }
    }
}
