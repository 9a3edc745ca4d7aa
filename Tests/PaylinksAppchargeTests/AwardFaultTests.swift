import PaylinksKit
import Testing

@testable import PaylinksAppcharge

/// Faults on an award's way and Retry Award: what each attempt meets, what Appcharge makes
/// of it, and the rule that only a Failed (Charged) order's award is retried by hand.
@Suite("Award faults and Retry Award")
struct AwardFaultTests {
    /// Each attempt's fate under each fault: the first or every one lost, or its answer lost.
    @Test(
        "each award fault loses the attempts it names, on the way or on the way back",
        arguments: [
            (AwardFault.dropFirst, [AttemptFate.lost(fault: "drop-first"), .sent, .sent]),
            (.drop, Array(repeating: .lost(fault: "drop"), count: 3)),
            (.late, Array(repeating: .lost(fault: "late"), count: 3)),
            (.answerLostFirst, [.answerLost(fault: "answer-lost-first"), .sent, .sent]),
            (.answerLost, Array(repeating: .answerLost(fault: "answer-lost"), count: 3)),
        ])
    func fates(fault: AwardFault, expected: [AttemptFate]) {
        #expect((0..<3).map(fault.fate(ofAttempt:)) == expected)
        #expect(fault.failsEveryAttempt == [.drop, .late, .answerLost].contains(fault))
    }

    /// What one retry loop with `fault` sends: the attempts the game's server received, and
    /// those Appcharge saw.
    static func loop(_ fault: AwardFault) -> (received: Int, attempts: [DeliveryAttempt]) {
        var received = 0
        let attempts = RetryLoop.attempts(
            delays: AwardSchedule.retryDelays, wait: { _ in },
            send: { number, sentAfter in
                received += 1
                var attempt = DeliveryAttempt(number: number, sentAfter: sentAfter, headers: [])
                attempt.judge(status: 200, body: Array(#"{"publisherPurchaseId":"g\#(number)"}"#.utf8))
                return attempt
            },
            onAttempt: { _ in }, finished: \.succeeded, fate: fault.fate(ofAttempt:), proceeding: { true })
        return (received, attempts)
    }

    @Test("an answer lost reaches the game's server, which grants, yet Appcharge counts a timeout and retries")
    func answerLost() {
        let every = Self.loop(.answerLost)
        #expect(every.received == AwardSchedule.retryDelays.count, "every attempt reached the server")
        #expect(every.attempts.count == AwardSchedule.retryDelays.count)
        #expect(every.attempts.allSatisfy { !$0.succeeded && $0.status == nil && $0.publisherPurchaseId == nil })
        #expect(every.attempts.allSatisfy { $0.failure?.contains("its answer lost on the way back") == true })
        let data = AwardDelivery.failureData(every.attempts)
        #expect(data?.contains(#""lastStatus":null"#) == true, "\(data ?? "nil")")

        let first = Self.loop(.answerLostFirst)
        #expect(first.received == 2, "the retry reaches a game that granted already")
        #expect(first.attempts.map(\.succeeded) == [false, true])
        #expect(first.attempts.last?.publisherPurchaseId == "g2")
    }

    @Test("an attempt lost on the way never reaches the game's server")
    func lost() {
        let first = Self.loop(.dropFirst)
        #expect(first.received == 1)
        #expect(first.attempts.map(\.succeeded) == [false, true])
        #expect(first.attempts.first?.failure == "lost on the way, as a timeout (the fault drop-first)")
        for fault in [AwardFault.drop, .late] {
            let every = Self.loop(fault)
            #expect(every.received == 0, "\(fault)")
            #expect(every.attempts.count == AwardSchedule.retryDelays.count, "\(fault)")
            #expect(AwardDelivery.unsent(fault).failureData != nil, "\(fault)")
        }
        #expect(AwardDelivery.unsent(.answerLostFirst).failureData == nil)
    }

    /// A backend that has sold one order of starter_pack_001, its award under `fault`; the
    /// events it lived are recorded in `story`.
    @MainActor
    static func paid(fault: AwardFault?, story: @escaping (OrderEvent.Name) -> Void) throws -> AppchargeBackend {
        let offer = try #require(Catalog.builtIn.offer(sku: "starter_pack_001"))
        let backend = AppchargeBackend(catalog: .builtIn, seed: 11)
        backend.onHappening = { story($0.name) }
        backend.awardFault = fault
        let start = 1_718_182_312_000
        let session = backend.createSession(
            CheckoutSale(
                offer: offer, price: 499, currency: "USD", customerId: "cust_98765", country: "US",
                environment: "sandbox", index: 0, orderDate: 1_718_182_312),
            at: start)
        _ = backend.openSession(purchaseId: session.purchaseId, at: start + 350)
        _ = backend.player(.pay(paymentMethodName: "Visa"), in: session, at: start + 18_350)
        backend.settle(at: start + 18_950)
        return backend
    }

    @Test("Retry Award grants a charge_failed order and sends its completion at once")
    @MainActor
    func retryGrants() throws {
        var story: [OrderEvent.Name] = []
        let backend = try Self.paid(fault: .drop) { story.append($0) }
        #expect(backend.lastPaidSession?.state == .chargeFailed)
        #expect(!story.contains(.completed))
        backend.awardFault = nil
        try backend.retryAward(at: 1_718_182_400_000)
        #expect(backend.lastPaidSession?.state == .chargeSucceed)
        #expect(story.last == .completed, "\(story)")
        #expect(story.filter { $0 == .completed }.count == 1)
    }

    @Test("Retry Award of a charge_succeed order is refused, and the order stays as it was")
    @MainActor
    func retryRefused() throws {
        var story: [OrderEvent.Name] = []
        let backend = try Self.paid(fault: nil) { story.append($0) }
        #expect(backend.lastPaidSession?.state == .chargeSucceed)
        let told = story
        #expect {
            try backend.retryAward(at: 1_718_182_400_000)
        } throws: { error in
            (error as? CheckoutSessions.RetryProblem)?.message
                == "Retry Award is for a charge_failed order (Failed (Charged)); this one is charge_succeed"
        }
        #expect(backend.lastPaidSession?.state == .chargeSucceed)
        #expect(story == told, "no event goes out")
    }
}
