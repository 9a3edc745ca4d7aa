public import PaylinksKit

/// Appcharge's server behind the simulated SDK, as the command line runs it: the sandbox's
/// own sessions and rules (``CheckoutSessions``), on the command's virtual clock.
///
/// Every checkout goes through it, so the award and the events the game's server
/// receives and the callbacks its client receives come from one order's life:
/// - the player's choice makes the order (`order.created`) and resolves its payment
///   (`order.payment.resolved`), or cancels it;
/// - a payment sends the award at once, through ``awards``; the order is `charge_pending`
///   until the verdict's last event has passed, then `charge_succeed` or `charge_failed`;
/// - the SDK's polls read the order as it stands at each poll;
/// - `order.completed` goes out once the client has had its chance to read the order paid:
///   at ``settle(at:)``, which the command calls when the checkout's callbacks are out;
/// - refunds and disputes act on the last order paid (``act(_:at:)``);
/// - a payment left pending (3004) resolves later, now (``resolvePending(succeeded:at:)``)
///   or when the clock passes the moment it was scheduled for (``schedulePending(_:)``,
///   ``fireDue(from:through:)``): paid, its award is sent and `order.completed` follows at
///   once, for the client heard all it will hear long ago.
///
/// Only the last order paid, the last left pending, those scheduled to resolve and the
/// checkout under way are kept, so memory stays flat however many checkouts run.
@MainActor
public final class AppchargeBackend: CheckoutBackend {
    /// Something the game's server hears of: an event of an order, and when it happened.
    public struct Happening: Sendable {
        /// The event.
        public var name: OrderEvent.Name
        /// The order's session as it stood then.
        public var session: CheckoutSessions.Session
        /// Which event of its order it is, from 0.
        public var sequence: Int
        /// When, in Unix milliseconds.
        public var milliseconds: Int
    }

    /// Sends the award of a paid order, made at the given Unix milliseconds, with a fault on
    /// its way or none, and says how it went; nil grants every award at once, or fails it as
    /// its fault says.
    public var awards: ((GrantAward, Int, AwardFault?) -> AwardVerdict)?
    /// The fault on the way of the awards sent from now on (a scenario step's `awardFault`);
    /// nil for none.
    public var awardFault: AwardFault?
    /// Hears of each event, in the order the orders lived them.
    public var onHappening: ((Happening) -> Void)?
    /// The device the player checks out on (`--device`, a scenario's `device`); the seed
    /// gives each order one when nil.
    package var device: OrderDevice?

    /// The sessions and their orders.
    public private(set) var sessions: CheckoutSessions
    /// The purchase id of the last order paid: refunds and disputes act on it.
    public private(set) var lastPaid: String?
    /// The state of the order acted on last: after its checkout, or after its latest action.
    public private(set) var lastState: OrderState?
    /// Why the last award sent failed on every attempt, as the client's `error.data` says
    /// it (JSON); nil when it was granted.
    public private(set) var lastAwardFailure: String?
    /// The purchase id of the last order left pending (3004): a resolution acts on it.
    public private(set) var lastPending: String?

    /// The life after the award of the last order paid.
    public var lastPaidLife: OrderLife? { lastPaidSession?.life }

    /// The session of the last order paid, as it stands.
    public var lastPaidSession: CheckoutSessions.Session? {
        lastPaid.flatMap { sessions.session(purchaseId: $0, now: 0).0 }
    }

    /// The checkout under way: its purchase id, opened or not, and each state its order
    /// took, from when; with the award's failure data once every attempt failed.
    private var current:
        (session: CheckoutSession, opened: Bool, states: [(from: Int, state: OrderState)], failure: String?)?
    /// Events that wait for ``settle(at:)``.
    private var held: [(name: OrderEvent.Name, session: CheckoutSessions.Session, sequence: Int)] = []

    /// A backend whose sessions' identifiers come from `seed`, whose statuses are worded
    /// by `catalog`, and whose orders' money is figured with `rates`.
    public init(catalog: Catalog, seed: UInt64, rates: OrderMoney.Rates = .standard) {
        // Unpaid sessions beyond the checkout under way are never read again.
        sessions = CheckoutSessions(catalog: catalog, seed: seed, limit: 4, byteBudget: .max, rates: rates)
        // Nothing saves this store or undoes its steps: it records neither.
        sessions.recordsSteps = false
    }

    /// Creates the session of `sale` in the store, under its checkout's identifiers; the
    /// sessions before it are forgotten, but the last order paid, the last left pending and
    /// those scheduled to resolve.
    public func createSession(_ sale: CheckoutSale, at milliseconds: Int) -> CheckoutSession {
        forgetAllButFollowed()
        let session = CheckoutSession(sale, identifiers: CheckoutIdentifiers(seed: sessions.seed, index: sale.index))
        // The store has no byte budget here, and holds one paid order: it is never full.
        // Were it ever, the session would exist for the game's server only, and the SDK
        // would find no session to open (3005), rather than the command stopping.
        do {
            _ = try sessions.create(SessionRequest(sale), now: milliseconds, index: sale.index)
        } catch {
            current = nil
            return session
        }
        sessions.commit()
        current = (session, false, [], nil)
        return session
    }

    /// The session of the checkout under way, the first time it opens.
    public func openSession(purchaseId: String, at milliseconds: Int) -> CheckoutSession? {
        guard let current, current.session.purchaseId == purchaseId, !current.opened,
            sessions.session(purchaseId: purchaseId, now: milliseconds).0 != nil
        else { return nil }
        self.current?.opened = true
        return current.session
    }

    /// Applies the player's choice to the session, as the sandbox's checkout page does: its
    /// events go out, a payment's award is sent, and its verdict decides the order.
    public func player(_ action: PlayerAction, in checkout: CheckoutSession, at milliseconds: Int) -> [BackendNote] {
        let (found, expiry) = sessions.session(purchaseId: checkout.purchaseId, now: milliseconds)
        guard let session = found else { return [] }
        happen(expiry, at: milliseconds)
        let choice: CheckoutSessions.Choice
        var method = ""
        switch action {
        case .closeBeforeOrder, .leaveOpen:
            // No order: the session stays as it is, or expired above.
            return []
        case .closeCheckout: choice = .close
        case .pay(let paymentMethod, let outcome):
            method = paymentMethod
            switch outcome {
            case .succeeded: choice = .pay
            case .declined: choice = .decline
            case .pending: choice = .pending
            }
        }
        let (chosen, events) = sessions.choose(
            choice, paymentMethod: method, for: session, now: milliseconds, device: device)
        sessions.commit()
        current?.states.append((milliseconds, chosen.state))
        let notes = happen(events, at: milliseconds)
        if chosen.state == .paymentPending {
            // No event says so: the order's last event is its creation.
            lastPending = chosen.purchaseId
            lastState = chosen.state
        }
        return notes
    }

    /// The order of the checkout under way as it stood at `milliseconds`.
    public func poll(_ checkout: CheckoutSession, at milliseconds: Int) -> PolledOrder {
        guard let current, current.session.purchaseId == checkout.purchaseId,
            let now = current.states.last(where: { $0.from <= milliseconds })
        else { return PolledOrder(state: nil) }
        return PolledOrder(state: now.state, awardFailure: now.state == .chargeFailed ? current.failure : nil)
    }

    /// Sends what waited for the client to have its result: `order.completed`, at
    /// `milliseconds`.
    public func settle(at milliseconds: Int) {
        let waiting = held
        held = []
        for (name, session, sequence) in waiting {
            onHappening?(Happening(name: name, session: session, sequence: sequence, milliseconds: milliseconds))
        }
    }

    /// Takes `action` on the last order paid, at `milliseconds`, and sends its event if
    /// Appcharge sends one.
    @discardableResult
    public func act(_ action: OrderLife.Action, at milliseconds: Int) throws(CheckoutSessions.LifeProblem)
        -> OrderLife.Transition
    {
        guard let lastPaid else { throw .noOrder }
        let (session, events) = try sessions.act(action, on: lastPaid, now: milliseconds)
        sessions.commit()
        lastState = session.state
        happen(events, at: milliseconds)
        guard let transition = session.life?.transitions.last else { throw .noOrder }
        return transition
    }

    /// Retry Award on the last order paid, at `milliseconds`, as Appcharge's dashboard offers
    /// it for a Failed (Charged) order: its award again, `manual_retry`; granted, the order
    /// is Succeeded and `order.completed` goes out.
    ///
    /// - Throws: ``CheckoutSessions/RetryProblem`` when no order was paid, or the last one's
    ///   award did not fail.
    public func retryAward(at milliseconds: Int) throws(CheckoutSessions.RetryProblem) {
        guard let lastPaid else { throw CheckoutSessions.RetryProblem(message: "no order was paid yet") }
        let award = try sessions.retryAward(purchaseId: lastPaid)
        sessions.commit()
        _ = deliver(award, of: lastPaid, at: milliseconds)
        // No client waits for this order's result: its completion goes out at once.
        settle(at: milliseconds)
    }

    /// The last order left pending resolves at `milliseconds`: succeeded, it is paid (its
    /// award sent, and `order.completed` once granted); failed, it ends `payment_failed`.
    ///
    /// - Throws: ``CheckoutSessions/ResolveProblem`` when no order was left pending, or the
    ///   last one is pending no more.
    public func resolvePending(succeeded: Bool, at milliseconds: Int) throws(CheckoutSessions.ResolveProblem) {
        try resolve(try pendingPurchaseId(), succeeded: succeeded, at: milliseconds)
    }

    /// The last order left pending is to resolve at `resolution.at`, when
    /// ``fireDue(from:through:)`` passes it.
    ///
    /// - Throws: ``CheckoutSessions/ResolveProblem``, as ``resolvePending(succeeded:at:)``.
    public func schedulePending(_ resolution: CheckoutSessions.Resolution) throws(CheckoutSessions.ResolveProblem) {
        let session = try sessions.schedule(resolution, purchaseId: try pendingPurchaseId())
        sessions.commit()
        lastState = session.state
    }

    /// Makes happen, in time order, what falls due on the clock up to `limit` (Unix
    /// milliseconds): sessions expire unpaid and scheduled resolutions resolve, each at its
    /// moment, or at `start` for one whose moment had passed before; `each` hears of each,
    /// and when, before its events go out. What happened, in order.
    @discardableResult
    public func fireDue(
        from start: Int, through limit: Int, each: (CheckoutSessions.Due, Int) -> Void = { _, _ in }
    ) -> [CheckoutSessions.Due] {
        var fired: [CheckoutSessions.Due] = []
        while let due = sessions.nextDue(through: limit) {
            let at = max(due.at, start)
            each(due, at)
            switch due {
            case .expiry(let purchaseId, _):
                let (_, events) = sessions.session(purchaseId: purchaseId, now: at)
                sessions.commit()
                happen(events, at: at)
            case .resolution(let purchaseId, let resolution):
                // Only a pending payment is scheduled, and it stays pending until it resolves.
                guard (try? resolve(purchaseId, succeeded: resolution.succeeded, at: at)) != nil else { return fired }
            }
            fired.append(due)
        }
        return fired
    }

    /// The purchase id of the last order left pending, or why there is none.
    private func pendingPurchaseId() throws(CheckoutSessions.ResolveProblem) -> String {
        guard let lastPending else {
            throw CheckoutSessions.ResolveProblem(
                message: "no order was left pending (3004) yet", noSession: true)
        }
        return lastPending
    }

    /// The pending payment of `purchaseId` resolves at `milliseconds`, and its events go out.
    private func resolve(_ purchaseId: String, succeeded: Bool, at milliseconds: Int)
        throws(CheckoutSessions.ResolveProblem)
    {
        let (session, events) = try sessions.resolve(purchaseId: purchaseId, succeeded: succeeded, now: milliseconds)
        sessions.commit()
        lastState = session.state
        happen(events, at: milliseconds)
    }

    /// Passes on what the store said happened at `milliseconds`: each order event, in
    /// order (`order.completed` held until ``settle(at:)``); the award of a payment, sent
    /// at once, and what its verdict makes happen when it comes.
    @discardableResult
    private func happen(_ events: [CheckoutSessions.Event], at milliseconds: Int) -> [BackendNote] {
        var notes: [BackendNote] = []
        for event in events {
            switch event {
            case .order(let name, let session, let sequence):
                lastState = session.state
                // A payment resolved late completes at once: its client heard its 3004 long ago.
                if name == .completed && !session.resolvedLate {
                    held.append((name, session, sequence))
                } else {
                    onHappening?(
                        Happening(name: name, session: session, sequence: sequence, milliseconds: milliseconds))
                }
            case .paid(let purchaseId, _, let award, _, _):
                lastPaid = purchaseId
                notes += deliver(award.award, of: purchaseId, at: milliseconds)
            case .ended, .expired, .cancelled, .redirectUrlGiven:
                continue
            }
        }
        return notes
    }

    /// Sends the award of `purchaseId` at `milliseconds`; the order takes its verdict when
    /// the verdict's last event has passed.
    private func deliver(_ award: @autoclosure () -> GrantAward, of purchaseId: String, at milliseconds: Int)
        -> [BackendNote]
    {
        // Without a game's server to send it to, every award is granted at once, unless its
        // fault loses every attempt.
        var (notes, at, failure): ([BackendNote], Int, String?) = ([], milliseconds, nil)
        // The award is written only for a game's server that receives it.
        if let verdict = awards?(award(), milliseconds, awardFault) ?? awardFault.map(AwardDelivery.unsent) {
            (notes, at) = verdict.notes(sentAt: milliseconds)
            failure = verdict.failureData
        }
        lastAwardFailure = failure
        let events = sessions.awardDelivered(purchaseId: purchaseId, failureData: failure)
        sessions.commit()
        if let settled = sessions.session(purchaseId: purchaseId, now: at).0 {
            lastState = settled.state
            if purchaseId == current?.session.purchaseId {
                current?.states.append((at, settled.state))
                current?.failure = failure
            }
        }
        happen(events, at: at)
        return notes
    }

    /// Forgets every session but the last order paid, the last left pending and those
    /// scheduled to resolve: a command follows one checkout at a time.
    private func forgetAllButFollowed() {
        for session in sessions.all
        where session.purchaseId != lastPaid && session.purchaseId != lastPending && session.resolution == nil {
            sessions.forget(purchaseId: session.purchaseId)
        }
        sessions.commit()
    }
}

extension SessionRequest {
    /// What the game's server asks for when it sells `sale`.
    init(_ sale: CheckoutSale) {
        price = sale.price
        currency = sale.currency
        offerName = sale.offer.name
        offerSku = sale.offer.sku
        pricePointMetadata = GrantAward.cents(sale.offer.basePriceInUSD)
        items = sale.offer.items
        customerId = sale.customerId
        email = nil
        firstSeenAt = nil
        country = sale.country
        metadata = nil
        redirectUrl = nil
    }
}
