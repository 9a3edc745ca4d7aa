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
        guard let token = purchaseIds[purchaseId], let session = sessions[token] else {
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
                    purchaseId: session.purchaseId, paymentMethod: session.paymentMethod, award: session.award,
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
    /// same moment the older session's; nil when nothing is due by then.
    public func nextDue(through limit: Int) -> Due? {
        var found: (due: Due, index: Int)?
        for session in sessions.values {
            let due: Due
            if session.state == .created {
                due = .expiry(purchaseId: session.purchaseId, at: session.created + lifetime)
            } else if let resolution = session.resolution {
                due = .resolution(purchaseId: session.purchaseId, resolution)
            } else {
                continue
            }
            guard due.at <= limit else { continue }
            if let best = found, (best.due.at, best.index) <= (due.at, session.index) { continue }
            found = (due, session.index)
        }
        return found?.due
    }
}
