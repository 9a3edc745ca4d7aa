import PaylinksJSON
import PaylinksKit

/// An HTTP/1.1 server on one thread: it accepts connections, reads each request whole,
/// hands it to a handler and writes the answer, with keep-alive. It holds up against
/// clients that misbehave: a request line and headers over the limit get 431, a body
/// over it 413, a malformed request 400, a request that trickles in slower than the
/// read time 408, and connections beyond the limit 503; none of them can stall the
/// others for long.
public final class HTTPServer {
    /// What the server takes from its clients.
    public struct Limits: Sendable {
        /// The largest request line and headers.
        public var headSize = 16 * 1024
        /// The largest body.
        public var bodySize = 1 << 20
        /// Connections open at once; more are answered 503 and closed.
        public var connections = 256
        /// How long a request may take to arrive once it has begun, in milliseconds.
        public var readMilliseconds = 10_000
        /// How long a kept-alive connection may wait for its next request, in milliseconds.
        public var idleMilliseconds = 30_000

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

        init(socket: Socket, now: Int) {
            self.socket = socket
            since = now
        }
    }

    private var listener: Listener?
    private let limits: Limits
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
                    let done = connection.buffer.isEmpty || now - stopSince > limits.readMilliseconds
                    if done { connection.socket.close() }
                    return done
                }
                if connections.isEmpty { return }
            }
            tick()
            var descriptors = connections.map(\.socket.descriptor)
            if let listener { descriptors.append(listener.pollDescriptor) }
            let ready = Set(Socket.readable(descriptors: descriptors, milliseconds: 100))
            if let listener, ready.contains(connections.count) { accept(from: listener) }
            for (index, connection) in connections.enumerated() where ready.contains(index) {
                serve(connection, parser: parser, handle: handle)
            }
            expire()
            connections.removeAll { connection in
                if connection.closing { connection.socket.close() }
                return connection.closing
            }
        }
    }

    private func accept(from listener: Listener) {
        while let socket = listener.accept() {
            guard connections.count < limits.connections else {
                let busy = Self.problem(503, "the server has \(limits.connections) connections open; try again")
                try? socket.write(busy.encoded(closing: true), until: Deadline(seconds: 1))
                socket.close()
                continue
            }
            connections.append(Connection(socket: socket, now: Deadline.nowMilliseconds()))
        }
    }

    /// Reads what has arrived on `connection` and answers each whole request in it.
    private func serve(_ connection: Connection, parser: HTTPRequestParser, handle: (HTTPRequest) -> HTTPServerResponse)
    {
        let wasEmpty = connection.buffer.isEmpty
        guard let count = connection.socket.readAvailable(into: &connection.buffer) else { return }
        if count == 0 {
            connection.closing = true
            return
        }
        if wasEmpty { connection.since = Deadline.nowMilliseconds() }
        while !connection.closing {
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
                    do {
                        try connection.socket.write(Self.continueLine, until: Deadline(seconds: 5))
                    } catch {
                        connection.closing = true
                    }
                }
                return
            }
            connection.continued = false
            connection.buffer.removeFirst(length)
            connection.since = Deadline.nowMilliseconds()
            answer(connection, handle(request), closing: !request.keepAlive, head: request.method == .head)
        }
    }

    private func answer(_ connection: Connection, _ response: HTTPServerResponse, closing: Bool, head: Bool = false) {
        do {
            try connection.socket.write(response.encoded(closing: closing, head: head), until: Deadline(seconds: 5))
        } catch {
            connection.closing = true
            return
        }
        if closing { connection.closing = true }
    }

    /// Answers 408 to requests that take too long to arrive, and closes idle connections
    /// that waited too long for their next one.
    private func expire() {
        let now = Deadline.nowMilliseconds()
        for connection in connections where !connection.closing {
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
