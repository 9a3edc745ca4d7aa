public import PaylinksAppcharge
import PaylinksHTTP
import PaylinksJSON
public import PaylinksKit

/// Appcharge's half of a checkout, served locally: the Create Checkout Session and Cancel
/// APIs the game's server calls, the checkout page a tester uses, and a control API for
/// scripts. Pure: it maps requests to responses and reports what happens through its
/// `on...` closures; sockets, threads and output belong to whoever serves it.
public final class Sandbox {
    let catalog: Catalog
    /// How it answers; set before it serves. The sessions take their seed, lifetime,
    /// limit and budget from the settings it was made with.
    public var settings: Settings {
        didSet {
            guardian = SandboxGuard(settings: settings)
            if settings.rateLimit != oldValue.rateLimit {
                rateLimiter = settings.rateLimit.map(RateLimiter.init(limit:))
            }
        }
    }
    /// The checks every request passes before it is routed.
    var guardian: SandboxGuard
    /// The sandbox's time: the wall's, or a virtual clock the control API moves.
    public let clock: SandboxClock
    /// The move of a virtual clock under way, until every timer it passed has fired.
    var advance: Advance?
    /// The last move of the clock that ended, and what it fired, for the dashboard.
    var lastMove: Move?
    /// The deliveries whose next attempt was handed to a queue and has not ended yet.
    var retriesInFlight: Set<Int> = []
    /// The virtual clock's time the journal last kept.
    var clockKept: Int?
    /// Where a journal or an import said a virtual clock stood, whatever clock serves.
    public internal(set) var restoredClock: Int?
    /// Whether a timer is firing now: what it sends, a move of the clock waits for.
    public internal(set) var isFiring = false
    /// Moves of the clock begun so far: what was sent before a move began is sent at the
    /// time it was due, so the move waits for it first.
    public internal(set) var movesStarted = 0
    /// The sessions, their states and their rules: Appcharge's side.
    var sessions: CheckoutSessions
    /// What was sent to the game's server.
    var history = DeliveryHistory()
    /// The price points of the Price Localization API: the catalog's tiers, and what the
    /// game's server made of them.
    var pricePoints: PricePointBook
    /// The requests of each publisher token in the last minute, with `--rate-limit`.
    var rateLimiter: RateLimiter?
    /// Whether the request being answered was refused with a log line that says why
    /// already: ``answer(_:)`` says why of the other refusals.
    var refusalSaid = false
    /// What the forms of the pages came to and no page has shown yet, the newest
    /// ``noticeLimit``, oldest first.
    var notices: [Notice] = []
    /// The players Create Checkout Session refuses with 403, by `customer.id`, in the
    /// order they were blocked: `--block-player`'s, then the control API's.
    public internal(set) var blockedPlayers: [String]
    /// The blocked players as they were before the control API changed the list, until the
    /// change is kept: what a change that cannot be kept puts back.
    var blockedBefore: [String]?

    /// Reads what the game's ledger says `player` holds (`serve --ledger-url`), away from
    /// the server's loop, and calls `done` once, from any thread, with the balances or
    /// what was wrong with the ledger, in words that say how to fix it. Without one a
    /// player's page shows the books alone.
    package var readLedger:
        ((_ player: String, _ done: @escaping @Sendable (Result<AuditBalances, LedgerProblem>) -> Void) -> Void)?
    /// Says a line for the log: a request, a warning, an award's progress.
    public var onLog: (String) -> Void = { _ in }
    /// Says what the game's client receives for a finished checkout.
    public var onCallback: (Callback) -> Void = { _ in }
    /// A session was paid: its award is to be delivered, and ``awardDelivered(purchaseId:failureData:)``
    /// told how it went. Without a handler the award counts as granted at once.
    public var onPaid: ((_ purchaseId: String, _ award: GrantAward) -> Void)?
    /// Something happened to an order that Appcharge sends the game's server an event
    /// about: the event, ready to send. Without a handler no event is made.
    public var onOrderEvent: ((_ purchaseId: String, _ event: OrderEvent) -> Void)?
    /// Makes what a request changed (sessions, price points, the blocked players) and the
    /// deliveries that ended durable before the answer goes out and before anything else
    /// of the change happens (an award sent, a callback, a log line): nil when they are
    /// kept; else why not, and then the change is undone and the answer is 503. What the
    /// sandbox learned on its own (an award's answer) stays in memory and is handed over
    /// again with the next change. All or none of what it is handed must be kept. A virtual
    /// clock that moved is handed over too. In a turn of the server's requests
    /// (``beginBatch()``) it is called once, at the turn's end, with all the turn changed.
    /// Without one all of it lives in memory only.
    public var persist: ((_ changed: SandboxJournalChange) -> String?)? {
        // What nothing keeps is never saved nor undone, so its changes go unrecorded.
        didSet { sessions.recordsSteps = persist != nil }
    }
    /// The control API asked for a delivery to be sent again: exactly as it was (the same
    /// signature) or newly signed; the one who sends it tells ``delivered(_:)`` how it went.
    public var onReplay: ((_ delivery: DeliveryHistory.Delivery, _ resign: Bool) -> Void)?
    /// A virtual clock reached the next attempt of `delivery`: the one who sends it tells
    /// ``attempted(_:attempt:)`` how it went.
    public var onRetry: ((_ delivery: DeliveryHistory.Delivery) -> Void)?
    /// Readies a change for ``persist`` without keeping it: one that waits in memory while
    /// the sandbox pauses after a write the disk refused. What writes lines encodes this
    /// change's now, so that each change pays for its own records once, and the change that
    /// reaches the disk, or a request that tries it, does not pay for all that waited.
    public var readyKept: ((_ changed: SandboxJournalChange) -> Void)?
    /// Replaces all that ``persist`` kept with `contents`, before the answer of a reset goes
    /// out: nil when it is kept, else why not, and then nothing is forgotten (503).
    public var replaceKept: ((_ contents: SandboxJournalContents) -> String?)?
    /// How many deliveries to the game's server are out and not taken in: a reset waits
    /// for none, since their outcomes name sessions whose ids a reset hands out again.
    public var deliveriesUnderWay: () -> Int = { 0 }

    /// A sandbox for `catalog` (its status codes word the callbacks) with `settings`, on
    /// `clock`.
    public init(catalog: Catalog, settings: Settings, clock: SandboxClock) {
        self.catalog = catalog
        self.settings = settings
        self.clock = clock
        guardian = SandboxGuard(settings: settings)
        pricePoints = PricePointBook(catalog: catalog, since: clock.now)
        rateLimiter = settings.rateLimit.map(RateLimiter.init(limit:))
        blockedPlayers = settings.blockedPlayers
        sessions = Self.emptySessions(catalog: catalog, settings: settings)
        // Nothing keeps it until ``persist`` is set: its changes go unrecorded till then.
        sessions.recordsSteps = false
    }

    /// A store of no sessions, as `settings` bound it.
    static func emptySessions(catalog: Catalog, settings: Settings) -> CheckoutSessions {
        CheckoutSessions(
            catalog: catalog, seed: settings.seed, lifetime: settings.sessionLifetime, limit: settings.sessionLimit,
            byteBudget: settings.sessionByteBudget, rates: settings.rates)
    }

    /// A sandbox on a clock `clock` reads, in milliseconds, as the wall clock is read.
    public convenience init(catalog: Catalog, settings: Settings, clock: @escaping () -> Int) {
        self.init(catalog: catalog, settings: settings, clock: .reading(clock))
    }

    /// A token for the forms: 128 bits from the system's random source, in hex.
    public static func newFormToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for _ in 0..<2 {
            let word: UInt64 = generator.next()
            for shift in stride(from: 60, through: 0, by: -4) { text.append(digits[Int(word >> UInt64(shift) & 15)]) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Sessions held now.
    public var sessionCount: Int { sessions.count }
    /// What the paid orders held take of the session budget, in bytes.
    public var paidOrderBytes: Int { sessions.paidBytes }

    /// Every session held, oldest first: what a durable store rewrites itself from.
    public var heldSessions: [CheckoutSessions.Session] { sessions.all }
    /// Every session held, and the price points the API changed, as a snapshot taken at
    /// once, to read on another thread.
    public var snapshot: CheckoutSessions.Held {
        var held = sessions.held
        held.pricePoints = pricePoints.records
        return held
    }
    /// Every delivery held, oldest first.
    public var heldDeliveries: [DeliveryHistory.Delivery] { history.deliveries }
    /// A virtual clock's time, for a journal to keep; nil on the wall clock.
    public var keptClock: Int? { clock.mode == .virtual ? now : nil }
    /// Everything held, taken at once, as a journal rewritten whole or an export holds it.
    public var journalContents: SandboxJournalContents { (snapshot, heldDeliveries, keptClock, blockedPlayers) }

    /// Sends the awards of the paid orders whose award had not ended when the sandbox last
    /// stopped (`charge_pending`) once more, as at the payment; the number sent. Without an
    /// award endpoint they are granted at once, as every award is then.
    @discardableResult
    public func resumeAwards() -> Int {
        // An award whose retry a virtual clock holds goes on at its time, not from the start.
        let retrying = Set(history.retrying.filter { $0.kind == .award }.map(\.purchaseId))
        let waiting = sessions.all.filter {
            $0.state == .chargePending && !$0.retryingAward && !retrying.contains($0.purchaseId)
        }
        for session in waiting {
            effects.append(
                .log(
                    onPaid == nil
                        ? "award \(session.purchaseId): granted, with no award endpoint, at this start (the sandbox "
                            + "stopped before the award ended)"
                        : "award \(session.purchaseId): sent at this start (the sandbox stopped before it ended)"))
            due(purchaseId: session.purchaseId, award: session.award)
        }
        if let failure = keep(undoing: false) { onLog("warning: the awards sent again were not kept: \(failure)") }
        return waiting.count
    }

    /// What a change brings about beyond the sandbox's state: said or sent only once the
    /// change is kept, so that a change that could not be kept (503) had no effect at all.
    enum Effect {
        case log(String)
        case award(purchaseId: String, GrantAward)
        case callback(Callback)
        case orderEvent(purchaseId: String, OrderEvent)
        case replay(DeliveryHistory.Delivery, resign: Bool)
        case retry(DeliveryHistory.Delivery)
    }

    /// The effects of the changes not kept yet, in order.
    var effects: [Effect] = []
    /// Deliveries that ended and are not on the disk yet: kept with the next change that is.
    var unsavedDeliveries: [DeliveryHistory.Delivery] = []
    /// The number of the newest of ``unsavedDeliveries`` handed to ``readyKept``: those after
    /// it are the ones a step added (numbers only grow until they are all saved).
    var deliveriesReadied = 0
    /// When a write last failed: for ``writePause`` after it, what waits from before is
    /// not written again for a request that changes nothing (a read) or for what the
    /// sandbox learns on its own, so that on a full disk they cost no more than before;
    /// a change of a request's is always tried.
    var lastFailure: Int?
    /// The server's turn of requests under way, while one is (``beginBatch()``): with a
    /// ``persist``, its changes are kept together at its end, and the answers from its first
    /// change on wait for that.
    var batch: Batch?

    /// Records a delivery to the game's server that ended: an award's or an event's
    /// attempts, or a replay's; it is in the history (and kept) from now on.
    @discardableResult
    public func delivered(
        _ kind: DeliveryHistory.Kind, purchaseId: String, name: String, url: String, body: [UInt8],
        attempts: [DeliveryAttempt], replayOf: Int? = nil, resigned: Bool? = nil, nextAttemptAt: Int? = nil
    ) -> DeliveryHistory.Delivery {
        var delivery = history.add(
            kind: kind, purchaseId: purchaseId, name: name, url: url, body: body, attempts: attempts,
            replayOf: replayOf, resigned: resigned)
        if let nextAttemptAt {
            delivery.nextAttemptAt = nextAttemptAt
            history.update(delivery)
        }
        keepDelivered(delivery)
        return delivery
    }

    /// Keeps `delivery` as it now stands with the next change that reaches the disk, and
    /// tries to keep it now.
    func keepDelivered(_ delivery: DeliveryHistory.Delivery) {
        unsavedDeliveries.append(delivery)
        // A disk full for long does not make memory grow past what the history holds.
        var bytes = unsavedDeliveries.reduce(0) { $0 + $1.bytes }
        while unsavedDeliveries.count > history.limit || (bytes > history.byteBudget && unsavedDeliveries.count > 1) {
            bytes -= unsavedDeliveries.removeFirst().bytes
        }
        if let failure = keep(undoing: false) {
            onLog("warning: a delivery is not on the disk yet, it is kept with the next change: \(failure)")
        }
    }

    /// An award is due: the award endpoint's queue sends it once the change is kept;
    /// without one it is granted at once.
    private func due(purchaseId: String, award: GrantAward) {
        if onPaid != nil {
            effects.append(.award(purchaseId: purchaseId, award))
        } else {
            report(sessions.awardDelivered(purchaseId: purchaseId, failureData: nil))
        }
    }

    /// Says what happened, in order: log lines, awards due, and what the client receives,
    /// each an effect that follows once the change is kept.
    func report(_ events: [CheckoutSessions.Event]) {
        for event in events {
            switch event {
            case .redirectUrlGiven(let sku, let redirectUrl):
                effects.append(
                    .log(
                        "session for \(sku) with a redirectUrl (Link Out): once it ends, the checkout sends the "
                            + "browser to \(redirectUrl) with status=success, fail or cancel added to its query; a "
                            + "game that opens the checkout through the SDK sends none"))
            case .expired(let purchaseId):
                effects.append(.log("session \(purchaseId) expired unpaid"))
            case .cancelled(let purchaseId):
                effects.append(.log("session \(purchaseId) cancelled by the game's server"))
            case .paid(let purchaseId, let paymentMethod, let award, let withoutPricePoint, let withoutItems):
                // Only a free order is paid with nothing.
                effects.append(
                    .log(
                        paymentMethod.isEmpty
                            ? "session \(purchaseId) collected: free, no payment"
                            : "session \(purchaseId) paid with \(paymentMethod)"))
                if withoutPricePoint {
                    effects.append(
                        .log(
                            "warning: the session \(purchaseId) had no offer.pricePointMetadata, so its award gives its "
                                + "price in US cents as originalPriceInDollar, paymentPriceInDollar and "
                                + "pricePointMetadata; send the offer's price point in US cents, such as 499"))
                }
                if withoutItems {
                    effects.append(
                        .log(
                            "warning: the session \(purchaseId) had no items, so its award grants no products "
                                + "(\"products\": []); send what the offer gives, such as \"items\": [{\"name\": "
                                + "\"Gems\", \"sku\": \"gem_01\", \"quantity\": 100}]"))
                }
                due(purchaseId: purchaseId, award: award.award)
            case .ended(let callback):
                effects.append(.callback(callback))
            case .order(let name, let session, let sequence):
                guard onOrderEvent != nil else { continue }
                effects.append(
                    .orderEvent(
                        purchaseId: session.purchaseId,
                        OrderEvent(
                            name, of: session, version: settings.eventsVersion, milliseconds: now,
                            seed: settings.seed, sequence: sequence)))
            }
        }
    }

    /// The session of `token`, unless it has expired unpaid.
    func live(token: String) -> CheckoutSessions.Session? {
        let (session, events) = sessions.session(token: token, now: now)
        report(events)
        return session
    }

    /// The session of `purchaseId`, unless it has expired unpaid.
    func live(purchaseId: String) -> CheckoutSessions.Session? {
        let (session, events) = sessions.session(purchaseId: purchaseId, now: now)
        report(events)
        return session
    }

    /// Tells the sandbox how a paid session's award went: granted when `failureData` is
    /// nil, failed on every attempt otherwise (the `error.data` of the 3003).
    public func awardDelivered(purchaseId: String, failureData: String?) {
        report(sessions.awardDelivered(purchaseId: purchaseId, failureData: failureData))
        if let failure = keep(undoing: false) {
            onLog("warning: the award's outcome is not on the disk yet, it is kept with the next change: \(failure)")
        }
    }
}

// MARK: What the routes bring about

/// What the handlers of the routes, in the files beside this one, bring about: each held
/// until the change it belongs to is kept.
extension Sandbox {
    /// The time by the sandbox's clock, in milliseconds.
    public var now: Int { clock.now }

    /// Says `line` in the log once the change is kept.
    func say(_ line: String) { effects.append(.log(line)) }

    /// Sends `award` to the award endpoint once the change is kept.
    func send(_ award: GrantAward, purchaseId: String) { effects.append(.award(purchaseId: purchaseId, award)) }

    /// Sends `delivery` again, newly signed when `resign`, once the change is kept.
    func sendAgain(_ delivery: DeliveryHistory.Delivery, resign: Bool) {
        effects.append(.replay(delivery, resign: resign))
    }

    /// Sends the next attempt of `delivery` once the change is kept.
    func retry(_ delivery: DeliveryHistory.Delivery) { effects.append(.retry(delivery)) }
}
