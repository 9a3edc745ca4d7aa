public import PaylinksKit

/// Appcharge's checkout sessions, as the sandbox keeps them: created from the game's
/// server's request, paid, declined, left pending or closed by the player, cancelled by
/// the game's server, expired by their own clock, and decided by their award.
///
/// Values and rules only: the time comes with each call, and what happened comes back as
/// ``Event``s, in order, for the server to log and to tell the game's client.
///
/// Memory stays bounded however many sessions come and go, and however large each is:
/// past `limit` unpaid sessions or `byteBudget` bytes of what the requests sent, the oldest
/// unpaid sessions are forgotten, and unpaid sessions older than twice their lifetime go
/// as well. A paid order is never forgotten (its refunds and disputes come weeks later):
/// once paid orders fill the budget, ``create(_:now:)`` refuses new sessions.
///
/// Every change is a step that is undone whole when what keeps it fails: ``rollback()``
/// puts back every session a step changed, created or forgot, and ``saved()`` (the step is
/// on the disk) or ``commit()`` (it stays, in memory only) ends it.
public struct CheckoutSessions {
    /// The status codes that word the client's failures.
    public let catalog: Catalog
    /// Seeds the sessions' identifiers.
    public let seed: UInt64
    /// Appcharge's fee and exchange cost, which each session's money is figured with.
    public let rates: OrderMoney.Rates
    /// How long a session takes payments, in milliseconds.
    public let lifetime: Int
    /// Sessions kept at most.
    public let limit: Int
    /// Bytes of sessions kept at most (``Session``'s text, metadata and items): 128 MiB
    /// unless told otherwise, so that 10,000 sessions of 1 MiB each cannot take 10 GB.
    public let byteBudget: Int
    /// Bytes of the sessions held now.
    public private(set) var bytes = 0
    /// Bytes of the orders held now that are never forgotten to make room: paid, or
    /// pending (``Session/isKept``).
    public private(set) var paidBytes = 0
    /// Orders held now that are never forgotten: paid, or pending.
    public private(set) var paidCount = 0
    /// Unpaid sessions forgotten to make room, or for their age, so far.
    public private(set) var forgotten = 0

    /// The sessions by their tokens' keys.
    var sessions: [IdentifierKey: Session] = [:]
    /// The token of each session by its purchase id, as keys.
    var purchaseIds: [IdentifierKey: IdentifierKey] = [:]
    /// The token of each session by its order id, as keys.
    private var orderIds: [IdentifierKey: IdentifierKey] = [:]
    /// What falls due, by session token: expiries and scheduled resolutions.
    var dues = TimerHeap<IdentifierKey>()
    /// The tokens in the order their sessions were created; a forgotten session's token
    /// stays until the list is compacted.
    private var creation: [IdentifierKey] = []
    /// Where the search for a session to forget starts: every token before it is forgotten
    /// or paid (a paid order never becomes unpaid again).
    private var forgetFrom = 0
    private var created = 0
    /// Changes made so far: each session changed takes the count as its revision.
    private var revisions = 0
    /// The tokens of the sessions changed since the last ``saved()``.
    private var changed: Set<IdentifierKey> = []
    /// What the step under way changed: each session as it was before (nil: it did not
    /// exist), and whether it was waiting to be saved already.
    private var undo: [IdentifierKey: (before: Session?, wasChanged: Bool)] = [:]
    /// Whether a change is recorded to be saved or undone (``changedSessions``,
    /// ``rollback()``): a store nothing keeps on a disk is never saved and never undone, so
    /// it records neither, and each change costs it less.
    public var recordsSteps = true
    /// The counters as they were when the step under way began.
    private var stepStart: (created: Int, forgetFrom: Int, creationCount: Int)?

    /// An empty store, whose orders' money is figured with `rates`.
    public init(
        catalog: Catalog, seed: UInt64, lifetime: Int = PaymentLinksSimulator.sessionLifetime, limit: Int,
        byteBudget: Int = 128 << 20, rates: OrderMoney.Rates = .standard
    ) {
        self.catalog = catalog
        self.rates = rates
        self.seed = seed
        self.lifetime = lifetime
        self.limit = limit
        self.byteBudget = byteBudget
    }

    /// Sessions held now.
    public var count: Int { sessions.count }

    /// Why a session cannot be created: the paid orders, which are never forgotten, fill
    /// the byte budget.
    public struct Full: Error, Sendable {
        /// Paid orders held.
        public var paidOrders: Int
        /// The budget they fill, in bytes.
        public var byteBudget: Int
        /// The bytes the paid orders hold.
        public var paidBytes = 0
        /// The bytes the session refused would have taken.
        public var sessionBytes = 0
    }

    /// Creates a session from a request the game's server sent, at `now`: the next
    /// session, or session `index` when given (a command's checkout `--index`).
    ///
    /// - Throws: ``Full`` when paid orders leave no room for it.
    package mutating func create(_ request: SessionRequest, now: Int, index: Int? = nil, warnings: [String] = [])
        throws(Full) -> (Session, [Event])
    {
        var departed: [Session] = []
        return try create(request, now: now, index: index, warnings: warnings, departing: &departed)
    }

    /// Creates a session as ``create(_:now:index:warnings:)`` does, and hands the sessions
    /// it forgets to make room to `departed` rather than freeing them, up to
    /// ``departingBytes`` of them: a server that holds a lock while it creates frees them
    /// after, outside it. The rest are freed at once, so that an answer a client leaves
    /// unread holds little of what the store has forgotten.
    package mutating func create(
        _ request: SessionRequest, now: Int, index: Int? = nil, warnings: [String] = [],
        departing departed: inout [Session]
    ) throws(Full) -> (Session, [Event]) {
        let events: [Event] =
            request.redirectUrl.map { [.redirectUrlGiven(offerSku: request.offerSku, redirectUrl: $0)] } ?? []
        let index = index ?? created
        let identifiers = CheckoutIdentifiers(seed: seed, index: index)
        var session = Session(
            index: index, token: identifiers.sessionToken, purchaseId: identifiers.purchaseId,
            orderId: identifiers.orderId, created: now,
            offerName: request.offerName, offerSku: request.offerSku, items: request.items, price: request.price,
            currency: request.currency, customerId: request.customerId, email: request.email,
            country: request.country, redirectUrl: request.redirectUrl, metadata: request.metadata,
            // A free order's dollar figures are all 0, whatever the offer's price point.
            pricePointMetadata: request.price == 0 ? nil : request.pricePointMetadata, warnings: warnings)
        session.terms = terms(of: session)
        // Refused before anything is forgotten: only unpaid sessions make room, so room can be
        // made unless paid orders alone leave none.
        let size = session.bytes
        guard paidBytes + size <= byteBudget else {
            throw Full(paidOrders: paidCount, byteBudget: byteBudget, paidBytes: paidBytes, sessionBytes: size)
        }
        beginStep()
        makeRoom(now: now, for: size, departing: &departed)
        created = max(created, index + 1)
        add(session)
        return (session, events)
    }

    /// Takes back a session as it was kept (``Session/record``), at `now`: the store goes
    /// on from there, with ids after the latest it holds. A later record of the same
    /// session replaces the earlier. An unpaid session it has no room for, or one too old
    /// to keep, is forgotten as ``create(_:now:)`` forgets; a paid order is always kept.
    /// Nothing restored counts as changed.
    public mutating func restore(_ session: Session, now: Int) {
        var session = session
        session.terms = terms(of: session)
        created = max(created, session.index + 1)
        var departed: [Session] = []
        let key = IdentifierKey(session.token)
        if sessions[key] != nil {
            put(session, for: key)
        } else if makeRoom(now: now, for: session.bytes, departing: &departed) || session.isKept {
            add(session)
        }
        changed.remove(key)
        undo.removeAll(keepingCapacity: true)
        stepStart = nil
        compactCreation()
    }

    /// Takes back how many sessions were created before a restart, the forgotten among
    /// them: the ids of the next session follow all of theirs, never one a forgotten
    /// session had (its checkout URL and cancel token may still be out there).
    public mutating func restore(made: Int) {
        created = max(created, made)
    }

    private mutating func add(_ session: Session) {
        let key = IdentifierKey(session.token)
        put(session, for: key)
        creation.append(key)
    }

    /// The sessions held now, in the order they were created.
    public var all: [Session] { held.all }

    /// The sessions as they are now, to read later or on another thread: taken at once,
    /// however many, and shared by every snapshot taken before the next change.
    public var held: Held { Held(sessions: sessions, creation: creation, made: created) }

    /// The sessions held at one moment.
    public struct Held: Sendable {
        fileprivate let sessions: [IdentifierKey: Session]
        fileprivate let creation: [IdentifierKey]
        /// How many sessions had been created, the forgotten among them.
        public let made: Int
        /// The price points the Price Localization API created, changed or deleted, which a
        /// journal written anew keeps beside the sessions.
        public var pricePoints: [PricePointBook.Record] = []

        /// How many there are.
        public var count: Int { sessions.count }

        /// All of them, in the order they were created.
        public var all: [Session] { sessions.values.sorted { $0.index < $1.index } }

        /// The newest `count` of them, newest first, found without sorting them all.
        public func newest(_ count: Int) -> [Session] {
            var found: [Session] = []
            var seen = Set<IdentifierKey>()
            for key in creation.reversed() where found.count < count {
                guard let session = sessions[key], seen.insert(key).inserted else { continue }
                found.append(session)
            }
            // Tokens come in the order they were added, which a restart may have shuffled a little.
            return found.sorted { $0.index > $1.index }
        }

        /// Those of them `isIncluded` takes, newest first: each is offered once, in one
        /// pass, and only what it took is sorted.
        public func newestFirst(where isIncluded: (Session) -> Bool) -> [Session] {
            var found: [Session] = []
            var seen = Set<IdentifierKey>()
            seen.reserveCapacity(sessions.count)
            for key in creation.reversed() {
                guard let session = sessions[key], seen.insert(key).inserted, isIncluded(session) else { continue }
                found.append(session)
            }
            // As in `newest(_:)`: a restart may have shuffled the tokens' order a little.
            return found.sorted { $0.index > $1.index }
        }
    }

    /// The sessions changed since the last ``saved()``, as they now stand, in the order they
    /// were created: what a durable store writes before the answer that reports the change.
    public var changedSessions: [Session] {
        changed.compactMap { sessions[$0] }.sorted { $0.index < $1.index }
    }

    /// The sessions the step under way changed, as they now stand, in no order: what a
    /// change that waits for the disk readies of itself, without those that waited before.
    public var stepSessions: [Session] {
        undo.keys.compactMap { sessions[$0] }
    }

    /// Whether a step is under way: something changed since the last ``saved()``,
    /// ``commit()`` or ``rollback()``.
    public var isChanging: Bool { stepStart != nil }

    /// Ends the step under way: its changes, and every change before it, are on the disk.
    public mutating func saved() {
        changed.removeAll(keepingCapacity: true)
        endStep()
    }

    /// Ends the step under way with its changes kept in memory only: they are saved with
    /// the next ``changedSessions`` that reach the disk.
    public mutating func commit() {
        endStep()
    }

    /// Undoes the step under way: every session it changed, created or forgot is as it was.
    public mutating func rollback() {
        for (key, entry) in undo {
            put(entry.before, for: key)
            if !entry.wasChanged { changed.remove(key) }
        }
        if let stepStart {
            created = stepStart.created
            forgetFrom = stepStart.forgetFrom
            creation.removeLast(creation.count - stepStart.creationCount)
        }
        undo.removeAll(keepingCapacity: true)
        stepStart = nil
    }

    private mutating func beginStep() {
        if stepStart == nil { stepStart = (created, forgetFrom, creation.count) }
    }

    private mutating func endStep() {
        undo.removeAll(keepingCapacity: true)
        stepStart = nil
        compactCreation()
    }

    /// Drops forgotten sessions' tokens once they outnumber the rest.
    private mutating func compactCreation() {
        guard creation.count > 1024 && creation.count > 2 * sessions.count else { return }
        creation = creation.filter { sessions[$0] != nil }
        forgetFrom = 0
    }

    /// Replaces the session whose token has `key` with `session` (nil: forgets it), noting
    /// what it was for ``rollback()``, and counts its bytes; returns the session it replaced.
    @discardableResult
    private mutating func put(_ session: consuming Session?, for key: IdentifierKey) -> Session? {
        if session != nil && stepStart != nil {
            revisions += 1
            session?.revision = revisions
        }
        // What is needed of the session is read in place, before it moves into the store: a
        // session bound to a name of its own would be copied, each of its strings retained.
        let isKept = session?.isKept
        let size = session?.bytes ?? 0
        let due = session.flatMap { Self.dueTime(of: $0, lifetime: lifetime) }
        let ids = session.map { ($0.purchaseId, $0.orderId, $0.index) }
        // Swapped in place, and moved out when forgotten: one look-up, and no copy of either.
        let before: Session? =
            switch consume session {
            case .some(let session): sessions.updateValue(session, forKey: key)
            case .none: sessions.removeValue(forKey: key)
            }
        if recordsSteps && stepStart != nil && undo[key] == nil { undo[key] = (before, changed.contains(key)) }
        // A session's bytes are its request's, which no change touches: they are counted
        // when it comes and goes, and when it becomes kept.
        let wasKept = before?.isKept
        switch (wasKept, isKept) {
        case (nil, let isKept?):
            bytes += size
            if isKept {
                paidBytes += size
                paidCount += 1
            }
        case (let wasKept?, nil):
            let size = before?.bytes ?? 0
            bytes -= size
            if wasKept {
                paidBytes -= size
                paidCount -= 1
            }
        case (let wasKept?, let isKept?) where wasKept != isKept:
            paidBytes += isKept ? size : -size
            paidCount += isKept ? 1 : -1
        default: break
        }
        if let (purchaseId, orderId, index) = ids {
            if wasKept == nil {
                purchaseIds[IdentifierKey(purchaseId)] = key
                orderIds[IdentifierKey(orderId)] = key
            }
            if recordsSteps { changed.insert(key) }
            noteDue(at: due, index: index, key: key)
        } else if wasKept != nil {
            purchaseIds[IdentifierKey(before?.purchaseId ?? "")] = nil
            orderIds[IdentifierKey(before?.orderId ?? "")] = nil
            if recordsSteps { changed.remove(key) }
        }
        return before
    }

    /// The session of `token` at `now`, which expires it if its time is up unpaid; nil
    /// when there is none.
    public mutating func session(token: String, now: Int) -> (Session?, [Event]) {
        session(key: IdentifierKey(token), now: now)
    }

    /// The session whose token has `key` at `now`, as ``session(token:now:)``.
    private mutating func session(key: IdentifierKey, now: Int) -> (Session?, [Event]) {
        guard var session = sessions[key] else { return (nil, []) }
        guard session.state == .created && now - session.created >= lifetime else { return (session, []) }
        let opened = opening(of: &session)
        session.state = .paymentCanceled
        let canceled = event(.canceled, of: &session)
        update(session)
        return (session, [.expired(purchaseId: session.purchaseId)] + opened + [canceled])
    }

    /// The session of `purchaseId` at `now`, as ``session(token:now:)``.
    public mutating func session(purchaseId: String, now: Int) -> (Session?, [Event]) {
        guard let key = purchaseIds[IdentifierKey(purchaseId)] else { return (nil, []) }
        return session(key: key, now: now)
    }

    /// What another identifier than a purchase id can name a session by.
    public enum OtherIdentifier: Sendable {
        case token
        case orderId
    }

    /// The purchase id of the session `id` names as its token or its order id, and which
    /// of them it is: what a lookup by a purchase id that found nothing was likely given.
    public func purchaseId(otherwiseNamed id: String) -> (purchaseId: String, named: OtherIdentifier)? {
        let key = IdentifierKey(id)
        if let session = sessions[key] { return (session.purchaseId, .token) }
        if let token = orderIds[key], let session = sessions[token] { return (session.purchaseId, .orderId) }
        return nil
    }

    /// The game's server cancels the session of `token`; nil when there is none. A session
    /// the player already ended stays as it is.
    public mutating func cancel(token: String) -> (Session?, [Event]) {
        guard var session = sessions[IdentifierKey(token)] else { return (nil, []) }
        guard session.state == .created else { return (session, []) }
        let opened = opening(of: &session)
        session.state = .paymentCanceled
        let canceled = event(.canceled, of: &session)
        update(session)
        return (session, [.cancelled(purchaseId: session.purchaseId)] + opened + [canceled])
    }

    /// Applies the player's choice to a session still open, at `now`; the session as it
    /// then stands. A payment leaves it `charge_pending` until its award is delivered. The
    /// order comes to be now: `order.created` comes first, then the choice's own event.
    ///
    /// A free order has no payment step: any choice but `close` and `cancel` collects it, with no
    /// payment method and no `order.payment.resolved`, and its award (a bonus) is due at once.
    /// `device` is the one the player chose on, when known.
    package mutating func choose(
        _ choice: Choice, paymentMethod: String, for session: Session, now: Int, device: OrderDevice? = nil
    ) -> (Session, [Event]) {
        var session = session
        guard session.state == .created else { return (session, []) }
        session.device = device ?? session.device
        let choice: Choice = session.isFree && !choice.leaves ? .pay : choice
        // A player who closes the checkout, cancels, or collects a free order, paid with nothing.
        session.paymentMethod =
            choice.leaves || session.isFree
            ? "" : paymentMethod.isEmpty ? PlayerAction.defaultPaymentMethod : paymentMethod
        session.date = now / 1000
        let opened = opening(of: &session)
        switch choice {
        case .pay:
            session.state = .chargePending
            let resolved = session.isFree ? [] : [event(.paymentSucceeded, of: &session)]
            update(session)
            return (
                session,
                opened + resolved + [
                    .paid(
                        purchaseId: session.purchaseId, paymentMethod: session.paymentMethod,
                        award: DueAward(session: session),
                        withoutPricePoint: session.pricePointMetadata == nil && !session.isFree,
                        withoutItems: session.items.isEmpty)
                ]
            )
        case .decline:
            session.state = .paymentFailed
            let resolved = event(.paymentFailed, of: &session)
            return (session, opened + [resolved, end(session, code: 3003)])
        case .pending:
            session.state = .paymentPending
            return (session, opened + [end(session, code: 3004)])
        case .close, .cancel:
            session.state = .paymentCanceled
            session.canceledByPlayer = choice == .cancel
            let canceled = event(.canceled, of: &session)
            return (session, opened + [canceled, end(session, code: 3002)])
        }
    }

    /// How a paid session's award went: granted when `failureData` is nil, failed on every
    /// attempt otherwise (the `error.data` of the client's 3003). Granted, the client's
    /// result comes before `order.completed`. Nothing for a session that is not waiting for
    /// its award.
    public mutating func awardDelivered(purchaseId: String, failureData: String?) -> [Event] {
        guard let key = purchaseIds[IdentifierKey(purchaseId)], var session = sessions[key] else { return [] }
        if session.retryingAward {
            // Retry Award: the client heard of the failure long ago; only the order changes.
            session.retryingAward = false
            guard failureData == nil, session.state == .chargeFailed else {
                update(session)
                return []
            }
            session.state = .chargeSucceed
            session.life = OrderLife(state: .chargeSucceed, price: session.price)
            let completed = event(.completed, of: &session)
            update(session)
            return [completed]
        }
        guard session.state == .chargePending else { return [] }
        if let failureData {
            session.state = .chargeFailed
            session.life = OrderLife(state: .chargeFailed, price: session.price)
            guard !session.resolvedLate else {
                // The client had its 3004 long ago: only the order changes.
                update(session)
                return []
            }
            return [end(session, code: 3003, data: failureData)]
        }
        session.state = .chargeSucceed
        session.life = OrderLife(state: .chargeSucceed, price: session.price)
        let completed = event(.completed, of: &session)
        update(session)
        guard !session.resolvedLate else { return [completed] }
        // The client hears of its purchase before Appcharge tells the game's server it is complete.
        return [.ended(.onPurchaseSuccess(order: session.order)), completed]
    }

    /// Why an award cannot be sent again.
    public struct RetryProblem: Error, Sendable {
        /// The rule, in a sentence.
        public var message: String
    }

    /// Retry Award, as Appcharge's dashboard offers it for a Failed (Charged) order: its
    /// award again, `"awardFlow": "manual_retry"`; ``awardDelivered(purchaseId:failureData:)``
    /// says how it went, and granted, the order is Succeeded.
    public mutating func retryAward(purchaseId: String) throws(RetryProblem) -> GrantAward {
        guard let key = purchaseIds[IdentifierKey(purchaseId)], var session = sessions[key] else {
            throw RetryProblem(message: "no checkout session has the purchase id '\(purchaseId)'")
        }
        if let problem = Self.retryProblem(session) { throw problem }
        session.retryingAward = true
        update(session)
        return session.award(flow: "manual_retry")
    }

    /// Why Retry Award refuses `session` now, or nil when its award may be sent again: only
    /// a charge_failed order's, and not while a retry of it waits for its answer.
    public static func retryProblem(_ session: Session) -> RetryProblem? {
        guard session.state == .chargeFailed else {
            return RetryProblem(
                message: "Retry Award is for a charge_failed order (Failed (Charged)); this one is "
                    + session.state.rawValue)
        }
        guard !session.retryingAward else {
            return RetryProblem(
                message: "the award of \(session.purchaseId) is being retried already; wait for its answer")
        }
        return nil
    }

    /// Why an action on an order's life could not be taken.
    public enum LifeProblem: Error, Equatable, Sendable {
        /// No session has the order.
        case noOrder
        /// Appcharge's rules refuse it.
        case refused(OrderLife.Refusal)
    }

    /// Takes `action` on the order of the session `purchaseId` (or, with `byOrderId`, the
    /// order whose id that is), by ``OrderLife``'s rules.
    public mutating func act(_ action: OrderLife.Action, on id: String, byOrderId: Bool = false, now: Int = 0)
        throws(LifeProblem) -> (Session, [Event])
    {
        guard let key = byOrderId ? orderIds[IdentifierKey(id)] : purchaseIds[IdentifierKey(id)],
            var session = sessions[key],
            session.hasOrder || !byOrderId
        else {
            throw .noOrder
        }
        // An order not paid yet, or still waiting for its award, has no life to act on.
        var life = session.life ?? OrderLife(state: session.state, price: session.price)
        let transition: OrderLife.Transition
        do {
            transition = try life.apply(action)
        } catch {
            throw .refused(error)
        }
        session.life = life
        session.lifeTimes.append(now)
        session.state = life.state
        let events = transition.event.map { [event($0, of: &session)] } ?? []
        update(session)
        return (session, events)
    }

    /// Forgets the session of `purchaseId`, paid or not: for a store that follows only the
    /// orders it still acts on.
    package mutating func forget(purchaseId: String) {
        guard let key = purchaseIds[IdentifierKey(purchaseId)] else { return }
        beginStep()
        put(nil, for: key)
        compactCreation()
    }

    /// Keeps `session` as it now stands, and notes the change.
    mutating func update(_ session: Session) {
        beginStep()
        put(session, for: IdentifierKey(session.token))
    }

    /// `order.created`, the first event of `session`'s order, made when the order comes to
    /// be: the player's choice, or the session's end without one. None for a session whose
    /// order has had events already (one kept by a sandbox that sent it at the session's
    /// creation).
    private func opening(of session: inout Session) -> [Event] {
        session.eventCount == 0 ? [event(.created, of: &session)] : []
    }

    /// The event `name` of `session`'s order, counted on it.
    func event(_ name: OrderEvent.Name, of session: inout Session) -> Event {
        defer { session.eventCount += 1 }
        return .order(name, session: session, sequence: session.eventCount)
    }

    /// Stores the session's last state and words what the client receives for `code`.
    private mutating func end(_ session: Session, code: Int, data: String? = nil) -> Event {
        update(session)
        let status = catalog.statusCode(code)
        var error = catalog.error(
            code,
            details: [
                "orderId": session.orderId, "purchaseId": session.purchaseId, "lastState": session.state.rawValue,
            ])
        if let data { error.data = data }
        let order = StatusCode.disclosed(session.order, by: status?.orderAtFailure ?? .checkout)
        return .ended(StatusCode.purchaseResult(status, error: error, order: order))
    }

    /// The most bytes of forgotten sessions (``Session/bytes``) one creation hands over to
    /// be freed later: one session of a typical size, or a few.
    package static let departingBytes = 16 << 10

    /// Forgets the oldest unpaid sessions past the limits, with room for one of `incoming`
    /// bytes, and unpaid sessions older than twice their lifetime, handing them to
    /// `departed` up to ``departingBytes``; false when paid orders alone leave no room.
    @discardableResult
    private mutating func makeRoom(now: Int, for incoming: Int, departing departed: inout [Session]) -> Bool {
        var handed = 0
        while forgetFrom < creation.count {
            let key = creation[forgetFrom]
            // Found once, and only the state and the time read, in place: a read through the
            // values' getter would copy the whole session. A session is moved out only when it goes.
            guard let found = sessions.index(forKey: key),
                case let (isKept, created) = Self.peek(&sessions.values[found], { ($0.isKept, $0.created) }),
                !isKept
            else {
                forgetFrom += 1
                continue
            }
            guard
                sessions.count - paidCount >= limit || bytes + incoming > byteBudget
                    || now - created >= 2 * lifetime
            else { break }
            // Moved from the store to `departed`, not copied.
            switch put(nil, for: key) {
            case .some(let gone):
                let size = gone.bytes
                guard handed + size <= Self.departingBytes else { break }
                handed += size
                departed.append(consume gone)
            case .none: break
            }
            forgotten += 1
            forgetFrom += 1
        }
        return bytes + incoming <= byteBudget
    }

    /// What `read` takes of `session`, read where it is held: a session reached through a
    /// mutable access (`&sessions.values[index]`) is lent, where a read through a getter
    /// copies it whole, each of its strings retained and then released.
    private static func peek<Value>(_ session: inout Session, _ read: (borrowing Session) -> Value) -> Value {
        read(session)
    }

    /// The terms of `session`'s money: its country's and currency's in the catalog, with
    /// the store's rates. Figured again on a restart, from the catalog served then.
    func terms(of session: Session) -> OrderMoney.Terms {
        OrderMoney.Terms(catalog: catalog, country: session.country, currency: session.currency, rates: rates)
    }
}
