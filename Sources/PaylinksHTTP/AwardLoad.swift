/// Delivers many awards over several kept-alive connections at once, and measures it:
/// awards per second, latency percentiles, attempts, and failures by cause. Memory does
/// not grow with the number of awards: latencies go into a fixed histogram.
public final class AwardLoad {
    private let senders: [AwardSender]
    private let signer: AwardSigner
    private var histogram = LatencyHistogram()
    /// Awards delivered.
    public private(set) var awards = 0
    /// Attempts made, retries included.
    public private(set) var attempts = 0
    /// Awards that failed on every attempt, by the last attempt's cause.
    public private(set) var failures: [String: Int] = [:]
    private var started = 0
    private var finished = 0

    /// A load of awards to `url` over `connections` connections.
    public init(url: HTTPURL, key: [UInt8], publisherToken: String, connections: Int) {
        signer = AwardSigner(url: url, key: key, publisherToken: publisherToken)
        senders = (0..<max(1, connections)).map { _ in
            AwardSender(url: url, key: key, publisherToken: publisherToken, waitsInRealTime: false)
        }
    }

    private var inFlight: BackgroundWork<[[AwardAttempt]]>?

    /// Starts delivering `batch` on a thread of its own, so that the caller can prepare
    /// the next batch meanwhile; ``collect()`` waits for its attempts. The load is the
    /// other thread's until then: call nothing else on it.
    public func start(_ batch: [GrantAward]) {
        precondition(inFlight == nil, "a batch is already on its way; collect it first")
        // Signed here, so that the other thread has only the network to mind.
        let signed = batch.map(signer.sign)
        inFlight = BackgroundWork.start { [self] in send(batch, signed: signed) }
    }

    /// The attempts of the batch ``start(_:)`` sent, in its order; empty when none was.
    public func collect() -> [[AwardAttempt]] {
        defer { inFlight = nil }
        return inFlight?.join() ?? []
    }

    /// Delivers `batch`, each award retried at once on its schedule until granted or out
    /// of attempts, with up to one request in flight per connection; returns each
    /// award's attempts, in the batch's order.
    public func deliver(_ batch: [GrantAward]) -> [[AwardAttempt]] {
        precondition(inFlight == nil, "a batch is already on its way; collect it first")
        return send(batch, signed: batch.map(signer.sign))
    }

    /// Sends `batch`, first attempts as `signed`, retries signed again when they go.
    private func send(_ batch: [GrantAward], signed: [SignedAward]) -> [[AwardAttempt]] {
        if started == 0 { started = Deadline.nowMilliseconds() }
        var results = [[AwardAttempt]](repeating: [], count: batch.count)
        // Awards to send, in order, retries at the end; and which award each connection carries.
        var queue = Array(batch.indices)
        var next = 0
        var carrying = [Int?](repeating: nil, count: senders.count)
        func sendNext(on connection: Int) {
            carrying[connection] = nil
            guard next < queue.count else { return }
            let index = queue[next]
            next += 1
            let number = results[index].count + 1
            let sentAfter = AwardSender.retryDelays.prefix(number).reduce(0, +)
            if number == 1 {
                senders[connection].start(signed[index], number: number, sentAfter: sentAfter)
            } else {
                senders[connection].start(batch[index], number: number, sentAfter: sentAfter)
            }
            carrying[connection] = index
        }
        for connection in senders.indices { sendNext(on: connection) }
        // Each answer, as it comes on whichever connection, frees that connection for the next award.
        while true {
            let busy = carrying.indices.filter { carrying[$0] != nil }
            guard !busy.isEmpty else { break }
            let sockets = busy.map { senders[$0].awaitedSocket }
            var answered = busy.indices.filter { sockets[$0] == nil }.map { busy[$0] }
            if answered.isEmpty {
                answered = Socket.readable(sockets.compactMap { $0 }, milliseconds: 100).map { busy[$0] }
            }
            for connection in answered {
                guard let index = carrying[connection] else { continue }
                let attempt = senders[connection].finish()
                results[index].append(attempt)
                attempts += 1
                histogram.add(microseconds: attempt.microseconds)
                if !attempt.granted && attempt.number < AwardSender.retryDelays.count {
                    queue.append(index)
                }
                sendNext(on: connection)
            }
        }
        for attemptsOfOne in results {
            awards += 1
            if let last = attemptsOfOne.last, !last.granted {
                failures[Self.cause(of: last), default: 0] += 1
            }
        }
        finished = Deadline.nowMilliseconds()
        return results
    }

    /// Closes every connection, once the batch on its way has arrived.
    public func close() {
        _ = collect()
        for sender in senders { sender.close() }
    }

    /// The closing summary: rate, latency, attempts, failures by cause.
    public var summary: String {
        let seconds = Double(max(1, finished - started)) / 1000
        let rate = Int(Double(awards) / seconds)
        func milliseconds(_ microseconds: Int) -> String {
            let tenths = (microseconds + 50) / 100
            return "\(tenths / 10).\(tenths % 10) ms"
        }
        var text =
            "awards: \(awards) in \(Int(seconds * 1000)) ms over \(senders.count) connection\(senders.count == 1 ? "" : "s"): \(rate) awards/s; latency "
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

    private static func cause(of attempt: AwardAttempt) -> String {
        if let status = attempt.status { return "status \(status)" }
        return attempt.failure.map { String($0.prefix { $0 != ":" }) } ?? "unknown"
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
