/// One loop of a server: its connections, polled on its thread, each request read,
/// parsed and answered there. The first loop also accepts, for all of them, and hands each
/// connection over through an inbox and a pipe that wakes the loop.
final class EventLoop {
    let number: Int
    let waker: Waker
    private let limits: HTTPServer.Limits
    /// Words what the server answers on its own.
    private let refusal: @Sendable (HTTPServer.Refusal) -> HTTPServerResponse
    private var connections: [HTTPConnection] = []
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
        var reported = Report(arriving: 0, idleSince: nil, held: 0)
        while true {
            let now = Deadline.nowMilliseconds()
            if stopSince == nil, let lead, lead.stopping() { server.beginStopping() }
            if woken {
                if stopSince == nil && server.isStopping { stopSince = now }
                take(server: server)
            }
            if let stopSince, closeForStop(server: server, since: stopSince, now: now, leading: lead != nil) { return }
            lead?.tick()
            woken = pollAndServe(server: server, now: now, leading: lead != nil, parser: parser)
            answerBatch(parser: parser, calls: calls)
            expire()
            endTurn(server: server, reported: &reported)
        }
    }

    /// Once the server is stopping, since `since`: closes the idle connections at once, and
    /// those with a request arriving once answered or after the read time; whether the loop
    /// is done (the first loop is done only once every other loop is).
    private func closeForStop(server: HTTPServer, since: Int, now: Int, leading: Bool) -> Bool {
        let before = connections.count
        connections.removeAll { connection in
            let done =
                (connection.buffer.isEmpty && connection.pending == 0 && connection.waiting.isEmpty
                    && connection.held.isEmpty)
                || connection.isClosing || now - since > limits.readMilliseconds
            if done { connection.socket.close() }
            return done
        }
        server.closed(on: number, count: before - connections.count)
        guard connections.isEmpty && (!leading || server.othersFinished) else { return false }
        server.report(loop: number, arriving: 0, idleSince: nil, held: 0)
        if !leading { server.loopFinished() }
        return true
    }

    /// Waits up to 100 ms for the connections, the pipe and (for the first loop) the
    /// listener, then reads, writes and accepts what is ready; whether the pipe woke it.
    private func pollAndServe(server: HTTPServer, now: Int, leading: Bool, parser: HTTPRequestParser) -> Bool {
        // A connection with answers waiting is watched for room to write, and read no
        // further while they are more than a little: a client that sends and never
        // reads holds its own requests, not the server's memory or its thread.
        var watched = connections.map { connection in
            (
                descriptor: connection.socket.descriptor,
                read: connection.pending < HTTPConnection.readAhead && connection.state == .reading,
                write: connection.pending > 0
            )
        }
        watched.append((waker.descriptor, true, false))
        let listening = leading ? server.listening(now: now) : nil
        if let listening { watched.append((listening, true, false)) }
        let ready = Socket.ready(watched, milliseconds: 100)
        // The connections polled; those taken now are polled from the next turn.
        let polled = connections
        let woken = ready[polled.count].readable
        if woken { waker.drain() }
        if listening != nil, ready[polled.count + 1].readable { server.accept() }
        for (index, connection) in polled.enumerated() {
            if ready[index].writable {
                connection.flush()
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
        return woken
    }

    /// What a loop last told the server of itself.
    private struct Report: Equatable {
        var arriving: Int
        var idleSince: Int?
        var held: Int
    }

    /// Closes the connections that end this turn and tells the server what changed.
    private func endTurn(server: HTTPServer, reported: inout Report) {
        let before = connections.count
        connections.removeAll { connection in
            switch connection.state {
            case .closing: connection.socket.close()
            case .aborting: connection.socket.abort()
            case .reading, .finishing: return false
            }
            return true
        }
        server.closed(on: number, count: before - connections.count)
        // What it holds of answers not taken is told too, so that the other loops' making
        // goes on once its clients took theirs, or went.
        let state = Report(
            arriving: connections.count { !$0.buffer.isEmpty && !$0.isClosing },
            idleSince: longestIdle().map { connections[$0].since },
            held: connections.reduce(0) { $0 + $1.pending })
        if state != reported {
            server.report(loop: number, arriving: state.arriving, idleSince: state.idleSince, held: state.held)
            reported = state
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
                connections.append(HTTPConnection(socket: socket, now: Deadline.nowMilliseconds()))
            } else if let idle = longestIdle() {
                // The newcomer takes the idle one's place: the count stays.
                connections[idle].socket.close()
                connections[idle] = HTTPConnection(socket: socket, now: Deadline.nowMilliseconds())
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
        where connection.buffer.isEmpty && connection.pending == 0 && connection.waiting.isEmpty
            && connection.held.isEmpty && connection.state == .reading
            && (connection.served > 0 || now - connection.since > 1_000)
        {
            if let best = found, connections[best].since <= connection.since { continue }
            found = index
        }
        return found
    }

    /// Reads what has arrived on `connection` and answers each whole request in it.
    private func serve(_ connection: HTTPConnection, parser: HTTPRequestParser) {
        let wasEmpty = connection.buffer.isEmpty
        guard let count = connection.socket.readAvailable(into: &connection.buffer) else { return }
        if count == 0 {
            // The client has sent all it will; what it was answered still goes out.
            if connection.pending > 0 { connection.closeAfterOutput() } else { connection.close() }
            return
        }
        if wasEmpty { connection.since = Deadline.nowMilliseconds() }
        process(connection, parser: parser)
    }

    /// Takes each whole request `connection` holds into the turn's batch, while its answers
    /// go out; a malformed one is answered in its place, and ends the connection.
    private func process(_ connection: HTTPConnection, parser: HTTPRequestParser) {
        // Requests held behind an awaited answer go first, once it is given.
        if connection.waiting.isEmpty && !connection.held.isEmpty && connection.state == .reading {
            let held = connection.held
            connection.held = []
            for request in held {
                queue(connection, .request(request.request), closing: request.closing, head: request.head)
            }
        }
        while connection.state == .reading && !connection.lastQueued && connection.held.isEmpty
            && connection.pending < HTTPConnection.readAhead && connection.waiting.isEmpty
            && connection.queued < Self.batchLimit && !connection.buffer.isEmpty
        {
            let result: HTTPRequestParser.Result
            do {
                result = try parser.parse(connection.buffer[...], resuming: &connection.progress)
            } catch {
                let refused = HTTPServer.Refusal.cannotTake(error, request: connection.progress.requestLine)
                queue(connection, .ready(refusal(refused)), closing: true, head: false)
                return
            }
            guard case .complete(let request, let length) = result else {
                // A client that waits for leave to send its body gets it once its head passed,
                // after the answers before it.
                if connection.queued == 0, !connection.continued, parser.expectsContinue(connection.progress) {
                    connection.continued = true
                    connection.send(Self.continueLine, closing: false)
                }
                return
            }
            connection.continued = false
            connection.progress = HTTPRequestParser.Progress()
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
    private var batch: [(connection: HTTPConnection, owed: Owed, closing: Bool, head: Bool)] = []

    /// The most requests of one connection a batch takes.
    private static let batchLimit = 64

    private func queue(_ connection: HTTPConnection, _ owed: Owed, closing: Bool, head: Bool) {
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
            var requests: [(connection: ObjectIdentifier, request: HTTPRequest)] = []
            for entry in taken {
                if case .request(let request) = entry.owed {
                    requests.append((ObjectIdentifier(entry.connection), request))
                }
            }
            var answers = calls.answer(requests).makeIterator()
            for entry in taken {
                let answer: HTTPAnswer
                switch entry.owed {
                case .request(let request):
                    guard let given = answers.next() else {
                        answer = .ready(refusal(.noAnswer))
                        break
                    }
                    guard let given else {
                        // Behind an awaited answer: handled once it is given.
                        entry.connection.queued -= 1
                        if entry.closing { entry.connection.lastQueued = false }
                        entry.connection.held.append((request, entry.closing, entry.head))
                        continue
                    }
                    answer = given
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

    private func answer(_ connection: HTTPConnection, _ response: HTTPServerResponse, closing: Bool, head: Bool = false)
    {
        connection.send(response.encoded(closing: closing, head: head), closing: closing)
    }

    /// Sends `answer` now when the connection has taken nearly all before it; else it
    /// waits its turn, made or not: a connection holds at most one turn's answers (a
    /// batch's), and one that takes none of them for the read time is closed.
    private func deliver(_ answer: HTTPAnswer, on connection: HTTPConnection, closing: Bool, head: Bool) {
        guard connection.state == .reading else { return }
        connection.waiting.append((answer, closing, head))
        // One given already (at the end of its batch) goes out now, without a wake.
        if case .awaited(let promise) = answer, promise.response == nil {
            let waker = waker
            promise.whenGiven { waker.wake() }
        }
        sendWaiting(connection)
    }

    /// Sends the answers waiting on `connection`, in order, while it takes them; one made
    /// later is made only while the server holds less than its limit of answers not taken.
    private func sendWaiting(_ connection: HTTPConnection) {
        while let next = connection.waiting.first, connection.pending < HTTPConnection.readAhead, !connection.isClosing
        {
            if case .later = next.answer, !mayMakeAnswer() { return }
            // An awaited answer not given yet holds those after it; the loop is woken once it is.
            guard let response = next.answer.made else { return }
            connection.waiting.removeFirst()
            answer(connection, response, closing: next.closing, head: next.head)
        }
    }

    /// Whether the server may make one more answer left to make later now.
    private func mayMakeAnswer() -> Bool {
        server?.mayMakeAnswer(loop: number, held: connections.reduce(0) { $0 + $1.pending }) ?? true
    }

    /// Answers 408 to requests that take too long to arrive, and closes idle connections
    /// that waited too long for their next one.
    private func expire() {
        let now = Deadline.nowMilliseconds()
        for connection in connections where !connection.isClosing {
            // A client that takes none of its answers for the read time is gone, and so is one
            // that takes less than the least a read time: it holds its answers' memory.
            if connection.pending > 0 {
                if now - connection.writtenSince > limits.readMilliseconds { connection.abort() }
                if now - connection.takingSince > limits.readMilliseconds {
                    if connection.takenSince < min(limits.leastTaken, connection.owedAtTakingSince) {
                        connection.abort()
                    }
                    connection.takingSince = now
                    connection.takenSince = 0
                    connection.owedAtTakingSince = connection.pending
                }
                continue
            }
            if connection.buffer.isEmpty {
                // A connection waiting for an awaited answer is not idle: the application gives it.
                if connection.waiting.isEmpty && now - connection.since > limits.idleMilliseconds { connection.close() }
            } else if now - connection.since > limits.readMilliseconds {
                answer(connection, refusal(.tooSlow(seconds: limits.readMilliseconds / 1000)), closing: true)
            }
        }
    }

    /// The interim answer to `Expect: 100-continue`.
    private static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
