// The one lock that threads share state under, in every module.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// State that threads share, held under a lock, with a condition they wait on under it
/// for the state to change: each wait bounded if need be on the monotonic clock (a change
/// of the wall clock neither cuts a wait short nor stretches it). Whatever threads share is
/// in one of these, so that the classes holding it are plainly `Sendable`.
///
/// A value put in is handed over with it: whoever put in a class that is not `Sendable`
/// reaches it afterwards only through the lock (a ``BackgroundWork``'s work and result are
/// handed between threads so). The state is touched only with `mutex` held, which the
/// checked `Sendable` rules cannot see, hence `@unchecked`.
package final class Locked<State>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Under `mutex`.
    private var state: State

    /// `state` under a new lock and condition.
    package init(_ state: State) {
        self.state = state
        mutex.initialize(to: pthread_mutex_t())
        #if canImport(Glibc)
            // A thread that finds it held spins a little before it sleeps: the holders here
            // keep it for microseconds, less than a sleep and a wake-up cost.
            var mutexAttributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&mutexAttributes)
            pthread_mutexattr_settype(&mutexAttributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
            pthread_mutex_init(mutex, &mutexAttributes)
            pthread_mutexattr_destroy(&mutexAttributes)
        #else
            pthread_mutex_init(mutex, nil)
        #endif
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

    /// Runs `body` on the state, holding the lock.
    package func withLock<Value>(_ body: (inout State) throws -> Value) rethrows -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Holding the lock, waits until `satisfied` holds of the state or `milliseconds` have
    /// passed (nil: however long it takes), then runs `body` on the state, still holding
    /// it, told whether `satisfied` held. `satisfied` is asked first at once and then after
    /// each ``signal()`` or ``broadcast()`` (or spurious wake-up).
    package func withLock<Value>(
        waitingAtMost milliseconds: Int?, until satisfied: (State) -> Bool,
        _ body: (inout State, _ satisfied: Bool) throws -> Value
    ) rethrows -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let held = wait(milliseconds: milliseconds, until: satisfied)
        return try body(&state, held)
    }

    /// Waits, holding the lock, until `satisfied` holds or `milliseconds` have passed;
    /// whether it holds.
    private func wait(milliseconds: Int?, until satisfied: (State) -> Bool) -> Bool {
        guard let milliseconds else {
            while !satisfied(state) { pthread_cond_wait(condition, mutex) }
            return true
        }
        // Clamped to about 35 years, so that the sum cannot overflow.
        let deadline = Deadline.nowMilliseconds() + min(max(0, milliseconds), 1 << 40)
        while !satisfied(state) {
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

    /// Wakes one thread waiting, so that it asks again whether what it waits for holds.
    package func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every thread waiting, so that each asks again whether what it waits for holds.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
