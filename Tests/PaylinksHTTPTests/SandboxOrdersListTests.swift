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

    @Test("a field longer than its limit is cut, never refused")
    func longFields() {
        let long = String(repeating: "é", count: 10_000)
        let query = OrdersQuery("q=\(long)&player=\(long)")
        #expect(query.search.unicodeScalars.count == OrdersQuery.fieldLimit)
        #expect(query.player.unicodeScalars.count == OrdersQuery.fieldLimit)
    }
}
