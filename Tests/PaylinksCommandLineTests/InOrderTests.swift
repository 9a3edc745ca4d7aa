import PaylinksAppcharge
import Testing

@testable import PaylinksCommandLine

/// The checkouts of a load wait for their deliveries and come out in the order they ran,
/// holding no more than those not yet complete.
@Suite("Checkouts written in order")
struct InOrderTests {
    private static func answer(_ number: Int) -> [DeliveryAttempt] {
        [DeliveryAttempt(number: number, sentAfter: 0, headers: [])]
    }

    @Test("each checkout comes out once its own deliveries and those before have, with its own attempts")
    func order() {
        var waiting = InOrder<String>()
        waiting.append("a", needs: 1)
        waiting.append("b", needs: 0)
        waiting.append("c", needs: 3)
        waiting.append("d", needs: 0)
        #expect(waiting.take([]).isEmpty)
        let first = waiting.take([Self.answer(1), Self.answer(2)])
        #expect(first.map(\.0) == ["a", "b"])
        #expect(first.first?.1.map { $0.first?.number } == [1])
        #expect(waiting.count == 2)
        let rest = waiting.take([Self.answer(3), Self.answer(4)])
        #expect(rest.map(\.0) == ["c", "d"])
        #expect(rest.first?.1.map { $0.first?.number } == [2, 3, 4])
        #expect(waiting.count == 0)
    }

    @Test("what is written is not held: a thousand checkouts through, the few waiting are all it keeps")
    func bounded() {
        var waiting = InOrder<Int>()
        var written = 0
        for checkout in 0..<1000 {
            waiting.append(checkout, needs: 1)
            if checkout >= 4 { written += waiting.take([Self.answer(checkout - 4)]).count }
            #expect(waiting.count <= 5)
            #expect(waiting.held <= 12)
        }
        written += waiting.take((996..<1000).map(Self.answer)).count
        #expect(written == 1000)
        #expect(waiting.held <= 2)
    }
}
