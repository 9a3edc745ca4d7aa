import PaylinksAppcharge
import PaylinksKit
import Testing

/// A paid order's life after its award, and the events Appcharge sends about it.
@Suite("After the purchase")
struct OrderLifeTests {
    static let order = OrderResponseModel(
        date: 1_718_182_312, sessionToken: "3ca9f9b79a8f7a314612ec853f586024", offerName: "Starter Pack",
        offerSku: "starter_pack_001", items: [.init(name: "Gems", sku: "gem_01", quantity: "100")], price: 549,
        currency: "EUR", customerId: "cust_98765", customerCountry: "DE", paymentMethodName: "Visa",
        orderId: "7217127911", purchaseId: "pr_b6pu3vuq0dhoz2scxoyr2a9h")
    /// Its money: 5.49 EUR at the $4.99 price point, German tax and rate.
    static let money = OrderMoney(order: order, pricePoint: 499, catalog: .builtIn)

    @Test("a full refund: requested, then processed; its transitions are values, and a second refund is refused")
    func fullRefund() throws {
        var life = OrderLife(state: .chargeSucceed, price: 549)
        let requested = try life.apply(.requestRefund(amount: nil))
        #expect(
            requested
                == .init(
                    action: .requestRefund(amount: nil), from: .chargeSucceed, to: .paymentRefundPending, event: nil))
        let processed = try life.apply(.processRefund(succeeded: true))
        #expect(processed.to == .paymentRefunded && processed.event == .refunded)
        #expect(life.refundAmount == 549 && life.granted)
        #expect(throws: OrderLife.Refusal.alreadyRefunded) { try life.apply(.requestRefund(amount: nil)) }
        #expect(life.transitions.map(\.to) == [.paymentRefundPending, .paymentRefunded])
    }

    @Test("only charge_succeed or charge_failed orders can be refunded; an amount must be within the price")
    func refundRules() throws {
        for state in [OrderState.created, .paymentPending, .chargePending, .paymentFailed, .paymentCanceled] {
            var life = OrderLife(state: state, price: 549)
            #expect(throws: OrderLife.Refusal.notRefundable(state)) { try life.apply(.requestRefund(amount: nil)) }
        }
        var failed = OrderLife(state: .chargeFailed, price: 549)
        #expect(!failed.granted, "a refund of an order never granted must take nothing back")
        #expect(throws: OrderLife.Refusal.amount(550, price: 549)) { try failed.apply(.requestRefund(amount: 550)) }
        #expect(throws: OrderLife.Refusal.amount(0, price: 549)) { try failed.apply(.requestRefund(amount: 0)) }
        try failed.apply(.requestRefund(amount: 200))
        try failed.apply(.processRefund(succeeded: false))
        #expect(failed.state == .paymentRefundFailed && failed.refundAmount == 200)
        try failed.apply(.requestRefund(amount: nil))
        #expect(failed.state == .paymentRefundPending, "a failed refund may be requested again")
        #expect(
            OrderLife.Refusal.notRefundable(.paymentPending).message
                == "the order is payment_pending; only a charge_succeed or charge_failed order can be refunded")
    }

    @Test("a dispute needs a paid order: open, evidence, then won or lost; lost counts as refunded")
    func disputes() throws {
        var won = OrderLife(state: .chargeSucceed, price: 549)
        #expect(try won.apply(.openDispute).event == .disputeOpened)
        #expect(try won.apply(.submitEvidence).to == .paymentDisputeEvidenceSubmitted)
        #expect(try won.apply(.resolveDispute(won: true)).event == .disputeWon)
        var lost = OrderLife(state: .chargeFailed, price: 549)
        try lost.apply(.openDispute)
        #expect(try lost.apply(.resolveDispute(won: false)).to == .paymentDisputeLost)
        // A lost dispute took the money back already: not a refund, and it says why.
        #expect(throws: OrderLife.Refusal.notRefundable(.paymentDisputeLost)) {
            try lost.apply(.requestRefund(amount: nil))
        }
        #expect(OrderLife.Refusal.notRefundable(.paymentDisputeLost).message.contains("chargeback took its money back"))
        var unpaid = OrderLife(state: .paymentCanceled, price: 549)
        #expect(throws: OrderLife.Refusal.notDisputable(.paymentCanceled)) { try unpaid.apply(.openDispute) }
        #expect(throws: OrderLife.Refusal.noDisputeOpen(.chargeSucceed)) {
            var life = OrderLife(state: .chargeSucceed, price: 549)
            try life.apply(.resolveDispute(won: true))
        }
    }

    @Test("V2 and V1 names, results and retry rules, as documented")
    func names() {
        #expect(
            OrderEvent.Name.disputeLost.v2Name == "order.dispute.resolved"
                && OrderEvent.Name.disputeLost.result == "lost")
        #expect(OrderEvent.Name(v2Name: "order.dispute.resolved", result: "won") == .disputeWon)
        #expect(OrderEvent.Name(v2Name: "order.refunded", result: nil) == .refunded)
        #expect(OrderEvent.Name(v2Name: "order.refund", result: nil) == nil)
        #expect(
            OrderEvent.Name.allCases.map(\.v1Name) == [
                "order_created", "payment_intent_success", "payment_intent_failed", "order_completed_success",
                "order_cancelled", "order_refunded", "order_dispute_open", "order_dispute_won", "order_dispute_lost",
            ])
        #expect(OrderEvent.Version.v2.retryDelays == [0, 15_000, 15_000, 900_000])
        #expect(OrderEvent.Version.v1.retryDelays == [0, 300_000, 300_000, 300_000])
        #expect(OrderEvent.Version.v2.retries(status: 404) && OrderEvent.Version.v2.retries(status: nil))
        #expect(!OrderEvent.Version.v2.retries(status: 204))
        #expect(!OrderEvent.Version.v1.retries(status: 404) && OrderEvent.Version.v1.retries(status: 503))
        #expect(!OrderEvent.Version.v1.retries(status: nil))
    }

    @Test(
        "a V2 refund event, byte for byte: the award's purchaseId in transactions, each row at its own time, the refund's parts negative"
    )
    func v2Body() {
        let subject = OrderEvent.Subject(
            order: Self.order, money: Self.money, email: "player@example.com",
            transactions: [
                OrderTransaction(.paid, amount: 549, milliseconds: 1_718_100_000_000, number: 0),
                OrderTransaction(.refund, amount: 200, milliseconds: 1_718_182_400_000, number: 2),
            ])
        let event = OrderEvent(
            .refunded, version: .v2, subject: subject, milliseconds: 1_718_182_400_000, seed: 1, sequence: 4)
        let text = String(decoding: event.body, as: UTF8.self)
        #expect(
            text
                == #"{"eventName":"order.refunded","eventId":"\#(event.eventId)","timestamp":1718182400000,"sessionId":"3ca9f9b79a8f7a314612ec853f586024","result":null,"customer":{"id":"cust_98765","email":"player@example.com"},"offer":{"externalId":"starter_pack_001","name":"Starter Pack","products":[{"displayName":"Gems","productExternalId":"gem_01","productQuantity":"100"}]},"order":{"subtotal":461,"discountAmount":0,"totalPayment":549,"taxAmount":88,"currencyCode":"EUR","paymentMethod":"Visa","pricePointMetadata":499,"isSavedPaymentMethodUsed":false,"isNewPaymentMethodSaved":false},"geolocation":{"countryCode2":"DE"},"transactions":[{"purchaseId":"pr_b6pu3vuq0dhoz2scxoyr2a9h","type":"paid","timestamp":1718100000000,"amount":"5.49","amountUSD":"5.78","totalTaxAmount":"0.88","totalTaxAmountUsd":"0.93","currencyExchangeCostUsd":"0.09","chargeBackFeeUsd":"0.00","receiptNumber":"\#(receipt(text))"},{"purchaseId":"pr_b6pu3vuq0dhoz2scxoyr2a9h","type":"refund","timestamp":1718182400000,"amount":"-2.00","amountUSD":"-2.11","totalTaxAmount":"-0.32","totalTaxAmountUsd":"-0.34","currencyExchangeCostUsd":"-0.03","chargeBackFeeUsd":"0.00","receiptNumber":"\#(receipt(text))"}]}"#
        )
        // A UUID of version 4, the same for the same event, another for the next.
        #expect(event.eventId.count == 36 && event.eventId.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
        #expect(event.eventId.split(separator: "-")[2].hasPrefix("4"))
        let again = OrderEvent(
            .refunded, version: .v2, subject: subject, milliseconds: 1_718_182_999_000, seed: 1, sequence: 4)
        #expect(again.eventId == event.eventId)
        #expect(
            OrderEvent(.refunded, version: .v2, subject: subject, milliseconds: 0, seed: 1, sequence: 5).eventId
                != event.eventId)
    }

    /// The receipt number the body carries.
    func receipt(_ text: String) -> String {
        guard let start = text.range(of: #""receiptNumber":""#)?.upperBound,
            let end = text[start...].firstIndex(of: "\"")
        else { return "" }
        return String(text[start..<end])
    }

    @Test("a V1 lost dispute, flat: event, timestamp in seconds, appChargeOrderId the award's orderId")
    func v1Body() {
        let subject = OrderEvent.Subject(order: Self.order, money: Self.money)
        let event = OrderEvent(
            .disputeLost, version: .v1, subject: subject, milliseconds: 1_718_182_400_123, seed: 1, sequence: 0)
        let text = String(decoding: event.body, as: UTF8.self)
        #expect(text.hasPrefix(#"{"event":"order_dispute_lost","timestamp":1718182400,"appChargePaymentId":"pay_"#))
        #expect(text.contains(#""appChargeOrderId":"7217127911","playerId":"cust_98765","paymentMethod":"Visa""#))
        #expect(text.contains(#""estimatedPublisherNetAmount":4.03,"estimatedAppchargeFee":0.73"#))
        #expect(text.hasSuffix(#""products":[{"name":"Gems","sku":"gem_01","amount":100}]}}"#))
    }

    @Test("an event is signed over its exact bytes, with the publisher token and the project id")
    func headers() {
        let event = OrderEvent(
            .created, version: .v2, subject: .init(order: Self.order, money: Self.money), milliseconds: 1,
            seed: 1,
            sequence: 0)
        let key = HMACSHA256.Key(Array("key".utf8))
        let headers = event.headers(
            publisherToken: "token", projectId: "proj", milliseconds: 1_718_182_400_000, key: key)
        #expect(headers.map(\.name) == ["Content-Type", "x-publisher-token", "x-project-id", "signature"])
        #expect(
            headers.last?.value
                == GrantAward.signature(body: event.body, milliseconds: 1_718_182_400_000, key: Array("key".utf8)))
    }

    @Test("each event's story, lived by Appcharge's side, reaches that event once")
    @MainActor
    func stories() throws {
        let offer = try #require(Catalog.builtIn.offer(sku: "starter_pack_001"))
        for target in OrderEvent.Name.allCases {
            let plan = OrderStory.plan(for: target, refundAmount: target == .refunded ? 100 : nil)
            let backend = AppchargeBackend(catalog: .builtIn, seed: 7)
            var story: [OrderEvent.Name] = []
            backend.onHappening = { story.append($0.name) }
            let start = 1_718_182_312_000
            let session = backend.createSession(
                CheckoutSale(
                    offer: offer, price: 499, currency: "USD", customerId: "cust_98765", country: "US",
                    environment: "sandbox", index: 0, orderDate: 1_718_182_312),
                at: start)
            #expect(backend.openSession(purchaseId: session.purchaseId, at: start + 350) == session)
            let player: PlayerAction =
                switch plan.ending {
                case .paid: .pay(paymentMethodName: "Visa")
                case .declined: .pay(paymentMethodName: "Visa", outcome: .declined)
                case .canceled: .closeCheckout()
                }
            _ = backend.player(player, in: session, at: start + 18_350)
            backend.settle(at: start + 18_950)
            for (step, action) in plan.life.enumerated() {
                try backend.act(action, at: start + 60_000 * (step + 1))
            }
            #expect(story.filter { $0 == target }.count == 1, "\(target) happens once in its story: \(story)")
        }
        #expect(OrderStory.plan(for: .disputeLost).life == [.openDispute, .resolveDispute(won: false)])
    }

    @Test("every V2 name is listed once, each with the results it takes")
    func v2Names() {
        #expect(
            OrderEvent.Name.v2Names == [
                "order.created", "order.payment.resolved", "order.completed", "order.canceled", "order.refunded",
                "order.dispute.opened", "order.dispute.resolved",
            ])
        #expect(OrderEvent.Name.results(of: "order.dispute.resolved") == ["won", "lost"])
        #expect(OrderEvent.Name.results(of: "order.refunded").isEmpty)
    }

    @Test("a dispute is opened before it is resolved, unless it is open already")
    func disputeGoals() throws {
        var life = OrderLife(state: .chargeSucceed, price: 499)
        #expect(life.dispute(to: .won) == [.openDispute, .resolveDispute(won: true)])
        try life.apply(.openDispute)
        #expect(life.dispute(to: .lost) == [.resolveDispute(won: false)])
        #expect(life.dispute(to: .open) == [.openDispute])
        #expect(
            OrderLife.refund(amount: 5, succeeds: false) == [
                .requestRefund(amount: 5), .processRefund(succeeded: false),
            ])
    }
}

@Suite("An order's life, bounded")
struct OrderLifeBoundTests {
    @Test("refunds that fail may be asked for again, up to the limit of an order's actions")
    func actionLimit() throws {
        var life = OrderLife(state: .chargeSucceed, price: 499)
        for _ in 0..<(OrderLife.actionLimit / 2) {
            for action in OrderLife.refund(amount: nil, succeeds: false) { try life.apply(action) }
        }
        #expect(life.transitions.count == OrderLife.actionLimit)
        #expect(throws: OrderLife.Refusal.tooManyActions) { try life.apply(.requestRefund(amount: nil)) }
        #expect(OrderLife.Refusal.tooManyActions.message.contains("create another order"))
    }
}
