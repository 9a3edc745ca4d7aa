/// An HTTP/1.1 server on a loop per core: it accepts connections and spreads them over
/// the loops, each of which reads its connections' requests whole, hands each to the
/// handler (one at a time, whichever loop it came to) and writes the answer, with
/// keep-alive; a body framed by `Content-Length` or by chunks. The limits are the server's,
/// not a loop's. It holds up against clients that misbehave: a request line and headers
/// over the limit get 431, a body over it 413, a malformed request 400, a request that
/// trickles in slower than the read time 408, and connections beyond the limit 503; none of
/// them can stall the others. It says what it refused and why (``Refusal``); the answer's shape and body
/// are its user's, given when the server is made.
/// Answers go out without waiting: each connection keeps what it has not taken yet, reads
/// no further request while that is more than a little, makes an answer the handler left
/// to make later only when it has taken those before it, and is closed once it takes
/// nothing for the read time. So a connection holds at most one turn's answers
/// however few it takes, and an answer of any size goes out whole to one that takes it.
public final class HTTPServer {
    /// What the server takes from its clients.
    public struct Limits: Sendable {
        /// The largest request line and headers.
        public var headSize = 16 * 1024
        /// The largest body.
        public var bodySize = 1 << 20
        /// Connections open at once. Past it, the connection idle the longest (no request
        /// arriving, no answer waiting: kept alive after a request, or silent for a second
        /// since it opened) is closed to make room, as nginx reuses idle keep-alive
        /// connections; when none is idle, the new one is answered 503 and closed.
        public var connections = 1024
        /// How long a request may take to arrive once it has begun, in milliseconds.
        public var readMilliseconds = 10_000
        /// How long a kept-alive connection may wait for its next request, in milliseconds.
        public var idleMilliseconds = 30_000
        /// The most bytes of answers made and not taken yet the server holds, over all its
        /// connections, before it makes one more that its handler left to make later: past
        /// it such answers wait, unmade, for those before them to be taken.
        public var heldAnswers = 64 << 20
        /// The least a connection with answers waiting must take in each read time, in
        /// bytes (or all it was owed, when that was less): one that takes less (a reader
        /// that trickles to keep a large answer, and the memory it holds) is closed.
        public var leastTaken = 64 << 10

        /// The defaults.
        public init() {}
    }

    /// What the server answers on its own, without its handler: a request it cannot take,
    /// one that takes too long to arrive, a connection past the limit, a request its handler
    /// gave no answer to. Its user words each, with ``status`` and ``message``.
    public enum Refusal: Equatable, Sendable {
        /// The request cannot be taken: 400, 413, 431, 501 or 505, as the error says; its
        /// method and path, when its request line was read (a body too large, a header
        /// refused).
        case cannotTake(HTTPRequestError, request: HTTPRequestLine? = nil)
        /// The request took longer than the read time to arrive, in seconds: 408.
        case tooSlow(seconds: Int)
        /// The server has its limit of connections open, none of them idle: 503.
        case tooManyConnections(limit: Int)
        /// The handler gave no answer to the request: 500.
        case noAnswer

        /// The status code that answers it.
        public var status: Int {
            switch self {
            case .cannotTake(let error, _): error.status
            case .tooSlow: 408
            case .tooManyConnections: 503
            case .noAnswer: 500
            }
        }

        /// The reason, in a phrase.
        public var message: String {
            switch self {
            case .cannotTake(let error, _): error.message
            case .tooSlow(let seconds): "the request took longer than \(seconds) s to arrive"
            case .tooManyConnections(let limit): "the server has \(limit) connections open; try again"
            case .noAnswer: "the handler gave no answer"
            }
        }
    }

    private var listener: Listener?
    private let limits: Limits
    /// The loops that serve connections, each on a thread of its own; the first runs on
    /// the thread that calls ``run(_:)`` and accepts for all of them.
    private let loops: [EventLoop]
    /// What the loops share: how many connections are open, on which loop, and with a
    /// request arriving; whether the server is stopping.
    private let shared = Locked(Shared())
    /// Until when the listener is not polled, in milliseconds: after the system refused to
    /// take a connection (out of descriptors), so that the loop backs off instead of spinning.
    private var acceptPausedUntil = 0
    /// Says what the server cannot do for a while, once each time it starts: out of
    /// descriptors, connections wait in the listen queue.
    public var onProblem: (String) -> Void = { _ in }
    /// The port it listens on.
    public let port: Int

    /// The loops a server runs by default: one per core.
    public static var defaultLoops: Int { onlineProcessors() }

    /// Listens on `host` and `port` (0 picks a free port), to serve on `loops` threads;
    /// nothing is served until ``run(_:)``. `refusal` words what the server
    /// answers on its own; it is called on any loop's thread, several at once.
    public init(
        host: String, port: Int, limits: Limits = Limits(), loops: Int = defaultLoops,
        refusal: @escaping @Sendable (Refusal) -> HTTPServerResponse
    ) throws(HTTPError) {
        let listener = try Listener.open(host: host, port: port)
        self.listener = listener
        self.port = listener.port
        self.limits = limits
        let count = max(1, loops)
        var made: [EventLoop] = []
        for number in 0..<count {
            guard let waker = Waker() else {
                if made.isEmpty { throw .system("cannot make a pipe to wake the server: \(Socket.lastErrorText())") }
                break
            }
            made.append(EventLoop(number: number, waker: waker, limits: limits, refusal: refusal))
        }
        self.loops = made
        shared.withLock { shared in
            shared.counts = made.map { _ in 0 }
            shared.arriving = made.map { _ in 0 }
            shared.idleSince = made.map { _ in nil }
            shared.held = made.map { _ in 0 }
        }
    }

    /// The connections on which a request has begun to arrive and not been answered yet:
    /// the requests a stop waits for. Read it from what ``run(_:)`` calls (a responder's
    /// ``HTTPResponder/isStopping``, say); each loop tells its own count once a turn.
    public var requestsArriving: Int {
        shared.withLock { $0.arriving.reduce(0, +) }
    }

    /// Serves `responder` until it says it is stopping: each request is read by its
    /// ``HTTPResponder/prepare(_:)`` on the loop it came to, several loops at once, then
    /// answered by its ``HTTPResponder/respond(to:)``, which is called one at a time with its
    /// ``HTTPResponder/tick()`` and ``HTTPResponder/isStopping``, under one serial lock.
    /// Each loop posts its turn of requests, then takes the lock: the loop that holds it
    /// answers every turn posted by then, and those posted while it answers, as one batch
    /// between ``HTTPResponder/beginBatch()`` and ``HTTPResponder/endBatch()``; a loop whose
    /// turn another answered finds its answers made. So while one batch's change is written
    /// and synced, the turns that wait for it join the next, and share its sync. An
    /// answer made later is made on the loop the request came to, after that lock is let go,
    /// and only once the connection has taken the answers before it. Once stopping, the
    /// server takes no new connection, finishes the requests already arriving (for up to the
    /// read time), and returns.
    public func run<Responder: HTTPResponder>(_ responder: Responder) {
        let lead = loops[0].waker
        responder.attach(wake: { lead.wake() })
        let batches = TurnBatches(responder)
        let calls = Calls { requests in batches.answer(batches.post(requests)) }
        // Each loop's thread ends before this returns.
        let others = loops.dropFirst().map { loop in
            BackgroundWork.start { [self] in loop.run(server: self, calls: calls) }
        }
        loops[0].run(
            server: self, calls: calls,
            lead: Lead(
                stopping: { batches.serially { responder.isStopping } },
                tick: { batches.serially { responder.tick() } }))
        for other in others { other.join() }
    }

    /// What the first loop does beside serving: it asks whether to stop and ticks, under
    /// the serial lock.
    struct Lead: Sendable {
        let stopping: @Sendable () -> Bool
        let tick: @Sendable () -> Void
    }

    /// The answers to a loop's turn of requests: each prepared on the loop's thread, then
    /// answered in a batch under the serial lock, this loop's or another's.
    /// A request after an awaited answer on the same connection is not handled: its answer
    /// is nil, and the loop hands it again once that answer is given.
    struct Calls: Sendable {
        let answer: @Sendable ([(connection: ObjectIdentifier, request: HTTPRequest)]) -> [HTTPAnswer?]
    }

    /// What the loops share, under the server's `shared` lock.
    struct Shared {
        /// Connections open on all loops, the ones handed to a loop and not taken yet included.
        var open = 0
        /// Connections open on each loop, handed over or taken.
        var counts: [Int] = []
        /// Connections with a request arriving, on each loop.
        var arriving: [Int] = []
        /// Since when each loop holds a connection that could make room (the longest idle's
        /// time), or nil.
        var idleSince: [Int?] = []
        /// Bytes of answers made and not taken, on each loop.
        var held: [Int] = []
        var stopping = false
        /// Loops that have returned.
        var finished = 0
    }

    /// Called by the first loop when the listener is readable: takes each waiting
    /// connection and hands it to the loop with the fewest, or at the limit to a loop that
    /// can close an idle one to make room.
    func accept() {
        guard let listener else { return }
        while true {
            let accepted: Socket?
            do {
                accepted = try listener.accept()
            } catch {
                if acceptPausedUntil == 0 { onProblem("\(error); new connections wait until some close") }
                acceptPausedUntil = Deadline.nowMilliseconds() + 100
                return
            }
            guard let socket = accepted else { break }
            if acceptPausedUntil != 0 {
                acceptPausedUntil = 0
                onProblem("connections are accepted again")
            }
            let target: (loop: Int, makingRoom: Bool) = shared.withLock { shared in
                if shared.open < limits.connections {
                    shared.open += 1
                    let fewest = shared.counts.indices.min { shared.counts[$0] < shared.counts[$1] } ?? 0
                    shared.counts[fewest] += 1
                    return (fewest, false)
                }
                // The loop that said it holds the connection idle the longest goes first.
                let idle = shared.idleSince.indices.filter { shared.idleSince[$0] != nil }
                let oldest = idle.min { (shared.idleSince[$0] ?? 0) < (shared.idleSince[$1] ?? 0) } ?? 0
                return (oldest, true)
            }
            loops[target.loop].hand(socket, makingRoom: target.makingRoom ? loops.count : 0)
        }
    }

    /// Whether the first loop polls the listener now.
    func listening(now: Int) -> Int32? {
        guard let listener, now >= acceptPausedUntil else { return nil }
        return listener.pollDescriptor
    }

    /// Stops taking connections and tells every loop to finish.
    /// Has the server ask its responder at once, from any thread, whether to stop (and
    /// tick), rather than within 100 ms: for a reason to stop that arises off its threads,
    /// such as the end of the command `serve` runs.
    public var wakeUp: @Sendable () -> Void {
        let waker = loops[0].waker
        return { waker.wake() }
    }

    func beginStopping() {
        listener?.close()
        listener = nil
        shared.withLock { $0.stopping = true }
        for loop in loops { loop.waker.wake() }
    }

    var isStopping: Bool { shared.withLock { $0.stopping } }

    /// A loop's connection was closed.
    func closed(on loop: Int, count: Int) {
        guard count > 0 else { return }
        shared.withLock { shared in
            shared.open -= count
            shared.counts[loop] -= count
        }
    }

    /// A connection that came to make room found none and goes on to the next loop.
    func forward(_ socket: Socket, from loop: Int, tries: Int) {
        loops[(loop + 1) % loops.count].hand(socket, makingRoom: tries)
    }

    /// What a loop tells of itself once a turn.
    /// Whether the server holds less than ``Limits/heldAnswers`` of answers made and not
    /// taken, the loop `loop` holding `held` of them now.
    func mayMakeAnswer(loop: Int, held: Int) -> Bool {
        shared.withLock { shared in
            shared.held[loop] = held
            return shared.held.reduce(0, +) < limits.heldAnswers
        }
    }

    func report(loop: Int, arriving: Int, idleSince: Int?, held: Int) {
        shared.withLock { shared in
            shared.arriving[loop] = arriving
            shared.idleSince[loop] = idleSince
            shared.held[loop] = held
        }
    }

    /// A loop other than the first has returned; the first returns once all have.
    func loopFinished() {
        shared.withLock { $0.finished += 1 }
        loops[0].waker.wake()
    }

    var othersFinished: Bool { shared.withLock { $0.finished == loops.count - 1 } }
}
