public import PaylinksAppcharge

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Awards delivered by a fixed pool of threads, so that whoever submits them (a server's
/// loop) never waits for a game's server, and however many are due, no more than
/// `workers` threads and connections are busy with them: the rest wait in order.
/// ``takeFinished()`` hands back those that ended.
public final class AwardQueue: @unchecked Sendable {
    private let url: HTTPURL
    private let key: [UInt8]
    private let publisherToken: String
    private let waitsInRealTime: Bool
    private let workers: Int

    // Shared with the pool's threads, under `lock`; `ready` signals an award waiting or the stop.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let ready = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var waiting: [(number: Int, id: String, award: GrantAward)] = []
    private var waitingStart = 0
    private var finished: [(number: Int, id: String, attempts: [DeliveryAttempt])] = []
    private var running = 0
    private var stopping = false
    private var threads: [BackgroundWork<Void>] = []
    private var submitted = 0

    /// A queue of awards to `url`, signed with `key`, retried as ``AwardSender`` does, sent
    /// by at most `workers` threads at once.
    public init(url: HTTPURL, key: [UInt8], publisherToken: String, waitsInRealTime: Bool, workers: Int = 8) {
        self.url = url
        self.key = key
        self.publisherToken = publisherToken
        self.waitsInRealTime = waitsInRealTime
        self.workers = max(1, workers)
        pthread_mutex_init(lock, nil)
        pthread_cond_init(ready, nil)
    }

    // The pool's threads hold the queue until ``finishAll()`` stops them.
    deinit {
        pthread_cond_destroy(ready)
        pthread_mutex_destroy(lock)
        ready.deallocate()
        lock.deallocate()
    }

    /// The URL awards go to.
    public var destination: HTTPURL { url }

    /// Threads the pool has started: never more than its `workers`.
    public var threadCount: Int {
        locked { threads.count }
    }

    /// Awards submitted and not handed back yet.
    public var pending: Int {
        locked { waiting.count - waitingStart + running + finished.count }
    }

    /// Queues `award`, known as `id`; a thread of the pool sends it when one is free.
    public func submit(_ award: GrantAward, id: String) {
        let startThread = locked { () -> Bool in
            waiting.append((submitted, id, award))
            submitted += 1
            pthread_cond_signal(ready)
            return threads.count < workers && threads.count < waiting.count - waitingStart + running
        }
        if startThread {
            let thread = BackgroundWork.start { [self] in work() }
            locked { threads.append(thread) }
        }
    }

    /// One thread of the pool: it sends the awards waiting, one at a time, until the queue stops.
    private func work() {
        let sender = AwardSender(url: url, key: key, publisherToken: publisherToken, waitsInRealTime: waitsInRealTime)
        defer { sender.close() }
        while let next = takeNext() {
            // Once the queue stops, no retry starts: the attempt under way is the last.
            let attempts = sender.deliver(next.award, proceeding: { [self] in !locked { stopping } })
            locked {
                running -= 1
                finished.append((next.number, next.id, attempts))
            }
        }
    }

    private func takeNext() -> (number: Int, id: String, award: GrantAward)? {
        locked { () -> (number: Int, id: String, award: GrantAward)? in
            while waitingStart == waiting.count && !stopping { pthread_cond_wait(ready, lock) }
            guard waitingStart < waiting.count, !stopping else { return nil }
            let next = waiting[waitingStart]
            waitingStart += 1
            if waitingStart > 1024 && waitingStart * 2 > waiting.count {
                waiting.removeFirst(waitingStart)
                waitingStart = 0
            }
            running += 1
            return next
        }
    }

    /// The awards that have ended since the last call, with their attempts, in the
    /// order they were submitted.
    public func takeFinished() -> [(id: String, attempts: [DeliveryAttempt])] {
        locked { () -> [(id: String, attempts: [DeliveryAttempt])] in
            defer { finished = [] }
            return finished.sorted { $0.number < $1.number }.map { ($0.id, $0.attempts) }
        }
    }

    /// Stops the pool: the awards being sent end with the attempt under way (each within
    /// its own time limit, no retry after it), those still waiting are not sent. Returns the awards that ended, and the ids of
    /// those never sent.
    public func finishAll() -> (finished: [(id: String, attempts: [DeliveryAttempt])], unsent: [String]) {
        let (unsent, pool) = locked { () -> ([String], [BackgroundWork<Void>]) in
            stopping = true
            pthread_cond_broadcast(ready)
            let unsent = waiting[waitingStart...].map(\.id)
            waiting = []
            waitingStart = 0
            defer { threads = [] }
            return (unsent, threads)
        }
        for thread in pool { thread.join() }
        return (takeFinished(), unsent)
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }
}
