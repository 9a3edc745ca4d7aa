import PaylinksAppcharge
import PaylinksKit
import Testing

/// Appcharge's delivery of an award without a network: the retry schedule, what an answer
/// means, and what the client hears when every attempt failed.
@Suite("Award delivery")
struct AwardDeliveryTests {
    /// An attempt answered with `status` and `body`.
    static func answered(_ number: Int, _ sentAfter: Int, status: Int, body: String) -> DeliveryAttempt {
        var attempt = DeliveryAttempt(number: number, sentAfter: sentAfter, headers: [("signature", "t=1,v1=ab")])
        attempt.judge(status: status, body: Array(body.utf8))
        return attempt
    }

    @Test("a refused award is tried three times, 10 s apart, each pause asked for; a grant stops the retries")
    func schedule() {
        var waits: [Int] = []
        var seen: [Int] = []
        let refused = AwardDelivery.attempts(
            wait: { waits.append($0) },
            send: { Self.answered($0, $1, status: 500, body: #"{"publisherErrorMessage":"down"}"#) },
            onAttempt: { seen.append($0.number) })
        #expect(refused.map(\.number) == [1, 2, 3])
        #expect(refused.map(\.sentAfter) == [0, 10_000, 20_000])
        #expect(waits == [10_000, 10_000])
        #expect(seen == [1, 2, 3])

        waits = []
        let granted = AwardDelivery.attempts(
            wait: { waits.append($0) },
            send: { number, after in
                Self.answered(number, after, status: number == 2 ? 200 : 503, body: #"{"publisherPurchaseId":"g_7"}"#)
            })
        #expect(granted.map(\.number) == [1, 2])
        #expect(granted.last?.publisherPurchaseId == "g_7")
        #expect(waits == [10_000])
        #expect(AwardDelivery.failureData(granted) == nil)
    }

    @Test("only 200 with a non-empty string publisherPurchaseId grants")
    func answers() {
        #expect(Self.answered(1, 0, status: 200, body: #"{"publisherPurchaseId":"g"}"#).succeeded)
        #expect(!Self.answered(1, 0, status: 201, body: #"{"publisherPurchaseId":"g"}"#).succeeded)
        #expect(!Self.answered(1, 0, status: 200, body: #"{"publisherPurchaseId":""}"#).succeeded)
        #expect(!Self.answered(1, 0, status: 200, body: #"{"publisherPurchaseId":1}"#).succeeded)
        #expect(!Self.answered(1, 0, status: 200, body: "ok").succeeded)
        let refused = Self.answered(1, 0, status: 409, body: #"{"publisherErrorMessage":"seen"}"#)
        #expect(refused.failure == "the server answered 409")
        #expect(refused.publisherErrorMessage == "seen")
    }

    @Test(
        "a grant reads the same whether it is the plain shape nearly every server answers or any other JSON",
        arguments: [
            (#"{"publisherPurchaseId":"g_7"}"#, "g_7"),
            (#"{ "publisherPurchaseId" : "g_7" }"#, "g_7"),
            (#"{"publisherPurchaseId":"g\"7"}"#, #"g"7"#),
            (#"{"publisherPurchaseId":"g\u00e9"}"#, "gé"),
            (#"{"publisherPurchaseId":"gé"}"#, "gé"),
            (#"{"other":1,"publisherPurchaseId":"g_7"}"#, "g_7"),
            (#"{"publisherPurchaseId":"g_7"}x"#, nil),
            (#"{"publisherPurchaseId":"g"7"}"#, nil),
            (#"{"publisherPurchaseId":"g\"}"#, nil),
            (#"{"publisherPurchaseId":"}"#, nil),
            (#"{"publisherPurchaseId":""}"#, nil),
            ("{\"publisherPurchaseId\":\"g\t7\"}", nil),
        ] as [(String, String?)])
    func plainGrant(body: String, id: String?) {
        let attempt = Self.answered(1, 0, status: 200, body: body)
        #expect(attempt.publisherPurchaseId == id)
        #expect(attempt.succeeded == (id != nil))
        #expect(AwardAnswer(status: 200, body: Array(body.utf8)).grantId == id)
        #expect(AwardAnswer(status: 201, body: Array(body.utf8)).grantId == nil)
    }

    @Test("every attempt failed: the client's 3003 data names the attempts, the last status and message")
    func failureData() {
        let attempts = (1...3).map {
            Self.answered($0, ($0 - 1) * 10_000, status: 500, body: #"{"publisherErrorMessage":"no \"db\""}"#)
        }
        #expect(
            AwardDelivery.failureData(attempts)
                == #"{"awardAttempts":3,"lastStatus":500,"publisherErrorMessage":"no \"db\"","reason":"the server answered 500"}"#
        )
        var silent = DeliveryAttempt(number: 1, sentAfter: 0, headers: [])
        silent.failure = "no answer within 10 s"
        #expect(
            AwardDelivery.failureData([silent])
                == #"{"awardAttempts":1,"lastStatus":null,"publisherErrorMessage":null,"reason":"no answer within 10 s"}"#
        )
    }

    @Test("the verdict traces each attempt's request and result when it was sent, the result saying how long after")
    func verdict() {
        let attempts = [
            Self.answered(1, 0, status: 500, body: "{}"),
            Self.answered(2, 10_000, status: 200, body: #"{"publisherPurchaseId":"g_2"}"#),
        ]
        let verdict = AwardDelivery.verdict(attempts, url: "http://127.0.0.1:9/award")
        guard case .granted = verdict.outcome else {
            Issue.record("expected a grant, got \(verdict.outcome)")
            return
        }
        #expect(verdict.events.map(\.after) == [0, 0, 10_000, 0])
        #expect(
            verdict.events.map(\.message) == [
                "award attempt 1: POST http://127.0.0.1:9/award (signature: t=1,v1=ab)",
                "award attempt 1: failed: the server answered 500, 0 ms after it was sent",
                "award attempt 2: POST http://127.0.0.1:9/award (signature: t=1,v1=ab)",
                "award attempt 2: granted as g_2, 0 ms after it was sent",
            ])
    }

    @Test("an attempt that timed out says the time once, as its reason gives it")
    func timedOutAttempt() {
        var attempt = DeliveryAttempt(number: 1, sentAfter: 0, headers: [])
        attempt.failure = "timed out after 10 s waiting for the response"
        attempt.microseconds = 10_009_000
        let verdict = AwardDelivery.verdict([attempt], url: "http://127.0.0.1:9/award")
        #expect(
            verdict.events.map(\.message).last
                == "award attempt 1: failed: timed out after 10 s waiting for the response")
    }
}

@Suite("Award answers, bounded")
struct AwardAnswerBoundTests {
    @Test("a megabyte publisherErrorMessage or publisherPurchaseId is kept as its first 4 KiB, and counted")
    func largeAnswers() {
        let large = String(repeating: "é", count: 600_000)
        var refused = DeliveryAttempt(number: 1, sentAfter: 0, headers: [])
        refused.judge(status: 500, body: Array(#"{"publisherErrorMessage":"\#(large)"}"#.utf8))
        let message = refused.publisherErrorMessage ?? ""
        #expect((4_000...DeliveryAttempt.responseBodyLimit).contains(message.utf8.count))
        #expect(message.hasSuffix("…") && message.dropLast().allSatisfy { $0 == "é" })
        var granted = DeliveryAttempt(number: 1, sentAfter: 0, headers: [])
        granted.judge(status: 200, body: Array(#"{"publisherPurchaseId":"\#(large)"}"#.utf8))
        #expect((granted.publisherPurchaseId?.utf8.count ?? 0) <= DeliveryAttempt.responseBodyLimit)
        #expect(granted.succeeded)
        // The history's budget holds however many such answers come.
        var history = DeliveryHistory(limit: 10_000, byteBudget: 64 << 10)
        for _ in 0..<100 {
            history.add(
                kind: .award, purchaseId: "pr_1", name: "award", url: "http://127.0.0.1:1/award", body: [],
                attempts: [refused, granted])
        }
        #expect((4...8).contains(history.deliveries.count), "\(history.deliveries.count) deliveries of 8 KiB in 64 KiB")
    }
}
