import PaylinksAppcharge
public import PaylinksDelivery
import PaylinksFixtures
public import PaylinksHTTP

/// Where the sandbox's log goes, a line at a time: standard error when it serves, an
/// array in a test.
public protocol SandboxLogSink: AnyObject {
    /// Writes `line`: one line, without its line feed.
    func write(line: String)
    /// Sends on what was written: called after each turn of the server's loop and after
    /// the start.
    func flush()
}

/// The sandbox as a server serves it: the sandbox's answers, the queues that deliver its
/// awards, events and replays to the game's server, what their outcomes change in the
/// orders, the journal it keeps, and the log's words for all of it. What it delivers
/// with, keeps in and logs to is given to it, so that a test serves it in memory.
///
/// The order of calls: ``start(greeting:)`` once, before a server runs it; then
/// ``prepare(_:)``, ``respond(to:)``, ``tick()`` and ``isStopping`` as ``HTTPResponder``
/// says; then ``finish()`` once, after the server has returned.
public final class SandboxService: HTTPResponder, @unchecked Sendable {
    // Guarded by the server's serial lock: `respond(to:)`, `tick()` and `isStopping` are
    // called one at a time under the lock `HTTPServer.run` holds around them, and
    // `start(greeting:)` and `finish()` only before the server runs and after it returns.
    // `prepare(_:)` reads only the sandbox's settings, which do not change while it serves.

    /// Where the deliveries go and how they get there.
    public struct Configuration: Sendable {
        /// The award endpoint; without one an award is granted at once.
        public var awards: DeliveryDestination?
        /// The events endpoint; without one no event is made.
        public var events: DeliveryDestination?
        /// What sends the deliveries: HTTP, or memory in a test.
        public var transport: DeliveryTransport
        /// The game's ledger, which the players' pages read what each holds from
        /// (`--ledger-url`); without one they show the books alone.
        public var ledger: HTTPURL?

        /// Deliveries to `awards` and `events`, each when set, over `transport`.
        public init(
            awards: DeliveryDestination? = nil, events: DeliveryDestination? = nil,
            transport: DeliveryTransport = .http()
        ) {
            self.awards = awards
            self.events = events
            self.transport = transport
        }
    }

    /// The sandbox served: its settings, its sessions, and the callbacks its client receives.
    public let sandbox: Sandbox
    let configuration: Configuration
    let journal: (any SandboxJournal)?
    let log: any SandboxLogSink
    private let stopRequested: () -> Bool
    /// Awards, a pool of threads; events one at a time, so that each order's events
    /// arrive in the order they happened; replays from the control API, on two threads.
    let awards: AwardQueue?
    let events: EventQueue?
    let replays: DeliveryQueue<Replay>?
    /// The ledger the players' pages read, with `--ledger-url`.
    let ledger: SandboxLedger?
    /// Has the server tick soon; nothing until the server attaches.
    private var wake: @Sendable () -> Void = {}
    /// When a wall clock's timers were last looked for.
    private var dueCheckedAt = Int.min / 2
    /// Awards and events that ended and wait to be taken in, oldest first: a tick takes in
    /// what it can within ``takingInMilliseconds`` and has the server answer the requests
    /// waiting before it goes on, so that many outcomes at once (each with records for the
    /// journal) do not hold every request back.
    var endedAwards: [AwardQueue.Ended] = []
    var endedEvents: [EventQueue.Ended] = []
    /// How long one tick takes in ended deliveries before the server answers again.
    static let takingInMilliseconds = 20
    /// Deliveries a move of the clock sent and not taken in yet: the move goes on to its
    /// next timer once there are none, whatever else is out (a payment's award meanwhile).
    var movePending = 0
    /// Whether an outcome of the move's is being taken in: what it sends is the move's too.
    var takingInMove = false
    /// When the delivery whose outcome is being taken in was handed over.
    var takingInEpoch: Int?
    /// Deliveries out, by how many moves had begun when each was handed over: a move goes
    /// on only once those handed over before it began have ended.
    var outByEpoch: [Int: Int] = [:]

    /// Whether the move under way may fire its next timer: nothing it sent is out, nor
    /// anything sent before it began.
    var moveMayGoOn: Bool {
        movePending == 0 && !outByEpoch.contains { $0.key < sandbox.movesStarted && $0.value > 0 }
    }

    /// Counts a delivery handed over now; ``ended(epoch:)`` when it is taken in. What an
    /// outcome brings about is handed over when that delivery was: it happens at its time.
    func handedOver() -> Int {
        let epoch = takingInEpoch ?? sandbox.movesStarted
        outByEpoch[epoch, default: 0] += 1
        return epoch
    }

    /// A delivery handed over when `epoch` moves had begun was taken in.
    func ended(epoch: Int) {
        outByEpoch[epoch, default: 1] -= 1
        if outByEpoch[epoch] == 0 { outByEpoch[epoch] = nil }
    }

    /// Serves `sandbox` (made with the journal's seed, its records restored), delivering
    /// as `configuration` says, keeping its changes in `journal` when there is one, and
    /// saying what happens to `log`; it stops once `stopRequested` says so.
    public init(
        sandbox: Sandbox, configuration: Configuration, journal: (any SandboxJournal)?, log: any SandboxLogSink,
        stopRequested: @escaping () -> Bool = { false }
    ) {
        self.sandbox = sandbox
        self.configuration = configuration
        self.journal = journal
        self.log = log
        self.stopRequested = stopRequested
        let transport = configuration.transport
        awards = configuration.awards.map { AwardQueue(destination: $0, transport: transport) }
        events = configuration.events.map { EventQueue(destination: $0, workers: 1, transport: transport) }
        replays = (configuration.awards?.url ?? configuration.events?.url).map {
            DeliveryQueue<Replay>(url: $0, workers: 2, makeSender: transport.replays)
        }
        ledger = configuration.ledger.map(SandboxLedger.init(url:))
        if let ledger {
            sandbox.readLedger = { player, done in ledger.read(player, done: done) }
        }
        // Every log line quotes what clients and the award endpoint sent: one line each, always.
        sandbox.onLog = { line in log.write(line: MessageText.oneLine(line)) }
        if let journal {
            journal.onWarning = sandbox.onLog
            sandbox.persist = { [unowned sandbox] changed in
                journal.keep(changed, live: { sandbox.journalContents })
            }
            sandbox.readyKept = { changed in journal.ready(changed) }
            sandbox.replaceKept = { contents in journal.replace(with: contents) }
        }
        // On a virtual clock each attempt goes alone, and the clock holds the retry.
        let first: (number: Int, sentAfter: Int)? = sandbox.clock.mode == .virtual ? (1, 0) : nil
        // Each queue hands back what was submitted with its attempts, so the history records
        // every delivery with its own request, however the pool's threads finish.
        if let awards {
            sandbox.onPaid = { [unowned self] purchaseId, award in
                log.write(line: "award \(purchaseId): POST \(awards.destination)")
                awards.submit(scheduled(award, only: first), id: purchaseId)
            }
        }
        if let events {
            sandbox.onOrderEvent = { [unowned self] purchaseId, event in
                log.write(line: "\(Self.named(event, of: purchaseId)): POST \(events.destination)")
                events.submit(scheduled(event, only: first), id: purchaseId)
            }
        }
        sandbox.onRetry = { [unowned self] delivery in retry(delivery) }
        sandbox.deliveriesUnderWay = { [unowned self] in deliveriesPending }
        if let replays {
            sandbox.onReplay = { [unowned self] delivery, resign in
                let key =
                    resign
                    ? (delivery.kind == .award ? configuration.awards?.key : configuration.events?.key) ?? [] : nil
                let id = "replay of \(delivery.id)"
                log.write(
                    line: MessageText.oneLine(
                        "\(id) (\(delivery.name) of \(delivery.purchaseId)): POST \(delivery.url)"))
                var replay = Replay(delivery, resigningWith: key)
                replay.epoch = handedOver()
                replays.submit(replay, id: id)
            }
        }
    }

    /// `item` as its queue is handed it, counted as the move's while a timer of a move
    /// fires or an outcome of the move's is taken in.
    func scheduled<Item: Deliverable>(
        _ item: Item, only: (number: Int, sentAfter: Int)?, continuing: Int? = nil
    ) -> Scheduled<Item> {
        var scheduled = Scheduled(item, only: only, continuing: continuing)
        scheduled.epoch = handedOver()
        if sandbox.isAdvancing && (sandbox.isFiring || takingInMove) {
            scheduled.ofMove = true
            movePending += 1
        }
        return scheduled
    }

    /// Takes in `scheduled`'s outcome with `body`: what it sends is the move's when it was.
    func takeIn<Item>(_ scheduled: Scheduled<Item>, _ body: () -> Void) {
        takingInMove = scheduled.ofMove
        takingInEpoch = scheduled.epoch
        body()
        takingInMove = false
        takingInEpoch = nil
        if scheduled.ofMove { movePending -= 1 }
        ended(epoch: scheduled.epoch)
    }

    /// How the log names an order's event.
    static func named(_ event: OrderEvent, of purchaseId: String) -> String { "event \(event.label) of \(purchaseId)" }

    /// Says what the journal holds, then `greeting`, and sends the awards a stop or a
    /// crash left unsent: their orders are paid and wait for them.
    public func start(greeting: String) {
        if let journal {
            for warning in journal.warnings { log.write(line: warning) }
            let sessions = sandbox.sessionCount
            let deliveries = sandbox.heldDeliveries.count
            log.write(
                line: "sandbox data in \(journal.location): \(sessions) session\(sessions == 1 ? "" : "s") and "
                    + "\(deliveries) deliver\(deliveries == 1 ? "y" : "ies") kept")
            let budget = sandbox.settings.sessionByteBudget
            if sandbox.paidOrderBytes >= budget {
                log.write(
                    line: "warning: the paid orders kept take \((sandbox.paidOrderBytes + (1 << 20) - 1) >> 20) MiB, "
                        + "all of --session-budget \(budget >> 20) MiB: a new session gets 503 until serve starts "
                        + "with a larger --session-budget")
            }
            // Rewritten while the sandbox answers when it held more than is kept: the
            // forgotten and the superseded go.
            if journal.isRewriteDueAtStart(held: sessions + deliveries) {
                journal.startRewrite(sandbox.journalContents)
            }
        }
        log.write(line: greeting)
        sandbox.resumeAwards()
        log.flush()
    }

    /// What can be read of `request` without the sandbox's state.
    public func prepare(_ request: HTTPRequest) -> Sandbox.Arrival {
        sandbox.prepare(request)
    }

    /// The sandbox's answer to `arrival`.
    public func respond(to arrival: Sandbox.Arrival) -> HTTPAnswer {
        sandbox.answer(arrival)
    }

    /// Begins the server's turn of requests: with a journal, their changes are kept
    /// together at its end.
    public func beginBatch() {
        sandbox.beginBatch()
    }

    /// Ends the turn of requests: keeps its changes in one write to the journal, then gives
    /// the answers that waited for it (503 each when it cannot be kept, nothing of the turn
    /// made).
    public func endBatch() {
        sandbox.endBatch()
    }

    /// Takes in the deliveries that ended, goes on with the journal's rewrite, and sends
    /// the log on.
    public func tick() {
        endedAwards += awards?.takeFinished() ?? []
        endedEvents += events?.takeFinished() ?? []
        let deadline = Deadline.nowMilliseconds() + Self.takingInMilliseconds
        let awardsTaken = Self.takeIn(endedAwards, until: deadline) { settleAwards([$0]) }
        endedAwards.removeFirst(awardsTaken)
        // Events once the awards before them are in.
        let eventsTaken = endedAwards.isEmpty ? Self.takeIn(endedEvents, until: deadline) { settleEvents([$0]) } : 0
        endedEvents.removeFirst(eventsTaken)
        if !endedAwards.isEmpty || !endedEvents.isEmpty { wake() }
        settleReplays(replays?.takeFinished() ?? [])
        if sandbox.clock.mode == .virtual {
            // A turn's time spent with timers left: the next turn comes at once.
            if sandbox.stepAdvance(isIdle: { moveMayGoOn }) { wake() }
        } else if sandbox.now - dueCheckedAt >= 1000 || sandbox.now < dueCheckedAt {
            // Expiries and scheduled resolutions, looked for once a second.
            dueCheckedAt = sandbox.now
            sandbox.fireDue()
        }
        journal?.finishRewrite(waiting: false)
        log.flush()
    }

    /// Whether the server should stop. Once it should, the queues are told at once, not
    /// when the server has finished the requests arriving: a payment answered in those
    /// seconds gets no attempt that would keep the stop waiting (its award is said not
    /// sent, and goes at the next start with the same `--data`), and an attempt under way
    /// makes no retry.
    public var isStopping: Bool {
        guard stopRequested() else { return false }
        sandbox.stopAdvance()
        stopQueues()
        return true
    }

    /// Has the server tick as soon as a delivery ends, so that its outcome is taken in, and a
    /// move of the clock goes on, at once.
    public func attach(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
        awards?.onEnded(wake)
        events?.onEnded(wake)
        replays?.onEnded(wake)
    }

    /// Deliveries submitted and not taken in by a ``tick()`` yet.
    public var deliveriesPending: Int {
        (awards?.pending ?? 0) + (events?.pending ?? 0) + (replays?.pending ?? 0) + endedAwards.count
            + endedEvents.count
    }

    /// Takes in `ended` in order, by `settle`, until `deadline` (monotonic milliseconds)
    /// has passed, at least one; how many it took in.
    private static func takeIn<Ended>(_ ended: [Ended], until deadline: Int, _ settle: (Ended) -> Void) -> Int {
        var taken = 0
        while taken < ended.count {
            settle(ended[taken])
            taken += 1
            if Deadline.nowMilliseconds() >= deadline { break }
        }
        return taken
    }
}
