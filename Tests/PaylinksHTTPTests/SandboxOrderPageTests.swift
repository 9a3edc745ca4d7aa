import Foundation
import PaylinksAppcharge
import PaylinksKit
import Testing

@testable import PaylinksHTTP
@testable import PaylinksSandbox

/// An order's page as a tester sees it over a socket: only the actions the order's rules
/// allow, a timeline that says what happened in words, bodies that read, and a banner
/// that shows for a minute.
@Suite("An order's page")
struct SandboxOrderPageTests {
    typealias Served = SandboxBrowserTests.Served

    /// What the award handler was handed, for the test to deliver.
    final class Awards: @unchecked Sendable {
        private let lock = NSLock()
        private var bodies: [[UInt8]] = []
        func add(_ body: [UInt8]) { lock.withLock { bodies.append(body) } }
        var last: [UInt8]? { lock.withLock { bodies.last } }
    }

    /// The page at `path`: status and body.
    func get(_ served: Served, _ path: String) throws -> SandboxBrowserTests.Answer {
        try served.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(served.port)")
    }

    /// A form of an order's page, with the form token, as the page sends it.
    func post(_ served: Served, _ path: String, _ fields: String = "") throws -> SandboxBrowserTests.Answer {
        try served.send(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(served.port)\r\nContent-Type: application/x-www-form-urlencoded",
            body: (fields.isEmpty ? "" : fields + "&") + "formToken=\(served.formToken)")
    }

    /// The game server's call to the sandbox at `path` with a JSON `body`.
    func call(_ served: Served, _ path: String, _ body: String) throws -> [String: Any] {
        let answer = try served.send(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(served.port)\r\nContent-Type: application/json\r\n"
                + "x-publisher-token: \(SandboxBrowserTests.token)",
            body: body)
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
    }

    /// A new order the player chose `choice` on; with `granted`, its award is granted.
    func order(_ served: Served, _ choice: String, granted: Bool = false) throws -> String {
        let purchaseId = try #require(
            try call(served, "/checkout/v1/session", SandboxBrowserTests.body)["purchaseId"] as? String)
        _ = try call(
            served, "/control/v1/sessions/\(purchaseId)/complete",
            #"{"choice": "\#(choice)", "paymentMethod": "Visa"}"#)
        if granted { served.sandbox.awardDelivered(purchaseId: purchaseId, failureData: nil) }
        return purchaseId
    }

    /// The page of `purchaseId`.
    func page(_ served: Served, _ purchaseId: String) throws -> String {
        let answer = try get(served, "/orders/\(purchaseId)")
        #expect(answer.status == 200)
        return answer.body
    }

    /// Whether `html` holds a form that posts to the order's `action`.
    func offers(_ html: String, _ purchaseId: String, _ action: String) -> Bool {
        html.contains(#"<form method="post" action="/orders/\#(purchaseId)/\#(action)">"#)
    }

    // MARK: Actions by the order's rules

    @Test("a declined order offers no refund and no dispute, and says why in words")
    func declined() throws {
        let served = try Served()
        let purchaseId = try order(served, "decline")
        let html = try page(served, purchaseId)
        #expect(!offers(html, purchaseId, "refund"))
        #expect(!offers(html, purchaseId, "dispute"))
        #expect(!offers(html, purchaseId, "retry-award"))
        #expect(html.contains("Declined orders moved no money: nothing to refund or dispute"))
    }

    @Test("a free order, collected and granted, offers no refund and no dispute, in one line")
    func free() throws {
        let served = try Served()
        let purchaseId = try #require(
            try call(
                served, "/checkout/v1/session", SandboxBrowserTests.body.replacingOccurrences(of: "499", with: "0"))[
                    "purchaseId"] as? String)
        _ = try call(served, "/control/v1/sessions/\(purchaseId)/complete", #"{"choice": "pay"}"#)
        served.sandbox.awardDelivered(purchaseId: purchaseId, failureData: nil)
        let html = try page(served, purchaseId)
        #expect(!offers(html, purchaseId, "refund") && !offers(html, purchaseId, "dispute"))
        #expect(html.contains("Free orders moved no money: nothing to refund or dispute"))
        #expect(html.contains("the player collected the free order"))
    }

    @Test("a refunded order offers no refund, and the server still refuses one posted anyway")
    func refunded() throws {
        let served = try Served()
        let purchaseId = try order(served, "pay", granted: true)
        let before = try page(served, purchaseId)
        #expect(offers(before, purchaseId, "refund"))
        #expect(before.contains("Refund, declined by the bank"))
        #expect(offers(before, purchaseId, "dispute"))
        #expect(!offers(before, purchaseId, "retry-award"), "a granted award is not retried")
        #expect(try post(served, "/orders/\(purchaseId)/refund", "amount=100&outcome=refunded").status == 303)
        let after = try page(served, purchaseId)
        #expect(!offers(after, purchaseId, "refund"))
        #expect(after.contains("the order was refunded already"))
        #expect(after.contains("Refunded · 1.00 USD of it"), "a partial refund says its amount")
        let again = try post(served, "/orders/\(purchaseId)/refund", "outcome=refunded")
        #expect(again.status == 303)
        let location = try #require(again.header("Location"))
        #expect(try get(served, location).body.contains(#"<p class="said problem">the order was refunded already"#))
        #expect(try served.state(purchaseId) == "payment_refunded")
    }

    @Test("a charge_failed order offers Retry Award; a dispute lost offers nothing")
    func retryAndLost() throws {
        let served = try Served()
        let failed = try page(served, served.purchaseId)
        #expect(offers(failed, served.purchaseId, "retry-award"))
        #expect(failed.contains("every award attempt failed"))
        #expect(failed.contains(#"<span class="pill failed severe">Failed (Charged)</span>"#), "shown solid")
        let purchaseId = try order(served, "pay", granted: true)
        #expect(try post(served, "/orders/\(purchaseId)/dispute", "outcome=lost").status == 303)
        let lost = try page(served, purchaseId)
        for action in ["refund", "dispute", "retry-award", "resolve"] {
            #expect(!offers(lost, purchaseId, action), "\(action)")
        }
        #expect(lost.contains("the chargeback took its money back already"))
        #expect(lost.contains("dispute lost"))
    }

    @Test("an open dispute offers won and lost, and Open only as a disabled button that says the rule")
    func openDispute() throws {
        let served = try Served()
        let purchaseId = try order(served, "pay", granted: true)
        #expect(try post(served, "/orders/\(purchaseId)/dispute", "outcome=open").status == 303)
        let html = try page(served, purchaseId)
        #expect(html.contains(#"<button type="submit" name="outcome" value="won">"#))
        #expect(
            html.contains(
                #"<button type="submit" name="outcome" value="open" disabled title="the order is payment_dispute_open; "#
                    + "its dispute is open already: resolve it, won or lost"))
    }

    // MARK: The timeline

    @Test("the timeline names the player's choice, the award's outcome and a manual retry")
    func timeline() throws {
        let served = try Served()
        let declined = try page(served, try order(served, "decline"))
        #expect(declined.contains("the player declined"))
        #expect(declined.contains(#"<span class="pill failed">Payment failed</span>"#))
        let pending = try order(served, "pending")
        #expect(try page(served, pending).contains("the payment was left pending"))
        #expect(try post(served, "/orders/\(pending)/resolve", "outcome=failed").status == 303)
        let resolved = try page(served, pending)
        let left = try #require(resolved.range(of: "the payment was left pending"))
        let created = try #require(resolved.range(of: "session created"))
        let refusedLater = try #require(resolved.range(of: "the pending payment was declined"))
        #expect(created.lowerBound < left.lowerBound && left.lowerBound < refusedLater.lowerBound)
        #expect(!offers(resolved, pending, "resolve") && !offers(resolved, pending, "refund"))
        let paid = try page(served, try order(served, "pay", granted: true))
        #expect(paid.contains("the player paid with Visa"))
        #expect(paid.contains("award granted"))
        #expect(paid.contains(#"<a href="/players/cust_98765">"#))

        let awards = Awards()
        served.sandbox.onPaid = { _, award in awards.add(award.body) }
        #expect(try post(served, "/orders/\(served.purchaseId)/retry-award").status == 303)
        let body = try #require(awards.last)
        let waiting = try page(served, served.purchaseId)
        #expect(
            waiting.contains(
                #"<button type="submit" disabled title="the award of \#(served.purchaseId) is being retried already"#))
        var attempt = DeliveryAttempt(number: 1, sentAfter: 0, headers: [("Content-Type", "application/json")])
        attempt.judge(status: 200, body: Array(#"{"publisherPurchaseId":"grant_1"}"#.utf8))
        served.sandbox.delivered(
            .award, purchaseId: served.purchaseId, name: "award", url: "http://127.0.0.1:8080/award", body: body,
            attempts: [attempt])
        served.sandbox.awardDelivered(purchaseId: served.purchaseId, failureData: nil)
        let retried = try page(served, served.purchaseId)
        #expect(retried.contains("manual retry"))
        #expect(retried.contains("award granted"))
        #expect(!offers(retried, served.purchaseId, "retry-award"))
        // The award's body, indented, its keys in their order.
        #expect(retried.contains("{\n  &quot;"), "\(retried)")
        #expect(retried.contains("&quot;awardFlow&quot;: &quot;manual_retry&quot;"))
    }

    @Test("on a clock that stands still the timeline keeps the story: the award, the refund, then its event")
    func standingClock() throws {
        let served = try Served()
        let purchaseId = try order(served, "pay")
        var award = DeliveryAttempt(number: 1, sentAfter: 0, headers: [("Content-Type", "application/json")])
        award.judge(status: 200, body: Array(#"{"publisherPurchaseId":"grant_1"}"#.utf8))
        award.microseconds = 40_000
        // The award's attempt counts milliseconds; the sandbox's wall clock whole seconds.
        award.sentAt = served.sandbox.now + 700
        served.sandbox.delivered(
            .award, purchaseId: purchaseId, name: "award", url: "http://127.0.0.1:8080/award",
            body: Array("{}".utf8), attempts: [award])
        served.sandbox.awardDelivered(purchaseId: purchaseId, failureData: nil)
        _ = try call(served, "/control/v1/sessions/\(purchaseId)/refund", "{}")
        var event = DeliveryAttempt(number: 1, sentAfter: 0, headers: [("Content-Type", "application/json")])
        event.judge(status: 200, body: [])
        event.sentAt = served.sandbox.now
        served.sandbox.delivered(
            .event, purchaseId: purchaseId, name: "order.refunded", url: "http://127.0.0.1:8080/events",
            body: Array("{}".utf8), attempts: [event])
        let html = try page(served, purchaseId)
        let granted = try #require(html.range(of: "award granted"))
        let asked = try #require(html.range(of: "refund asked for"))
        let processed = try #require(html.range(of: "refund processed"))
        let refunded = try #require(html.range(of: "<strong>order.refunded</strong>"))
        #expect(granted.lowerBound < asked.lowerBound, "the award before the refund it allowed")
        #expect(asked.lowerBound < processed.lowerBound && processed.lowerBound < refunded.lowerBound)
    }

    @Test("a JSON body is indented by two spaces, its members and numbers as written; other text is not JSON")
    func plainBody() {
        let shown = SandboxPage.pretty(Array("not json {".utf8))
        #expect(shown == nil)
        #expect(
            SandboxPage.pretty(Array(#"{"b":1.50,"a":[1,{"c":null}],"d":{}}"#.utf8)) == """
                {
                  "b": 1.50,
                  "a": [
                    1,
                    {
                      "c": null
                    }
                  ],
                  "d": {}
                }
                """)
    }

    // MARK: The banner

    @Test("the banner shows on its own order's page, across reloads for a minute, never for a token not issued")
    func bannerOnce() throws {
        let served = try Served()
        let purchaseId = try order(served, "pay", granted: true)
        let other = try order(served, "pay", granted: true)
        let refund = try post(served, "/orders/\(purchaseId)/refund", "outcome=refunded")
        let location = try #require(refund.header("Location"))
        let token = String(location.split(separator: "=").last ?? "")
        #expect(token.count == 32 && token.allSatisfy(\.isHexDigit), "\(location)")
        let elsewhere = try get(served, "/orders/\(other)?said=\(token)").body
        #expect(!elsewhere.contains(#"<p class="said"#), "another order's page")
        let first = try get(served, location).body
        #expect(first.contains(#"<p class="said">done: the order is payment_refunded</p>"#))
        let reloaded = try get(served, location).body
        #expect(reloaded.contains(#"<p class="said">done: the order is payment_refunded</p>"#), "a reload shows it")
        // A minute later the sandbox has forgotten it.
        for index in served.sandbox.notices.indices { served.sandbox.notices[index].made -= Sandbox.noticeLife }
        let later = try get(served, location).body
        #expect(!later.contains(#"<p class="said"#), "past its time")
        #expect(later.contains("<h2>Actions</h2>"))
        for guessed in ["1", "0", String(repeating: "0", count: 32), token.uppercased()] {
            let html = try get(served, "/orders/\(purchaseId)?said=\(guessed)").body
            #expect(!html.contains(#"<p class="said"#), "\(guessed)")
        }
    }

    @Test("the order's page reloads itself; the checkout's result page only while the order moves")
    func refreshing() throws {
        let served = try Served()
        #expect(try page(served, served.purchaseId).contains("<script>"))
        let form = try get(served, "/checkout/\(served.fresh.token)")
        #expect(!form.body.contains("<script>"), "the checkout form does not reload")
        let session = try #require(served.sandbox.heldSessions.first { $0.purchaseId == served.purchaseId })
        #expect(!SandboxPage.result(session).contains("<script>"), "a charge_failed order moves no more")
        var pending = session
        pending.state = .chargePending
        let moving = SandboxPage.result(pending)
        #expect(moving.contains("<script>"))
        #expect(!moving.contains("refresh to see"))
        #expect(moving.contains(#"<span class="pill pending">Charge pending</span>"#))
    }
}
