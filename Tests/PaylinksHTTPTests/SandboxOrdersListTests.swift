import Foundation
import PaylinksAppcharge
import PaylinksKit
import Testing

@testable import PaylinksHTTP
@testable import PaylinksSandbox

/// The money of the orders a list matched, summed by Appcharge's rules, without a sandbox.
@Suite("The orders list's totals")
struct OrderTotalsTests {
    @Test("every order ever paid counts its price; a refund its amount; a lost dispute its price; Net what is left")
    func moneyRules() {
        var totals = OrderTotals()
        totals.add(state: .chargeSucceed, price: 499, refundAmount: nil, currency: "USD")
        totals.add(state: .chargeFailed, price: 100, refundAmount: nil, currency: "USD")
        totals.add(state: .paymentRefunded, price: 499, refundAmount: 499, currency: "USD")
        totals.add(state: .paymentRefunded, price: 499, refundAmount: 200, currency: "USD")
        totals.add(state: .paymentDisputeLost, price: 499, refundAmount: nil, currency: "USD")
        totals.add(state: .paymentDisputeWon, price: 300, refundAmount: nil, currency: "USD")
        totals.add(state: .paymentRefundFailed, price: 50, refundAmount: 50, currency: "USD")
        // Never paid: nothing to count, though the order matched.
        totals.add(state: .created, price: 999, refundAmount: nil, currency: "USD")
        totals.add(state: .paymentFailed, price: 999, refundAmount: nil, currency: "USD")
        totals.add(state: .chargePending, price: 999, refundAmount: nil, currency: "USD")
        totals.add(state: .paymentCanceled, price: 999, refundAmount: nil, currency: "USD")
        let usd = totals["USD"]
        #expect(usd.paid == 499 + 100 + 499 + 499 + 499 + 300 + 50)
        #expect(usd.refunded == 499 + 200)
        #expect(usd.disputed == 499)
        #expect(usd.net == 2446 - 699 - 499)
        #expect(totals.count == 11)
        #expect(totals.currencies == ["USD"])
    }

    @Test("each currency sums apart, in its own minor units, listed by code; a free order counts 0")
    func byCurrency() {
        var totals = OrderTotals()
        totals.add(state: .chargeSucceed, price: 549, refundAmount: nil, currency: "EUR")
        totals.add(state: .chargeSucceed, price: 1200, refundAmount: nil, currency: "JPY")
        totals.add(state: .paymentRefunded, price: 1200, refundAmount: 1200, currency: "JPY")
        totals.add(state: .chargeSucceed, price: 0, refundAmount: nil, currency: "USD")
        #expect(totals.currencies == ["EUR", "JPY", "USD"])
        #expect(totals["EUR"] == OrderTotals.Sums(paid: 549, refunded: 0, disputed: 0))
        #expect(totals["JPY"] == OrderTotals.Sums(paid: 2400, refunded: 1200, disputed: 0))
        #expect(totals["USD"] == OrderTotals.Sums(paid: 0, refunded: 0, disputed: 0))
        #expect(totals["GBP"].net == 0, "a currency no order has sums to nothing")
    }

    @Test("sums past Int's range stop at its end instead of trapping")
    func noTrap() {
        var totals = OrderTotals()
        totals.add(state: .chargeSucceed, price: Int.max, refundAmount: nil, currency: "USD")
        totals.add(state: .chargeSucceed, price: Int.max, refundAmount: nil, currency: "USD")
        #expect(totals["USD"].paid == Int.max)
    }
}

/// What the orders list reads of its query, without a sandbox.
@Suite("The orders list's query")
struct OrdersQueryTests {
    @Test("every field is read, percent-decoded and trimmed; a link keeps each, encoded, with the page")
    func fields() {
        let query = OrdersQuery(
            "state=payment_dispute_lost&player=+cust%20one+&offer=starter_pack_001&from=2024-06-01&to=2024-06-30"
                + "&q=PR_&page=2&said=4")
        #expect(query.state == .exact(.paymentDisputeLost))
        #expect(query.player == "cust one")
        #expect(query.offer == "starter_pack_001")
        #expect(query.from == "2024-06-01" && query.to == "2024-06-30")
        #expect(query.search == "PR_")
        #expect(query.page == 2)
        #expect(query.problems.isEmpty)
        #expect(
            query.link(page: 3)
                == "/?state=payment_dispute_lost&player=cust%20one&offer=starter_pack_001&from=2024-06-01"
                + "&to=2024-06-30&q=PR_&page=3")
        #expect(OrdersQuery("state=Refunded").state == .kind(.refunded))
        #expect(OrdersQuery("").link(page: 1) == "/?page=1")
    }

    @Test(
        "a value that is not one is left out, and a problem says what it takes",
        arguments: [
            ("state=bogus", "the state 'bogus' is neither"),
            ("from=2024-6-1", "from '2024-6-1' is not a date"),
            ("to=2024-02-30", "to '2024-02-30' is not a date"),
            ("from=2024-06-01T00:00:00Z", "from '2024-06-01T00:00:00Z' is not a date"),
            ("page=0", "page '0' is not a page number"),
            ("page=two", "page 'two' is not a page number"),
            ("page=1e3", "page '1e3' is not a page number"),
        ])
    func badValues(text: String, problem: String) {
        let query = OrdersQuery(text)
        #expect(query.problems.count == 1)
        #expect(query.problems.first?.hasPrefix(problem) == true, "\(query.problems)")
        #expect(query.state == nil && query.from == nil && query.to == nil && query.page == 1)
    }

    @Test("from after to says so: no day is in both")
    func reversedDays() {
        let query = OrdersQuery("from=2026-12-06&to=2026-12-01")
        #expect(
            query.problems == [
                "from 2026-12-06 is after to 2026-12-01: no day is in both, so no order matches; swap them"
            ])
    }

    @Test("a field longer than its limit is cut, never refused")
    func longFields() {
        let long = String(repeating: "é", count: 10_000)
        let query = OrdersQuery("q=\(long)&player=\(long)")
        #expect(query.search.unicodeScalars.count == OrdersQuery.fieldLimit)
        #expect(query.player.unicodeScalars.count == OrdersQuery.fieldLimit)
    }
}

/// The dashboard's orders list, `GET /`, on a sandbox driven through its control API:
/// filters, search, totals, pages, and what it says of a query it cannot take.
@Suite("The orders list")
struct SandboxOrdersListTests {
    /// A sandbox whose clock a test moves, and the calls that make its orders.
    final class Served: @unchecked Sendable {
        /// The time the sandbox reads.
        final class Clock: @unchecked Sendable {
            var now = 1_718_182_312_000
        }

        let clock = Clock()
        let sandbox: Sandbox

        /// The sandbox's time, Unix milliseconds: 2024-06-12T08:51:52Z to begin with.
        var now: Int {
            get { clock.now }
            set { clock.now = newValue }
        }

        init() {
            let settings = Sandbox.Settings(baseURL: "http://127.0.0.1:4010", publisherToken: "token-1", seed: 7)
            let clock = clock
            sandbox = Sandbox(catalog: .builtIn, settings: settings, clock: { clock.now })
            sandbox.onPaid = { _, _ in }
        }

        /// Answers a request as the server does.
        func send(_ method: HTTPMethod, _ path: String, query: String = "", body: String = "") -> HTTPServerResponse {
            sandbox.handleChecked(
                HTTPRequest(
                    method: method, path: path, query: query,
                    headers: [
                        HTTPHeader("Host", "127.0.0.1:4010"), HTTPHeader("Content-Type", "application/json"),
                        HTTPHeader("x-publisher-token", "token-1"),
                    ],
                    body: Array(body.utf8), keepAlive: true))
        }

        /// The list for `query`: its status and its HTML.
        func list(_ query: String = "") -> (status: Int, html: String) {
            let answer = send(.get, "/", query: query)
            return (answer.status, String(decoding: answer.body, as: UTF8.self))
        }

        /// A new session of `player` for `sku` at `price` in `currency`: its purchase id and order id.
        @discardableResult
        func create(
            player: String = "cust_1", sku: String = "starter_pack_001", price: Int = 499, currency: String = "USD"
        )
            throws -> (purchaseId: String, orderId: String)
        {
            let body = """
                {"priceDetails": {"price": \(price), "currency": "\(currency)"},
                 "offer": {"name": "Offer \(sku)", "sku": "\(sku)"},
                 "customer": {"id": "\(player)"}, "countryCode2": "US"}
                """
            let answer = send(.post, "/checkout/v1/session", body: body)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
            let purchaseId = try #require(json["purchaseId"] as? String, "\(json)")
            let orderId = try #require(sandbox.heldSessions.first { $0.purchaseId == purchaseId }?.orderId)
            return (purchaseId, orderId)
        }

        /// Pays the session of `purchaseId` and grants its award: Succeeded.
        func pay(_ purchaseId: String) {
            #expect(
                send(.post, "/control/v1/sessions/\(purchaseId)/complete", body: #"{"choice": "pay"}"#).status == 200)
            sandbox.awardDelivered(purchaseId: purchaseId, failureData: nil)
        }

        /// A new order, paid.
        @discardableResult
        func paid(
            player: String = "cust_1", sku: String = "starter_pack_001", price: Int = 499, currency: String = "USD"
        )
            throws -> (purchaseId: String, orderId: String)
        {
            let made = try create(player: player, sku: sku, price: price, currency: currency)
            pay(made.purchaseId)
            return made
        }

        /// Refunds the order of `purchaseId`, all of it or `amount`.
        func refund(_ purchaseId: String, amount: Int? = nil) {
            let body = amount.map { #"{"outcome": "refunded", "amount": \#($0)}"# } ?? #"{"outcome": "refunded"}"#
            #expect(send(.post, "/control/v1/sessions/\(purchaseId)/refund", body: body).status == 200)
        }

        /// Takes the order of `purchaseId` to a dispute with `outcome`.
        func dispute(_ purchaseId: String, _ outcome: String) {
            #expect(
                send(.post, "/control/v1/sessions/\(purchaseId)/dispute", body: #"{"outcome": "\#(outcome)"}"#).status
                    == 200)
        }
    }

    /// The purchase ids of the rows of `html`'s orders table, in their order.
    static func rows(_ html: String) -> [String] {
        html.components(separatedBy: #"<tr data-purchase-id=""#).dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
    }

    /// The `<tr>` of `currency` in `html`'s totals.
    static func totalsRow(_ html: String, _ currency: String) -> String {
        let start = html.components(separatedBy: #"<tr data-currency="\#(currency)">"#).dropFirst().first ?? ""
        return start.components(separatedBy: "</tr>").first ?? ""
    }

    /// `<a rel="rel" href="...">`'s href in `html`, unescaped once.
    static func link(_ html: String, rel: String) -> String? {
        html.components(separatedBy: #"<a rel="\#(rel)" href=""#).dropFirst().first.map {
            String($0.prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    @Test("an empty sandbox says how to create a session; an unmatched filter says so and links to all")
    func emptyStates() throws {
        let served = Served()
        let empty = served.list()
        #expect(empty.status == 200)
        #expect(empty.html.contains("No sessions yet"))
        #expect(empty.html.contains("POST /checkout/v1/session"))
        try served.create()
        let none = served.list("state=refunded")
        #expect(none.status == 200)
        #expect(none.html.contains("No order matches"))
        #expect(none.html.contains(#"<a href="/">"#))
        #expect(Self.rows(none.html).isEmpty)
    }

    @Test("each row links its purchase and its player, shows the state's pill, and is labelled for narrow screens")
    func rowMarkup() throws {
        let served = Served()
        let (purchaseId, _) = try served.paid(player: "cust a/b?")
        served.refund(purchaseId, amount: 200)
        let html = served.list().html
        #expect(Self.rows(html) == [purchaseId])
        #expect(html.contains(#"<a href="/orders/\#(purchaseId)">"#))
        #expect(html.contains(#"<a href="/players/cust%20a%2Fb%3F">cust a/b?</a>"#), "\(html)")
        #expect(html.contains(SandboxPage.statePill(.paymentRefunded, partialRefund: "2.00 USD")))
        for label in ["Purchase", "Offer", "Price", "Player", "State", "Created"] {
            #expect(html.contains(#"data-label="\#(label)""#), "\(label)")
        }
        #expect(html.contains("2024-06-12 08:51:52 UTC"))
        #expect(html.contains(#"<th scope="col">Purchase</th>"#))
        #expect(html.contains(#"<table class="orders cards">"#), "the labels show under 640 px")
        #expect(html.contains("table.cards td[data-label]::before"))
    }

    @Test("the state filter takes a kind or an exact state; the player and the offer filters take one exactly")
    func filters() throws {
        let served = Served()
        let succeeded = try served.paid(player: "alice", sku: "starter_pack_001").purchaseId
        let refunded = try served.paid(player: "bob", sku: "builders_bundle").purchaseId
        served.refund(refunded)
        let won = try served.paid(player: "alice", sku: "builders_bundle").purchaseId
        served.dispute(won, "won")
        let lost = try served.paid(player: "bob").purchaseId
        served.dispute(lost, "lost")
        let open = try served.create(player: "alice").purchaseId
        #expect(Set(Self.rows(served.list().html)) == [succeeded, refunded, won, lost, open])
        #expect(Self.rows(served.list().html) == [open, lost, won, refunded, succeeded], "newest first")
        #expect(Self.rows(served.list("state=paid").html) == [succeeded])
        #expect(Self.rows(served.list("state=disputed").html) == [lost, won])
        #expect(Self.rows(served.list("state=payment_dispute_lost").html) == [lost])
        #expect(Self.rows(served.list("state=closed").html) == [open])
        #expect(Self.rows(served.list("player=alice").html) == [open, won, succeeded])
        #expect(Self.rows(served.list("player=ali").html).isEmpty, "a player is named exactly")
        #expect(Self.rows(served.list("offer=builders_bundle").html) == [won, refunded])
        #expect(Self.rows(served.list("offer=builders_bundle&player=bob").html) == [refunded])
        // The form shows what it filtered by.
        let html = served.list("state=payment_dispute_lost&player=bob&offer=builders_bundle").html
        #expect(html.contains(#"<form method="get" action="/" class="filters">"#))
        #expect(html.contains(#"<option value="payment_dispute_lost" selected>"#))
        #expect(html.contains(#"<option value="builders_bundle" selected>"#))
        #expect(html.contains(#"name="player" value="bob""#))
        #expect(html.contains(#"<option value="disputed">Disputed</option>"#))
    }

    @Test("from and to take UTC days, inclusive, by when each order was created")
    func dates() throws {
        let served = Served()
        let day = 86_400_000
        // 2024-06-12, 2024-06-13 at 23:59:59.999 UTC, 2024-06-15.
        let first = try served.paid().purchaseId
        served.now = 1_718_323_199_999
        let second = try served.paid().purchaseId
        served.now += 2 * day
        let third = try served.paid().purchaseId
        #expect(Self.rows(served.list("from=2024-06-13").html) == [third, second])
        #expect(Self.rows(served.list("to=2024-06-13").html) == [second, first])
        #expect(Self.rows(served.list("from=2024-06-13&to=2024-06-13").html) == [second])
        #expect(Self.rows(served.list("from=2024-06-14&to=2024-06-14").html).isEmpty)
        let html = served.list("from=2024-06-13&to=2024-06-14").html
        #expect(html.contains(#"<input type="date" name="from" value="2024-06-13""#))
        #expect(html.contains(#"<input type="date" name="to" value="2024-06-14""#))
    }

    @Test("q finds a purchase id, an order id or a player by any part of it, in either case")
    func search() throws {
        let served = Served()
        let first = try served.paid(player: "Player-One")
        let second = try served.paid(player: "someone")
        let unpaid = try served.create(player: "third")
        #expect(Self.rows(served.list("q=\(first.purchaseId.uppercased())").html) == [first.purchaseId])
        #expect(Self.rows(served.list("q=\(second.purchaseId.dropFirst(5).prefix(8))").html) == [second.purchaseId])
        #expect(Self.rows(served.list("q=\(first.orderId)").html) == [first.purchaseId])
        #expect(Self.rows(served.list("q=\(unpaid.orderId)").html).isEmpty, "an order not made yet has no id to find")
        #expect(Self.rows(served.list("q=player-o").html) == [first.purchaseId])
        #expect(Self.rows(served.list("q=ONE").html) == [second.purchaseId, first.purchaseId])
        #expect(served.list("q=ONE").html.contains(#"name="q" value="ONE""#))
    }

    @Test("the totals of a full refund, a partial refund and a lost dispute, in cents, for every page of the match")
    func totals() throws {
        let served = Served()
        try served.paid()
        let full = try served.paid().purchaseId
        served.refund(full)
        let partial = try served.paid().purchaseId
        served.refund(partial, amount: 150)
        let lost = try served.paid().purchaseId
        served.dispute(lost, "lost")
        try served.create()
        try served.paid(price: 549, currency: "EUR")
        // Paid 4 × 499 = 1996; refunded 499 + 150 = 649; disputed 499; net 1996 − 649 − 499 = 848.
        let html = served.list().html
        #expect(html.contains(#"<table class="totals cards">"#))
        let usd = Self.totalsRow(html, "USD")
        #expect(usd.contains(#"<td data-label="Paid">19.96 USD</td>"#), "\(usd)")
        #expect(usd.contains(#"<td data-label="Refunded">6.49 USD</td>"#))
        #expect(usd.contains(#"<td data-label="Disputed">4.99 USD</td>"#))
        #expect(usd.contains(#"<td data-label="Net">8.48 USD</td>"#))
        let eur = Self.totalsRow(html, "EUR")
        #expect(
            eur.contains(#"<td data-label="Paid">5.49 EUR</td>"#)
                && eur.contains(#"<td data-label="Net">5.49 EUR</td>"#))
        #expect(html.contains("6 orders"), "every session is counted")
        // The filter's totals only.
        let refunded = served.list("state=refunded").html
        #expect(refunded.contains("2 orders match"))
        #expect(Self.totalsRow(refunded, "USD").contains(#"<td data-label="Net">3.49 USD</td>"#))
        #expect(!refunded.contains(#"data-currency="EUR""#))
    }

    @Test("120 orders are 3 pages of 50, each linking the next and the previous with the filter kept")
    func pages() throws {
        let served = Served()
        for index in 0..<120 { try served.create(player: index.isMultiple(of: 2) ? "even one" : "odd") }
        try served.create(player: "other")
        let first = served.list("q=o&player=even+one&page=1")
        let all = Self.rows(served.list("q=o&player=even%20one").html)
        #expect(all.count == 50 && Self.rows(first.html) == all)
        #expect(first.html.contains("page 1 of 2"))
        #expect(Self.link(first.html, rel: "prev") == nil)
        #expect(Self.link(first.html, rel: "next") == "/?player=even%20one&q=o&page=2")

        let everything = served.list().html
        #expect(everything.contains("page 1 of 3") && everything.contains("121 orders"))
        let next = try #require(Self.link(everything, rel: "next"))
        #expect(next == "/?page=2")
        let second = served.list("page=2").html
        #expect(Self.rows(second).count == 50)
        #expect(Set(Self.rows(second)).isDisjoint(with: Self.rows(everything)))
        #expect(Self.link(second, rel: "prev") == "/?page=1")
        #expect(Self.link(second, rel: "next") == "/?page=3")
        let third = served.list("page=3").html
        #expect(Self.rows(third).count == 21)
        #expect(third.contains("page 3 of 3"))
        #expect(Self.link(third, rel: "next") == nil)
        #expect(Set(Self.rows(everything) + Self.rows(second) + Self.rows(third)).count == 121)

        let past = served.list("page=9")
        #expect(past.status == 200)
        #expect(Self.rows(past.html).isEmpty)
        #expect(past.html.contains(#"<a href="/?page=1">"#), "a page past the end links back to the first")
        #expect(served.list("page=\(Int.max)").status == 200)
    }

    @Test("a hostile value is echoed escaped, in the form, the links and the problem line alike")
    func hostile() throws {
        let served = Served()
        try served.create()
        let hostile = #""><script>alert(1)</script>'"#
        let encoded = PercentCoding.encoded(hostile)
        let answer = served.list("player=\(encoded)&q=\(encoded)&state=\(encoded)&offer=\(encoded)&from=\(encoded)")
        #expect(answer.status == 200)
        #expect(!answer.html.contains("<script>alert"))
        #expect(answer.html.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39;"))
        #expect(answer.html.contains("No order matches"))
        let long = served.list("q=" + String(repeating: "%41", count: 40_000))
        #expect(long.status == 200)
        #expect(long.html.utf8.count < 64 << 10)
    }

    @Test(
        "a value the list cannot take is answered 200 with the list unfiltered by it and a line that says what it takes",
        arguments: [
            ("state=nope", "the state &#39;nope&#39; is neither"),
            ("from=12/06/2024", "from &#39;12/06/2024&#39; is not a date"),
            ("to=2024-13-01", "to &#39;2024-13-01&#39; is not a date"),
            ("page=0", "page &#39;0&#39; is not a page number"),
            ("page=-1", "page &#39;-1&#39; is not a page number"),
        ])
    func badValues(query: String, said: String) throws {
        let served = Served()
        let made = try served.paid()
        let answer = served.list(query)
        #expect(answer.status == 200)
        #expect(answer.html.contains(#"<p class="said problem">\#(said)"#), "\(answer.html)")
        #expect(Self.rows(answer.html) == [made.purchaseId], "the field is left out, the rest still filters")
    }

    @Test("the list reloads itself, keeps the clock and the blocked players, and lists all the sandbox serves")
    func keeps() throws {
        let served = Served()
        #expect(served.send(.post, "/control/v1/blocked-players", body: #"{"id": "cheater"}"#).status == 201)
        let html = served.list().html
        #expect(html.contains("<script>"))
        #expect(html.contains("<h2>Blocked players</h2>"))
        #expect(html.contains("Clock: "))
        for served in [
            "POST /checkout/api/v1/order/ORDER_ID/refund", "/v1/price-points", "GET /orders/PURCHASE_ID",
            "GET /players/PLAYER_ID", "GET /control/v1/export", "POST /control/v1/reset", "GET /control/v1/health",
        ] {
            #expect(html.contains(served), "\(served)")
        }
    }

    @Test("the search finds a part in either case, after a false start, in a long id")
    func searchParts() throws {
        let served = Served()
        let (purchaseId, _) = try served.paid(player: "aaab_Player")
        try served.paid(player: "zzz")
        #expect(served.list("q=AAB").html.contains(purchaseId), "a match after a false start at the first a")
        #expect(served.list("q=b_play").html.contains(purchaseId))
        #expect(!served.list("q=aaaa").html.contains(purchaseId))
        // A long id and a long search that nearly matches it at every place.
        let long = String(repeating: "a", count: 200_000)
        let (longId, _) = try served.create(player: long)
        let search = String(repeating: "a", count: OrdersQuery.fieldLimit - 1) + "b"
        let missed = served.list("q=\(search)")
        #expect(missed.status == 200 && !missed.html.contains(longId))
        #expect(served.list("q=\(String(repeating: "A", count: 2_000))").html.contains(longId))
    }

    @Test("the offer filter offers the offers the sessions were sold with, beside the catalog's")
    func heldOffers() throws {
        let served = Served()
        try served.paid(sku: "gem_pack_big")
        let html = served.list().html
        #expect(html.contains(#"<option value="gem_pack_big">Offer gem_pack_big (gem_pack_big)</option>"#))
        #expect(html.contains(#"<option value="starter_pack_001">"#), "the catalog's too")
    }

    @Test("a control character a query or a session carries shows as U+FFFD, never raw")
    func controlCharacters() {
        let served = Served()
        let html = served.list("q=a%00b%1Bc&player=x%07y").html
        #expect(html.contains("a\u{FFFD}b\u{FFFD}c") && html.contains("x\u{FFFD}y"))
        #expect(!html.unicodeScalars.contains { $0.value < 0x20 && ![9, 10, 13].contains($0.value) })
    }
}
