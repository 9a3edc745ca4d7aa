import Foundation
import Testing

@testable import PaylinksAppcharge
@testable import PaylinksHTTP
@testable import PaylinksKit
@testable import PaylinksSandbox

/// The sandbox after the purchase: Initiate Refund as the game's server calls it, the
/// control API's refunds and disputes, and the event each transition makes.
@Suite("Sandbox refunds and disputes")
@MainActor
struct SandboxRefundTests {
    let base = SandboxTests()
    /// The events the sandbox made, with the purchase id each is about.
    final class Events {
        var all: [(purchaseId: String, event: OrderEvent)] = []
        var labels: [String] { all.map(\.event.label) }
    }
    let events = Events()

    init() {
        let events = self.events
        base.sandbox.onOrderEvent = { events.all.append(($0, $1)) }
    }

    /// A session paid and granted: its purchase id and order id.
    func granted() throws -> (purchaseId: String, orderId: String) {
        let (_, purchaseId) = try base.session()
        let paid = try SandboxTests.json(base.complete(purchaseId, #"{"choice": "pay"}"#))
        return (purchaseId, try #require(paid["orderId"] as? String))
    }

    func initiateRefund(_ orderId: String, token: String? = "token-1", user: String? = "player-1", body: String = "")
        -> HTTPServerResponse
    {
        var headers: [HTTPHeader] = []
        if let token { headers.append(HTTPHeader("x-publisher-token", token)) }
        if let user { headers.append(HTTPHeader("x-user-id", user)) }
        if !body.isEmpty { headers.append(HTTPHeader("Content-Type", "application/json")) }
        return base.request(.post, "/checkout/api/v1/order/\(orderId)/refund", body: body, headers: headers)
    }

    func control(_ purchaseId: String, _ action: String, _ body: String) -> HTTPServerResponse {
        base.request(
            .post, "/control/v1/sessions/\(purchaseId)/\(action)", body: body,
            headers: [HTTPHeader("Content-Type", "application/json")])
    }

    func state(_ purchaseId: String) throws -> String? {
        try SandboxTests.json(base.request(.get, "/control/v1/sessions/\(purchaseId)"))["state"] as? String
    }

    @Test("a paid order's life makes its events in order: created, payment resolved, completed")
    func checkoutEvents() throws {
        _ = try granted()
        #expect(events.labels == ["order.created", "order.payment.resolved (success)", "order.completed"])
        let (_, declined) = try base.session()
        _ = base.complete(declined, #"{"choice": "decline"}"#)
        #expect(events.labels.suffix(2) == ["order.created", "order.payment.resolved (failed)"])
        // Each event of one order has its own id; the same sandbox seed gives the same ids.
        #expect(Set(events.all.map(\.event.eventId)).count == events.all.count)
    }

    @Test("a paid order's timeline: created, payment resolved, the client's result, then completed")
    func clientBeforeCompleted() throws {
        final class Timeline { var said: [String] = [] }
        let timeline = Timeline()
        base.sandbox.onOrderEvent = { timeline.said.append($1.label) }
        base.sandbox.onCallback = { timeline.said.append($0.name.rawValue) }
        _ = try granted()
        #expect(
            timeline.said == [
                "order.created", "order.payment.resolved (success)", "onPurchaseSuccess", "order.completed",
            ])
    }

    /// The V2 `timestamp` of `event`.
    static func timestamp(_ event: OrderEvent) throws -> Int? {
        try #require(try JSONSerialization.jsonObject(with: Data(event.body)) as? [String: Any])["timestamp"] as? Int
    }

    @Test("order.created comes when the order exists: with the player's choice, or the session's cancel or expiry")
    func createdWhenTheOrderExists() throws {
        let (_, pending) = try base.session()
        #expect(events.all.isEmpty, "a session alone has no order")
        base.recorder.now += 1_000
        _ = base.complete(pending, #"{"choice": "pending"}"#)
        #expect(events.labels == ["order.created"])
        #expect(try Self.timestamp(events.all[0].event) == base.recorder.now)
        let (token, cancelled) = try base.session()
        base.recorder.now += 1_000
        _ = base.request(.post, "/checkout/v3/cancel", headers: [HTTPHeader("Authorization", "Bearer \(token)")])
        let (_, closed) = try base.session()
        _ = base.complete(closed, #"{"choice": "close"}"#)
        #expect(
            events.labels == ["order.created", "order.created", "order.canceled", "order.created", "order.canceled"])
        #expect(events.all[1].purchaseId == cancelled && events.all[2].purchaseId == cancelled)
        #expect(try Self.timestamp(events.all[1].event) == base.recorder.now)
        // Each order's events are numbered from its creation: the ids differ, and follow the seed.
        #expect(Set(events.all.map(\.event.eventId)).count == events.all.count)
        let (_, expiring) = try base.session()
        base.recorder.now += PaymentLinksSimulator.sessionLifetime
        _ = base.complete(expiring, #"{"choice": "pay"}"#)
        #expect(events.all.suffix(2).map(\.event.label) == ["order.created", "order.canceled"])
        #expect(events.all.suffix(2).allSatisfy { $0.purchaseId == expiring })
    }

    /// The V2 `transactions` of `event`: each row's type and timestamp.
    static func rows(_ event: OrderEvent) throws -> [String] {
        let body = try #require(try JSONSerialization.jsonObject(with: Data(event.body)) as? [String: Any])
        let transactions = try #require(body["transactions"] as? [[String: Any]])
        return transactions.map { "\($0["type"] as? String ?? "") \($0["timestamp"] as? Int ?? 0)" }
    }

    @Test("each event carries the order's money movements so far, each at its own time, as the report lists them")
    func eventTransactions() throws {
        let (_, declined) = try base.session()
        _ = base.complete(declined, #"{"choice": "decline"}"#)
        let (_, closed) = try base.session()
        _ = base.complete(closed, #"{"choice": "close"}"#)
        base.recorder.now += 5_000
        let paidAt = base.recorder.now
        let (purchaseId, orderId) = try granted()
        base.recorder.now += 60_000
        #expect(initiateRefund(orderId).status == 201)
        let told = try events.all.map { "\($0.event.label): \(try Self.rows($0.event).joined(separator: ", "))" }
        #expect(
            told == [
                "order.created: ", "order.payment.resolved (failed): ", "order.created: ", "order.canceled: ",
                "order.created: ", "order.payment.resolved (success): paid \(paidAt)",
                "order.completed: paid \(paidAt)", "order.refunded: paid \(paidAt), refund \(paidAt + 60_000)",
            ])
        let report = try SandboxTests.json(base.report(transactions: "startDate=2024-06-01&endDate=2024-06-30"))
        let results = try #require(report["results"] as? [[String: Any]])
        let reported = results.filter { $0["purchaseId"] as? String == purchaseId }.map {
            let details = $0["transactionDetails"] as? [String: Any]
            return "\(details?["type"] as? String ?? "") \($0["timestamp"] as? String ?? "")"
        }
        let refund = try #require(events.all.last?.event)
        #expect(
            reported
                == [
                    "paid \(UTCDate.iso8601(unixSeconds: paidAt / 1000))",
                    "refund \(UTCDate.iso8601(unixSeconds: (paidAt + 60_000) / 1000))",
                ])
        #expect(try Self.rows(refund) == ["paid \(paidAt)", "refund \(paidAt + 60_000)"])
    }

    @Test("Initiate Refund answers 201 {} and the order is refunded, with order.refunded sent")
    func initiateRefundWorks() throws {
        let (purchaseId, orderId) = try granted()
        let answer = initiateRefund(orderId)
        #expect(answer.status == 201)
        #expect(String(decoding: answer.body, as: UTF8.self) == "{}")
        #expect(try state(purchaseId) == "payment_refunded")
        #expect(events.labels.last == "order.refunded")
        let refund = try #require(events.all.last)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(refund.event.body)) as? [String: Any])
        let transactions = try #require(body["transactions"] as? [[String: Any]])
        #expect(transactions.map { $0["type"] as? String } == ["paid", "refund"])
        #expect(transactions.last?["amount"] as? String == "-5.49")
        #expect(transactions.last?["purchaseId"] as? String == purchaseId)
    }

    @Test("Initiate Refund refuses in Appcharge's shapes: 403 without the token or user, 404, and 422 twice")
    func initiateRefundRefuses() throws {
        let (_, orderId) = try granted()
        let forbidden = #"{"result":null,"errCode":-1,"message":"Forbidden resource"}"#
        for answer in [
            initiateRefund(orderId, token: "wrong"), initiateRefund(orderId, token: nil),
            initiateRefund(orderId, user: nil),
        ] {
            #expect(answer.status == 403)
            #expect(String(decoding: answer.body, as: UTF8.self) == forbidden)
        }
        let missing = initiateRefund("9999999999")
        #expect(missing.status == 404)
        #expect(
            String(decoding: missing.body, as: UTF8.self) == #"{"message":"Order does not exist or cannot be found."}"#)
        #expect(initiateRefund(orderId).status == 201)
        let again = initiateRefund(orderId)
        #expect(again.status == 422)
        #expect(String(decoding: again.body, as: UTF8.self) == #"{"message":"Failed to initiate a refund request"}"#)
        #expect(base.recorder.logs.contains { $0.contains("refused: the order was refunded already") })
        // Said once, in its own words: the answer's are not logged besides.
        #expect(!base.recorder.logs.contains { $0.contains("refused: Failed to initiate a refund request") })
        // An order that was never paid cannot be refunded either.
        let (_, unpaid) = try base.session()
        let pending = try SandboxTests.json(base.complete(unpaid, #"{"choice": "pending"}"#))
        #expect(initiateRefund(try #require(pending["orderId"] as? String)).status == 422)
    }

    @Test("the control API refunds in part or fails a refund, and takes disputes to their end")
    func controlAPI() throws {
        let (purchaseId, _) = try granted()
        let failed = control(purchaseId, "refund", #"{"outcome": "failed", "amount": 100}"#)
        #expect(failed.status == 200)
        #expect(try SandboxTests.json(failed)["state"] as? String == "payment_refund_failed")
        let refunded = try SandboxTests.json(control(purchaseId, "refund", #"{"amount": 200}"#))
        #expect(refunded["state"] as? String == "payment_refunded")
        #expect(refunded["refundAmount"] as? Int == 200)
        #expect(control(purchaseId, "refund", "{}").status == 422)
        #expect(control(purchaseId, "dispute", #"{"outcome": "open"}"#).status == 422)

        let (disputed, _) = try granted()
        #expect(
            try SandboxTests.json(control(disputed, "dispute", #"{"outcome": "open"}"#))["state"] as? String
                == "payment_dispute_open")
        #expect(
            try SandboxTests.json(control(disputed, "dispute", #"{"outcome": "won"}"#))["state"] as? String
                == "payment_dispute_won")
        let (lost, _) = try granted()
        #expect(
            try SandboxTests.json(control(lost, "dispute", #"{"outcome": "lost"}"#))["state"] as? String
                == "payment_dispute_lost")
        #expect(
            events.labels.filter { $0.hasPrefix("order.dispute") } == [
                "order.dispute.opened", "order.dispute.resolved (won)", "order.dispute.opened",
                "order.dispute.resolved (lost)",
            ])
    }

    @Test("bad control bodies get a 400 that says the shape; an unknown session a 404")
    func controlMistakes() throws {
        let (purchaseId, _) = try granted()
        for body in [#"{"outcome": "maybe"}"#, #"{"amount": 0}"#, #"{"amount": "5"}"#, "[]", "not json"] {
            let answer = control(purchaseId, "refund", body)
            #expect(answer.status == 400, "\(body)")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("outcome"), "\(body)")
        }
        #expect(control(purchaseId, "dispute", #"{"outcome": "draw"}"#).status == 400)
        #expect(control("pr_nothing", "refund", "{}").status == 404)
        #expect(control("pr_nothing", "dispute", #"{"outcome": "open"}"#).status == 404)
        #expect(base.request(.get, "/control/v1/sessions/\(purchaseId)/refund").status == 405)
    }

    @Test("a refused dispute says what was sent that is wrong, then the shape")
    func disputeRefusalSaysWhatIsWrong() throws {
        let (purchaseId, _) = try granted()
        let cases = [
            (#"{"outcome": "LOST"}"#, "outcome 'LOST' is not one of open, won, lost; did you mean lost?"),
            (#"{"outcome": "draw"}"#, "outcome 'draw' is not one of open, won, lost; send"),
            (#"{"outcome": "lsot"}"#, "outcome 'lsot' is not one of open, won, lost; did you mean lost?"),
            (#"{"outcome": "won", "amount": 5}"#, "unknown key 'amount'; send"),
            (#"{"outcom": "won"}"#, "unknown key 'outcom'; did you mean outcome?"),
            ("{}", "outcome is missing"),
            (#"{"outcome": 3}"#, "outcome must be a string, not a number"),
            ("not json", "the body is not JSON: invalid literal; expected 'null' (line 1)"),
        ]
        for (body, words) in cases {
            let answer = control(purchaseId, "dispute", body)
            #expect(answer.status == 400, "\(body)")
            let message = try SandboxTests.json(answer)["errorMessage"] as? String ?? ""
            #expect(message.hasPrefix(words), "\(body): \(message)")
            #expect(message.hasSuffix(#"; send {"outcome": "open", "won" or "lost"}"#), "\(body): \(message)")
        }
    }

    @Test("a refused complete says what was sent that is wrong, then the shape")
    func completeRefusalSaysWhatIsWrong() throws {
        let (_, purchaseId) = try base.session()
        let cases = [
            ("{}", "choice is missing"),
            (#"{"choice": 1}"#, "choice must be a string, not a number"),
            ("not json", "the body is not JSON: invalid literal; expected 'null' (line 1)"),
        ]
        for (body, words) in cases {
            let answer = base.complete(purchaseId, body)
            #expect(answer.status == 400, "\(body)")
            let message = try SandboxTests.json(answer)["errorMessage"] as? String ?? ""
            #expect(message.hasPrefix(words), "\(body): \(message)")
            #expect(message.hasSuffix(#"; send {"choice": "..."} with one of: pay, decline, pending, close, cancel"#))
        }
        // A choice that is none of them lists them once, with the one likely meant.
        let choices = "is not one of pay, decline, pending, close, cancel"
        let wrong = [
            (#"{"choice": "Pay"}"#, "choice 'Pay' \(choices); did you mean pay?; send {\"choice\": \"...\"}"),
            (#"{"choice": "payy"}"#, "choice 'payy' \(choices); did you mean pay?; send {\"choice\": \"...\"}"),
            (#"{"choice": "abort"}"#, "choice 'abort' \(choices); send {\"choice\": \"...\"}"),
        ]
        for (body, words) in wrong {
            let answer = base.complete(purchaseId, body)
            #expect(answer.status == 400, "\(body)")
            #expect(try SandboxTests.json(answer)["errorMessage"] as? String == words, "\(body)")
        }
        let field = try SandboxTests.json(base.complete(purchaseId, #"{"choise": "pay"}"#))["errorMessage"] as? String
        #expect(
            field
                == "'choise' is not a field of complete; it takes choice, paymentMethod, resolve, device; did you mean choice?"
        )
    }

    @Test("a sandbox set to V1 makes V1 events: the old names, and the award's orderId")
    func versionOne() throws {
        let recorder = SandboxTests.Recorder()
        var settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
        settings.eventsVersion = .v1
        let sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { recorder.now })
        var made: [OrderEvent] = []
        sandbox.onOrderEvent = { made.append($1) }
        let created = sandbox.handleChecked(
            HTTPRequest(
                method: .post, path: "/checkout/v1/session", query: "",
                headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("x-publisher-token", "token-1")],
                body: Array(SandboxTests.body.utf8), keepAlive: true))
        let purchaseId = try #require(try SandboxTests.json(created)["purchaseId"] as? String)
        let paid = sandbox.handleChecked(
            HTTPRequest(
                method: .post, path: "/control/v1/sessions/\(purchaseId)/complete", query: "",
                headers: [HTTPHeader("Content-Type", "application/json")], body: Array(#"{"choice": "pay"}"#.utf8),
                keepAlive: true))
        let orderId = try #require(try SandboxTests.json(paid)["orderId"] as? String)
        #expect(made.map(\.label) == ["order_created", "payment_intent_success", "order_completed_success"])
        let completed = try #require(made.last)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(completed.body)) as? [String: Any])
        #expect(body["appChargeOrderId"] as? String == orderId)
    }

    /// Cancel with the session's token: the answer's body.
    func cancel(_ token: String) -> String {
        let answer = base.request(
            .post, "/checkout/v3/cancel", headers: [HTTPHeader("Authorization", "Bearer \(token)")])
        #expect(answer.status == 200)
        return String(decoding: answer.body, as: UTF8.self)
    }

    @Test("a cancel leaves an order paid, refunded, disputed or pending as it is and answers false, saying why")
    func cancelAfterPayment() throws {
        var orders: [(token: String, purchaseId: String)] = []
        for (choice, after, body) in [
            ("pay", nil, ""), ("pay", "refund", "{}"), ("pay", "dispute", #"{"outcome": "open"}"#),
            ("pending", nil, ""),
        ] as [(String, String?, String)] {
            let (token, purchaseId) = try base.session()
            #expect(base.complete(purchaseId, #"{"choice": "\#(choice)"}"#).status == 200)
            if let after { #expect(control(purchaseId, after, body).status == 200) }
            orders.append((token, purchaseId))
        }
        for order in orders {
            let before = try state(order.purchaseId)
            #expect(cancel(order.token) == #"{"isOrderCancelled":false}"#, "\(before ?? "")")
            #expect(try state(order.purchaseId) == before)
        }
        let said = base.recorder.logs.filter { $0.contains("not cancelled") }
        #expect(said.count == 4, "\(said)")
        #expect(
            said.first
                == "session \(orders[0].purchaseId) not cancelled: its order is paid (\(try state(orders[0].purchaseId) ?? "")), "
                + "which a cancel leaves as it is; refund it instead")
        #expect(said[1].contains("(payment_refunded)") && said[2].contains("(payment_dispute_open)"))
        #expect(
            said.last
                == "session \(orders[3].purchaseId) not cancelled: its order has a payment pending, which a cancel "
                + "leaves as it is")

        // A session still open is cancelled now; one cancelled or closed already stays so.
        let (fresh, freshId) = try base.session()
        #expect(cancel(fresh) == #"{"isOrderCancelled":true}"#)
        #expect(try state(freshId) == "payment_canceled")
        #expect(cancel(fresh) == #"{"isOrderCancelled":true}"#)
        let (closed, closedId) = try base.session()
        _ = base.complete(closedId, #"{"choice": "close"}"#)
        #expect(cancel(closed) == #"{"isOrderCancelled":true}"#)
    }

    @Test("a control path given a session's token or order id for its purchase id is 404, and says whose it is")
    func otherIdentifierNamed() throws {
        let (token, purchaseId) = try base.session()
        let byToken = try SandboxTests.json(base.complete(token, #"{"choice": "pay"}"#))
        #expect(
            byToken["errorMessage"] as? String
                == "no checkout session has the purchase id '\(token)'; that is the checkout session token of the "
                + "session '\(purchaseId)': send its purchase id")
        let (paid, orderId) = try granted()
        let byOrder = control(orderId, "refund", #"{"outcome": "refunded"}"#)
        #expect(byOrder.status == 404)
        #expect(
            try SandboxTests.json(byOrder)["errorMessage"] as? String
                == "no checkout session has the purchase id '\(orderId)'; that is the order id of the session "
                + "'\(paid)': send its purchase id")
        let unknown = try SandboxTests.json(base.complete("pr_nothing", #"{"choice": "pay"}"#))
        #expect((unknown["errorMessage"] as? String)?.hasSuffix("past its --session-budget") == true)
    }

    @Test("Initiate Refund takes no body: one sent refunds the whole order all the same, and the log says so")
    func refundBodyIgnored() throws {
        for body in ["", " \n", "{}"] {
            let (_, orderId) = try granted()
            #expect(initiateRefund(orderId, user: "cust_98765", body: body).status == 201)
        }
        #expect(!base.recorder.logs.contains { $0.contains("takes no body") }, "\(base.recorder.logs)")
        let cases = [(#"{"amount": 100, "reason": "x"}"#, "its 'amount'"), ("amount=100", "its 10 bytes")]
        for (body, asked) in cases {
            let (purchaseId, orderId) = try granted()
            #expect(initiateRefund(orderId, user: "cust_98765", body: body).status == 201)
            #expect(try state(purchaseId) == "payment_refunded")
            #expect(
                base.recorder.logs.contains(
                    "warning: refund of order \(orderId): Initiate Refund takes no body, and Appcharge ignores "
                        + "\(asked): the whole order is refunded"), "\(base.recorder.logs)")
        }
    }

    @Test("Initiate Refund takes another player's x-user-id, and the log warns that it is not the order's player")
    func refundForAnotherPlayer() throws {
        let (_, orderId) = try granted()
        #expect(initiateRefund(orderId, user: "cust_98765").status == 201)
        #expect(!base.recorder.logs.contains { $0.contains("x-user-id") }, "\(base.recorder.logs)")
        let (_, other) = try granted()
        #expect(initiateRefund(other, user: "someone\u{1B}[2Jelse").status == 201)
        #expect(
            base.recorder.logs.contains(
                "warning: refund of order \(other): its x-user-id, 'someone\\u{1B}[2Jelse', is not the order's player, "
                    + "'cust_98765'; the game's server likely sends the wrong id, and Appcharge may refuse the refund"),
            "\(base.recorder.logs)")
    }
}
