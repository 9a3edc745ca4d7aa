public import PaylinksAppcharge
import PaylinksHTTP

/// Delivers many awards (or events) over several kept-alive connections at once, and
/// measures it: items per second, latency percentiles, attempts, and failures by cause.
///
/// Items stream through it: whoever submits them (``submit(_:happenedAt:)``) takes their
/// attempts back in the order submitted (``takeAnswered(atLeast:)``), while the lanes (a
/// few threads, each with its share of the connections) send the items waiting as their
/// connections free up. No item waits for a batch to end, and what the load holds is
/// bounded by its ``window``, not by how many items go through it: latencies go into a
/// fixed histogram, and whoever submits keeps to ``room``.
public final class DeliveryLoad<Item: Deliverable> {
    private let lanes: [Lane<Item>]
    /// What the submitter and the lanes share.
    private let shared: Locked<LoadFlow<Item>>
    /// The lanes' threads, once the first item is submitted; empty when none could be
    /// made, and the submitter's thread sends instead.
    private var threads: [BackgroundWork<Void>] = []
    private var threadsStarted = false
    /// What the summary calls the items: `awards`.
    private let noun: String
    /// How many items the load holds at most, submitted and not taken back: a submitter
    /// keeps to ``room``.
    public let window: Int
    /// Items delivered: their attempts taken back.
    public private(set) var delivered = 0
    /// Items that failed on every attempt, by the last attempt's cause.
    public private(set) var failures: [String: Int] = [:]
    /// The most items held at once, submitted and not taken back.
    public private(set) var mostHeld = 0
    private var submitted = 0
    /// Items submitted and not yet handed to the lanes: they go a few at a time, so that
    /// a lane waiting for work wakes once for several.
    private var outbox: [LoadItem<Item>] = []
    /// How many items go to the lanes at once.
    private let handoff: Int
    private var started = 0
    private var finished = 0

    /// A load of what `signer` signs over `connections` connections, served by up to
    /// `threads` threads, no more than ``lanes(processors:)`` allows on this machine, and
    /// holding at most `window` items (by default ``window(connections:)``); the summary
    /// calls the items `noun`.
    public init(signer: DeliverySigner, noun: String, connections: Int, threads: Int = 2, window: Int? = nil) {
        self.noun = noun
        let senders = (0..<max(1, connections)).map { _ in
            DeliverySender(signer: signer, waitsInRealTime: false, keepsExchanges: false)
        }
        let count = min(senders.count, max(1, threads), Self.lanes(processors: onlineProcessors()))
        lanes = (0..<count).map { lane in
            Lane(senders: stride(from: lane, to: senders.count, by: count).map { senders[$0] })
        }
        self.window = max(1, window ?? Self.window(connections: senders.count))
        handoff = max(1, min(16, self.window / 4))
        shared = Locked(LoadFlow())
    }

    /// How many lanes a load runs at most on `processors` processors: one fewer, since
    /// whoever submits keeps one busy, and at least one. On two processors a second lane
    /// only takes turns with the first on the one left, and each switch between them costs
    /// more than it saves: a sixth more CPU an award, with three times the context switches.
    static func lanes(processors: Int) -> Int {
        max(1, processors - 1)
    }

    /// How many items a load over `connections` connections holds by default: enough that
    /// every connection has the next waiting while its submitter prepares more (a
    /// submitter that waits takes a quarter back at once), few enough that memory stays
    /// flat from the first thousand items on.
    public static func window(connections: Int) -> Int {
        max(256, connections * 16)
    }

    /// Attempts made, retries included; final once ``finish()`` has returned.
    public var attempts: Int { lanes.reduce(0) { $0 + $1.attempts } }

    /// How many more items can be submitted before some are taken back.
    public var room: Int { max(0, window - (submitted - delivered)) }

    /// Hands `item` to the lanes; it happened at `happened` (Unix milliseconds on the
    /// run's clock), so that no attempt is signed before then and the time since it was
    /// due; nil signs on the wall clock. Whoever submits keeps to ``room``, taking back
    /// what was answered first when there is none.
    @_specialize(where Item == GrantAward)
    @_specialize(where Item == OrderEvent)
    public func submit(_ item: Item, happenedAt happened: Int? = nil) {
        if !threadsStarted { startLanes() }
        if started == 0 { started = Deadline.nowMilliseconds() }
        outbox.append(LoadItem(sequence: submitted, item: item, happened: happened))
        submitted += 1
        mostHeld = max(mostHeld, submitted - delivered)
        if outbox.count >= handoff { handOver() }
    }

    /// Hands the items submitted since the last time to the lanes, under one lock and
    /// with at most one wake-up.
    private func handOver() {
        guard !outbox.isEmpty else { return }
        shared.withLock { flow in
            flow.waiting += outbox
            flow.answers += repeatElement(nil, count: outbox.count)
            if flow.idleLanes > 0 { shared.broadcast() }
        }
        outbox.removeAll(keepingCapacity: true)
    }

    /// The attempts of the items answered since the last call, in the order they were
    /// submitted, each item's in the order made; waits until at least `minimum` items
    /// (no more than are held) are answered first.
    @_specialize(where Item == GrantAward)
    @_specialize(where Item == OrderEvent)
    public func takeAnswered(atLeast minimum: Int = 0) -> [[DeliveryAttempt]] {
        handOver()
        let wanted = min(max(0, minimum), submitted - delivered)
        if threads.isEmpty { for lane in lanes { lane.work(shared, waits: false) } }
        // The lanes wake this thread once `wanted` items are answered, not at every answer.
        shared.withLock { $0.wanted = wanted }
        let answers = shared.withLock(waitingAtMost: nil, until: { $0.answeredCount >= wanted }) { flow, _ in
            flow.wanted = nil
            return flow.takeAnswered()
        }
        for attemptsOfOne in answers {
            delivered += 1
            if let last = attemptsOfOne.last, !last.succeeded {
                failures[Self.cause(of: last), default: 0] += 1
            }
        }
        if !answers.isEmpty { finished = Deadline.nowMilliseconds() }
        return answers
    }

    /// Waits for every item submitted; their attempts, as ``takeAnswered(atLeast:)`` gives
    /// them. The lanes then stop, so that ``attempts`` and ``summary`` are final.
    public func finish() -> [[DeliveryAttempt]] {
        let answers = takeAnswered(atLeast: submitted - delivered)
        stopLanes()
        return answers
    }

    /// Closes every connection, once every item submitted has been answered.
    public func close() {
        _ = finish()
        for lane in lanes { lane.close() }
    }

    /// Starts a thread for each lane; when none can be made, the lanes run on the
    /// submitter's thread as it takes answers back.
    private func startLanes() {
        threadsStarted = true
        for lane in lanes {
            guard let thread = BackgroundWork.thread({ [shared] in lane.work(shared, waits: true) }) else {
                // A lane without a thread would never send its share: all run on the caller's.
                stopLanes()
                shared.withLock { $0.closing = false }
                return
            }
            threads.append(thread)
        }
    }

    /// Tells the lanes to stop once nothing is left to send, and waits for their threads.
    private func stopLanes() {
        shared.withLock { flow in
            flow.closing = true
            shared.broadcast()
        }
        for thread in threads { thread.join() }
        threads = []
    }

    /// The closing summary: rate, latency, attempts, failures by cause.
    public var summary: String {
        let histogram = lanes.reduce(into: LatencyHistogram()) { $0.add($1.histogram) }
        let connections = lanes.reduce(0) { $0 + $1.senders.count }
        let seconds = Double(max(1, finished - started)) / 1000
        let rate = Int(Double(delivered) / seconds)
        func milliseconds(_ microseconds: Int) -> String {
            let tenths = (microseconds + 50) / 100
            return "\(tenths / 10).\(tenths % 10) ms"
        }
        var text =
            "\(noun): \(delivered) in \(Int(seconds * 1000)) ms over \(connections) connection\(connections == 1 ? "" : "s"): \(rate) \(noun)/s; latency "
            + "p50 \(milliseconds(histogram.percentile(50))), p95 \(milliseconds(histogram.percentile(95))), "
            + "p99 \(milliseconds(histogram.percentile(99))), max \(milliseconds(histogram.maximum)); "
            + "\(attempts) attempts; "
        let failed = failures.values.reduce(0, +)
        text +=
            failed == 0
            ? "no failures"
            : "\(failed) failed: "
                + failures.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return text
    }

    private static func cause(of attempt: DeliveryAttempt) -> String {
        if let status = attempt.status { return "status \(status)" }
        return attempt.failure.map { String($0.prefix { $0 != ":" }) } ?? "unknown"
    }
}

/// A load of awards.
public typealias AwardLoad = DeliveryLoad<GrantAward>

extension DeliveryLoad where Item == GrantAward {
    /// A load of awards to `destination` over `connections` connections, served by up to
    /// `threads` threads.
    public convenience init(_ destination: DeliveryDestination, connections: Int, threads: Int = 2) {
        self.init(
            signer: DeliverySigner(destination, for: .award), noun: "awards", connections: connections,
            threads: threads)
    }
}

/// A load of order events.
public typealias EventLoad = DeliveryLoad<OrderEvent>

extension DeliveryLoad where Item == OrderEvent {
    /// A load of events to `destination`, signed with its key (the events key), over
    /// `connections` connections, served by up to `threads` threads.
    public convenience init(_ destination: DeliveryDestination, connections: Int, threads: Int = 2) {
        self.init(
            signer: DeliverySigner(destination, for: .event), noun: "events", connections: connections,
            threads: threads)
    }
}
