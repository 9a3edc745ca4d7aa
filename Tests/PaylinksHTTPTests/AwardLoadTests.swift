import PaylinksDelivery
import PaylinksHTTP
import PaylinksKit
import Testing

@testable import PaylinksAppcharge

/// A load of awards spread over connections and threads: every award's attempts come
/// back in the order submitted, retried as the schedule says, and the summary counts them.
@Suite("Award loads", .enabled(if: LoopbackServer.python != nil || runningInCI, "python3 is not installed"))
struct AwardLoadTests {
    @Test("answers come back in the order submitted across lanes, each award retried until granted or out of attempts")
    func orderAndRetries() throws {
        let server = try LoopbackServer(script: "echo_server.py")
        let load = AwardLoad(
            DeliveryDestination(url: try server.url("/flaky"), key: Array("key".utf8), publisherToken: "token"),
            connections: 5)
        let orderIds = (0..<40).map { String(1_000_000_000 + $0) }
        let awards = orderIds.map {
            GrantAward(order: GrantAwardTests.order($0, "pr_\($0)"), catalog: .builtIn)
        }
        for award in awards { load.submit(award) }
        let results = load.finish()
        load.close()
        #expect(results.count == orderIds.count)
        for (orderId, attempts) in zip(orderIds, results) {
            let last = Int(String(orderId.suffix(1))) ?? 0
            if last == 0 {
                #expect(attempts.map(\.status) == [503, 503, 503], "\(orderId)")
                #expect(attempts.map(\.sentAfter) == [0, 10_000, 20_000])
                #expect(attempts.last?.publisherErrorMessage == "try again")
            } else if last % 2 == 1 {
                #expect(attempts.map(\.status) == [500, 200], "\(orderId)")
                #expect(attempts.last?.publisherPurchaseId == "grant-\(orderId)")
            } else {
                #expect(attempts.map(\.status) == [200], "\(orderId)")
                #expect(attempts.first?.publisherPurchaseId == "grant-\(orderId)")
            }
            #expect(attempts.map(\.number) == Array(1...attempts.count))
        }
        #expect(load.delivered == 40)
        #expect(load.attempts == 4 * 3 + 20 * 2 + 16)
        #expect(load.summary.contains(" over 5 connections: "))
        #expect(load.summary.hasSuffix("; 68 attempts; 4 failed: 4 status 503"))
    }

    @Test("a load holds no more items than its window however many go through it, and hands each back in order")
    func boundedWindow() throws {
        let server = try LoopbackServer(script: "echo_server.py")
        let load = AwardLoad(
            signer: DeliverySigner(
                DeliveryDestination(url: try server.url("/flaky"), key: Array("key".utf8), publisherToken: "token"),
                for: .award),
            noun: "awards", connections: 3, window: 8)
        let orderIds = (0..<100).map { String(2_000_000_000 + $0) }
        var answered: [[DeliveryAttempt]] = []
        for orderId in orderIds {
            if load.room == 0 { answered += load.takeAnswered(atLeast: 2) }
            #expect(load.room > 0)
            load.submit(GrantAward(order: GrantAwardTests.order(orderId, "pr_\(orderId)"), catalog: .builtIn))
        }
        answered += load.finish()
        load.close()
        #expect(load.mostHeld == 8)
        // Retries too stay within the window: ids ending in 0 are refused on every attempt.
        #expect(
            answered.map { $0.last?.publisherPurchaseId } == orderIds.map { $0.hasSuffix("0") ? nil : "grant-\($0)" })
        #expect(load.delivered == 100)
    }

    @Test("a 200 without a non-empty publisherPurchaseId grants nothing: every attempt fails and says why")
    func okWithoutId() throws {
        let server = try LoopbackServer(script: "echo_server.py")
        let sender = AwardSender(
            DeliveryDestination(url: try server.url("/echo"), key: Array("key".utf8), publisherToken: "token"),
            for: .award)
        defer { sender.close() }
        let award = GrantAward(order: GrantAwardTests.order("1000000001", "pr_1"), catalog: .builtIn)
        let attempts = sender.deliver(award) { _ in }
        #expect(attempts.map(\.status) == [200, 200, 200])
        #expect(attempts.allSatisfy { !$0.succeeded && $0.publisherPurchaseId == nil })
        #expect(attempts.last?.failure == "200 without a non-empty string publisherPurchaseId")
    }
}
