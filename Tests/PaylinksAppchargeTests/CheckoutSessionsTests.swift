import Foundation
import PaylinksJSON
import PaylinksKit
import Testing

@testable import PaylinksAppcharge

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
        #expect(Self.orderEvents(events) == [.created, .paymentSucceeded])
        guard case .paid(let purchaseId, _, let award, let withoutPricePoint, _)? = Self.outcomes(events).first else {
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

    @Test("a session kept when order.created was sent at its creation does not send it again at the choice")
    func createdSentBefore() throws {
        var sessions = store()
        var kept = try create(&sessions)
        kept.eventCount = 1
        var restored = store()
        restored.restore(kept, now: 0)
        let (_, events) = restored.choose(.pay, paymentMethod: "", for: kept, now: 5)
        let sequences = events.compactMap { event -> Int? in
            if case .order(_, _, let sequence) = event { return sequence }
            return nil
        }
        #expect(Self.orderEvents(events) == [.paymentSucceeded] && sequences == [1])
    }

    @Test("a session's token is the simulator's for the same seed and index, 32 letters and digits")
    func token() throws {
        var sessions = store()
        let first = try create(&sessions)
        let second = try create(&sessions)
        #expect(first.token == CheckoutIdentifiers(seed: 1, index: 0).sessionToken)
        #expect(second.token == CheckoutIdentifiers(seed: 1, index: 1).sessionToken)
        #expect(first.token.count == 32 && first.token != second.token)
    }

    @Test("identifiers that differ in a byte, a trailing NUL or their length past 32 bytes are different keys")
    func identifierKeys() {
        let token = CheckoutIdentifiers(seed: 1, index: 0).sessionToken
        let long = String(repeating: "x", count: 40)
        let texts = [
            "", "\u{0}", "a", "a\u{0}", token, String(token.dropLast()), String(token.dropLast()) + "\u{0}",
            token + "a", long, long + "y", String(repeating: "x", count: 32), String(repeating: "x", count: 33),
            "pr_" + String(repeating: "é", count: 16), "1234567890",
        ]
        for (index, text) in texts.enumerated() {
            #expect(IdentifierKey(text) == IdentifierKey(String(decoding: Array(text.utf8), as: UTF8.self)))
            #expect(IdentifierKey(text).hashValue == IdentifierKey(text + "").hashValue)
            for other in texts[(index + 1)...] {
                #expect(IdentifierKey(text) != IdentifierKey(other), "\(text) \(other)")
            }
        }
    }

    @Test(
        "a kept session whose identifiers are longer than any the sandbox makes is found by each of them, and forgotten"
    )
    func longIdentifiers() throws {
        var made = store()
        var kept = try create(&made)
        kept.token = String(repeating: "t", count: 80)
        kept.purchaseId = "pr_" + String(repeating: "p", count: 61)
        kept.orderId = String(repeating: "9", count: 33)
        var sessions = store()
        sessions.restore(try CheckoutSessions.Session(record: try JSONParser.parse(kept.record)), now: 0)
        #expect(sessions.session(token: kept.token, now: 1).0?.orderId == kept.orderId)
        #expect(sessions.session(token: String(repeating: "t", count: 79), now: 1).0 == nil)
        #expect(sessions.session(purchaseId: kept.purchaseId, now: 1).0?.token == kept.token)
        let paid = sessions.choose(.pay, paymentMethod: "", for: kept, now: 2).0
        #expect(sessions.session(token: kept.token, now: 3).0?.state == paid.state)
        sessions.forget(purchaseId: kept.purchaseId)
        #expect(sessions.session(token: kept.token, now: 4).0 == nil && sessions.count == 0)
    }

    @Test("a kept session with an older sandbox's hex token reads back and is found, chosen and cancelled by it")
    func oldToken() throws {
        let old = "3ca9f9b79a8f7a314612ec853f586024"
        var made = store()
        var kept = try create(&made)
        kept.token = old
        var other = try create(&made)
        other.token = "8c79a7e1213bcbc6834c5857b85fe475"
        var sessions = store()
        for session in [kept, other] {
            sessions.restore(try CheckoutSessions.Session(record: try JSONParser.parse(session.record)), now: 0)
        }
        let found = try #require(sessions.session(token: old, now: 1).0)
        #expect(found.purchaseId == kept.purchaseId)
        #expect(sessions.choose(.pay, paymentMethod: "", for: found, now: 2).0.state == .chargePending)
        #expect(sessions.cancel(token: other.token).0?.state == .paymentCanceled)
        // The next session takes the next index's token.
        #expect(try create(&sessions).token == CheckoutIdentifiers(seed: 1, index: 2).sessionToken)
    }

    @Test("a catalog without a code words its failure \"Status code N.\" in the sandbox and the simulator alike")
    @MainActor
    func unlistedCode() throws {
        var catalog = Catalog.builtIn
        catalog.statusCodes = []
        var sessions = CheckoutSessions(catalog: catalog, seed: 1, lifetime: 1_000, limit: 100)
        var said: [String] = []
        for choice in [CheckoutSessions.Choice.decline, .pending] {
            let session = try create(&sessions)
            for case .ended(let callback) in sessions.choose(choice, paymentMethod: "", for: session, now: 5).1 {
                said.append("\(callback.error?.code ?? 0) \(callback.error?.message ?? "")")
            }
        }
        let paid = sessions.choose(.pay, paymentMethod: "", for: try create(&sessions), now: 5).0
        for case .ended(let callback) in sessions.awardDelivered(purchaseId: paid.purchaseId, failureData: "{}") {
            said.append("\(callback.error?.code ?? 0) \(callback.error?.message ?? "") \(callback.error?.data ?? "")")
        }
        let simulator = PaymentLinksSimulator(catalog: catalog)
        let delegate = RecordingDelegate()
        simulator.initialize(
            configModel: ACConfigModel(checkoutPublicKey: "pk_sandbox_demo", environment: "sandbox"), customerId: "",
            delegate: delegate)
        let failure = simulator.awardFailure(of: paid.order, data: "{}")
        said.append("\(failure.error?.code ?? 0) \(failure.error?.message ?? "") \(failure.error?.data ?? "")")
        said += delegate.callbacks.compactMap(\.error).map { "\($0.code) \($0.message)" }
        #expect(
            said == [
                "3003 Status code 3003.", "3004 Status code 3004.", "3003 Status code 3003. {}",
                "3003 Status code 3003. {}", "2003 Status code 2003.",
            ])
    }

    @Test("a session expires unpaid at its lifetime, once; a cancelled one takes no choice")
    func expiryAndCancel() throws {
        var sessions = store()
        let session = try create(&sessions)
        #expect(sessions.session(token: session.token, now: 999).1.isEmpty)
        let (expired, events) = sessions.session(token: session.token, now: 1_000)
        #expect(expired?.state == .paymentCanceled && Self.outcomes(events).count == 1)
        #expect(Self.orderEvents(events) == [.created, .canceled])
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

    @Test("a session created past the limit hands over the sessions it forgot, oldest first, for its caller to free")
    func departing() throws {
        var sessions = store(limit: 3)
        var made: [CheckoutSessions.Session] = []
        var handed: [[String]] = []
        for _ in 0..<5 {
            var departed: [CheckoutSessions.Session] = []
            let body = try SessionRequest(Array(Self.body.utf8))
            made.append(try sessions.create(body, now: 0, departing: &departed).0)
            handed.append(departed.map(\.purchaseId))
        }
        #expect(handed == [[], [], [], [made[0].purchaseId], [made[1].purchaseId]])
        #expect(sessions.count == 3)
        #expect(sessions.session(token: made[1].token, now: 0).0 == nil)
        #expect(sessions.session(token: made[2].token, now: 0).0?.purchaseId == made[2].purchaseId)

        // Many forgotten at once (their time is up): only the first few bytes' worth are
        // handed over, and every one of them is gone from the store.
        var many = store(limit: 1_000)
        var old: [CheckoutSessions.Session] = []
        for _ in 0..<100 { old.append(try create(&many)) }
        var departed: [CheckoutSessions.Session] = []
        _ = try many.create(SessionRequest(Array(Self.body.utf8)), now: 10_000, departing: &departed)
        #expect(!departed.isEmpty)
        #expect(departed.count < 100)
        #expect(departed.reduce(0) { $0 + $1.bytes } <= CheckoutSessions.departingBytes)
        #expect(departed.map(\.purchaseId) == old.prefix(departed.count).map(\.purchaseId))
        #expect(many.count == 1)
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

/// What the sandbox answered for stays: paid orders are never forgotten, and a step whose
/// record could not be kept is undone whole.
@Suite("Checkout sessions kept")
struct CheckoutSessionsKeptTests {
    func create(_ sessions: inout CheckoutSessions, now: Int = 0, name: String = "Starter Pack") throws
        -> CheckoutSessions.Session
    {
        let body = CheckoutSessionsTests.body.replacingOccurrences(of: "Starter Pack", with: name)
        return try sessions.create(SessionRequest(Array(body.utf8)), now: now).0
    }

    func pay(_ session: CheckoutSessions.Session, in sessions: inout CheckoutSessions, now: Int = 0) {
        _ = sessions.choose(.pay, paymentMethod: "Visa", for: session, now: now)
        _ = sessions.awardDelivered(purchaseId: session.purchaseId, failureData: nil)
    }

    @Test("a paid order outlives twice the session's lifetime and any count of sessions; unpaid ones go")
    func paidOrdersStay() throws {
        var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, lifetime: 1_000, limit: 2)
        let unpaid = try create(&sessions)
        let paid = try create(&sessions)
        pay(paid, in: &sessions)
        // Weeks later, and past the limit of sessions: the paid order is there for its refund.
        for index in 0..<5 { _ = try create(&sessions, now: 3_000 + index) }
        #expect(sessions.session(token: unpaid.token, now: 3_010).0 == nil)
        #expect(sessions.session(token: paid.token, now: 3_010).0?.state == .chargeSucceed)
        #expect(
            try sessions.act(.requestRefund(amount: nil), on: paid.purchaseId, now: 3_020).0.state
                == .paymentRefundPending)
        #expect(sessions.count == 3, "the paid order and the two newest unpaid sessions")
    }

    @Test("a pending payment outlives twice the session's lifetime and any count of sessions: it may still succeed")
    func pendingOrdersStay() throws {
        var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, lifetime: 1_000, limit: 2)
        let unpaid = try create(&sessions)
        let pending = try create(&sessions)
        _ = sessions.choose(.pending, paymentMethod: "Visa", for: pending, now: 10)
        for index in 0..<5 { _ = try create(&sessions, now: 3_000 + index) }
        #expect(sessions.session(token: unpaid.token, now: 3_010).0 == nil)
        #expect(sessions.session(token: pending.token, now: 3_010).0?.state == .paymentPending)
        #expect(sessions.count == 3, "the pending order and the two newest unpaid sessions")
    }

    @Test("once paid orders fill the budget, a new session is refused and every paid order is kept")
    func paidOrdersFillTheBudget() throws {
        var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, lifetime: 1_000, limit: 100, byteBudget: 32 << 10)
        let name = String(repeating: "n", count: 4_000)
        var paid: [CheckoutSessions.Session] = []
        var refused: CheckoutSessions.Full?
        for _ in 0..<20 {
            do {
                let session = try create(&sessions, name: name)
                pay(session, in: &sessions)
                paid.append(session)
            } catch {
                refused = error as? CheckoutSessions.Full
                break
            }
        }
        let full = try #require(refused)
        #expect(full.paidOrders == paid.count)

        #expect((6...8).contains(paid.count), "\(paid.count) orders of about 4 KB in 32 KiB")
        #expect(paid.allSatisfy { sessions.session(token: $0.token, now: 0).0 != nil })
    }

    @Test("a session refused for want of room forgets no unpaid session to make it")
    func refusedForgetsNothing() throws {
        var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, lifetime: 1_000, limit: 100, byteBudget: 24 << 10)
        let paid = try create(&sessions, name: String(repeating: "p", count: 16_000))
        pay(paid, in: &sessions)
        let unpaid = try create(&sessions, name: String(repeating: "u", count: 4_000))
        sessions.saved()
        #expect(throws: CheckoutSessions.Full.self) {
            _ = try create(&sessions, name: String(repeating: "n", count: 9_000))
        }
        #expect(sessions.session(token: unpaid.token, now: 0).0 != nil)
        #expect(sessions.changedSessions.isEmpty)
    }

    @Test("a step undone puts back every session it changed, created or forgot, and the ids it used")
    func rollback() throws {
        var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, lifetime: 1_000, limit: 1)
        let first = try create(&sessions)
        sessions.saved()
        // Creating the second forgets the first (the limit is one); undone, the first is back.
        let second = try create(&sessions)
        #expect(sessions.session(token: first.token, now: 0).0 == nil)
        sessions.rollback()
        #expect(sessions.session(token: second.token, now: 0).0 == nil)
        #expect(sessions.session(purchaseId: first.purchaseId, now: 0).0?.state == .created)
        #expect(sessions.changedSessions.isEmpty)
        // A payment undone leaves the session open, and nothing to write.
        pay(first, in: &sessions)
        #expect(sessions.changedSessions.map(\.state) == [.chargeSucceed])
        sessions.rollback()
        #expect(sessions.session(token: first.token, now: 0).0?.state == .created)
        #expect(sessions.changedSessions.isEmpty)
        // The next session takes the ids the undone one had.
        sessions.saved()
        #expect(try create(&sessions).purchaseId == second.purchaseId)
    }

    @Test("a change kept in memory only is written with the next one; undoing a later step keeps it")
    func committedChangesWait() throws {
        var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, lifetime: 1_000, limit: 10)
        let first = try create(&sessions)
        sessions.saved()
        pay(first, in: &sessions)
        sessions.commit()
        _ = try create(&sessions)
        sessions.rollback()
        #expect(sessions.changedSessions.map(\.token) == [first.token])
        #expect(sessions.changedSessions.first?.state == .chargeSucceed)
    }

    @Test("a store that records no steps has nothing to write, and creates, pays and forgets as one that does")
    func recordsNoSteps() throws {
        /// Pays a first session, then creates two more, the limit being one unpaid: the
        /// second is forgotten for the third. What is held then, token and revision.
        func history(recording: Bool) throws -> (held: [String], revisions: [Int], changed: Int) {
            var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, lifetime: 1_000, limit: 1)
            sessions.recordsSteps = recording
            let first = try create(&sessions)
            pay(first, in: &sessions)
            let second = try create(&sessions)
            let third = try create(&sessions)
            #expect(sessions.session(token: second.token, now: 0).0 == nil)
            #expect(sessions.all.map(\.token) == [first.token, third.token])
            return (sessions.all.map(\.token), sessions.all.map(\.revision), sessions.changedSessions.count)
        }
        let recorded = try history(recording: true)
        let unrecorded = try history(recording: false)
        #expect(recorded.changed == 2)
        #expect(unrecorded.changed == 0)
        #expect(unrecorded.held == recorded.held)
        #expect(unrecorded.revisions == recorded.revisions)
    }
}
