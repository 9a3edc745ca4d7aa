import Foundation
import Testing

@testable import PaylinksAppcharge
@testable import PaylinksHTTP
@testable import PaylinksKit
@testable import PaylinksSandbox

/// What the sandbox says: the orders it reports, the rules it refuses with, and its
/// warnings, each as a user reads them.
@Suite("Sandbox words")
@MainActor
struct SandboxWordsTests {
    let base = SandboxTests()

    func post(_ path: String, _ body: String) -> HTTPServerResponse {
        base.request(.post, path, body: body, headers: [HTTPHeader("Content-Type", "application/json")])
    }

    /// The `errorMessage` of a problem answer.
    static func problem(_ response: HTTPServerResponse) throws -> String {
        try #require(try SandboxTests.json(response)["errorMessage"] as? String)
    }

    /// The orders report's results for every order of 2024.
    func reported() throws -> [[String: Any]] {
        let report = base.report(orders: #"{"startDate": "2024-01-01", "endDate": "2024-12-31"}"#)
        #expect(report.status == 200)
        return try #require(try SandboxTests.json(report)["results"] as? [[String: Any]])
    }

    // MARK: An order that never was

    @Test("a checkout closed, cancelled or expired before paying has no order id and no payment method, anywhere")
    func noOrderBeforePaying() throws {
        let (_, closed) = try base.session()
        #expect(base.complete(closed, #"{"choice": "close"}"#).status == 200)
        let (cancelToken, cancelled) = try base.session()
        #expect(
            base.request(
                .post, "/checkout/v3/cancel",
                headers: [
                    HTTPHeader("Authorization", "Bearer \(cancelToken)"), HTTPHeader("x-publisher-token", "token-1"),
                ]
            ).status == 200)
        let (_, declined) = try base.session()
        #expect(base.complete(declined, #"{"choice": "decline", "paymentMethod": "PayPal"}"#).status == 200)
        let (_, expired) = try base.session()
        base.recorder.now += 3_600_000
        #expect(base.request(.get, "/control/v1/sessions/\(expired)").status == 200)

        let results = try reported()
        let byPurchase = Dictionary(
            uniqueKeysWithValues: base.sandbox.heldSessions.map { ($0.orderId, $0.purchaseId) })
        for purchaseId in [closed, cancelled, expired] {
            let state = try SandboxTests.json(base.request(.get, "/control/v1/sessions/\(purchaseId)"))
            #expect(state["state"] as? String == "payment_canceled")
            #expect(state["orderId"] == nil, "the control API shows no order id")
            let rows = results.filter { ($0["acOrderId"] as? String).flatMap { byPurchase[$0] } == purchaseId }
            #expect(rows.isEmpty, "the report shows the order id the control API does not: \(rows)")
            let page = base.page("/orders/\(purchaseId)")
            let held = try #require(base.sandbox.heldSessions.first { $0.purchaseId == purchaseId })
            #expect(!page.contains(held.orderId), "the dashboard shows no order id")
            #expect(!page.contains("the player chose, with"), "the dashboard shows no payment method")
            // Nor does Initiate Refund find an order by it.
            let refund = base.request(
                .post, "/checkout/api/v1/order/\(held.orderId)/refund",
                headers: [HTTPHeader("x-publisher-token", "token-1"), HTTPHeader("x-user-id", "player-1")])
            #expect(refund.status == 404)
        }
        let canceled = results.filter { $0["state"] as? String == "payment_canceled" }
        #expect(canceled.count == 3)
        for row in canceled {
            #expect(row["acOrderId"] is NSNull, "\(row)")
            #expect(row["paymentMethod"] is NSNull, "\(row)")
            #expect(row["receiptId"] is NSNull, "\(row)")
        }
        // A declined payment had an order, paid with what the player chose.
        let failed = try #require(results.first { $0["state"] as? String == "payment_failed" })
        let declinedState = try SandboxTests.json(base.request(.get, "/control/v1/sessions/\(declined)"))
        #expect(failed["acOrderId"] as? String == declinedState["orderId"] as? String)
        #expect(failed["paymentMethod"] as? String == "PayPal")
    }

    // MARK: Replays

    @Test("a replay's body may be empty, {} or name resign; anything else is 400 naming what is wrong")
    func replayBodies() throws {
        let (_, purchaseId) = try base.session()
        var replays: [Bool] = []
        base.sandbox.onReplay = { _, resign in replays.append(resign) }
        _ = base.sandbox.delivered(
            .award, purchaseId: purchaseId, name: "award", url: "http://127.0.0.1:8080/award",
            body: Array("{}".utf8), attempts: [DeliveryAttempt(number: 1, sentAfter: 0, headers: [])])
        let path = "/control/v1/deliveries/dl_1/replay"
        for body in ["", "{}", #"{"resign": true}"#, #"{"resign": false}"#, " { } "] {
            let answer = post(path, body)
            #expect(answer.status == 202, "\(body): \(String(decoding: answer.body, as: UTF8.self))")
        }
        #expect(replays == [true, true, true, false, true])
        let refused: [(String, String)] = [
            (#"{"resign": "yes"}"#, #"resign must be true or false, not a string"#),
            (#"{"resgin": true}"#, #"the replay takes only "resign", not "resgin""#),
            ("[]", #"send {} (newly signed), {"resign": true} or {"resign": false} (exactly)"#),
        ]
        for (body, words) in refused {
            let answer = post(path, body)
            #expect(answer.status == 400, "\(body)")
            let said = try Self.problem(answer)
            #expect(said.contains(words), "\(said)")
        }
    }

    // MARK: Disputes

    @Test("a second outcome of a resolved dispute is refused with that rule: the dispute was resolved already")
    func secondDisputeOutcome() throws {
        for (first, again) in [("lost", "won"), ("won", "lost"), ("lost", "open"), ("won", "won")] {
            let (_, purchaseId) = try base.session()
            #expect(base.complete(purchaseId, #"{"choice": "pay"}"#).status == 200)
            let path = "/control/v1/sessions/\(purchaseId)/dispute"
            #expect(post(path, #"{"outcome": "\#(first)"}"#).status == 200)
            let refused = post(path, #"{"outcome": "\#(again)"}"#)
            #expect(refused.status == 422)
            #expect(
                try Self.problem(refused)
                    == "the order is payment_dispute_\(first): the dispute was already resolved (\(first)); "
                    + "an order is disputed once")
        }
    }

    // MARK: The dashboard's refund

    /// The notice the order's page shows after a form was sent.
    func notice(after answer: HTTPServerResponse) throws -> String {
        let location = try #require(answer.headers.first { $0.name == "Location" }?.value)
        let page = base.page(location)
        let start = try #require(page.firstRange(of: #"<p class="said"#))
        return String(page[start.lowerBound...].prefix { $0 != "\n" })
    }

    @Test("the dashboard's refund amount takes spaces around the number, and a refusal says the whole rule")
    func dashboardRefundAmount() throws {
        let (_, purchaseId) = try base.session()
        #expect(base.complete(purchaseId, #"{"choice": "pay"}"#).status == 200)
        for typed in ["abc", "-5", "0", "550", "4.99"] {
            let said = try notice(after: base.form(purchaseId, "refund", "amount=\(typed)&outcome=refunded"))
            #expect(
                said
                    == #"<p class="said problem">the amount &#39;\#(typed)&#39; is not a whole number of minor units "#
                    + "from 1 to 549, the order&#39;s price; leave it empty to refund all of it</p>",
                "\(said)")
        }
        let done = try notice(after: base.form(purchaseId, "refund", "amount=+200+&outcome=refunded"))
        #expect(done == #"<p class="said">done: the order is payment_refunded</p>"#, "\(done)")
        #expect(base.sandbox.heldSessions.first { $0.purchaseId == purchaseId }?.life?.refundAmount == 200)
    }

    @Test("the control API's refund amount out of range says the whole rule, with the value sent")
    func controlRefundAmount() throws {
        let (_, purchaseId) = try base.session()
        #expect(base.complete(purchaseId, #"{"choice": "pay"}"#).status == 200)
        let answer = post("/control/v1/sessions/\(purchaseId)/refund", #"{"amount": 0}"#)
        #expect(answer.status == 400)
        let said = try Self.problem(answer)
        #expect(
            said.hasPrefix("amount 0 is not a whole number of minor units from 1 to 549, the order's price; send"),
            "\(said)")
    }

    // MARK: Reporting

    /// The errors of a refused orders report.
    func reasons(_ body: String) throws -> [String] {
        let answer = base.report(orders: body)
        #expect(answer.status == 400)
        let listed = try #require(try SandboxTests.json(answer)["message"] as? [[String: Any]])
        return listed.compactMap { $0["error"] as? String }
    }

    @Test(
        "a status that is not an order state is named by its place, with the state meant",
        arguments: [
            (#"["refunded"]"#, "statuses[0] 'refunded' is not an order state; did you mean payment_refunded?"),
            (
                #"["charge_succeed", "dispute_lost"]"#,
                "statuses[1] 'dispute_lost' is not an order state; did you mean payment_dispute_lost?"
            ),
            (#"["Refunded"]"#, "statuses[0] 'Refunded' is not an order state; did you mean payment_refunded?"),
            (
                #"["charge_succeeded"]"#,
                "statuses[0] 'charge_succeeded' is not an order state; did you mean charge_succeed?"
            ),
            (#"["spent"]"#, "statuses[0] 'spent' is not an order state; states: created, payment_pending"),
            (#"[5]"#, "statuses[0] must be an order state as a string, such as \"charge_succeed\", not a number"),
        ])
    func unknownStatus(statuses: String, words: String) throws {
        let said = try reasons(#"{"startDate": "2024-01-01", "endDate": "2024-12-31", "statuses": \#(statuses)}"#)
        #expect(said.count == 1)
        #expect(said.first?.hasPrefix(words) == true, "\(said)")
    }

    @Test(
        "a date that is ISO 8601 but not in UTC says to give it in UTC, ending in Z, and what that is",
        arguments: [
            (
                "2026-12-01T00:00:00+02:00",
                "startDate '2026-12-01T00:00:00+02:00' is not in UTC: give it in UTC, ending in Z: 2026-11-30T22:00:00Z"
            ),
            (
                "2026-12-01T08:30:00-0530",
                "startDate '2026-12-01T08:30:00-0530' is not in UTC: give it in UTC, ending in Z: 2026-12-01T14:00:00Z"
            ),
            (
                "2026-12-01T08:30:00",
                "startDate '2026-12-01T08:30:00' has no time zone: give it in UTC, ending in Z: 2026-12-01T08:30:00Z"
            ),
            (
                "June",
                "startDate 'June' is not an ISO 8601 date in UTC, such as 2024-06-12 or 2024-06-12T08:00:00Z"
            ),
        ])
    func dateNotInUTC(date: String, words: String) throws {
        let said = try reasons(#"{"startDate": "\#(date)", "endDate": "2026-12-31"}"#)
        #expect(said == [words])
        let query = "startDate=\(date.replacingOccurrences(of: "+", with: "%2B"))&endDate=2026-12-31"
        let transactions = base.report(transactions: query)
        #expect(transactions.status == 400)
        let listed = try #require(try SandboxTests.json(transactions)["message"] as? [[String: Any]])
        #expect(listed.compactMap { $0["error"] as? String } == [words])
    }

    // MARK: Warnings

    @Test("a paid session without items is awarded no products, and serve's log warns of it")
    func paidWithoutItems() throws {
        let body =
            #"{"priceDetails": {"price": 499, "currency": "USD"}, "offer": {"name": "A", "sku": "a", "pricePointMetadata": 499}, "customer": {"id": "c"}}"#
        let created = try SandboxTests.json(base.create(body))
        let purchaseId = try #require(created["purchaseId"] as? String)
        #expect(base.complete(purchaseId, #"{"choice": "pay"}"#).status == 200)
        #expect(
            base.recorder.logs.contains(
                "warning: the session \(purchaseId) had no items, so its award grants no products (\"products\": []); "
                    + "send what the offer gives, such as \"items\": [{\"name\": \"Gems\", \"sku\": \"gem_01\", "
                    + "\"quantity\": 100}]"),
            "\(base.recorder.logs)")
        let (_, withItems) = try base.session()
        #expect(base.complete(withItems, #"{"choice": "pay"}"#).status == 200)
        #expect(base.recorder.logs.filter { $0.contains("had no items") }.count == 1)
    }
}
