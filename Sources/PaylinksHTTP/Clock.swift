// The monotonic and wall clocks, and a pause in real time.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A moment on the monotonic clock by which a wait must end.
package struct Deadline {
    /// How long the wait was allowed, for messages.
    let seconds: Double
    private let end: Int

    init(seconds: Double) {
        self.seconds = seconds
        end = Deadline.nowMilliseconds() + Int(seconds * 1000)
    }

    func remainingMilliseconds() -> Int {
        remainingMilliseconds(at: Deadline.nowMilliseconds())
    }

    /// What remains at `now`, milliseconds on the monotonic clock: one reading of the
    /// clock serves many deadlines.
    func remainingMilliseconds(at now: Int) -> Int {
        end - now
    }

    /// Microseconds on the monotonic clock.
    package static func nowMicroseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int(time.tv_sec) * 1_000_000 + Int(time.tv_nsec) / 1000
    }

    /// Milliseconds on the monotonic clock.
    package static func nowMilliseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int(time.tv_sec) * 1000 + Int(time.tv_nsec) / 1_000_000
    }
}

/// The wall clock in milliseconds since 1970, for the `t` of a signature.
public func wallClockMilliseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int(time.tv_sec) * 1000 + Int(time.tv_nsec) / 1_000_000
}

/// Sleeps for real, for `--award-wait real` where nothing can stop the pause (a command
/// that ends with its deliveries); a queue's pauses wait on its ``DeliveryStop`` instead.
package func pause(milliseconds: Int) {
    var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
