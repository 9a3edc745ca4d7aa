import Testing

@testable import PaylinksAppcharge
@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// Appcharge's books of one player, kept as check-books keeps them, and the invariant each
/// difference between them and the game's ledger is named by.
@Suite("check-books' books and findings")
@MainActor
struct CheckBooksUnitTests {
    /// A player's orders on Appcharge's side, and the books kept of them after every change.
    @MainActor
    final class Shop {
        let backend = AppchargeBackend(catalog: .builtIn, seed: 17)
        var books = PlayerBooks()
        private var clock = 1_718_182_312_000
        private var index = 0

        /// Buys `sku` at `price`, its award under `fault`.
        func buy(_ sku: String, price: Int = 499, fault: AwardFault? = nil) throws {
            let offer = try #require(Catalog.builtIn.offer(sku: sku))
            backend.awardFault = fault
            clock += 600_000
            index += 1
            let session = backend.createSession(
                CheckoutSale(
                    offer: offer, price: price, currency: "USD", customerId: "cust_books", country: "US",
                    environment: "sandbox", index: index, orderDate: clock / 1000),
                at: clock)
            _ = backend.openSession(purchaseId: session.purchaseId, at: clock + 350)
            _ = backend.player(.pay(paymentMethodName: "Visa"), in: session, at: clock + 18_350)
            backend.settle(at: clock + 18_950)
            backend.awardFault = nil
            try note()
        }

        /// Takes `actions` on the last order paid.
        func act(_ actions: OrderLife.Action...) throws {
            for action in actions {
                clock += 60_000
                try backend.act(action, at: clock)
                try note()
            }
        }

        /// Retries the last order's award, which reaches the game.
        func retryAward() throws {
            clock += 60_000
            try backend.retryAward(at: clock)
            try note()
        }

        private func note() throws {
            books.note(try #require(backend.lastPaidSession))
        }
    }

    @Test("a paid order is held, and one refunded in full or lost in a dispute is not")
    func holdings() throws {
        let shop = Shop()
        try shop.buy("starter_pack_001")
        #expect(shop.books.holdings(.keep) == ["gem_01": 100])
        try shop.buy("builders_bundle")
        #expect(shop.books.holdings(.keep) == ["gem_01": 600, "coin_01": 20000, "hammer_01": 3])
        try shop.act(.openDispute)
        #expect(shop.books.holdings(.keep) == ["gem_01": 600, "coin_01": 20000, "hammer_01": 3], "open: still held")
        try shop.act(.resolveDispute(won: false))
        #expect(shop.books.holdings(.keep) == ["gem_01": 100])
        try shop.buy("builders_bundle")
        try shop.act(.requestRefund(amount: nil))
        #expect(shop.books.holdings(.keep)?["coin_01"] == 20000, "a refund pending holds")
        try shop.act(.processRefund(succeeded: true))
        #expect(shop.books.holdings(.keep) == ["gem_01": 100])
        #expect(shop.books.holdings(.revoke) == ["gem_01": 100])
        #expect(shop.books.orders.map(\.state) == [.chargeSucceed, .paymentDisputeLost, .paymentRefunded])
    }

    @Test("a partial refund's products stay under keep and go under revoke")
    func partialRefund() throws {
        let shop = Shop()
        try shop.buy("starter_pack_001")
        try shop.act(.requestRefund(amount: 100), .processRefund(succeeded: true))
        #expect(shop.books.orders.last?.refunded == 100)
        #expect(shop.books.holdings(.keep) == ["gem_01": 100])
        #expect(shop.books.holdings(.revoke) == [:])
    }

    @Test("an order whose award failed makes the books say nothing until Retry Award grants it or it is refunded")
    func chargeFailed() throws {
        let shop = Shop()
        try shop.buy("builders_bundle")
        try shop.buy("starter_pack_001", fault: .answerLost)
        #expect(shop.books.orders.last?.state == .chargeFailed)
        #expect(shop.books.holdings(.keep) == nil)
        try shop.retryAward()
        #expect(shop.books.holdings(.keep) == ["gem_01": 600, "coin_01": 20000, "hammer_01": 3])
        try shop.buy("starter_pack_001", fault: .drop)
        #expect(shop.books.holdings(.keep) == nil)
        try shop.act(.requestRefund(amount: nil), .processRefund(succeeded: true))
        #expect(shop.books.holdings(.keep) == ["gem_01": 600, "coin_01": 20000, "hammer_01": 3])
    }

    @Test("a free order is held as a paid one is")
    func free() throws {
        let shop = Shop()
        try shop.buy("starter_pack_001", price: 0)
        #expect(shop.books.orders.map(\.state) == [.chargeSucceed])
        #expect(shop.books.holdings(.keep) == ["gem_01": 100])
    }

    /// An order of the gem pack in `state`, granted, changed at `changed`.
    nonisolated static func order(_ state: OrderState, refunded: Int? = nil, granted: Bool = true, changed: Int = 1)
        -> PlayerBooks.Order
    {
        PlayerBooks.Order(
            purchaseId: "pr_\(changed)", orderId: "\(changed)", sku: "starter_pack_001", products: ["gem_01": 100],
            state: state, price: 499, currency: "USD", usdCents: 499, refunded: refunded, granted: granted,
            changed: changed)
    }

    @Test(
        "a difference is named by the order that explains it",
        arguments: [
            (order(.paymentRefunded), true, PlayerBooks.PartialRefundRule.keep, "refunded but still held"),
            (order(.paymentRefunded, refunded: 100), true, .revoke, "refunded but still held"),
            (order(.paymentRefunded, refunded: 100), true, .keep, "granted twice"),
            (order(.paymentDisputeLost), true, .keep, "dispute lost but still held"),
            (order(.paymentDisputeWon), false, .keep, "dispute won but revoked"),
            (order(.paymentDisputeOpen), false, .keep, "revoked while the dispute is open"),
            (order(.paymentDisputeEvidenceSubmitted), false, .keep, "revoked while the dispute is open"),
            (order(.paymentRefunded), false, .keep, "revoked twice"),
            (order(.paymentDisputeLost), false, .keep, "revoked twice"),
            (order(.chargeSucceed), true, .keep, "granted twice"),
            (order(.chargeSucceed), false, .keep, "paid but never granted"),
            (order(.paymentRefundPending), false, .keep, "revoked though still paid"),
            (order(.paymentRefundFailed), false, .keep, "revoked though still paid"),
        ])
    func classification(
        order: PlayerBooks.Order, excess: Bool, rule: PlayerBooks.PartialRefundRule, invariant: String
    ) {
        #expect(BooksFinding.broken(excess: excess, below: false, suspects: [order], rule: rule).rawValue == invariant)
        // Below zero is named first, whatever explains it.
        #expect(BooksFinding.broken(excess: excess, below: true, suspects: [order], rule: rule) == .belowZero)
    }

    @Test("the latest order that explains a difference names it; with none to suspect, paid but never granted")
    func latestFirst() {
        let refunded = Self.order(.paymentRefunded, changed: 2)
        let lost = Self.order(.paymentDisputeLost, changed: 3)
        let paid = Self.order(.chargeSucceed, changed: 4)
        #expect(
            BooksFinding.broken(excess: true, below: false, suspects: [paid, lost, refunded], rule: .keep)
                == .disputeLostButStillHeld)
        #expect(
            BooksFinding.broken(excess: true, below: false, suspects: [paid, refunded, lost], rule: .keep)
                == .refundedButStillHeld)
        #expect(BooksFinding.broken(excess: false, below: false, suspects: [], rule: .keep) == .paidButNeverGranted)
        #expect(
            BooksFinding.broken(
                excess: false, below: false, suspects: [Self.order(.paymentRefundPending), paid], rule: .keep)
                == .paidButNeverGranted, "an order just paid among them")
    }

    @Test("a difference is named by the orders that changed since the books last balanced, not by older ones")
    func sinceBalanced() throws {
        let shop = Shop()
        try shop.buy("starter_pack_001")
        try shop.act(.openDispute, .resolveDispute(won: false))
        // The ledger showed the lost dispute taken back: the books balanced here.
        let balanced = shop.books.changes
        try shop.buy("starter_pack_001")
        let purchase = ScenarioStep.Checkout(sku: "starter_pack_001", player: .pay(paymentMethodName: "Visa"))
        let step = ScenarioStep(number: 5, attempt: nil, action: .checkout(purchase), kind: .purchase)
        // Then the ledger shows the new order's gems twice.
        let finding = BooksFinding(
            player: "cust_books", expected: ["gem_01": 100], held: ["gem_01": 200], books: shop.books, rule: .keep,
            step: step, acted: shop.backend.lastPaid, since: balanced)
        #expect(finding.invariant == .grantedTwice)
        #expect(finding.sku == "gem_01" && finding.expected == 100 && finding.held == 200)
        #expect(finding.orders == shop.books.orders.map(\.purchaseId))
        #expect(finding.orders.count == 2)
        #expect(finding.order?.purchaseId == shop.backend.lastPaid)
        #expect(
            finding.line.hasPrefix(
                "granted twice: player cust_books holds 200 gem_01 where Appcharge's books say 100 (order pr_"))
        #expect(finding.line.hasSuffix(", $4.99 at stake), after step 5 (purchase)"))
        // Had the books never balanced, the lost dispute would be suspected first.
        let never = BooksFinding(
            player: "cust_books", expected: ["gem_01": 100], held: ["gem_01": 200], books: shop.books, rule: .keep,
            step: step, acted: shop.backend.lastPaid, since: 0)
        #expect(never.invariant == .disputeLostButStillHeld)
    }
}
