import Foundation
import PaylinksAppcharge
import PaylinksKit
import Testing

/// Appcharge's checkout sessions as values and rules: no server, the time given with each
/// call, what happened returned as events.
@Suite("Checkout sessions")
struct CheckoutSessionsTests {
    static let body = #"""
        {"priceDetails": {"price": 499, "currency": "USD"},
         "offer": {"name": "Starter Pack", "sku": "starter_pack_001", "pricePointMetadata": 499},
         "items": [{"name": "Gems", "sku": "gem_01", "quantity": 100}],
         "customer": {"id": "cust_98765"}, "countryCode2": "US"}
        """#

    func store(limit: Int = 100) -> CheckoutSessions {
        CheckoutSessions(catalog: .builtIn, seed: 1, lifetime: 1_000, limit: limit)
    }

    /// The events that are not an order's events, which tests of those look at apart.
    static func outcomes(_ events: [CheckoutSessions.Event]) -> [CheckoutSessions.Event] {
        events.filter {
            if case .order = $0 { return false }
            return true
        }
    }

    /// The names of an order's events among `events`.
    static func orderEvents(_ events: [CheckoutSessions.Event]) -> [OrderEvent.Name] {
        events.compactMap {
            if case .order(let name, _, _) = $0 { return name }
            return nil
        }
    }

    func create(_ sessions: inout CheckoutSessions, now: Int = 0) throws -> CheckoutSessions.Session {
        try sessions.create(SessionRequest(Array(Self.body.utf8)), now: now).0
    }

    @Test("a payment leaves the session charge_pending with its award due; a grant ends it in onPurchaseSuccess")
    func paid() throws {
        var sessions = store()
        let session = try create(&sessions)
        let (chosen, events) = sessions.choose(.pay, paymentMethod: "", for: session, now: 5_000)
        #expect(chosen.state == .chargePending && chosen.paymentMethod == "Visa" && chosen.date == 5)
        #expect(Self.orderEvents(events) == [.paymentSucceeded])
        guard case .paid(let purchaseId, _, let award, let withoutPricePoint)? = Self.outcomes(events).first else {
            Issue.record("expected the award to be due, got \(events)")
            return
        }
        #expect(purchaseId == session.purchaseId && !withoutPricePoint)
        #expect(String(decoding: award.body, as: UTF8.self).contains(#""pricePointMetadata":499"#))
        let delivered = sessions.awardDelivered(purchaseId: purchaseId, failureData: nil)
        #expect(Self.orderEvents(delivered) == [.completed])
        guard case .ended(let callback)? = Self.outcomes(delivered).first else {
            Issue.record("expected the purchase to end")
            return
        }
        #expect(callback == .onPurchaseSuccess(order: sessions.session(purchaseId: purchaseId, now: 6_000).0!.order))
        #expect(sessions.awardDelivered(purchaseId: purchaseId, failureData: nil).isEmpty, "an award decides once")
    }

    @Test("declined, pending and closed end in 3003, 3004 and 3002; a failed award in 3003 with its data")
    func failures() throws {
        for (choice, code, state) in [
            (CheckoutSessions.Choice.decline, 3003, OrderState.paymentFailed), (.pending, 3004, .paymentPending),
            (.close, 3002, .paymentCanceled),
        ] {
            var sessions = store()
            let session = try create(&sessions)
            let (chosen, events) = sessions.choose(choice, paymentMethod: "Visa", for: session, now: 1)
            #expect(chosen.state == state)
            guard case .ended(let callback)? = Self.outcomes(events).first else {
                Issue.record("expected the purchase to end")
                continue
            }
            #expect(callback.error?.code == code)
        }
        var sessions = store()
        let session = try create(&sessions)
        _ = sessions.choose(.pay, paymentMethod: "Visa", for: session, now: 1)
        guard
            case .ended(let callback)? = sessions.awardDelivered(purchaseId: session.purchaseId, failureData: "{}")
                .first
        else {
            Issue.record("expected the purchase to end")
            return
        }
        #expect(callback.error?.code == 3003 && callback.error?.data == "{}")
        #expect(sessions.session(token: session.token, now: 2).0?.state == .chargeFailed)
    }

    @Test("a session expires unpaid at its lifetime, once; a cancelled one takes no choice")
    func expiryAndCancel() throws {
        var sessions = store()
        let session = try create(&sessions)
        #expect(sessions.session(token: session.token, now: 999).1.isEmpty)
        let (expired, events) = sessions.session(token: session.token, now: 1_000)
        #expect(expired?.state == .paymentCanceled && Self.outcomes(events).count == 1)
        #expect(Self.orderEvents(events) == [.canceled])
        #expect(sessions.session(token: session.token, now: 2_000).1.isEmpty)
        let other = try create(&sessions, now: 2_000)
        #expect(sessions.cancel(token: other.token).0?.state == .paymentCanceled)
        let cancelled = try #require(sessions.session(token: other.token, now: 2_001).0)
        #expect(sessions.choose(.pay, paymentMethod: "Visa", for: cancelled, now: 2_002).1.isEmpty)
        #expect(sessions.cancel(token: "nope").0 == nil)
    }

    @Test("past the limit the oldest sessions are forgotten; identifiers follow the seed and the count")
    func limit() throws {
        var sessions = store(limit: 3)
        let first = try create(&sessions)
        for _ in 0..<5 { _ = try create(&sessions) }
        #expect(sessions.count == 3)
        #expect(sessions.session(token: first.token, now: 0).0 == nil)
        var again = store(limit: 3)
        #expect(try create(&again).purchaseId == first.purchaseId)
    }

    @Test("sessions are held within a byte budget as well as a count: large offers push the oldest out")
    func byteBudget() throws {
        var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, limit: 10_000, byteBudget: 64 << 10)
        let name = String(repeating: "n", count: 8_000)
        let body = Self.body.replacingOccurrences(of: #""name": "Starter Pack""#, with: #""name": "\#(name)""#)
        var first: CheckoutSessions.Session?
        for _ in 0..<100 {
            let session = try sessions.create(SessionRequest(Array(body.utf8)), now: 0).0
            if first == nil { first = session }
        }
        #expect(sessions.bytes <= 64 << 10)
        #expect((6...8).contains(sessions.count), "\(sessions.count) sessions of about 8 KB in 64 KiB")
        #expect(sessions.session(token: try #require(first).token, now: 0).0 == nil)
    }
}
