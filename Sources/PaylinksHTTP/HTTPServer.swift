import PaylinksJSON
import PaylinksKit

/// An HTTP/1.1 server on one thread: it accepts connections, reads each request whole,
/// hands it to a handler and writes the answer, with keep-alive. It holds up against
/// clients that misbehave: a request line and headers over the limit get 431, a body
/// over it 413, a malformed request 400, a request that trickles in slower than the
/// read time 408, and connections beyond the limit 503; none of them can stall the
/// others. Answers go out without waiting: each connection keeps what it has not taken
/// yet, reads no further request while that is more than a little, and is closed once it
/// holds more than ``Limits/outputSize`` or takes nothing for the read time.
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
        /// The most a connection may hold of answers it has not taken, in bytes: past it,
        /// the connection is closed.
        public var outputSize = 4 << 20

        /// The defaults.
        public init() {}
    }

    private final class Connection {
        let socket: Socket
        var buffer: [UInt8] = []
        /// When the request now arriving began, or when the connection last went idle.
        var since: Int
        var closing = false
        /// Whether the request arriving was told `100 Continue`.
        var continued = false
        /// Answers not sent yet, from `outputStart` on.
        var output: [UInt8] = []
        var outputStart = 0
        /// When the connection last took bytes of its answers, while it has some pending.
        var writtenSince = 0
        /// Whether the connection ends once its answers are sent.
        var closesAfterOutput = false
        /// Requests answered on it.
        var served = 0

        /// Bytes of answers not sent yet.
        var pending: Int { output.count - outputStart }

        init(socket: Socket, now: Int) {
            self.socket = socket
            since = now
        }
    }

    private var listener: Listener?
    private let limits: Limits
    /// Until when the listener is not polled, in milliseconds: after the system refused to
    /// take a connection (out of descriptors), so that the loop backs off instead of spinning.
    private var acceptPausedUntil = 0
    /// Says what the server cannot do for a while, once each time it starts: out of
    /// descriptors, connections wait in the listen queue.
    public var onProblem: (String) -> Void = { _ in }
    private var connections: [Connection] = []
    /// The port it listens on.
    public let port: Int

    /// Listens on `host` and `port` (0 picks a free port); nothing is served until ``run(until:tick:handle:)``.
    public init(host: String, port: Int, limits: Limits = Limits()) throws(HTTPError) {
        let listener = try Listener.open(host: host, port: port)
        self.listener = listener
        self.port = listener.port
        self.limits = limits
    }

    /// The connections on which a request has begun to arrive and not been answered yet:
    /// the requests a stop waits for. Read it from the closures ``run(until:tick:handle:)``
    /// calls, on the server's thread.
    public var requestsArriving: Int {
        connections.count { !$0.buffer.isEmpty && !$0.closing }
    }

    /// Serves until `stopping` says so, calling `tick` between events (at least every
    /// 100 ms) and `handle` for each request. Once stopping, it takes no new connection,
    /// finishes the requests already arriving (for up to the read time), and returns.
    public func run(
        until stopping: () -> Bool, tick: () -> Void = {}, handle: (HTTPRequest) -> HTTPServerResponse
    ) {
        let parser = HTTPRequestParser(maximumHeadSize: limits.headSize, maximumBodySize: limits.bodySize)
        var stopSince: Int?
        while true {
            let now = Deadline.nowMilliseconds()
            if stopSince == nil && stopping() {
                stopSince = now
                listener?.close()
                listener = nil
            }
            if let stopSince {
                // Idle connections close at once; those with a request arriving get the read time.
                connections.removeAll { connection in
                    let done =
                        (connection.buffer.isEmpty && connection.pending == 0) || connection.closing
                        || now - stopSince > limits.readMilliseconds
                    if done { connection.socket.close() }
                    return done
                }
                if connections.isEmpty { return }
            }
            tick()
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
            let listening = listener != nil && now >= acceptPausedUntil
            if let listener, listening { watched.append((listener.pollDescriptor, true, false)) }
            let ready = Socket.ready(watched, milliseconds: 100)
            // The connections polled; those accepted now are polled from the next turn.
            let polled = connections
            if let listener, listening, ready[polled.count].readable { accept(from: listener) }
            for (index, connection) in polled.enumerated() {
                if ready[index].writable {
                    flush(connection)
                    // Requests that waited for the answers before them to go out.
                    process(connection, parser: parser, handle: handle)
                }
                if ready[index].readable && watched[index].read { serve(connection, parser: parser, handle: handle) }
            }
            expire()
            connections.removeAll { connection in
                if connection.closing { connection.socket.close() }
                return connection.closing
            }
        }
    }

    private func accept(from listener: Listener) {
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
            if connections.count >= limits.connections, let idle = longestIdle() {
                connections[idle].socket.close()
                connections.remove(at: idle)
            }
            guard connections.count < limits.connections else {
                let busy = Self.problem(503, "the server has \(limits.connections) connections open; try again")
                try? socket.write(busy.encoded(closing: true), until: Deadline(seconds: 1))
                socket.close()
                continue
            }
            connections.append(Connection(socket: socket, now: Deadline.nowMilliseconds()))
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
    private func serve(_ connection: Connection, parser: HTTPRequestParser, handle: (HTTPRequest) -> HTTPServerResponse)
    {
        let wasEmpty = connection.buffer.isEmpty
        guard let count = connection.socket.readAvailable(into: &connection.buffer) else { return }
        if count == 0 {
            // The client has sent all it will; what it was answered still goes out.
            if connection.pending > 0 { connection.closesAfterOutput = true } else { connection.closing = true }
            return
        }
        if wasEmpty { connection.since = Deadline.nowMilliseconds() }
        process(connection, parser: parser, handle: handle)
    }

    /// Answers each whole request `connection` holds, while its answers go out.
    private func process(
        _ connection: Connection, parser: HTTPRequestParser, handle: (HTTPRequest) -> HTTPServerResponse
    ) {
        while !connection.closing && !connection.closesAfterOutput && connection.pending < Self.readAhead
            && !connection.buffer.isEmpty
        {
            let result: HTTPRequestParser.Result
            do {
                result = try parser.parse(connection.buffer[...])
            } catch {
                answer(connection, Self.problem(error.status, error.message), closing: true)
                return
            }
            guard case .complete(let request, let length) = result else {
                // A client that waits for leave to send its body gets it once its head passed.
                if !connection.continued, parser.expectsContinue(connection.buffer[...]) {
                    connection.continued = true
                    send(Self.continueLine, on: connection, closing: false)
                }
                return
            }
            connection.continued = false
            connection.served += 1
            connection.buffer.removeFirst(length)
            connection.since = Deadline.nowMilliseconds()
            answer(connection, handle(request), closing: !request.keepAlive, head: request.method == .head)
        }
    }

    private func answer(_ connection: Connection, _ response: HTTPServerResponse, closing: Bool, head: Bool = false) {
        send(response.encoded(closing: closing, head: head), on: connection, closing: closing)
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
        }
        connection.output += bytes
        if closing { connection.closesAfterOutput = true }
        flush(connection)
        if connection.pending > limits.outputSize { connection.closing = true }
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
            // A client that takes none of its answers for the read time is gone.
            if connection.pending > 0 {
                if now - connection.writtenSince > limits.readMilliseconds { connection.closing = true }
                continue
            }
            if connection.buffer.isEmpty {
                if now - connection.since > limits.idleMilliseconds { connection.closing = true }
            } else if now - connection.since > limits.readMilliseconds {
                let seconds = limits.readMilliseconds / 1000
                answer(
                    connection, Self.problem(408, "the request took longer than \(seconds) s to arrive"), closing: true)
            }
        }
    }

    /// The interim answer to `Expect: 100-continue`.
    private static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// A JSON problem answer: `{"errorCode": status, "errorMessage": message}`, and with
    /// several `problems`, each of them in a list.
    public static func problem(_ status: Int, _ message: String, each problems: [String] = []) -> HTTPServerResponse {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("errorCode", status)
        writer.field("errorMessage", message)
        if problems.count > 1 {
            writer.key("problems")
            writer.openArray()
            for problem in problems { writer.string(problem) }
            writer.closeArray()
        }
        writer.closeObject()
        return HTTPServerResponse(status: status, body: writer.bytes)
    }
}
