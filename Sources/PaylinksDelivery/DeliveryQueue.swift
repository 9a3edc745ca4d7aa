public import PaylinksAppcharge
public import PaylinksHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What tells the deliveries under way that their queue is stopping: a pause between
/// retries ends at the stop (it waits on a condition the stop signals, not in a sleep), and
/// no retry starts after it.
public final class DeliveryStop: @unchecked Sendable {
    private let condition = Condition()
    /// Under `condition`.
    private var stopped = false

    /// A stop not requested yet.
    public init() {}

    /// Requests the stop: every pause under way ends now, and any later one at once.
    public func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    /// Whether the stop was requested.
    public var isStopped: Bool {
        condition.withLock { stopped }
    }

    /// Waits `milliseconds` of real time, or until the stop when it comes first.
    public func pause(milliseconds: Int) {
        condition.withLock { _ = condition.wait(milliseconds: milliseconds) { stopped } }
    }
}

/// Deliveries to a game's server (awards, events) made by a fixed pool of threads, so
/// that whoever submits them (a server's loop) never waits for the game's server, and
/// however many are due, no more than `workers` threads and connections are busy with
/// them: the rest wait in order. ``takeFinished()`` hands back those that ended, each
/// with the very item it was, so that whoever submitted two alike tells them apart.
public final class DeliveryQueue<Item: Sendable>: @unchecked Sendable {
    /// A delivery that ended: what was submitted, and its attempts.
    public typealias Ended = (id: String, item: Item, attempts: [DeliveryAttempt])

    /// What one thread of the pool delivers with: its own connection.
    public struct Sender {
        /// Delivers an item until it is done with, its pauses ending at `stop`, no retry
        /// starting after it.
        public var deliver: (_ item: Item, _ stop: DeliveryStop) -> [DeliveryAttempt]
        /// Closes the connection.
        public var close: () -> Void

        /// A sender.
        public init(
            deliver: @escaping (_ item: Item, _ stop: DeliveryStop) -> [DeliveryAttempt],
            close: @escaping () -> Void
        ) {
            self.deliver = deliver
            self.close = close
        }
    }

    private let url: HTTPURL
    private let makeSender: @Sendable () -> Sender
    private let workers: Int

    // Shared with the pool's threads, under `lock`; `ready` signals an award waiting or the stop.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let ready = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var waiting: [(number: Int, id: String, item: Item)] = []
    private var waitingStart = 0
    private var finished: [(number: Int, ended: Ended)] = []
    private var running = 0
    private var stopping = false
    /// What the pool's deliveries pause on: told with `stopping`.
    private let pauses = DeliveryStop()
    private var threads: [BackgroundWork<Void>] = []
    private var submitted = 0

    /// A queue of deliveries to `url`, sent by at most `workers` threads at once, each
    /// with a sender `makeSender` makes for it.
    public init(url: HTTPURL, workers: Int = 8, makeSender: @escaping @Sendable () -> Sender) {
        self.url = url
        self.makeSender = makeSender
        self.workers = max(1, workers)
        pthread_mutex_init(lock, nil)
        pthread_cond_init(ready, nil)
    }

    // The pool's threads hold the queue until ``finishAll()`` has waited for them.
    deinit {
        pthread_cond_destroy(ready)
        pthread_mutex_destroy(lock)
        ready.deallocate()
        lock.deallocate()
    }

    /// The URL deliveries go to.
    public var destination: HTTPURL { url }

    /// Threads the pool has started: never more than its `workers`.
    public var threadCount: Int {
        locked { threads.count }
    }

    /// Items submitted and not handed back yet.
    public var pending: Int {
        locked { waiting.count - waitingStart + running + finished.count }
    }

    /// Queues `item`, known as `id`; a thread of the pool sends it when one is free. Once
    /// the queue is stopping, it waits to be handed back unsent by ``finishAll()``.
    public func submit(_ item: Item, id: String) {
        let startThread = locked { () -> Bool in
            waiting.append((submitted, id, item))
            submitted += 1
            pthread_cond_signal(ready)
            return !stopping && threads.count < workers && threads.count < waiting.count - waitingStart + running
        }
        if startThread {
            let thread = BackgroundWork.start { [self] in work() }
            locked { threads.append(thread) }
        }
    }

    /// One thread of the pool: it sends the items waiting, one at a time, until the queue stops.
    private func work() {
        let sender = makeSender()
        defer { sender.close() }
        while let next = takeNext() {
            // Once the queue stops, a pause ends and no retry starts: the attempt under way is the last.
            let attempts = sender.deliver(next.item, pauses)
            locked {
                running -= 1
                finished.append((next.number, (next.id, next.item, attempts)))
            }
        }
    }

    private func takeNext() -> (number: Int, id: String, item: Item)? {
        locked { () -> (number: Int, id: String, item: Item)? in
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

    /// The deliveries that have ended since the last call, with their attempts, in the
    /// order they were submitted.
    public func takeFinished() -> [Ended] {
        locked { () -> [Ended] in
            defer { finished = [] }
            return finished.sorted { $0.number < $1.number }.map(\.ended)
        }
    }

    /// Tells the pool to stop, without waiting for it: the items being sent end with the
    /// attempt under way (each within its own time limit; a pause before a retry ends at
    /// once, and no retry follows), those still waiting are not sent. Whoever stops several
    /// queues tells each before waiting for any (``finishAll()``), so that none goes on
    /// sending while another is waited for.
    public func stop() {
        locked {
            stopping = true
            pthread_cond_broadcast(ready)
            // Told under the queue's lock, so that a thread between two attempts finds both
            // the stop and the queue stopped: no retry, and no next item either.
            pauses.stop()
        }
    }

    /// Stops the pool as ``stop()`` does, if it was not told already, and waits for its
    /// threads. Returns the deliveries that ended, and those never sent (submitted after
    /// the stop too).
    public func finishAll() -> (finished: [Ended], unsent: [(id: String, item: Item)]) {
        stop()
        let pool = locked { () -> [BackgroundWork<Void>] in
            defer { threads = [] }
            return threads
        }
        for thread in pool { thread.join() }
        // No thread takes an item once the queue stops: what waits now was never sent.
        let unsent = locked { () -> [(id: String, item: Item)] in
            defer {
                waiting = []
                waitingStart = 0
            }
            return waiting[waitingStart...].map { ($0.id, $0.item) }
        }
        return (takeFinished(), unsent)
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }
}

/// Awards delivered by a pool, signed and retried as ``AwardSender`` does.
public typealias AwardQueue = DeliveryQueue<GrantAward>

extension DeliveryQueue where Item == GrantAward {
    /// A queue of awards to `url`, signed with `key`, sent by at most `workers` threads at once.
    public convenience init(url: HTTPURL, key: [UInt8], publisherToken: String, waitsInRealTime: Bool, workers: Int = 8)
    {
        self.init(url: url, workers: workers) {
            let sender = AwardSender(
                url: url, key: key, publisherToken: publisherToken, waitsInRealTime: waitsInRealTime)
            return Sender(
                deliver: { award, stop in sender.deliver(award, until: stop) }, close: sender.close)
        }
    }
}

/// Order events delivered by a pool, signed and retried as ``EventSender`` does.
public typealias EventQueue = DeliveryQueue<OrderEvent>

extension DeliveryQueue where Item == OrderEvent {
    /// A queue of events to `url`, signed with `key`, sent by at most `workers` threads at once.
    public convenience init(
        url: HTTPURL, key: [UInt8], publisherToken: String, projectId: String, waitsInRealTime: Bool, workers: Int = 8
    ) {
        self.init(url: url, workers: workers) {
            let sender = EventSender(
                url: url, key: key, publisherToken: publisherToken, projectId: projectId,
                waitsInRealTime: waitsInRealTime)
            return Sender(
                deliver: { event, stop in sender.deliver(event, until: stop) }, close: sender.close)
        }
    }
}
