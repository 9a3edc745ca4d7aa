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

    /// Where the audit sends and what it reads.
    public struct Endpoints: Sendable {
        /// The events handler under audit.
        public var events: HTTPURL
        /// The game's award endpoint, which grants the orders the money cases refund.
        public var award: HTTPURL?
        /// The game's ledger: `GET <ledger>?playerId=ID` answers `{"balances": {SKU: n}}`.
        public var ledger: HTTPURL?

        /// The endpoints.
        public init(events: HTTPURL, award: HTTPURL?, ledger: HTTPURL?) {
            self.events = events
            self.award = award
            self.ledger = ledger
        }
    }

    /// The studio's credentials, as Appcharge signs with them.
    public struct Credentials: Sendable {
        /// The main key, which signs awards.
        public var mainKey: [UInt8]
        /// The key events are signed with: the main key unless the studio has a separate one.
        public var eventsKey: [UInt8]
        /// The `x-publisher-token` every request carries.
        public var publisherToken: String
        /// The `x-project-id` events carry.
        public var projectId: String

        /// Credentials.
        public init(mainKey: [UInt8], eventsKey: [UInt8], publisherToken: String, projectId: String) {
            self.mainKey = mainKey
            self.eventsKey = eventsKey
            self.publisherToken = publisherToken
            self.projectId = projectId
        }
    }

    private let endpoints: Endpoints
    private let version: OrderEvent.Version
    private let credentials: Credentials
    private let seed: UInt64
    private let clock: () -> Int
    private let orders: AuditOrders
    private let handler: AuditPeer
    private let awardPeer: AuditPeer?
    private let ledgerPeer: AuditPeer?
    private let watch: AuditWatch

    /// The endpoint, when one stopped answering in the middle of the run: the cases after
    /// it were not checked.
    public var stop: AuditStop? { watch.stop }
    /// What kept the money cases from running, given the award endpoint and the ledger: the
    /// first thing that did, and how many cases it kept.
    public private(set) var hold: AuditHold?
    /// How many events and players the audit has made, so that each is new.
    private var made = 0

    /// How long a money case watches the ledger after the handler's answer, in
    /// milliseconds: a handler may acknowledge an event at once and revoke from a queue.
    private let ledgerWait: Int

    /// An audit of `endpoints.events` with events of `version`; orders and event ids come
    /// from `seed`, so that every run sends fresh ones. A money case watches the ledger for
    /// `ledgerWait` milliseconds at most after the handler's answer.
    public init(
        endpoints: Endpoints, version: OrderEvent.Version, credentials: Credentials, seed: UInt64,
        ledgerWait: Int = 5000, clock: @escaping () -> Int = wallClockMilliseconds
    ) {
        self.ledgerWait = ledgerWait
        self.endpoints = endpoints
        self.version = version
        self.credentials = credentials
        self.seed = seed
        self.clock = clock
        orders = AuditOrders(seed: seed, clock: clock)
        handler = AuditPeer(url: endpoints.events, role: "the events handler")
        awardPeer = endpoints.award.map { AuditPeer(url: $0, role: "the award endpoint") }
        ledgerPeer = endpoints.ledger.map { AuditPeer(url: $0, role: "the ledger") }
        watch = AuditWatch([handler] + [awardPeer, ledgerPeer].compactMap { $0 })
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
            throw AuditCannotRun(reason: "nothing answers at \(endpoints.events): \(failure)")
        }
        let sent = "a valid \(called(.created)) event for a new order"
        var valid = awardLike(exchange, sent: sent) ?? acceptance("valid", exchange, sent: sent)
        if watch.end("valid") {
            valid.summary += "; and nothing answers since: did the event bring the handler down?"
        }
        let baseline = valid.verdict != .fail
        if baseline, watch.stop == nil, cases.contains(where: \.followsMoney), let ledger = endpoints.ledger,
            endpoints.award != nil
        {
            _ = try checkedBalances(of: newPlayer(), at: ledger)
        }
        var findings: [AuditFinding] = []
        for auditCase in cases {
            if auditCase == .valid {
                findings.append(valid)
            } else if watch.stop != nil {
                findings.append(watch.notChecked(auditCase.name))
            } else if auditCase.followsMoney, let missing = missingEndpoints {
                findings.append(
                    AuditFinding(
                        name: auditCase.name, verdict: .notChecked, summary: "not checked: \(missing)",
                        sent: "nothing", received: "nothing", why: ""))
            } else if !baseline && auditCase.sendsValidEvents {
                findings.append(
                    AuditFinding(
                        name: auditCase.name, verdict: .notMeaningful,
                        summary: "not run: it needs a valid event to be accepted", sent: "nothing",
                        received: "nothing", why: Self.fixValidFirst))
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
                    finding.why = Self.fixValidFirst
                }
                findings.append(watch.end(auditCase.name) ? watch.stopped(auditCase.name, finding) : finding)
            }
        }
        if !baseline && !cases.contains(.valid) { findings.insert(valid, at: 0) }
        return findings
    }

    /// A failure of `valid` when the answer to it is an award endpoint's: a
    /// `publisherPurchaseId` (an award endpoint that grants whatever is signed), or a
    /// `publisherErrorMessage`.
    private func awardLike(_ exchange: AuditExchange, sent: String) -> AuditFinding? {
        guard let status = exchange.status else { return nil }
        let answer = AwardAnswer(status: status, body: exchange.body)
        let field = ["publisherPurchaseId", "publisherErrorMessage"].first { answer.has($0) }
        guard let field else { return nil }
        return finding(
            "valid", .fail, "this URL answers like an award endpoint: \(status) with a \(field), to an order event",
            sent, exchange,
            "check-events audits the game's events handler, where Appcharge sends order events; the award endpoint "
                + "takes Grant Award Callbacks: give check-events the events handler's URL, and this one as --award-url "
                + "(check-award audits it)")
    }

    private static let fixValidFirst =
        "not meaningful until the valid case passes: fix that first, then run the audit again"

    /// Why the money cases cannot run, or nil when they can.
    private var missingEndpoints: String? {
        missingOptions.map { "it needs \($0.options), \($0.purpose)" }
    }

    /// What the money cases need and were not given: the options, and what for; nil when
    /// they have all they need.
    public var missingOptions: (options: String, purpose: String)? {
        switch (endpoints.award, endpoints.ledger) {
        case (nil, nil): ("--award-url and --ledger-url", "to grant an order and then read what its player holds")
        case (nil, _): ("--award-url", "to grant the order it then refunds or disputes")
        case (_, nil): ("--ledger-url", "to read what the player holds before and after")
        default: nil
        }
    }

    // MARK: Cases

    private func runCase(_ auditCase: EventAuditCase) throws(AuditCannotRun) -> AuditFinding {
        let name = auditCase.name
        switch auditCase {
        case .valid:
            let order = orders.fresh(player: newPlayer())
            return acceptance(name, send(event(.created, of: order)), sent: "a valid event for a new order")
        case .forged(let forgery):
            return rejection(name, forgery)
        case .unknownFields:
            return variant(
                name, "a valid event with fields the handler has never seen (the schema grows)",
                why: "Appcharge adds fields as its schema evolves: ignore the ones you do not know"
            ) { body in
                Self.inserting(#""futureField":{"nested":[1,"two",null]},"extensionData":"x","#, atStartOf: body)
            }
        case .missingFields:
            return minimal(name)
        case .typeVariants:
            return variant(
                name,
                "a valid event with the documented type variants: \"isSavedPaymentMethodUsed\": \"True\", "
                    + "customer.playerId, productQuantity and amounts as strings",
                why: "the docs' own examples mix types: parse leniently, never refuse a verified event for a type"
            ) { body in
                Self.replacing(
                    [
                        (#""isSavedPaymentMethodUsed":false"#, #""isSavedPaymentMethodUsed":"True""#),
                        (#""customer":{"id":"#, #""customer":{"playerId":"#),
                        // V1's examples give the price point as a string.
                        (#""pricePointMetadata":499,"#, #""pricePointMetadata":"499","#),
                    ], in: body)
            }
        case .namesSpaces:
            return named(
                name, "a valid event whose names hold spaces", offerName: "Starter Pack Deluxe Edition",
                suspect: AuditSuspect.spaces)
        case .namesSlashQuotes:
            return named(
                name, "a valid event whose names hold '/' and quotes", offerName: #"Gold/"Legendary"/Pack"#,
                suspect: AuditSuspect.slashes)
        case .namesUnicode:
            return named(
                name, "a valid event whose names hold non-ASCII letters and emoji", offerName: "Épée_de_Dragón_🐉",
                suspect: AuditSuspect.unicode)
        case .numbers:
            return variant(
                name, "a valid event whose numbers include 100.0 and 0.00",
                why: "the handler verifies something other than the raw bytes received (\(AuditSuspect.numbers))"
            ) { body in
                Self.replacing(
                    [
                        (#""discountAmount":0"#, #""discountAmount":0.00"#), (#""taxAmount":0"#, #""taxAmount":100.0"#),
                        // V1's.
                        (#""tax":0"#, #""tax":0.00"#), (#""priceInDollar":499"#, #""priceInDollar":499.0"#),
                    ], in: body)
            }
        case .businessFailure:
            return businessFailure(name)
        case .refund, .duplicate, .duplicateRace, .refundFirst, .refundUngranted, .disputeLost, .disputeWon,
            .partialRefund:
            return try money(auditCase)
        }
    }

    // MARK: Signatures and tolerance

    private func rejection(_ name: String, _ forgery: SignatureForgery) -> AuditFinding {
        let sent = forgery.sent("event")
        let event = event(.created, of: orders.fresh(player: newPlayer()))
        let forged = forgery.forge(
            body: event.body, milliseconds: clock(), key: credentials.eventsKey,
            field: version == .v2 ? "subtotal" : "priceInCents")
        let headers = baseHeaders() + (forged.signature.map { [HTTPHeader("signature", $0)] } ?? [])
        let exchange = handler.send(body: forged.body, headers: headers)
        if let failure = exchange.refusalFailure(
            accepting:
                "forge or replay events, a refund that takes a player's items or a dispute won that restores them")
        {
            return finding(name, .fail, failure.summary, sent, exchange, failure.why)
        }
        let status = exchange.status ?? 0
        return finding(name, .pass, "refused (\(status))", sent, exchange, "")
    }

    /// A valid event whose body `change` rewrites before it is signed.
    private func variant(_ name: String, _ sent: String, why: String, change: ([UInt8]) -> [UInt8])
        -> AuditFinding
    {
        let event = event(.created, of: orders.fresh(player: newPlayer()))
        return tolerance(name, send(body: change(event.body)), sent: sent, why: why)
    }

    /// An event of nothing but its name, its id and its time.
    private func minimal(_ name: String) -> AuditFinding {
        let event = event(.created, of: orders.fresh(player: newPlayer()))
        var writer = JSONWriter()
        writer.openObject()
        switch version {
        case .v2:
            writer.field("eventName", event.name.v2Name)
            writer.field("eventId", event.eventId)
            writer.field("timestamp", clock())
        case .v1:
            writer.field("event", event.name.v1Name)
            writer.field("timestamp", clock() / 1000)
        }
        writer.closeObject()
        return tolerance(
            name, send(body: writer.bytes), sent: "a valid event with its name, id and time and nothing else",
            why: "every field of an event is optional: read what is there, never refuse a verified event for a gap")
    }

    private func named(_ name: String, _ sent: String, offerName: String, suspect: String) -> AuditFinding {
        let order = orders.fresh(player: newPlayer(), offerName: offerName)
        return tolerance(
            name, send(event(.created, of: order)), sent: sent,
            why: "the handler verifies something other than the raw bytes received (\(suspect))")
    }

    /// A valid event must be accepted; only a refusal points at the handler's parsing, as
    /// the plain valid event was accepted.
    private func tolerance(_ name: String, _ exchange: AuditExchange, sent: String, why: String) -> AuditFinding {
        guard let status = exchange.status, !exchange.accepted else { return acceptance(name, exchange, sent: sent) }
        return finding(
            name, .fail, "a valid event was refused (\(status))", sent, exchange,
            "a plain valid event was accepted and this one was not: \(why); a refused event is retried and then "
                + "lost, and a lost refund leaves the player their items")
    }

    private func acceptance(_ name: String, _ exchange: AuditExchange, sent: String) -> AuditFinding {
        guard let status = exchange.status else {
            return finding(
                name, .fail, "no answer: \(exchange.error ?? "nothing came")", sent, exchange,
                "every delivery times out and is retried, then lost: answer each verified event at once with 2xx")
        }
        guard exchange.accepted else {
            return finding(
                name, .fail, "a valid event was refused (\(status))", sent, exchange,
                "every event is retried and then lost, the refunds and lost disputes among them: check the key "
                    + "(the main key, or the separate events key), the signature over the raw body, t in milliseconds")
        }
        if exchange.milliseconds > 2000 {
            return finding(
                name, .warn, "accepted (\(status)), but only after \(exchange.milliseconds) ms", sent, exchange,
                "a slow answer is close to a timeout and a retry: answer at once, and handle the event afterwards")
        }
        return finding(name, .pass, "accepted (\(status)) in \(exchange.milliseconds) ms", sent, exchange, "")
    }

    private func businessFailure(_ name: String) -> AuditFinding {
        let order = orders.fresh(player: newPlayer())
        let sent = "a verified \(called(.refunded)) of an order the handler has never heard of"
        let exchange = send(event(.refunded, of: order))
        guard let status = exchange.status, !exchange.accepted else { return acceptance(name, exchange, sent: sent) }
        guard version == .v2 || status >= 500 else {
            return finding(name, .pass, "refused (\(status)), which V1 does not retry", sent, exchange, "")
        }
        let retries = version == .v2 ? "3 more times over 15 minutes" : "up to 3 more times, 5 minutes apart"
        return finding(
            name, .warn, "answered \(status) to a verified event it could not use", sent, exchange,
            "a non-2xx only makes Appcharge send it again (\(retries)): answer 2xx to every verified event, and "
                + "handle the failure yourself")
    }

    // MARK: The money

    /// One player's balances, by product SKU.
    private typealias Balances = [String: Int]

    private func money(_ auditCase: EventAuditCase) throws(AuditCannotRun) -> AuditFinding {
        guard let ledger = endpoints.ledger else { return notChecked(auditCase) }
        let name = auditCase.name
        let player = newPlayer()
        let grants = [.duplicate, .duplicateRace].contains(auditCase) ? 2 : 1
        var granted: [OrderResponseModel] = []
        for _ in 0..<grants {
            let order = orders.fresh(player: player)
            if let problem = try grant(order) {
                return held(
                    name, "the award endpoint did not grant: \(problem)",
                    what:
                        "the award endpoint \(endpoints.award.map { "\($0)" } ?? "") did not grant an order (\(problem))",
                    fix: "point --award-url at the game's award endpoint (check-award audits it)")
            }
            granted.append(order)
        }
        let order = granted[0]
        let products = Self.products(of: order)
        let grantedTotal = granted.reduce(into: Balances()) { total, order in
            for (sku, amount) in Self.products(of: order) { total[sku, default: 0] += amount }
        }
        // A ledger that credits grants from a queue shows them a moment after the award's answer.
        let before = try balances(of: player, at: ledger, within: ledgerWait) { held in
            grantedTotal.allSatisfy { held[$0.key, default: 0] >= $0.value }
        }.balances
        guard grantedTotal.allSatisfy({ before[$0.key, default: 0] >= $0.value }) else {
            return held(
                name, "the ledger does not show what the award granted (it shows \(Self.shown(before)))",
                what: "the ledger \(ledger) does not show what the award endpoint "
                    + "\(endpoints.award.map { "\($0)" } ?? "") granted (it shows \(Self.shown(before)) for the player)",
                fix: "point --award-url and --ledger-url at the same game's server")
        }
        if auditCase != .refundFirst {
            for order in granted { _ = send(event(.completed, of: order)) }
        }
        let refunded = called(.refunded)
        switch auditCase {
        case .refund:
            let exchange = send(event(.refunded, of: order))
            return judge(
                name, sent: "\(called(.completed)), then \(refunded), of a granted order", exchange, before: before,
                after: try settled(player, at: ledger, from: before, changing: true), expected: before.minus(products),
                products: products,
                keeps: "the player keeps the items and their money back: revoke the order's products on a refund")
        case .duplicate, .duplicateRace:
            let refund = event(.refunded, of: order)
            let exchange: AuditExchange
            if auditCase == .duplicate {
                _ = send(refund)
                exchange = send(refund)
            } else {
                exchange = handler.sendTogether(body: refund.body, headers: headers(signing: refund.body)).1
            }
            let how = auditCase == .duplicate ? "one after the other" : "at the same moment, over two connections"
            return judge(
                name, sent: "one \(refunded) delivered twice, \(how), as Appcharge retries", exchange, before: before,
                after: try settled(player, at: ledger, from: before, changing: true), expected: before.minus(products),
                products: products,
                keeps: "the refund took nothing back: revoke the order's products on a refund",
                twice: before.minus(products).minus(products),
                twiceWhy: version == .v2
                    ? (auditCase == .duplicate
                        ? "a retry takes the items again: remember each eventId and give a second copy no effect"
                        : "two copies in flight at once both take the items: make the check-and-record of an eventId "
                            + "atomic")
                    : "a resend takes the items again: give a second copy of an event of an order no effect")
        case .refundFirst:
            let exchange = send(event(.refunded, of: order))
            _ = send(event(.completed, of: order))
            return judge(
                name, sent: "\(refunded) before \(called(.completed)), as when the completion's first delivery failed",
                exchange, before: before, after: try settled(player, at: ledger, from: before, changing: true),
                expected: before.minus(products), products: products,
                keeps: "a refund that arrives before the completion is dropped: events come in any order; "
                    + "revoke on the refund whatever came before it")
        case .refundUngranted:
            // One order of the player who holds a grant, one of a player who holds nothing.
            let newcomer = newPlayer()
            let strangers = [orders.fresh(player: player), orders.fresh(player: newcomer)]
            var exchange = AuditExchange()
            for stranger in strangers {
                _ = send(event(.created, of: stranger))
                let answer = send(event(.refunded, of: stranger))
                if exchange.status == nil || !answer.accepted { exchange = answer }
            }
            var finding = judge(
                name,
                sent: "\(refunded) of two orders never granted (Charge Failed): one of a player who holds "
                    + "another order's items, one of a player who holds nothing",
                exchange, before: before, after: try settled(player, at: ledger, from: before, changing: false),
                expected: before, products: products, keeps: "", tooMuch: "took items the order never granted",
                tooMuchWhy: "the handler takes items the player never got for that order, and may drive a balance "
                    + "negative: revoke only what the order's own grant gave, found by its purchaseId")
            let held = try checkedBalances(of: newcomer, at: ledger)
            if let negative = held.first(where: { $0.value < 0 }) {
                finding.summary =
                    (finding.verdict == .fail ? finding.summary + "; and " : "")
                    + "a player who held nothing went to \(negative.value) \(negative.key)"
                finding.verdict = .fail
                finding.why =
                    "a refund of an order never granted took what the player never had, below zero: revoke "
                    + "only what the order's own grant gave, and clamp at zero"
            }
            return finding
        case .disputeLost:
            _ = send(event(.disputeOpened, of: order))
            let exchange = send(event(.disputeLost, of: order))
            return judge(
                name, sent: "\(called(.disputeOpened)), then \(called(.disputeLost))", exchange, before: before,
                after: try settled(player, at: ledger, from: before, changing: true), expected: before.minus(products),
                products: products,
                keeps: "the player won the chargeback and keeps the items: revoke on a dispute lost")
        case .disputeWon:
            _ = send(event(.disputeOpened, of: order))
            let exchange = send(event(.disputeWon, of: order))
            return judge(
                name, sent: "\(called(.disputeOpened)), then \(called(.disputeWon))", exchange, before: before,
                after: try settled(player, at: ledger, from: before, changing: false), expected: before,
                products: products, keeps: "",
                tooMuch: "the items were not given back",
                tooMuchWhy: "the studio won the dispute and the player lost the items: revoke on a dispute lost, not "
                    + "on one opened, or restore what was taken when it is won")
        case .partialRefund:
            return try partialRefund(name, order: order, before: before, products: products, ledger: ledger)
        default:
            return notChecked(auditCase)
        }
    }

    /// The finding of a money case the award endpoint or the ledger kept from running:
    /// not checked, saying `why`; the first such `what` and its `fix` are the run's
    /// ``hold``.
    private func held(_ name: String, _ why: String, what: String, fix: String) -> AuditFinding {
        if hold == nil { hold = AuditHold(what: what, fix: fix, cases: 0) }
        hold?.cases += 1
        return AuditFinding(
            name: name, verdict: .notChecked, summary: "not checked: \(why)", sent: "nothing", received: "nothing",
            why: "")
    }

    private func partialRefund(
        _ name: String, order: OrderResponseModel, before: Balances, products: Balances, ledger: HTTPURL
    ) throws(AuditCannotRun) -> AuditFinding {
        let sent = "a refund of half of a granted order"
        guard version == .v2 else {
            return AuditFinding(
                name: name, verdict: .notChecked,
                summary: "not checked: a V1 refund carries no amount, so it cannot be partial", sent: "nothing",
                received: "nothing", why: "")
        }
        let half = order.price / 2
        let exchange = send(event(.refunded, of: order, refundAmount: half))
        let reading = try settled(player(of: order), at: ledger, from: before, changing: false)
        let after = reading.balances
        let taken = before.minus(after)
        if let harm = harm(after: after, before: before, limit: products) {
            return finding(name, .fail, harm.summary + reading.note, sent, exchange, harm.why)
        }
        let amount =
            "\(OrderEvent.decimal(half, currency: order.currency)) of "
            + "\(OrderEvent.decimal(order.price, currency: order.currency)) \(order.currency)"
        let did =
            taken.values.allSatisfy({ $0 == 0 })
            ? "revoked nothing"
            : taken == products ? "revoked all of the order's products" : "revoked \(Self.shown(taken))"
        let answered = exchange.accepted ? "" : ", and answered \(exchange.status.map { String($0) } ?? "nothing")"
        return finding(
            name, exchange.accepted ? .pass : .warn,
            "a refund of \(amount): the handler \(did)\(answered)\(reading.note)",
            sent, exchange,
            exchange.accepted
                ? "" : "a non-2xx only makes Appcharge send the refund again: answer 2xx to every verified event")
    }

    /// The verdict of a money case: the balances `reading` shows against `expected`; its
    /// summary says how long the ledger took, when the audit waited for it.
    private func judge(
        _ name: String, sent: String, _ exchange: AuditExchange, before: Balances, after reading: LedgerReading,
        expected: Balances, products: Balances, keeps: String, twice: Balances? = nil, twiceWhy: String = "",
        tooMuch: String = "", tooMuchWhy: String = ""
    ) -> AuditFinding {
        var finding = judge(
            name, sent: sent, exchange, before: before, after: reading.balances, expected: expected,
            products: products, keeps: keeps, twice: twice, twiceWhy: twiceWhy, tooMuch: tooMuch,
            tooMuchWhy: tooMuchWhy)
        finding.summary += reading.note
        if reading.timedOut, finding.verdict == .fail, reading.balances.same(as: before) {
            finding.why +=
                ledgerWait == 0
                ? "; the ledger was read once, at the answer (--ledger-wait 0): a handler that revokes from a queue "
                    + "needs a wait"
                : "; the ledger was watched for \(Self.shown(milliseconds: ledgerWait)) after the answer: a handler "
                    + "that revokes from a queue more slowly needs a longer --ledger-wait"
        }
        return finding
    }

    private func judge(
        _ name: String, sent: String, _ exchange: AuditExchange, before: Balances, after: Balances,
        expected: Balances, products: Balances, keeps: String, twice: Balances?, twiceWhy: String,
        tooMuch: String, tooMuchWhy: String
    ) -> AuditFinding {
        let change = "\(Self.shown(before)) → \(Self.shown(after))"
        if let harm = harm(after: after, before: before, limit: nil) {
            return finding(name, .fail, harm.summary, sent, exchange, harm.why)
        }
        if after.same(as: expected) {
            guard exchange.accepted else {
                return finding(
                    name, .warn,
                    "the balances are right (\(change)), but it answered "
                        + "\(exchange.status.map { String($0) } ?? "nothing")", sent, exchange,
                    "a non-2xx only makes Appcharge send the event again: answer 2xx to every verified event")
            }
            let what = before.same(as: expected) ? "nothing taken" : "taken back once"
            return finding(name, .pass, "\(what): \(change)", sent, exchange, "")
        }
        if let twice, after.same(as: twice) {
            return finding(name, .fail, "taken back twice: \(change)", sent, exchange, twiceWhy)
        }
        if after.same(as: before) {
            return finding(name, .fail, "nothing taken back: \(change)", sent, exchange, keeps)
        }
        if expected.same(as: before) {
            return finding(name, .fail, "\(tooMuch): \(change)", sent, exchange, tooMuchWhy)
        }
        return finding(
            name, .fail, "the balances are wrong: \(change), where \(Self.shown(expected)) was right", sent, exchange,
            keeps.isEmpty ? tooMuchWhy : keeps)
    }

    /// What is wrong beyond a balance's value: one below zero, one that rose, or more
    /// taken than `limit`.
    private func harm(after: Balances, before: Balances, limit: Balances?) -> (summary: String, why: String)? {
        if let negative = after.first(where: { $0.value < 0 }) {
            return (
                "a balance went negative: \(negative.key) \(negative.value)",
                "a player who spent the items owes them forever: clamp at zero and record the shortfall"
            )
        }
        if let risen = after.sorted(by: { $0.key < $1.key }).first(where: { $0.value > before[$0.key, default: 0] }) {
            return (
                "a balance rose: \(risen.key) \(before[risen.key, default: 0]) → \(risen.value)",
                "a refund or a dispute takes items back or leaves them; it never gives any"
            )
        }
        if let limit, before.minus(after).contains(where: { $0.value > limit[$0.key, default: 0] }) {
            return (
                "took more than the order gave: \(Self.shown(before)) → \(Self.shown(after))",
                "a refund takes back at most what its order granted"
            )
        }
        return nil
    }

    private func notChecked(_ auditCase: EventAuditCase) -> AuditFinding {
        AuditFinding(
            name: auditCase.name, verdict: .notChecked, summary: "not checked: \(missingEndpoints ?? "")",
            sent: "nothing", received: "nothing", why: "")
    }

    // MARK: The game's other endpoints

    /// Grants `order` through the award endpoint; nil when granted, else why not.
    private func grant(_ order: OrderResponseModel) throws(AuditCannotRun) -> String? {
        guard let url = endpoints.award, let awardPeer else { return "no --award-url" }
        _ = send(event(.created, of: order))
        _ = send(event(.paymentSucceeded, of: order))
        let award = GrantAward(order: order, basePriceInUSD: "4.99")
        let exchange = awardPeer.send(
            body: award.body,
            headers: [
                HTTPHeader("Content-Type", "application/json"),
                HTTPHeader("x-publisher-token", credentials.publisherToken),
                HTTPHeader(
                    "signature", GrantAward.signature(body: award.body, milliseconds: clock(), key: credentials.mainKey)
                ),
            ])
        if let failure = exchange.failure, failure.meansNothingListens {
            throw AuditCannotRun(reason: "nothing answers at the award endpoint \(url): \(failure)")
        }
        guard let status = exchange.status else { return "no answer: \(exchange.error ?? "nothing came")" }
        let answer = AwardAnswer(status: status, body: exchange.body)
        return answer.grantId == nil ? answer.problem : nil
    }

    /// The longest the ledger took in this run to show what events did, in milliseconds
    /// after the handler's answer: 0 when it showed it at once (the handler acts before it
    /// answers), nil until a change was seen.
    private var ledgerLag: Int?

    /// What the ledger showed of a player after a case's events, and how long it was watched.
    private struct LedgerReading {
        var balances: Balances
        /// What the summary adds, when the audit waited: " (the ledger changed 310 ms after
        /// the answer)"; empty when the first reading showed the change.
        var note: String
        /// Whether a change was due and the ledger was watched for the whole ``ledgerWait``
        /// without one (read once, with a wait of 0).
        var timedOut: Bool
    }

    /// What `player` holds once the ledger shows what the case's events did: read until it
    /// differs from `before`, for ``ledgerWait`` at most when the case's events should
    /// `change` it, else (a case whose events must take nothing) for about twice as long as
    /// this handler's ledger took before, or ``ledgerWait`` while that is not known; once
    /// only, when it showed a change at once before. Once it changes, it is watched as long
    /// again, within the bound, as a second copy of an event may take effect a moment after
    /// the first.
    private func settled(_ player: String, at ledger: HTTPURL, from before: Balances, changing: Bool)
        throws(AuditCannotRun) -> LedgerReading
    {
        // A handler whose ledger showed an earlier case's change at once acts before it answers:
        // one reading says all. Otherwise a change may be on its way for the whole bound, or,
        // where none is due, for about twice as long as this handler's changes took.
        let limit =
            switch (ledgerLag, changing) {
            case (0?, _): 0
            case (let lag?, false): min(ledgerWait, 2 * lag + 250)
            default: ledgerWait
            }
        let first = try balances(of: player, at: ledger, within: limit) { !$0.same(as: before) }
        guard !first.balances.same(as: before) else {
            let waited = Self.shown(milliseconds: first.waited)
            return LedgerReading(
                balances: first.balances,
                note: first.waited == 0 ? "" : " (no change in the ledger within \(waited) of the answer)",
                timedOut: changing && limit == ledgerWait)
        }
        ledgerLag = max(ledgerLag ?? 0, first.waited)
        guard first.waited > 0 else { return LedgerReading(balances: first.balances, note: "", timedOut: false) }
        let watched = try balances(
            of: player, at: ledger, within: min(ledgerWait, 2 * first.waited) - first.waited
        ) { _ in false }
        return LedgerReading(
            balances: watched.balances,
            note: " (the ledger changed \(Self.shown(milliseconds: first.waited)) after the answer)", timedOut: false)
    }

    /// What `player` holds, read from the ledger until `done` holds of it or `milliseconds`
    /// have passed, every 50 ms; and how long after the first reading the last one came (0
    /// when the first reading was it).
    private func balances(
        of player: String, at ledger: HTTPURL, within milliseconds: Int, until done: (Balances) -> Bool
    ) throws(AuditCannotRun) -> (balances: Balances, waited: Int) {
        let start = Deadline.nowMilliseconds()
        var reading = try checkedBalances(of: player, at: ledger)
        var waited = 0
        while !done(reading), waited < milliseconds {
            pause(milliseconds: min(50, milliseconds - waited))
            reading = try checkedBalances(of: player, at: ledger)
            waited = Deadline.nowMilliseconds() - start
        }
        return (reading, waited)
    }

    /// 310 ms, 5 s, 1.5 s.
    private static func shown(milliseconds: Int) -> String {
        guard milliseconds >= 1000 else { return "\(milliseconds) ms" }
        let tenths = (milliseconds + 50) / 100
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }

    /// What `player` holds, read from the ledger.
    ///
    /// - Throws: ``AuditCannotRun`` when nothing answers, or the answer is not 200
    ///   `{"balances": {SKU: integer, ...}}`.
    private func checkedBalances(of player: String, at ledger: HTTPURL) throws(AuditCannotRun) -> Balances {
        var url = ledger
        url.target += (url.target.contains("?") ? "&" : "?") + "playerId=" + player
        // The server answers, so the advice is the contract, never to start it.
        let contract =
            "its contract: GET \(ledger)?playerId=ID answers 200 {\"balances\": {\"SKU\": n, ...}}, what the player "
            + "holds now"
        let advice =
            "The game's server answers there but not as that ledger: point --ledger-url at the route that does, or "
            + "make it answer so"
        func offContract(_ what: String) -> AuditCannotRun {
            AuditCannotRun(reason: "the ledger \(ledger) \(what); \(contract)", advice: advice)
        }
        let exchange = (ledgerPeer ?? AuditPeer(url: ledger, role: "the ledger")).send(
            method: .get, at: url, body: [], headers: [])
        guard let status = exchange.status else {
            let error = exchange.failure.map { "\($0)" } ?? "no answer"
            guard exchange.failure?.meansNothingListens ?? false else {
                throw AuditCannotRun(
                    reason: "the ledger \(ledger): \(error)",
                    advice: "The game's server took the request but gave no whole answer: check its log, and "
                        + "that --ledger-url names its ledger")
            }
            throw AuditCannotRun(reason: "nothing answers at the ledger \(ledger): \(error)")
        }
        guard status == 200 else {
            throw offContract("answered \(status) \(HTTPServerResponse.reason(status))")
        }
        guard let value = try? JSONParser.parse(exchange.body), case .object(let members) = value.kind,
            let balances = members.first(where: { $0.key == "balances" }),
            case .object(let entries) = balances.value.kind
        else {
            throw offContract("answered without a \"balances\" object")
        }
        var result: Balances = [:]
        for entry in entries {
            guard case .number(let text) = entry.value.kind, let amount = Int(text) else {
                throw AuditCannotRun(
                    reason: "a balance in the ledger's answer is not an integer; \(contract)", advice: advice)
            }
            // No game holds more; the bound keeps every sum and difference of balances far
            // from overflowing, and shows a ledger that answers garbage for what it is.
            guard Self.balanceRange.contains(amount) else {
                throw AuditCannotRun(
                    reason: "a balance in the ledger's answer is \(amount), beyond ±10^15; \(contract)", advice: advice)
            }
            result[entry.key] = amount
        }
        return result
    }

    /// The balances a ledger may answer: ±10^15.
    private static let balanceRange = -1_000_000_000_000_000...1_000_000_000_000_000

    // MARK: Events

    private func newPlayer() -> String {
        made += 1
        return "audit_\(String(seed % 1_000_000_007, radix: 36))_\(made)"
    }

    private func player(of order: OrderResponseModel) -> String { order.customerId }

    /// The event `name` of `order`, as the audit's version names and shapes it.
    private func event(_ name: OrderEvent.Name, of order: OrderResponseModel, refundAmount: Int? = nil) -> OrderEvent {
        made += 1
        return OrderEvent(
            name, version: version, subject: OrderEvent.Subject(order: order, pricePointMetadata: 499),
            milliseconds: clock(), seed: seed, sequence: made, refundAmount: refundAmount)
    }

    /// The event as the version names it, for what a finding says was sent.
    private func called(_ event: OrderEvent.Name) -> String {
        version == .v2 ? event.v2Name + (event.result.map { " (\($0))" } ?? "") : event.v1Name
    }

    private func baseHeaders() -> [HTTPHeader] {
        [
            HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", credentials.publisherToken),
            HTTPHeader("x-project-id", credentials.projectId),
        ]
    }

    private func headers(signing body: [UInt8]) -> [HTTPHeader] {
        baseHeaders() + [
            HTTPHeader(
                "signature", GrantAward.signature(body: body, milliseconds: clock(), key: credentials.eventsKey))
        ]
    }

    private func send(_ event: OrderEvent) -> AuditExchange { send(body: event.body) }

    private func send(body: [UInt8]) -> AuditExchange { handler.send(body: body, headers: headers(signing: body)) }

    private func finding(
        _ name: String, _ verdict: AuditFinding.Verdict, _ summary: String, _ sent: String, _ exchange: AuditExchange,
        _ why: String
    ) -> AuditFinding {
        AuditFinding(name: name, verdict: verdict, summary: summary, sent: sent, received: exchange.shown, why: why)
    }

    // MARK: Bodies and balances

    private static func products(of order: OrderResponseModel) -> Balances {
        order.items.reduce(into: Balances()) { total, item in total[item.sku, default: 0] += Int(item.quantity) ?? 0 }
    }

    /// `100 gem_01, 5 coin_02`, or `nothing`.
    private static func shown(_ balances: Balances) -> String {
        let held = balances.filter { $0.value != 0 }.sorted { $0.key < $1.key }
        return held.isEmpty
            ? "nothing" : held.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }

    /// `body` with `text` after its opening brace.
    private static func inserting(_ text: String, atStartOf body: [UInt8]) -> [UInt8] {
        guard body.first == UInt8(ascii: "{") else { return body }
        return [UInt8(ascii: "{")] + Array(text.utf8) + body.dropFirst()
    }

    /// `body` with the first occurrence of each pair's first text replaced by its second.
    private static func replacing(_ pairs: [(String, String)], in body: [UInt8]) -> [UInt8] {
        var text = String(decoding: body, as: UTF8.self)
        for (target, replacement) in pairs {
            guard let range = text.firstOccurrence(of: target) else { continue }
            text = String(text[..<range.lowerBound]) + replacement + String(text[range.upperBound...])
        }
        return Array(text.utf8)
    }
}

extension [String: Int] {
    /// Each balance less what `other` holds of it, never below zero; a difference past
    /// `Int`'s range is the nearest end, as the ledger's balances are not the audit's to
    /// trust.
    fileprivate func minus(_ other: [String: Int]) -> [String: Int] {
        var result = self
        for (sku, amount) in other {
            let (difference, overflow) = result[sku, default: 0].subtractingReportingOverflow(amount)
            result[sku] = overflow ? (amount < 0 ? .max : 0) : Swift.max(0, difference)
        }
        return result
    }

    /// The same balances, a missing one counting as zero.
    fileprivate func same(as other: [String: Int]) -> Bool {
        Set(keys).union(other.keys).allSatisfy { self[$0, default: 0] == other[$0, default: 0] }
    }
}
