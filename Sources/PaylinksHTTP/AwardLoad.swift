/// Delivers many awards over several kept-alive connections at once, and measures it:
/// awards per second, latency percentiles, attempts, and failures by cause. Memory does
/// not grow with the number of awards: latencies go into a fixed histogram.
public final class AwardLoad {
    private let senders: [AwardSender]
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
        senders = (0..<max(1, connections)).map { _ in
            AwardSender(url: url, key: key, publisherToken: publisherToken, waitsInRealTime: false)
        }
    }

    /// Delivers `batch`, each award retried at once on its schedule until granted or out
    /// of attempts, with up to one request in flight per connection; returns each
    /// award's attempts, in the batch's order.
    public func deliver(_ batch: [GrantAward]) -> [[AwardAttempt]] {
        if started == 0 { started = Deadline.nowMilliseconds() }
        var results = [[AwardAttempt]](repeating: [], count: batch.count)
        var pending = Array(batch.indices)
        var cursor = 0
        while cursor < pending.count {
            // One wave: a request on each connection, then every answer.
            var inFlight: [(sender: AwardSender, index: Int, number: Int)] = []
            for sender in senders where cursor < pending.count {
                let index = pending[cursor]
                cursor += 1
                let number = results[index].count + 1
                sender.start(
                    batch[index], number: number, sentAfter: AwardSender.retryDelays.prefix(number).reduce(0, +))
                inFlight.append((sender, index, number))
            }
            for (sender, index, number) in inFlight {
                let attempt = sender.finish()
                results[index].append(attempt)
                attempts += 1
                histogram.add(microseconds: attempt.microseconds)
                if !attempt.granted && number < AwardSender.retryDelays.count {
                    pending.append(index)
                }
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

    /// Closes every connection.
    public func close() {
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
