import Foundation
import PaylinksAppcharge
import PaylinksKit
import Testing

/// Free orders: a session priced 0 is collected without a payment, and its award, events,
/// money movements and life say that no money moved.
@Suite("Free orders")
struct FreeOrderTests {
    static let body = #"""
        {"priceDetails": {"price": 0, "currency": "EUR"},
         "offer": {"name": "Daily Bonus", "sku": "daily_bonus", "pricePointMetadata": 499},
         "items": [{"name": "Gems", "sku": "gem_01", "quantity": 10}],
         "customer": {"id": "cust_98765"}, "countryCode2": "DE"}
        """#

    /// Every money field the award has, each 0 for a free order.
    static let awardMoney = [
        "priceInCents", "subTotal", "tax", "taxRate", "priceInDollar", "taxInDollar", "originalPriceInDollar",
        "paymentPriceInDollar", "priceTotalInDollar", "pricePointMetadata", "currencyExchangeCost",
        "estimatedAppchargeFee", "estimatedPublisherNetAmount",
    ]

    static func json(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// A store holding one free session, collected: the session, and what the collection
    /// and the award's grant made happen.
    static func collected(method: String = "Visa") throws -> (
        sessions: CheckoutSessions, session: CheckoutSessions.Session, chosen: [CheckoutSessions.Event],
        delivered: [CheckoutSessions.Event]
    ) {
        var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, lifetime: 60_000, limit: 10)
        let (session, _) = try sessions.create(SessionRequest(Array(body.utf8)), now: 0)
        let (_, chosen) = sessions.choose(.pay, paymentMethod: method, for: session, now: 5_000)
        let delivered = sessions.awardDelivered(purchaseId: session.purchaseId, failureData: nil)
        let (now, _) = sessions.session(purchaseId: session.purchaseId, now: 6_000)
        return (sessions, try #require(now), chosen, delivered)
    }

    @Test("a free session is collected with no payment: no order.payment.resolved, its award due at once")
    func collectedWithoutPayment() throws {
        let (_, session, chosen, delivered) = try Self.collected()
        #expect(CheckoutSessionsTests.orderEvents(chosen) == [.created])
        guard case .paid(_, let method, _, let withoutPricePoint, _)? = CheckoutSessionsTests.outcomes(chosen).first
        else {
            Issue.record("expected the award to be due, got \(chosen)")
            return
        }
        #expect(method == "" && !withoutPricePoint)
        #expect(CheckoutSessionsTests.orderEvents(delivered) == [.completed])
        guard case .ended(.onPurchaseSuccess(let order))? = CheckoutSessionsTests.outcomes(delivered).first else {
            Issue.record("expected onPurchaseSuccess, got \(delivered)")
            return
        }
        #expect(order.price == 0 && order.currency == "EUR" && order.paymentMethodName == "")
        #expect(session.state == .chargeSucceed && session.isFree)
    }

    @Test("a free order's award is a bonus: every money field 0, the currency as sent, no paymentMethod")
    func bonusAward() throws {
        let (_, session, _, _) = try Self.collected()
        let award = try Self.json(session.award.body)
        #expect(award["action"] as? String == "bonus")
        #expect(award["actionStatus"] as? String == "completed")
        #expect(award["currency"] as? String == "EUR")
        #expect(award["paymentMethod"] == nil)
        for key in Self.awardMoney {
            #expect((award[key] as? NSNumber)?.doubleValue == 0, "\(key): \(award[key] ?? "missing")")
        }
        // A paid order's award is a purchase, paid by card.
        var paid = session
        paid.price = 549
        let purchase = try Self.json(paid.award.body)
        #expect(purchase["action"] as? String == "purchase" && purchase["paymentMethod"] as? String == "card")
    }

    @Test(
        "a free order's events carry a zero order, no payment method and no transactions",
        arguments: [
            OrderEvent.Name.created, .completed,
        ])
    func zeroEvents(name: OrderEvent.Name) throws {
        let (_, session, _, _) = try Self.collected()
        #expect(session.transactions.isEmpty)
        let v2 = try Self.json(
            OrderEvent(name, of: session, version: .v2, milliseconds: 6_000, seed: 1, sequence: 0).body)
        let order = try #require(v2["order"] as? [String: Any])
        for key in ["subtotal", "discountAmount", "totalPayment", "taxAmount", "pricePointMetadata"] {
            #expect((order[key] as? NSNumber)?.doubleValue == 0, "order.\(key): \(order[key] ?? "missing")")
        }
        #expect(order["currencyCode"] as? String == "EUR" && order["paymentMethod"] == nil)
        #expect((v2["transactions"] as? [Any])?.isEmpty == true)
        let v1 = try Self.json(
            OrderEvent(name, of: session, version: .v1, milliseconds: 6_000, seed: 1, sequence: 0).body)
        #expect(v1["paymentMethod"] == nil)
        for key in ["pricePointMetadata", "estimatedPublisherNetAmount", "estimatedAppchargeFee"] {
            #expect((v1[key] as? NSNumber)?.doubleValue == 0, "\(key): \(v1[key] ?? "missing")")
        }
        let offer = try #require(v1["offer"] as? [String: Any])
        for key in ["originalPriceInDollar", "priceInDollar", "priceInCents", "subtotal", "tax"] {
            #expect((offer[key] as? NSNumber)?.doubleValue == 0, "offer.\(key): \(offer[key] ?? "missing")")
        }
        #expect(offer["currency"] as? String == "EUR")
    }

    @Test("a free order has no payment to decline or leave pending: either choice collects it")
    func noPaymentStep() throws {
        for choice in [CheckoutSessions.Choice.decline, .pending] {
            var sessions = CheckoutSessions(catalog: .builtIn, seed: 1, lifetime: 60_000, limit: 10)
            let (session, _) = try sessions.create(SessionRequest(Array(Self.body.utf8)), now: 0)
            let (chosen, events) = sessions.choose(choice, paymentMethod: "", for: session, now: 5_000)
            #expect(chosen.state == .chargePending, "\(choice)")
            #expect(CheckoutSessionsTests.orderEvents(events) == [.created], "\(choice)")
        }
    }

    @Test("a free order cannot be refunded or disputed: no money moved")
    func noRefundOrDispute() throws {
        var (sessions, session, _, _) = try Self.collected()
        for action in [OrderLife.Action.requestRefund(amount: nil), .openDispute] {
            #expect(throws: CheckoutSessions.LifeProblem.refused(.free)) {
                try sessions.act(action, on: session.purchaseId)
            }
        }
        #expect(OrderLife.Refusal.free.message.contains("free"))
        var failed = OrderLife(state: .chargeFailed, price: 0)
        #expect(throws: OrderLife.Refusal.free) { try failed.apply(.requestRefund(amount: nil)) }
    }
}
