import PaylinksAppcharge
import PaylinksHTTP

/// An item of a load, numbered in the order it was submitted.
struct LoadItem<Item: Sendable>: Sendable {
    var sequence: Int
    var item: Item
    /// When it happened, Unix milliseconds on the run's clock; nil for the wall clock's now.
    var happened: Int?
}

/// What a load's submitter and its lanes share, under the load's lock: the items waiting
/// for a connection, and the attempts of those answered until the submitter takes them.
struct LoadFlow<Item: Sendable>: Sendable {
    /// Items not yet taken by a lane, from `waitingStart` on.
    var waiting: [LoadItem<Item>] = []
    var waitingStart = 0
    /// Each item's attempts once answered, nil until then, from the first not taken back
    /// (at `answersStart`); `answers[0]` is item `offset`'s.
    var answers: [[DeliveryAttempt]?] = []
    var answersStart = 0
    var offset = 0
    /// How many items from `answersStart` on are answered, one after the other.
    var answeredCount = 0
    /// How many answered items the submitter waits for, when it does.
    var wanted: Int?
    /// Lanes waiting for an item.
    var idleLanes = 0
    /// Whether the lanes stop once nothing is left to send.
    var closing = false

    /// Whether an item waits for a lane.
    var hasWaiting: Bool { waitingStart < waiting.count }

    /// Up to `count` items waiting, oldest first, taken off the queue.
    mutating func take(upTo count: Int) -> ArraySlice<LoadItem<Item>> {
        let end = min(waiting.count, waitingStart + count)
        let taken = waiting[waitingStart..<end]
        waitingStart = end
        if waitingStart > 256 && waitingStart * 2 > waiting.count {
            waiting.removeFirst(waitingStart)
            waitingStart = 0
        }
        return taken
    }

    /// Keeps the attempts of item `sequence`, answered.
    mutating func answer(_ sequence: Int, with attempts: [DeliveryAttempt]) {
        answers[sequence - offset] = attempts
        while answersStart + answeredCount < answers.count, answers[answersStart + answeredCount] != nil {
            answeredCount += 1
        }
    }

    /// The attempts of the items answered one after the other from the first not taken
    /// back, no longer kept.
    mutating func takeAnswered() -> [[DeliveryAttempt]] {
        let range = answersStart..<answersStart + answeredCount
        let taken = answers[range].map { $0 ?? [] }
        for index in range { answers[index] = nil }
        answersStart = range.upperBound
        answeredCount = 0
        if answersStart > 256 && answersStart * 2 > answers.count {
            answers.removeFirst(answersStart)
            offset += answersStart
            answersStart = 0
        }
        return taken
    }
}

/// Some of a load's connections and the thread that serves them: it sends items as its
/// connections free up, retries included, and measures what it sent.
final class Lane<Item: Deliverable> {
    let senders: [DeliverySender]
    private(set) var histogram = LatencyHistogram()
    private(set) var attempts = 0

    /// An item on its way: what it is, and its attempts so far.
    private struct Carried {
        var load: LoadItem<Item>
        var attempts: [DeliveryAttempt] = []
    }

    init(senders: [DeliverySender]) {
        self.senders = senders
    }

    /// Sends the items `shared` holds, with up to one request in flight per connection,
    /// each attempt signed as it goes (never before its item happened and the time since
    /// it was due), and hands each item's attempts back once it is done with. With
    /// `waits`, it waits for more items until the load closes; without, it returns once
    /// none is waiting or on its way.
    ///
    /// Each turn reads every answer that has come, signs the next requests for the
    /// connections those answers freed, and only then sends them, back to back: the server
    /// woken by the first finds the others already there. Sent one by one, between
    /// signatures, each could find it asleep and wake it again: nginx went to sleep a fifth
    /// more often an award that way, and so did the lanes.
    ///
    /// Compiled for awards and for events as such, not only for any item: the loop then
    /// copies and judges its items with no generic indirection.
    @_specialize(where Item == GrantAward)
    @_specialize(where Item == OrderEvent)
    func work(_ shared: Locked<LoadFlow<Item>>, waits: Bool) {
        var carrying = [Carried?](repeating: nil, count: senders.count)
        var free = Array(senders.indices)
        var retries: [Carried] = []
        var ready: [Int] = []
        var done: [(sequence: Int, attempts: [DeliveryAttempt])] = []
        var sockets: [Socket] = []
        var busy: [Int] = []
        while true {
            // Retries first, then the items waiting, for the connections free.
            while let connection = free.last, let retry = retries.popLast() {
                free.removeLast()
                carrying[connection] = retry
                ready.append(connection)
            }
            if !free.isEmpty {
                let idle = ready.isEmpty && free.count == senders.count
                let taken: ArraySlice<LoadItem<Item>>
                if idle && waits {
                    shared.withLock { $0.idleLanes += 1 }
                    taken = shared.withLock(waitingAtMost: nil, until: { $0.hasWaiting || $0.closing }) { flow, _ in
                        flow.idleLanes -= 1
                        return flow.take(upTo: free.count)
                    }
                } else {
                    taken = shared.withLock { $0.take(upTo: free.count) }
                }
                if idle && taken.isEmpty { return }
                for item in taken {
                    let connection = free.removeLast()
                    carrying[connection] = Carried(load: item)
                    ready.append(connection)
                }
            }
            // Every request signed first, then sent back to back.
            var signed: [(connection: Int, request: SignedAward)] = []
            signed.reserveCapacity(ready.count)
            for connection in ready {
                guard let carried = carrying[connection] else { continue }
                let sentAfter = Self.sentAfter(carried.load.item, number: carried.attempts.count + 1)
                let request = senders[connection].sign(
                    carried.load.item, notBefore: carried.load.happened.map { $0 + sentAfter })
                signed.append((connection, request))
            }
            ready.removeAll(keepingCapacity: true)
            for (connection, request) in signed {
                guard let carried = carrying[connection] else { continue }
                let number = carried.attempts.count + 1
                senders[connection].start(
                    request, number: number, sentAfter: Self.sentAfter(carried.load.item, number: number))
            }
            // Each answer, as it comes on whichever connection, frees that connection.
            busy.removeAll(keepingCapacity: true)
            sockets.removeAll(keepingCapacity: true)
            var answered: [Int] = []
            let now = Deadline.nowMilliseconds()
            for connection in carrying.indices where carrying[connection] != nil {
                if let socket = senders[connection].awaitedSocket(at: now) {
                    busy.append(connection)
                    sockets.append(socket)
                } else {
                    answered.append(connection)
                }
            }
            if answered.isEmpty && !busy.isEmpty {
                answered = Socket.readable(sockets, milliseconds: 100).map { busy[$0] }
            }
            for connection in answered {
                guard var carried = carrying[connection] else { continue }
                let item = carried.load.item
                let attempt = senders[connection].finish(item)
                carried.attempts.append(attempt)
                attempts += 1
                histogram.add(microseconds: attempt.microseconds)
                carrying[connection] = nil
                free.append(connection)
                if !item.isLast(attempt) && attempt.number < item.retryDelays.count {
                    retries.insert(carried, at: 0)
                } else {
                    done.append((carried.load.sequence, carried.attempts))
                }
            }
            if !done.isEmpty {
                shared.withLock { flow in
                    for (sequence, attempts) in done { flow.answer(sequence, with: attempts) }
                    if let wanted = flow.wanted, flow.answeredCount >= wanted { shared.broadcast() }
                }
                done.removeAll(keepingCapacity: true)
            }
        }
    }

    /// When attempt `number` of `item` goes, in milliseconds after its first.
    private static func sentAfter(_ item: Item, number: Int) -> Int {
        item.retryDelays.prefix(number).reduce(0, +)
    }

    func close() {
        for sender in senders { sender.close() }
    }
}

/// Latencies in logarithmic buckets about 2% wide, from 1 µs to over a minute.
struct LatencyHistogram {
    /// The upper bound of each bucket, in microseconds: 1.02 to the power of its index.
    private static let bounds: [Double] = {
        var bounds: [Double] = []
        var bound = 1.0
        for _ in 0..<1024 {
            bound *= 1.02
            bounds.append(bound)
        }
        return bounds
    }()

    private var counts = [Int](repeating: 0, count: 1024)
    private(set) var maximum = 0
    private var total = 0

    mutating func add(microseconds: Int) {
        let value = Double(max(1, microseconds))
        maximum = max(maximum, microseconds)
        var low = 0
        var high = Self.bounds.count - 1
        while low < high {
            let middle = (low + high) / 2
            if Self.bounds[middle] < value { low = middle + 1 } else { high = middle }
        }
        counts[low] += 1
        total += 1
    }

    /// Adds the samples of `other`.
    mutating func add(_ other: LatencyHistogram) {
        for bucket in counts.indices { counts[bucket] += other.counts[bucket] }
        maximum = max(maximum, other.maximum)
        total += other.total
    }

    /// The latency under which `percent` of the samples fall, to a bucket's width.
    func percentile(_ percent: Int) -> Int {
        guard total > 0 else { return 0 }
        let wanted = (total * percent + 99) / 100
        var seen = 0
        for (bucket, count) in counts.enumerated() {
            seen += count
            if seen >= wanted { return min(maximum, Int(Self.bounds[bucket])) }
        }
        return maximum
    }
}
