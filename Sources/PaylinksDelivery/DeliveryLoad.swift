public import PaylinksAppcharge
import PaylinksHTTP

/// Delivers many awards (or events) over several kept-alive connections at once, and
/// measures it: items per second, latency percentiles, attempts, and failures by cause.
/// Memory does not grow with the number of items: latencies go into a fixed histogram.
///
/// The connections are shared among a few threads, the lanes, so that the work of the
/// network (the system's share of it above all) runs on more than one core.
public final class DeliveryLoad<Item: Deliverable> {
    private let lanes: [Lane<Item>]
    /// What the summary calls the items: `awards`.
    private let noun: String
    /// Items delivered.
    public private(set) var delivered = 0
    /// Items that failed on every attempt, by the last attempt's cause.
    public private(set) var failures: [String: Int] = [:]
    private var started = 0
    private var finished = 0
    private var inFlight: [BackgroundWork<[[DeliveryAttempt]]>] = []

    /// A load of what `signer` signs over `connections` connections, served by up to
    /// `threads` threads; the summary calls the items `noun`.
    public init(signer: DeliverySigner, noun: String, connections: Int, threads: Int = 2) {
        self.noun = noun
        let senders = (0..<max(1, connections)).map { _ in
            DeliverySender(signer: signer, waitsInRealTime: false, keepsExchanges: false)
        }
        let count = min(senders.count, max(1, threads))
        lanes = (0..<count).map { lane in
            Lane(senders: stride(from: lane, to: senders.count, by: count).map { senders[$0] })
        }
    }

    /// Attempts made, retries included.
    public var attempts: Int { lanes.reduce(0) { $0 + $1.attempts } }

    /// How many checkouts a batch should hold over `connections` connections. A batch
    /// ends with its slowest connection's last answer, while the others wait, and each
    /// starts its lanes anew: a thousand keep that wait to a few per cent of the time
    /// (256 lost a quarter of the rate), and memory stays bounded by three batches.
    public static func batchSize(connections: Int) -> Int {
        max(1024, connections * 8)
    }

    /// Items ready for ``start(_:)``.
    public struct Batch: Sendable {
        fileprivate let items: [Item]
        /// When each item happened, Unix milliseconds on the run's clock: no attempt is
        /// signed before then and the time since it was due; nil signs on the wall clock.
        fileprivate let happened: [Int]?
    }

    /// Readies `items`; each lane signs its share as it sends it, on its own thread, so
    /// that the signing is spread over the cores.
    public func prepare(_ items: [Item], happenedAt happened: [Int]? = nil) -> Batch {
        Batch(items: items, happened: happened)
    }

    /// Starts delivering `batch` on threads of their own, so that the caller can prepare
    /// the next batch and show the last one's results meanwhile; ``collect()`` waits for
    /// its attempts. The load is those threads' until then: call nothing on it but
    /// ``prepare(_:)``.
    public func start(_ batch: Batch) {
        precondition(inFlight.isEmpty, "a batch is already on its way; collect it first")
        if started == 0 { started = Deadline.nowMilliseconds() }
        // Item i goes to lane i mod n, so that the lanes' results interleave back in order.
        inFlight = lanes.enumerated().map { number, lane in
            let share = stride(from: number, to: batch.items.count, by: lanes.count)
            let items = share.map { batch.items[$0] }
            let happened = batch.happened.map { times in share.map { times[$0] } }
            return BackgroundWork.start { lane.send(items, happenedAt: happened) }
        }
    }

    /// The attempts of the batch ``start(_:)`` sent, in its order; empty when none was.
    public func collect() -> [[DeliveryAttempt]] {
        guard !inFlight.isEmpty else { return [] }
        let shares = inFlight.map { $0.join() }
        inFlight = []
        let count = shares.reduce(0) { $0 + $1.count }
        let results = (0..<count).map { shares[$0 % shares.count][$0 / shares.count] }
        for attemptsOfOne in results {
            delivered += 1
            if let last = attemptsOfOne.last, !last.succeeded {
                failures[Self.cause(of: last), default: 0] += 1
            }
        }
        finished = Deadline.nowMilliseconds()
        return results
    }

    /// Closes every connection, once the batch on its way has arrived.
    public func close() {
        _ = collect()
        for lane in lanes { lane.close() }
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

/// Some of a load's connections and the thread that serves them: it sends its share of
/// each batch, retries included, and measures what it sent.
private final class Lane<Item: Deliverable> {
    let senders: [DeliverySender]
    private(set) var histogram = LatencyHistogram()
    private(set) var attempts = 0

    init(senders: [DeliverySender]) {
        self.senders = senders
    }

    /// Sends `batch`, each attempt signed as it goes (never before its item happened and
    /// the time since it was due, when `happened` says), with up to one request in flight
    /// per connection; returns each item's attempts, in the batch's order.
    ///
    /// Each turn reads every answer that has come, signs the next requests for the
    /// connections those answers freed, and only then sends them, back to back: the server
    /// woken by the first finds the others already there. Sent one by one, between
    /// signatures, each could find it asleep and wake it again: nginx went to sleep a fifth
    /// more often an award that way, and so did the lanes.
    func send(_ batch: [Item], happenedAt happened: [Int]?) -> [[DeliveryAttempt]] {
        var results = [[DeliveryAttempt]](repeating: [], count: batch.count)
        // Items to send, in order, retries at the end; which item each connection carries;
        // and the connections free to carry the next.
        var queue = Array(batch.indices)
        var next = 0
        var carrying = [Int?](repeating: nil, count: senders.count)
        var free = Array(senders.indices)
        var signed: [(connection: Int, index: Int, request: SignedAward)] = []
        while true {
            for connection in free where next < queue.count {
                let index = queue[next]
                next += 1
                let sentAfter = batch[index].retryDelays.prefix(results[index].count + 1).reduce(0, +)
                let request = senders[connection].sign(batch[index], notBefore: happened.map { $0[index] + sentAfter })
                signed.append((connection, index, request))
            }
            free.removeAll(keepingCapacity: true)
            for (connection, index, request) in signed {
                let number = results[index].count + 1
                let sentAfter = batch[index].retryDelays.prefix(number).reduce(0, +)
                senders[connection].start(request, number: number, sentAfter: sentAfter)
                carrying[connection] = index
            }
            signed.removeAll(keepingCapacity: true)
            // Each answer, as it comes on whichever connection, frees that connection.
            let busy = carrying.indices.filter { carrying[$0] != nil }
            guard !busy.isEmpty else { break }
            let sockets = busy.map { senders[$0].awaitedSocket }
            var answered = busy.indices.filter { sockets[$0] == nil }.map { busy[$0] }
            if answered.isEmpty {
                answered = Socket.readable(sockets.compactMap { $0 }, milliseconds: 100).map { busy[$0] }
            }
            for connection in answered {
                guard let index = carrying[connection] else { continue }
                let attempt = senders[connection].finish(batch[index])
                results[index].append(attempt)
                attempts += 1
                histogram.add(microseconds: attempt.microseconds)
                if !batch[index].isLast(attempt) && attempt.number < batch[index].retryDelays.count {
                    queue.append(index)
                }
                carrying[connection] = nil
                free.append(connection)
            }
        }
        return results
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
