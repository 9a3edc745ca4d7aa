// The locks that threads share state under.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lock and a condition that threads wait on under it, each wait bounded if need be on
/// the monotonic clock (a change of the wall clock neither cuts a wait short nor stretches
/// it): what a pause that a stop must end, and a writer waiting for lines, wait on.
package final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A new lock and condition.
    package init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition.initialize(to: pthread_cond_t())
        #if canImport(Darwin)
            // Darwin waits a relative time instead (pthread_cond_timedwait_relative_np).
            pthread_cond_init(condition, nil)
        #else
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    package func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits, holding the lock (call it inside ``withLock(_:)``), until `satisfied()` holds
    /// or `milliseconds` have passed (nil: however long it takes); whether it holds.
    /// `satisfied()` is asked under the lock, first at once and then after each
    /// ``broadcast()`` (or spurious wake-up).
    package func wait(milliseconds: Int?, until satisfied: () -> Bool) -> Bool {
        guard let milliseconds else {
            while !satisfied() { pthread_cond_wait(condition, mutex) }
            return true
        }
        // Clamped to about 35 years, so that the sum cannot overflow.
        let deadline = Deadline.nowMilliseconds() + min(max(0, milliseconds), 1 << 40)
        while !satisfied() {
            let remaining = deadline - Deadline.nowMilliseconds()
            guard remaining > 0 else { return false }
            #if canImport(Darwin)
                var interval = timespec(tv_sec: remaining / 1000, tv_nsec: (remaining % 1000) * 1_000_000)
                pthread_cond_timedwait_relative_np(condition, mutex, &interval)
            #else
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                let nanoseconds = Int(now.tv_nsec) + (remaining % 1000) * 1_000_000
                var end = timespec(
                    tv_sec: now.tv_sec + remaining / 1000 + nanoseconds / 1_000_000_000,
                    tv_nsec: nanoseconds % 1_000_000_000)
                pthread_cond_timedwait(condition, mutex, &end)
            #endif
        }
        return true
    }

    /// Wakes every thread waiting, so that each asks again whether what it waits for holds.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

/// A mutual-exclusion lock, for what threads share.
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        #if canImport(Glibc)
            // A thread that finds it held spins a little before it sleeps: the holders here
            // keep it for microseconds, less than a sleep and a wake-up cost.
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
            pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
        #else
            pthread_mutex_init(mutex, nil)
        #endif
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
