/// How the loops' turns of requests reach their responder, one batch at a time: each loop
/// prepares its turn on its own thread and posts it, then takes the serial lock; the loop
/// that holds it answers, in one batch, every turn posted by then and those posted while it
/// answers, and a loop whose turn another's batch took finds its answers made. So the
/// turns that wait for the lock while one batch's change is written and synced are
/// answered together in the next, with one sync.
final class TurnBatches<Responder: HTTPResponder>: @unchecked Sendable {
    private let responder: Responder
    /// Held while the responder answers, ticks or says whether to stop: one at a time.
    private let serial = Locked(())
    /// The turns posted and not taken by a batch yet, in the order posted.
    private let posted = Locked<[Turn]>([])

    /// A loop's turn of requests, prepared. Its answers are set under the serial lock, and
    /// read by the loop that posted it once it holds the lock in turn.
    final class Turn: @unchecked Sendable {
        /// Each request's connection and what ``HTTPResponder/prepare(_:)`` read of it.
        let arrivals: [(connection: ObjectIdentifier, arrival: Responder.Arrival)]
        /// The answers, in the order of `arrivals`, once a batch took the turn: nil for a
        /// request that waits behind an awaited answer on its connection.
        fileprivate(set) var answers: [HTTPAnswer?]?

        fileprivate init(_ arrivals: [(connection: ObjectIdentifier, arrival: Responder.Arrival)]) {
            self.arrivals = arrivals
        }
    }

    init(_ responder: Responder) {
        self.responder = responder
    }

    /// Prepares `requests`, a loop's turn, on the calling thread, and posts them.
    func post(_ requests: [(connection: ObjectIdentifier, request: HTTPRequest)]) -> Turn {
        let turn = Turn(requests.map { ($0.connection, responder.prepare($0.request)) })
        posted.withLock { $0.append(turn) }
        return turn
    }

    /// The answers to `turn`, which this thread posted: made in a batch of this call's
    /// (with every turn posted by the time it holds the lock, and those posted while it
    /// answers) unless another's batch took the turn first. A request after an awaited
    /// answer on its connection, in the batch, waits for it: its answer is nil, and the loop
    /// hands it again once that answer is given, as if it had come then.
    func answer(_ turn: Turn) -> [HTTPAnswer?] {
        serial.withLock { _ in
            if let answers = turn.answers { return answers }
            responder.beginBatch()
            // Before any answer of the batch goes out: the responder may give there the
            // answers it held.
            defer { responder.endBatch() }
            var awaiting = Set<ObjectIdentifier>()
            while case let taken = takePosted(), !taken.isEmpty {
                for each in taken {
                    each.answers = each.arrivals.map { connection, arrival in
                        guard !awaiting.contains(connection) else { return nil }
                        let answer = responder.respond(to: arrival)
                        if case .awaited(let promise) = answer, promise.response == nil { awaiting.insert(connection) }
                        return answer
                    }
                }
            }
            return turn.answers ?? []
        }
    }

    /// `body`'s result, called under the serial lock, outside any batch.
    func serially<Value>(_ body: () -> Value) -> Value {
        serial.withLock { _ in body() }
    }

    /// The turns posted so far, taken off the list.
    private func takePosted() -> [Turn] {
        posted.withLock { turns in
            defer { turns.removeAll(keepingCapacity: true) }
            return turns
        }
    }
}
