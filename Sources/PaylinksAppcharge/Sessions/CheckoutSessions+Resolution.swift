// A pending payment that resolves later, and what falls due on a clock.

import PaylinksKit

extension CheckoutSessions {
    /// Why a pending payment cannot be resolved.
    public struct ResolveProblem: Error, Sendable {
        /// The rule, in a sentence.
        public var message: String
        /// Whether no session has the purchase id (else its state refuses it).
        public var noSession = false
    }

    /// The `payment_pending` session of `purchaseId`, or why there is none.
    private func pending(_ purchaseId: String) throws(ResolveProblem) -> Session {
        guard let key = purchaseIds[IdentifierKey(purchaseId)], let session = sessions[key] else {
            throw ResolveProblem(message: "no checkout session has the purchase id '\(purchaseId)'", noSession: true)
        }
        guard session.state == .paymentPending else {
            throw ResolveProblem(
                message: "only a payment_pending order resolves; this one is \(session.state.rawValue)")
        }
        return session
    }

    /// The pending payment of `purchaseId` resolves at `now`, after the client had its
    /// 3004: succeeded, it is paid as a payment is (`order.payment.resolved`, then the
    /// award, and `order.completed` once granted), though the client hears nothing more;
    /// failed, it ends as a decline. The order's date becomes the moment it resolved, so
    /// that its award, its payment and the reports place it then.
    ///
    /// - Throws: ``ResolveProblem`` when no session has the id or it is not `payment_pending`.
    public mutating func resolve(purchaseId: String, succeeded: Bool, now: Int) throws(ResolveProblem)
        -> (Session, [Event])
    {
        var session = try pending(purchaseId)
        session.resolution = nil
        session.resolvedLate = true
        session.date = now / 1000
        guard succeeded else {
            session.state = .paymentFailed
            let resolved = event(.paymentFailed, of: &session)
            update(session)
            return (session, [resolved])
        }
        session.state = .chargePending
        let resolved = event(.paymentSucceeded, of: &session)
        update(session)
        return (
            session,
            [
                resolved,
                .paid(
                    purchaseId: session.purchaseId, paymentMethod: session.paymentMethod,
                    award: DueAward(session: session),
                    withoutPricePoint: session.pricePointMetadata == nil, withoutItems: session.items.isEmpty),
            ]
        )
    }

    /// Schedules the pending payment of `purchaseId` to resolve at `resolution.at`, in
    /// place of any resolution scheduled before.
    ///
    /// - Throws: ``ResolveProblem`` when no session has the id or it is not `payment_pending`.
    public mutating func schedule(_ resolution: Resolution, purchaseId: String) throws(ResolveProblem) -> Session {
        var session = try pending(purchaseId)
        session.resolution = resolution
        update(session)
        return session
    }

    /// The first thing due on the clock up to `limit` (Unix milliseconds): an open
    /// session's expiry or a scheduled resolution, the earliest first, and of two at the
    /// same moment the older session's; nil when nothing is due by then. It costs what
    /// the heap of what falls due costs, not a look at every session.
    public mutating func nextDue(through limit: Int) -> Due? {
        let sessions = sessions
        let lifetime = lifetime
        guard
            let entry = dues.first(where: { entry in
                sessions[entry.key].flatMap { Self.dueTime(of: $0, lifetime: lifetime) } == entry.at
            }), entry.at <= limit, let session = sessions[entry.key]
        else { return nil }
        if let resolution = session.resolution, session.state == .paymentPending {
            return .resolution(purchaseId: session.purchaseId, resolution)
        }
        return .expiry(purchaseId: session.purchaseId, at: entry.at)
    }

    /// When `session` falls due: its expiry while open, its resolution while one is
    /// scheduled; nil when nothing of it waits on the clock.
    static func dueTime(of session: Session, lifetime: Int) -> Int? {
        if session.state == .created { return session.created + lifetime }
        return session.state == .paymentPending ? session.resolution?.at : nil
    }

    /// Notes that the session `index`, whose token has `key`, falls due `at` (nil: nothing
    /// of it waits on the clock); the heap is rebuilt from the sessions once it holds more
    /// than twice as many entries as there are sessions.
    mutating func noteDue(at: Int?, index: Int, key: IdentifierKey) {
        if let at { dues.push((at, index, key)) }
        guard dues.count > 2 * sessions.count + 1024 else { return }
        dues.removeAll()
        for (key, session) in sessions {
            if let at = Self.dueTime(of: session, lifetime: lifetime) { dues.push((at, session.index, key)) }
        }
    }
}
