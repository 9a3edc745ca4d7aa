/// Appcharge's 429 past a number of requests a minute, as the sandbox simulates it when
/// asked (`serve --rate-limit N/min`): counted per publisher token over a sliding
/// 60-second window, refused requests included, on a clock the caller passes.
///
/// Only the lookup's limit is documented (5,000 a minute, 429 `Rate limit exceeded.`,
/// PL/error-messages); its scope, window and headers are not. The sandbox applies one
/// limit to every route the game's server calls, and sends no headers, so that no client
/// learns to rely on them.
public struct RateLimiter: Sendable {
    /// Requests a token may make in any 60 seconds.
    public let limit: Int
    /// The window, in milliseconds.
    public static let window = 60_000
    /// Per token, the times of the requests in the window, oldest first, one entry a
    /// millisecond with how many came in it: at most 60,000 entries, however many arrive.
    private var arrivals: [String: [(at: Int, count: Int)]] = [:]

    /// A limiter of `limit` requests a minute.
    public init(limit: Int) {
        self.limit = limit
    }

    /// Counts a request of `token` at `now` (Unix milliseconds); whether it may be
    /// answered: no more than ``limit`` requests, this one among them, in the 60 seconds
    /// up to `now`.
    public mutating func admit(token: String, now: Int) -> Bool {
        var times = arrivals[token] ?? []
        let start = times.firstIndex { $0.at > now - Self.window } ?? times.endIndex
        times.removeFirst(start)
        if let last = times.last, last.at == now {
            times[times.count - 1].count += 1
        } else {
            times.append((now, 1))
        }
        arrivals[token] = times
        // Tokens that stopped calling go, so that the table stays as small as the window.
        if arrivals.count > 64 {
            arrivals = arrivals.filter { $0.value.last.map { $0.at > now - Self.window } ?? false }
        }
        return times.reduce(0) { $0 + $1.count } <= limit
    }
}
