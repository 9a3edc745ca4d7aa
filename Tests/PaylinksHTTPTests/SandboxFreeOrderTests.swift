import Foundation
import Testing

@testable import PaylinksAppcharge
@testable import PaylinksHTTP
@testable import PaylinksKit
@testable import PaylinksSandbox

/// Free orders in the sandbox: a session priced 0 is collected on its page or through the
/// control API, granted as a bonus, reported, and refused a refund or a dispute.
@Suite("Sandbox free orders")
@MainActor
struct SandboxFreeOrderTests {
    let base = SandboxTests()
    let refunds = SandboxRefundTests()

    static let body = #"""
        {"priceDetails": {"price": 0, "currency": "EUR"},
         "offer": {"name": "Daily Bonus", "sku": "daily_bonus"},
         "items": [{"name": "Gems", "sku": "gem_01", "quantity": 10}],
         "customer": {"id": "cust_98765"}, "countryCode2": "DE"}
        """#

    /// A free session created on `sandbox`: its token and purchase id.
    static func free(_ tests: SandboxTests) throws -> (token: String, purchaseId: String) {
        let created = tests.create(body)
        #expect(created.status == 201)
        let json = try SandboxTests.json(created)
        return (
            try #require(json["checkoutSessionToken"] as? String), try #require(json["purchaseId"] as? String)
        )
    }

    @Test("the page of a free session asks for no card: it offers Collect and Close, and Collect grants the items")
    func collectOnThePage() throws {
        let (token, purchaseId) = try Self.free(base)
        let html = String(decoding: base.request(.get, "/checkout/\(token)").body, as: UTF8.self)
        #expect(html.contains(">Collect</button>") && html.contains("value=\"close\""))
        #expect(
            !html.contains("paymentMethod") && !html.contains("value=\"decline\"")
                && !html.contains("value=\"pending\""))
        #expect(html.contains("Free"))
        let answer = base.request(
            .post, "/checkout/\(token)", body: "formToken=\(SandboxTests.formToken)&choice=pay",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")])
        #expect(answer.status == 303)
        let result = String(decoding: base.request(.get, "/checkout/\(token)").body, as: UTF8.self)
        #expect(result.contains("Collected") && result.contains("charge_succeed"))
        guard case .onPurchaseSuccess(let order)? = base.recorder.callbacks.last else {
            Issue.record("no onPurchaseSuccess: \(base.recorder.callbacks)")
            return
        }
        #expect(order.purchaseId == purchaseId && order.price == 0 && order.currency == "EUR")
        #expect(base.recorder.logs.contains("session \(purchaseId) collected: free, no payment"))
    }

    @Test("a free session takes no decline or pending payment: 400 on the page, 409 from the control API")
    func noPaymentChoices() throws {
        let (token, purchaseId) = try Self.free(base)
        for choice in ["decline", "pending"] {
            let page = base.request(
                .post, "/checkout/\(token)", body: "formToken=\(SandboxTests.formToken)&choice=\(choice)",
                headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")])
            #expect(page.status == 400, "\(choice)")
            let control = base.complete(purchaseId, #"{"choice": "\#(choice)"}"#)
            #expect(control.status == 409, "\(choice)")
            let message = try SandboxTests.json(control)["errorMessage"] as? String ?? ""
            #expect(message.contains("free") && message.contains("pay"), "\(message)")
        }
        #expect(
            try SandboxTests.json(base.request(.get, "/control/v1/sessions/\(purchaseId)"))["state"] as? String
                == "created")
    }

    @Test("a collected free order: a bonus award, created and completed events only, the client's success")
    func collectedThroughTheControlAPI() throws {
        var awards: [GrantAward] = []
        refunds.base.sandbox.onPaid = { awards.append($1) }
        let (_, purchaseId) = try Self.free(refunds.base)
        let answer = refunds.base.complete(purchaseId, #"{"choice": "pay"}"#)
        #expect(answer.status == 200)
        let award = try #require(awards.first)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(award.body)) as? [String: Any])
        #expect(body["action"] as? String == "bonus" && body["actionStatus"] as? String == "completed")
        #expect(body["paymentMethod"] == nil && body["currency"] as? String == "EUR")
        #expect((body["priceInCents"] as? NSNumber)?.intValue == 0)
        // No pricePointMetadata was sent, yet a free order's award is not warned about.
        #expect(!refunds.base.recorder.logs.contains { $0.contains("had no offer.pricePointMetadata") })
        refunds.base.sandbox.awardDelivered(purchaseId: purchaseId, failureData: nil)
        #expect(refunds.events.labels == ["order.created", "order.completed"])
        for (_, event) in refunds.events.all {
            #expect(try SandboxRefundTests.rows(event).isEmpty)
        }
        #expect(refunds.base.recorder.callbacks.map(\.name) == [.onPurchaseSuccess])
    }

    @Test("a free order is in the orders report as free and charge_succeed, and has no transaction")
    func reported() throws {
        let (_, purchaseId) = try Self.free(base)
        _ = base.complete(purchaseId, #"{"choice": "pay"}"#)
        let (_, paidId) = try base.session()
        _ = base.complete(paidId, #"{"choice": "pay"}"#)
        let window = #""startDate": "2024-06-01", "endDate": "2024-06-30""#
        let free = try SandboxTests.json(base.report(orders: "{\(window), \"isFree\": true}"))
        let rows = try #require(free["results"] as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["state"] as? String == "charge_succeed")
        #expect((rows.first?["priceInCents"] as? NSNumber)?.intValue == 0)
        #expect(rows.first?["paymentMethod"] is NSNull)
        let paid = try SandboxTests.json(base.report(orders: "{\(window), \"isFree\": false}"))
        #expect(paid["totalCount"] as? Int == 1)
        let transactions = try SandboxTests.json(base.report(transactions: "startDate=2024-06-01&endDate=2024-06-30"))
        // The paid order's payment is the one transaction: the free order moved no money.
        let listed = try #require(transactions["results"] as? [[String: Any]]).map { $0["purchaseId"] as? String }
        #expect(listed == [paidId])
    }

    @Test("Initiate Refund of a free order is a 422; the control API refuses its refund and dispute, saying why")
    func refusedRefunds() throws {
        let (_, purchaseId) = try Self.free(refunds.base)
        let collected = try SandboxTests.json(refunds.base.complete(purchaseId, #"{"choice": "pay"}"#))
        let orderId = try #require(collected["orderId"] as? String)
        let refund = refunds.initiateRefund(orderId)
        #expect(refund.status == 422)
        #expect(String(decoding: refund.body, as: UTF8.self) == #"{"message":"Failed to initiate a refund request"}"#)
        #expect(refunds.base.recorder.logs.contains { $0.contains("refused: the order is free") })
        for (action, body) in [
            ("refund", "{}"), ("dispute", #"{"outcome": "open"}"#), ("dispute", #"{"outcome": "lost"}"#),
        ] {
            let answer = refunds.control(purchaseId, action, body)
            #expect(answer.status == 422, "\(action) \(body)")
            let message = try SandboxTests.json(answer)["errorMessage"] as? String ?? ""
            #expect(message.hasPrefix("the order is free"), "\(message)")
        }
        #expect(try refunds.state(purchaseId) == "charge_succeed")
        #expect(refunds.events.labels == ["order.created", "order.completed"])
    }

    @Test("a V1 sandbox sends a free order's created and success events, with zeros")
    func versionOne() throws {
        let recorder = SandboxTests.Recorder()
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
        settings.eventsVersion = .v1
        let sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { recorder.now })
        var made: [OrderEvent] = []
        sandbox.onOrderEvent = { made.append($1) }
        let headers = [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1")]
        let created = sandbox.handleChecked(
            HTTPRequest(
                method: .post, path: "/checkout/v1/session", query: "", headers: headers,
                body: Array(Self.body.utf8), keepAlive: true))
        let purchaseId = try #require(try SandboxTests.json(created)["purchaseId"] as? String)
        _ = sandbox.handleChecked(
            HTTPRequest(
                method: .post, path: "/control/v1/sessions/\(purchaseId)/complete", query: "",
                headers: [HTTPHeader("Content-Type", "application/json")], body: Array(#"{"choice": "pay"}"#.utf8),
                keepAlive: true))
        #expect(made.map(\.label) == ["order_created", "order_completed_success"])
        let last = try #require(made.last)
        let success = try #require(try JSONSerialization.jsonObject(with: Data(last.body)) as? [String: Any])
        #expect(success["paymentMethod"] == nil)
        #expect((success["estimatedPublisherNetAmount"] as? NSNumber)?.doubleValue == 0)
        let offer = try #require(success["offer"] as? [String: Any])
        #expect((offer["priceInCents"] as? NSNumber)?.intValue == 0 && offer["currency"] as? String == "EUR")
    }
}
