/// An HTTP/1.1 server on a loop per core: it accepts connections and spreads them over
/// the loops, each of which reads its connections' requests whole, hands each to the
/// handler (one at a time, whichever loop it came to) and writes the answer, with
/// keep-alive. The limits are the server's, not a loop's. It holds up against
/// clients that misbehave: a request line and headers over the limit get 431, a body
/// over it 413, a malformed request 400, a request that trickles in slower than the
/// read time 408, and connections beyond the limit 503; none of them can stall the
/// others. It says what it refused and why (``Refusal``); the answer's shape and body
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
        /// The request cannot be taken: 400, 411, 413, 431, 501 or 505, as the error says.
        case cannotTake(HTTPRequestError)
        /// The request took longer than the read time to arrive, in seconds: 408.
        case tooSlow(seconds: Int)
        /// The server has its limit of connections open, none of them idle: 503.
        case tooManyConnections(limit: Int)
        /// The handler gave no answer to the request: 500.
        case noAnswer

        /// The status code that answers it.
        public var status: Int {
            switch self {
            case .cannotTake(let error): error.status
            case .tooSlow: 408
            case .tooManyConnections: 503
            case .noAnswer: 500
            }
        }

        /// The reason, in a phrase.
        public var message: String {
            switch self {
            case .cannotTake(let error): error.message
            case .tooSlow(let seconds): "the request took longer than \(seconds) s to arrive"
            case .tooManyConnections(let limit): "the server has \(limit) connections open; try again"
            case .noAnswer: "the handler gave no answer"
            }
        }
    }

    private var listener: Listener?
    private let limits: Limits
    /// The loops that serve connections, each on a thread of its own; the first runs on
    /// the thread that calls ``run(until:tick:handle:)`` and accepts for all of them.
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
    /// nothing is served until ``run(until:tick:handle:)``. `refusal` words what the server
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
    /// the requests a stop waits for. Read it from the closures ``run(until:tick:handle:)``
    /// calls; each loop tells its own count once a turn.
    public var requestsArriving: Int {
        shared.withLock { $0.arriving.reduce(0, +) }
    }

    /// Serves until `stopping` says so, calling `tick` between events (at least every
    /// 100 ms) and `handle` for each request. The loops read, parse and write at once, each
    /// on its own connections; the three closures are called one at a time, never two at
    /// once, so that what they touch needs no lock of its own. Once stopping, the server
    /// takes no new connection, finishes the requests already arriving (for up to the read
    /// time), and returns.
    public func run(
        until stopping: () -> Bool, tick: () -> Void = {}, handle: (HTTPRequest) -> HTTPServerResponse
    ) {
        run(until: stopping, tick: tick, prepare: { $0 }, handle: handle)
    }

    /// Serves as ``run(until:tick:handle:)`` does, with each request first read by
    /// `prepare` on the loop it came to, several loops at once (it must touch nothing that
    /// changes), then answered by `handle`, one at a time with the other closures.
    public func run<Arrival>(
        until stopping: () -> Bool, tick: () -> Void = {}, prepare: (HTTPRequest) -> Arrival,
        handle: (Arrival) -> HTTPServerResponse
    ) {
        withoutActuallyEscaping(handle) { handle in
            run(until: stopping, tick: tick, prepare: prepare, answer: { HTTPAnswer.ready(handle($0)) })
        }
    }

    /// Serves as ``run(until:tick:prepare:handle:)`` does, with each answer given as an
    /// ``HTTPAnswer``: one made later is made on the loop the request came to, after the
    /// handler's lock is let go, and only once the connection has taken the answers before
    /// it, so that a large answer takes neither the other clients' time nor more memory
    /// than one connection's due.
    public func run<Arrival>(
        until stopping: () -> Bool, tick: () -> Void = {}, prepare: (HTTPRequest) -> Arrival,
        answer handle: (Arrival) -> HTTPAnswer
    ) {
        let serial = Locked(())
        withoutActuallyEscaping(stopping) { stopping in
            withoutActuallyEscaping(tick) { tick in
                withoutActuallyEscaping(prepare) { prepare in
                    withoutActuallyEscaping(handle) { handle in
                        let calls = Calls { requests in
                            let arrivals = requests.map(prepare)
                            return serial.withLock { _ in arrivals.map(handle) }
                        }
                        // Each loop's thread ends before this returns, so that the closures outlive them.
                        let others = loops.dropFirst().map { loop in
                            BackgroundWork.start { [self] in loop.run(server: self, calls: calls) }
                        }
                        loops[0].run(
                            server: self, calls: calls,
                            lead: Lead(
                                stopping: { serial.withLock { _ in stopping() } },
                                tick: { serial.withLock { _ in tick() } }))
                        for other in others { other.join() }
                    }
                }
            }
        }
    }

    /// What the first loop does beside serving: it asks whether to stop and ticks.
    fileprivate struct Lead {
        let stopping: () -> Bool
        let tick: () -> Void
    }

    /// The answers to a loop's turn of requests: each prepared on the loop's thread, then
    /// all handled in one hold of the server's lock.
    fileprivate struct Calls {
        let answer: ([HTTPRequest]) -> [HTTPAnswer]
    }

    /// What the loops share, under the server's `shared` lock.
    fileprivate struct Shared {
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
    fileprivate func accept() {
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
    fileprivate func listening(now: Int) -> Int32? {
        guard let listener, now >= acceptPausedUntil else { return nil }
        return listener.pollDescriptor
    }

    /// Stops taking connections and tells every loop to finish.
    fileprivate func beginStopping() {
        listener?.close()
        listener = nil
        shared.withLock { $0.stopping = true }
        for loop in loops { loop.waker.wake() }
    }

    fileprivate var isStopping: Bool { shared.withLock { $0.stopping } }

    /// A loop's connection was closed.
    fileprivate func closed(on loop: Int, count: Int) {
        guard count > 0 else { return }
        shared.withLock { shared in
            shared.open -= count
            shared.counts[loop] -= count
        }
    }

    /// A connection that came to make room found none and goes on to the next loop.
    fileprivate func forward(_ socket: Socket, from loop: Int, tries: Int) {
        loops[(loop + 1) % loops.count].hand(socket, makingRoom: tries)
    }

    /// What a loop tells of itself once a turn.
    /// Whether the server holds less than ``Limits/heldAnswers`` of answers made and not
    /// taken, the loop `loop` holding `held` of them now.
    fileprivate func mayMakeAnswer(loop: Int, held: Int) -> Bool {
        shared.withLock { shared in
            shared.held[loop] = held
            return shared.held.reduce(0, +) < limits.heldAnswers
        }
    }

    fileprivate func report(loop: Int, arriving: Int, idleSince: Int?, held: Int) {
        shared.withLock { shared in
            shared.arriving[loop] = arriving
            shared.idleSince[loop] = idleSince
            shared.held[loop] = held
        }
    }

    /// A loop other than the first has returned; the first returns once all have.
    fileprivate func loopFinished() {
        shared.withLock { $0.finished += 1 }
        loops[0].waker.wake()
    }

    fileprivate var othersFinished: Bool { shared.withLock { $0.finished == loops.count - 1 } }
}

/// An answer to a request: made already, or its status and headers decided now and its
/// body made later, on the loop's thread once the handler's lock is let go and the
/// connection has taken the answers before it.
public enum HTTPAnswer: Sendable {
    /// An answer made already.
    case ready(HTTPServerResponse)
    /// An answer whose body `body` makes when it is its turn to go out, from what the
    /// handler captured; `head` holds the rest.
    case later(_ head: HTTPServerResponse, body: @Sendable () -> [UInt8])

    /// The status, decided at once.
    public var status: Int {
        switch self {
        case .ready(let response), .later(let response, _): response.status
        }
    }

    /// The answer, its body made now if it was not.
    public var response: HTTPServerResponse {
        switch self {
        case .ready(let response): return response
        case .later(var head, let body):
            head.body = body()
            return head
        }
    }
}

/// One loop of a server: its connections, polled on its thread, each request read,
/// parsed and answered there. The first loop also accepts, for all of them, and hands each
/// connection over through an inbox and a pipe that wakes the loop.
private final class EventLoop {
    final class Connection {
        let socket: Socket
        var buffer: [UInt8] = []
        /// When the request now arriving began, or when the connection last went idle.
        var since: Int
        var closing = false
        /// Whether it is closed for taking too little: what it was owed is dropped at once.
        var aborting = false
        /// Whether the request arriving was told `100 Continue`.
        var continued = false
        /// Answers not sent yet, from `outputStart` on.
        var output: [UInt8] = []
        var outputStart = 0
        /// When the connection last took bytes of its answers, while it has some pending.
        var writtenSince = 0
        /// Since when, and how much of its answers it has taken since, and what it was owed
        /// then: whether it takes at least ``HTTPServer/Limits/leastTaken`` a read time.
        var takingSince = 0
        var takenSince = 0
        var owedAtTakingSince = 0
        /// Whether the connection ends once its answers are sent.
        var closesAfterOutput = false
        /// Requests answered on it.
        var served = 0
        /// Answers owed to it in the loop's batch.
        var queued = 0
        /// Whether the last answer it is owed in the batch ends it, so that it is read no further.
        var lastQueued = false
        /// Answers handled and not sent yet, in order, while it has not taken those before:
        /// each made (when made later) only once it goes out.
        var waiting: [(answer: HTTPAnswer, closing: Bool, head: Bool)] = []

        /// Bytes of answers not sent yet.
        var pending: Int { output.count - outputStart }

        init(socket: Socket, now: Int) {
            self.socket = socket
            since = now
        }
    }

    let number: Int
    let waker: Waker
    private let limits: HTTPServer.Limits
    /// Words what the server answers on its own.
    private let refusal: @Sendable (HTTPServer.Refusal) -> HTTPServerResponse
    private var connections: [Connection] = []
    /// Connections handed over and not taken yet, each with how many loops may still be
    /// asked to make room for it (0: it has its place).
    private let inbox = Locked<[(socket: Socket, makingRoom: Int)]>([])
    /// The server it serves, while it runs.
    private weak var server: HTTPServer?

    init(
        number: Int, waker: Waker, limits: HTTPServer.Limits,
        refusal: @escaping @Sendable (HTTPServer.Refusal) -> HTTPServerResponse
    ) {
        self.number = number
        self.waker = waker
        self.limits = limits
        self.refusal = refusal
    }

    /// Gives the loop a connection, from any thread.
    func hand(_ socket: Socket, makingRoom: Int) {
        inbox.withLock { $0.append((socket, makingRoom)) }
        waker.wake()
    }

    /// Serves until the server stops. The first loop (the one given `lead`) also asks
    /// whether to stop, ticks and accepts, and returns only once every other loop has.
    func run(server: HTTPServer, calls: HTTPServer.Calls, lead: HTTPServer.Lead? = nil) {
        self.server = server
        let parser = HTTPRequestParser(maximumHeadSize: limits.headSize, maximumBodySize: limits.bodySize)
        var stopSince: Int?
        // Whether the pipe woke the loop: what the other loops say (a connection handed
        // over, the stop) is looked at only then.
        var woken = true
        var reported = (arriving: 0, idleSince: Int?.none, held: 0)
        while true {
            let now = Deadline.nowMilliseconds()
            if stopSince == nil, let lead, lead.stopping() { server.beginStopping() }
            if woken {
                if stopSince == nil && server.isStopping { stopSince = now }
                take(server: server)
            }
            if let stopSince {
                // Idle connections close at once; those with a request arriving get the read time.
                let before = connections.count
                connections.removeAll { connection in
                    let done =
                        (connection.buffer.isEmpty && connection.pending == 0) || connection.closing
                        || now - stopSince > limits.readMilliseconds
                    if done { connection.socket.close() }
                    return done
                }
                server.closed(on: number, count: before - connections.count)
                if connections.isEmpty && (lead == nil || server.othersFinished) {
                    server.report(loop: number, arriving: 0, idleSince: nil, held: 0)
                    if lead == nil { server.loopFinished() }
                    return
                }
            }
            lead?.tick()
            // A connection with answers waiting is watched for room to write, and read no
            // further while they are more than a little: a client that sends and never
            // reads holds its own requests, not the server's memory or its thread.
            var watched = connections.map { connection in
                (
                    descriptor: connection.socket.descriptor,
                    read: connection.pending < Self.readAhead && !connection.closesAfterOutput,
                    write: connection.pending > 0
                )
            }
            watched.append((waker.descriptor, true, false))
            let listening = lead != nil ? server.listening(now: now) : nil
            if let listening { watched.append((listening, true, false)) }
            let ready = Socket.ready(watched, milliseconds: 100)
            // The connections polled; those taken now are polled from the next turn.
            let polled = connections
            woken = ready[polled.count].readable
            if woken { waker.drain() }
            if listening != nil, ready[polled.count + 1].readable { server.accept() }
            for (index, connection) in polled.enumerated() {
                if ready[index].writable {
                    flush(connection)
                    // Answers, then requests, that waited for the answers before them to go out.
                    sendWaiting(connection)
                    process(connection, parser: parser)
                } else if !connection.waiting.isEmpty && connection.pending == 0 {
                    // Answers that waited for the server to hold fewer answers not taken.
                    sendWaiting(connection)
                    process(connection, parser: parser)
                }
                if ready[index].readable && watched[index].read { serve(connection, parser: parser) }
            }
            answerBatch(parser: parser, calls: calls)
            expire()
            let before = connections.count
            connections.removeAll { connection in
                if connection.closing {
                    if connection.aborting { connection.socket.abort() } else { connection.socket.close() }
                }
                return connection.closing
            }
            server.closed(on: number, count: before - connections.count)
            // What it holds of answers not taken is told too, so that the other loops' making
            // goes on once its clients took theirs, or went.
            let state = (
                arriving: connections.count { !$0.buffer.isEmpty && !$0.closing },
                idleSince: longestIdle().map { connections[$0].since },
                held: connections.reduce(0) { $0 + $1.pending }
            )
            if state != reported {
                server.report(loop: number, arriving: state.arriving, idleSince: state.idleSince, held: state.held)
                reported = state
            }
        }
    }

    /// Takes the connections handed over. Each has its place, or came to make room by
    /// closing this loop's connection idle the longest, and goes on to the next loop when
    /// this one has none; when no loop had one, it is answered 503 and closed.
    private func take(server: HTTPServer) {
        let arrived = inbox.withLock { inbox in
            let taken = inbox
            inbox.removeAll()
            return taken
        }
        for (socket, makingRoom) in arrived {
            if makingRoom == 0 {
                connections.append(Connection(socket: socket, now: Deadline.nowMilliseconds()))
            } else if let idle = longestIdle() {
                // The newcomer takes the idle one's place: the count stays.
                connections[idle].socket.close()
                connections[idle] = Connection(socket: socket, now: Deadline.nowMilliseconds())
            } else if makingRoom > 1 {
                server.forward(socket, from: number, tries: makingRoom - 1)
            } else {
                let busy = refusal(.tooManyConnections(limit: limits.connections))
                try? socket.write(busy.encoded(closing: true), until: Deadline(seconds: 1))
                socket.close()
            }
        }
    }

    /// The index of the connection idle the longest: no request arriving, no answer
    /// waiting, nothing about to close it, and either kept alive after a request or silent
    /// for a second since it opened (a client sends its request at once).
    private func longestIdle() -> Int? {
        let now = Deadline.nowMilliseconds()
        var found: Int?
        for (index, connection) in connections.enumerated()
        where connection.buffer.isEmpty && connection.pending == 0 && !connection.closing
            && !connection.closesAfterOutput && (connection.served > 0 || now - connection.since > 1_000)
        {
            if let best = found, connections[best].since <= connection.since { continue }
            found = index
        }
        return found
    }

    /// Reads what has arrived on `connection` and answers each whole request in it.
    private func serve(_ connection: Connection, parser: HTTPRequestParser) {
        let wasEmpty = connection.buffer.isEmpty
        guard let count = connection.socket.readAvailable(into: &connection.buffer) else { return }
        if count == 0 {
            // The client has sent all it will; what it was answered still goes out.
            if connection.pending > 0 { connection.closesAfterOutput = true } else { connection.closing = true }
            return
        }
        if wasEmpty { connection.since = Deadline.nowMilliseconds() }
        process(connection, parser: parser)
    }

    /// Takes each whole request `connection` holds into the turn's batch, while its answers
    /// go out; a malformed one is answered in its place, and ends the connection.
    private func process(_ connection: Connection, parser: HTTPRequestParser) {
        while !connection.closing && !connection.closesAfterOutput && !connection.lastQueued
            && connection.pending < Self.readAhead && connection.waiting.isEmpty
            && connection.queued < Self.batchLimit && !connection.buffer.isEmpty
        {
            let result: HTTPRequestParser.Result
            do {
                result = try parser.parse(connection.buffer[...])
            } catch {
                queue(connection, .ready(refusal(.cannotTake(error))), closing: true, head: false)
                return
            }
            guard case .complete(let request, let length) = result else {
                // A client that waits for leave to send its body gets it once its head passed,
                // after the answers before it.
                if connection.queued == 0, !connection.continued, parser.expectsContinue(connection.buffer[...]) {
                    connection.continued = true
                    send(Self.continueLine, on: connection, closing: false)
                }
                return
            }
            connection.continued = false
            connection.served += 1
            connection.buffer.removeFirst(length)
            connection.since = Deadline.nowMilliseconds()
            queue(connection, .request(request), closing: !request.keepAlive, head: request.method == .head)
        }
    }

    /// What a connection is owed in the batch: the handler's answer to a request, or an
    /// answer made already.
    private enum Owed {
        case request(HTTPRequest)
        case ready(HTTPServerResponse)
    }

    /// The answers owed this turn, in the order the requests came on each connection.
    private var batch: [(connection: Connection, owed: Owed, closing: Bool, head: Bool)] = []

    /// The most requests of one connection a batch takes.
    private static let batchLimit = 64

    private func queue(_ connection: Connection, _ owed: Owed, closing: Bool, head: Bool) {
        batch.append((connection, owed, closing, head))
        connection.queued += 1
        if closing { connection.lastQueued = true }
    }

    /// Has the turn's requests answered, all in one hold of the handler's lock, and writes
    /// the answers; then takes what the connections hold beyond them, until none has more.
    private func answerBatch(parser: HTTPRequestParser, calls: HTTPServer.Calls) {
        while !batch.isEmpty {
            let taken = batch
            batch.removeAll(keepingCapacity: true)
            var requests: [HTTPRequest] = []
            for entry in taken {
                if case .request(let request) = entry.owed { requests.append(request) }
            }
            var answers = calls.answer(requests).makeIterator()
            for entry in taken {
                let answer: HTTPAnswer
                switch entry.owed {
                case .request: answer = answers.next() ?? .ready(refusal(.noAnswer))
                case .ready(let ready): answer = .ready(ready)
                }
                entry.connection.queued -= 1
                if entry.closing { entry.connection.lastQueued = false }
                deliver(answer, on: entry.connection, closing: entry.closing, head: entry.head)
            }
            var seen = Set<ObjectIdentifier>()
            for entry in taken where seen.insert(ObjectIdentifier(entry.connection)).inserted {
                process(entry.connection, parser: parser)
            }
        }
    }

    private func answer(_ connection: Connection, _ response: HTTPServerResponse, closing: Bool, head: Bool = false) {
        send(response.encoded(closing: closing, head: head), on: connection, closing: closing)
    }

    /// Sends `answer` now when the connection has taken nearly all before it; else it
    /// waits its turn, made or not: a connection holds at most one turn's answers (a
    /// batch's), and one that takes none of them for the read time is closed.
    private func deliver(_ answer: HTTPAnswer, on connection: Connection, closing: Bool, head: Bool) {
        guard !connection.closing, !connection.closesAfterOutput else { return }
        connection.waiting.append((answer, closing, head))
        sendWaiting(connection)
    }

    /// Sends the answers waiting on `connection`, in order, while it takes them; one made
    /// later is made only while the server holds less than its limit of answers not taken.
    private func sendWaiting(_ connection: Connection) {
        while let next = connection.waiting.first, connection.pending < Self.readAhead, !connection.closing {
            if case .later = next.answer, !mayMakeAnswer() { return }
            connection.waiting.removeFirst()
            answer(connection, next.answer.response, closing: next.closing, head: next.head)
        }
    }

    /// Whether the server may make one more answer left to make later now.
    private func mayMakeAnswer() -> Bool {
        server?.mayMakeAnswer(loop: number, held: connections.reduce(0) { $0 + $1.pending }) ?? true
    }

    /// How much of a connection's answers may wait before it is read no further.
    private static let readAhead = 64 << 10

    /// Queues `bytes` on the connection and sends what it takes now.
    private func send(_ bytes: [UInt8], on connection: Connection, closing: Bool) {
        guard !connection.closing, !connection.closesAfterOutput else { return }
        if connection.pending == 0 {
            connection.output.removeAll(keepingCapacity: true)
            connection.outputStart = 0
            connection.writtenSince = Deadline.nowMilliseconds()
            connection.takingSince = connection.writtenSince
            connection.takenSince = 0
            connection.owedAtTakingSince = bytes.count
        }
        connection.output += bytes
        if closing { connection.closesAfterOutput = true }
        flush(connection)
    }

    /// Sends what the connection takes of its answers now.
    private func flush(_ connection: Connection) {
        guard connection.pending > 0, !connection.closing else { return }
        guard let sent = connection.socket.writeAvailable(connection.output[connection.outputStart...]) else {
            connection.closing = true
            return
        }
        if sent > 0 {
            connection.outputStart += sent
            connection.takenSince += sent
            connection.writtenSince = Deadline.nowMilliseconds()
        }
        if connection.pending == 0 {
            connection.output.removeAll(keepingCapacity: connection.output.count <= Self.readAhead)
            connection.outputStart = 0
            if connection.closesAfterOutput { connection.closing = true }
        }
    }

    /// Answers 408 to requests that take too long to arrive, and closes idle connections
    /// that waited too long for their next one.
    private func expire() {
        let now = Deadline.nowMilliseconds()
        for connection in connections where !connection.closing {
            // A client that takes none of its answers for the read time is gone, and so is one
            // that takes less than the least a read time: it holds its answers' memory.
            if connection.pending > 0 {
                if now - connection.writtenSince > limits.readMilliseconds {
                    connection.closing = true
                    connection.aborting = true
                }
                if now - connection.takingSince > limits.readMilliseconds {
                    if connection.takenSince < min(limits.leastTaken, connection.owedAtTakingSince) {
                        connection.closing = true
                        connection.aborting = true
                    }
                    connection.takingSince = now
                    connection.takenSince = 0
                    connection.owedAtTakingSince = connection.pending
                }
                continue
            }
            if connection.buffer.isEmpty {
                if now - connection.since > limits.idleMilliseconds { connection.closing = true }
            } else if now - connection.since > limits.readMilliseconds {
                answer(connection, refusal(.tooSlow(seconds: limits.readMilliseconds / 1000)), closing: true)
            }
        }
    }

    /// The interim answer to `Expect: 100-continue`.
    private static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
