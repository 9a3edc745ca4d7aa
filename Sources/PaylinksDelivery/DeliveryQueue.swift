public import PaylinksAppcharge
public import PaylinksHTTP

/// What tells the deliveries under way that their queue is stopping: a pause between
/// retries ends at the stop (it waits on a condition the stop signals, not in a sleep), and
/// no retry starts after it.
public final class DeliveryStop: Sendable {
    /// Whether the stop was requested.
    private let stopped = Locked(false)

    /// A stop not requested yet.
    public init() {}

    /// Requests the stop: every pause under way ends now, and any later one at once.
    public func stop() {
        stopped.withLock { stopped in
            stopped = true
            self.stopped.broadcast()
        }
    }

    /// Whether the stop was requested.
    public var isStopped: Bool {
        stopped.withLock { $0 }
    }

    /// Waits `milliseconds` of real time, or until the stop when it comes first.
    public func pause(milliseconds: Int) {
        stopped.withLock(waitingAtMost: milliseconds, until: { $0 }) { _, _ in }
    }
}

/// Deliveries to a game's server (awards, events) made by a fixed pool of threads, so
/// that whoever submits them (a server's loop) never waits for the game's server, and
/// however many are due, no more than `workers` threads and connections are busy with
/// them: the rest wait in order. ``takeFinished()`` hands back those that ended, each
/// with the very item it was, so that whoever submitted two alike tells them apart.
public final class DeliveryQueue<Item: Sendable>: Sendable {
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
    /// Told on a thread of the pool each time a delivery ends, for whoever takes them in.
    private let ended = Locked<@Sendable () -> Void>({})

    /// What the queue shares with the pool's threads, under `pool`'s lock; its condition is
    /// signalled for an item waiting or the stop.
    private struct Pool {
        var waiting: [(number: Int, id: String, item: Item)] = []
        var waitingStart = 0
        var finished: [(number: Int, ended: Ended)] = []
        var running = 0
        var stopping = false
        var threads: [BackgroundWork<Void>] = []
        var submitted = 0
    }

    private let pool = Locked(Pool())
    /// What the pool's deliveries pause on: told with `stopping`.
    private let pauses = DeliveryStop()

    /// A queue of deliveries to `url`, sent by at most `workers` threads at once, each
    /// with a sender `makeSender` makes for it.
    public init(url: HTTPURL, workers: Int = 8, makeSender: @escaping @Sendable () -> Sender) {
        self.url = url
        self.makeSender = makeSender
        self.workers = max(1, workers)
    }

    /// The URL deliveries go to.
    public var destination: HTTPURL { url }

    /// Threads the pool has started: never more than its `workers`.
    public var threadCount: Int {
        pool.withLock { $0.threads.count }
    }

    /// Items submitted and not handed back yet.
    public var pending: Int {
        pool.withLock { $0.waiting.count - $0.waitingStart + $0.running + $0.finished.count }
    }

    /// Queues `item`, known as `id`; a thread of the pool sends it when one is free. Once
    /// the queue is stopping, it waits to be handed back unsent by ``finishAll()``.
    public func submit(_ item: Item, id: String) {
        let startThread = pool.withLock { pool in
            pool.waiting.append((pool.submitted, id, item))
            pool.submitted += 1
            self.pool.signal()
            return !pool.stopping && pool.threads.count < workers
                && pool.threads.count < pool.waiting.count - pool.waitingStart + pool.running
        }
        if startThread {
            let thread = BackgroundWork.start { [self] in work() }
            pool.withLock { $0.threads.append(thread) }
        }
    }

    /// One thread of the pool: it sends the items waiting, one at a time, until the queue stops.
    private func work() {
        let sender = makeSender()
        defer { sender.close() }
        while let next = takeNext() {
            // Once the queue stops, a pause ends and no retry starts: the attempt under way is the last.
            let attempts = sender.deliver(next.item, pauses)
            pool.withLock { pool in
                pool.running -= 1
                pool.finished.append((next.number, (next.id, next.item, attempts)))
            }
            ended.withLock { $0 }()
        }
    }

    /// Has `call` told, on a thread of the pool, each time a delivery ends: so that whoever
    /// takes them in (``takeFinished()``) does it at once.
    public func onEnded(_ call: @escaping @Sendable () -> Void) {
        ended.withLock { $0 = call }
    }

    private func takeNext() -> (number: Int, id: String, item: Item)? {
        pool.withLock(waitingAtMost: nil, until: { $0.waitingStart != $0.waiting.count || $0.stopping }) {
            pool, _ -> (number: Int, id: String, item: Item)? in
            guard pool.waitingStart < pool.waiting.count, !pool.stopping else { return nil }
            let next = pool.waiting[pool.waitingStart]
            pool.waitingStart += 1
            if pool.waitingStart > 1024 && pool.waitingStart * 2 > pool.waiting.count {
                pool.waiting.removeFirst(pool.waitingStart)
                pool.waitingStart = 0
            }
            pool.running += 1
            return next
        }
    }

    /// The deliveries that have ended since the last call, with their attempts, in the
    /// order they were submitted.
    public func takeFinished() -> [Ended] {
        pool.withLock { pool in
            defer { pool.finished = [] }
            return pool.finished.sorted { $0.number < $1.number }.map(\.ended)
        }
    }

    /// Tells the pool to stop, without waiting for it: the items being sent end with the
    /// attempt under way (each within its own time limit; a pause before a retry ends at
    /// once, and no retry follows), those still waiting are not sent. Whoever stops several
    /// queues tells each before waiting for any (``finishAll()``), so that none goes on
    /// sending while another is waited for.
    public func stop() {
        pool.withLock { pool in
            pool.stopping = true
            self.pool.broadcast()
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
        let threads = pool.withLock { pool in
            defer { pool.threads = [] }
            return pool.threads
        }
        for thread in threads { thread.join() }
        // No thread takes an item once the queue stops: what waits now was never sent.
        let unsent = pool.withLock { pool in
            defer {
                pool.waiting = []
                pool.waitingStart = 0
            }
            return pool.waiting[pool.waitingStart...].map { ($0.id, $0.item) }
        }
        return (takeFinished(), unsent)
    }
}

/// What a queue of awards or events is handed: an item, and which of its attempts to
/// send: every one of its schedule from the first, the queue pausing between them, or one
/// alone, whose retry a virtual clock holds and hands the queue in its turn.
public struct Scheduled<Item: Deliverable>: Sendable {
    /// The award or the event.
    public var item: Item
    /// The one attempt to send: its number, from 1, and when it goes after the first, in
    /// milliseconds; nil sends every attempt from the first.
    public var only: (number: Int, sentAfter: Int)?
    /// The delivery of the history the attempt goes on, when it is a retry.
    public var continuing: Int?
    /// Whether a move of a virtual clock waits for it: a timer the move fired sent it, or
    /// what such a delivery's outcome brought about.
    public var ofMove = false
    /// How many moves of the clock had begun when it was handed over: a move waits for
    /// what was handed over before it began.
    public var epoch = 0

    /// `item`, all its attempts; or only the attempt `only` says, going on the delivery
    /// `continuing` when it is a retry.
    public init(_ item: Item, only: (number: Int, sentAfter: Int)? = nil, continuing: Int? = nil) {
        self.item = item
        self.only = only
        self.continuing = continuing
    }

    /// The attempts `send` makes: the one, or all of the item's schedule as `all` sends them.
    func attempts(
        all: () -> [DeliveryAttempt], send: (_ number: Int, _ sentAfter: Int) -> DeliveryAttempt
    ) -> [DeliveryAttempt] {
        guard let only else { return all() }
        return [send(only.number, only.sentAfter)]
    }
}

/// Awards delivered by a pool, signed and retried as ``AwardSender`` does.
public typealias AwardQueue = DeliveryQueue<Scheduled<GrantAward>>

/// Order events delivered by a pool, signed and retried as ``EventSender`` does.
public typealias EventQueue = DeliveryQueue<Scheduled<OrderEvent>>
