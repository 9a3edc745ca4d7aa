/// An HTTP/1.1 client for one origin over one keep-alive connection: `http://` only,
/// `Content-Length` and chunked responses, a cap on a response's size, deadlines on
/// connecting and on each response, and no redirects followed.
public final class HTTPClient {
    /// The origin and path requests go to.
    public let url: HTTPURL
    /// How long connecting may take, in seconds.
    public let connectTimeout: Double
    /// How long a response may take once the request is sent, in seconds.
    public let responseTimeout: Double
    /// The largest response taken, headers and body together.
    public let maximumResponseSize: Int
    /// How long, in microseconds, a kept-alive connection may sit after its answer before
    /// it is looked at for what arrived since: stray bytes (an answer nobody asked for) or
    /// the server's close. A look is a system call, and within this time it buys little:
    /// it sees only what arrived since the answer was read, while whatever arrives after
    /// it, until the next answer, goes unseen all the same, so the round trip, not these
    /// microseconds, is the window it cannot close. A connection idle longer is looked at.
    public let idleCheckMicroseconds: Int
    /// Whether responses keep their headers; a caller that reads only the status and the
    /// body spares their copies, and every header is still checked as strictly.
    package var keepsHeaders = true

    private var socket: Socket?
    private var buffered: [UInt8] = []
    private var pendingDeadline: Deadline?
    private var pendingMethod = HTTPMethod.post
    /// When the connection's last answer was read in full, in microseconds on the
    /// monotonic clock; nil until one has been.
    private var answeredAt: Int?

    /// A client for `url`; nothing connects until the first request.
    public init(
        url: HTTPURL, connectTimeout: Double = 5, responseTimeout: Double = 10, maximumResponseSize: Int = 1 << 20,
        idleCheckMicroseconds: Int = 1_000
    ) {
        self.url = url
        self.connectTimeout = connectTimeout
        self.responseTimeout = responseTimeout
        self.maximumResponseSize = maximumResponseSize
        self.idleCheckMicroseconds = idleCheckMicroseconds
    }

    /// Sends one request to the URL's path and returns the response. A kept-alive
    /// connection that the server closed in the meantime is opened again once.
    public func send(method: HTTPMethod = .post, headers: [HTTPHeader], body: [UInt8]) throws(HTTPError) -> HTTPResponse
    {
        let reused = socket != nil
        do {
            try start(method: method, headers: headers, body: body)
            return try finish()
        } catch .connectionClosed where reused {
            try start(method: method, headers: headers, body: body)
            return try finish()
        }
    }

    /// Sends a request without waiting for its response, so that several clients can
    /// have requests in flight at once; ``finish()`` reads the response.
    public func start(method: HTTPMethod = .post, headers: [HTTPHeader], body: [UInt8]) throws(HTTPError) {
        try start(encoded: Self.encode(method: method, url: url, headers: headers, body: body), method: method)
    }

    /// Sends a request already encoded with ``encode(method:url:headers:body:)`` for this
    /// client's URL, without waiting for its response.
    public func start(encoded request: [UInt8], method: HTTPMethod = .post) throws(HTTPError) {
        do {
            let socket = try connectedSocket()
            pendingDeadline = Deadline(seconds: responseTimeout)
            pendingMethod = method
            try socket.write(request, until: pendingDeadline ?? Deadline(seconds: responseTimeout))
        } catch {
            close()
            throw error
        }
    }

    /// Reads the response to the request ``start(method:headers:body:)`` sent.
    public func finish() throws(HTTPError) -> HTTPResponse {
        guard let socket, let deadline = pendingDeadline else { throw .connectionClosed }
        pendingDeadline = nil
        var parser = HTTPResponseParser(maximumResponseSize: maximumResponseSize, method: pendingMethod)
        parser.keepsHeaders = keepsHeaders
        var progress = HTTPResponseParser.Progress()
        var closed = false
        // Interim responses count toward the size limit, and the deadline holds however
        // many arrive: a server cannot keep the exchange going by talking.
        var interim = 0
        do throws(HTTPError) {
            while true {
                let phase = buffered.isEmpty ? "waiting for the response" : "reading the response"
                guard deadline.remainingMilliseconds() > 0 else {
                    throw .timedOut(phase: phase, seconds: responseTimeout)
                }
                switch try parser.parse(buffered[...], closed: closed, resuming: &progress) {
                case .complete(let response, let length, let keepAlive):
                    buffered.removeFirst(length)
                    progress = HTTPResponseParser.Progress()
                    // An interim response (100 Continue) comes before the real one.
                    if (100..<200).contains(response.status) {
                        interim += length
                        if interim > maximumResponseSize { throw .responseTooLarge(limit: maximumResponseSize) }
                        continue
                    }
                    // Bytes past the response were not asked for: they would be taken as
                    // the next request's answer, so the connection ends here.
                    if !keepAlive || !buffered.isEmpty { close() } else { answeredAt = Deadline.nowMicroseconds() }
                    return response
                case .incomplete:
                    if closed { throw .connectionClosed }
                    closed = try socket.read(into: &buffered, until: deadline, phase: phase) == 0
                }
            }
        } catch {
            close()
            throw error
        }
    }

    /// The connection a sent request's response will come on, while ``finish()`` would
    /// wait for it; nil when it would not (no request, or its time is up).
    package var awaitedSocket: Socket? {
        awaitedSocket(at: Deadline.nowMilliseconds())
    }

    /// The connection a sent request's response will come on, as ``awaitedSocket`` says,
    /// judged at `now` (milliseconds on the monotonic clock).
    package func awaitedSocket(at now: Int) -> Socket? {
        guard let deadline = pendingDeadline, deadline.remainingMilliseconds(at: now) > 0 else { return nil }
        return socket
    }

    /// Closes the connection.
    public func close() {
        socket?.close()
        socket = nil
        buffered = []
        answeredAt = nil
    }

    private func connectedSocket() throws(HTTPError) -> Socket {
        // A kept-alive connection with anything to read before a request was sent holds an
        // answer nobody asked for, or the server's close: open a new one. One whose answer
        // was read just now is reused as it is (``idleCheckMicroseconds``).
        if let socket {
            if let answeredAt, Deadline.nowMicroseconds() - answeredAt < idleCheckMicroseconds { return socket }
            if Socket.readable([socket], milliseconds: 0).isEmpty { return socket }
            close()
        }
        let opened = try Socket.connect(host: url.host, port: url.port, timeout: connectTimeout)
        socket = opened
        buffered = []
        return opened
    }

    /// A request's bytes: its line, `Host`, `headers`, `Content-Length` and `body`.
    public static func encode(method: HTTPMethod, url: HTTPURL, headers: [HTTPHeader], body: [UInt8]) -> [UInt8] {
        encode(head: head(method: method, url: url, headers: headers), body: body)
    }

    /// The start of a request, for many requests that share it: its line, `Host` and
    /// `headers`.
    public static func head(method: HTTPMethod, url: HTTPURL, headers: [HTTPHeader]) -> [UInt8] {
        var head: [UInt8] = []
        appendLine(method.rawValue, " ", url.target, " HTTP/1.1", to: &head)
        appendLine("Host: ", url.hostHeader, to: &head)
        for header in headers { appendLine(header.name, ": ", header.value, to: &head) }
        return head
    }

    /// A request from its ``head(method:url:headers:)``, the headers that differ from one
    /// request to the next, `Content-Length` and `body`.
    public static func encode(head: [UInt8], headers: [HTTPHeader] = [], body: [UInt8]) -> [UInt8] {
        encode(head: head, body: body) { request in
            for header in headers { appendLine(header.name, ": ", header.value, to: &request) }
        }
    }

    /// A request from its ``head(method:url:headers:)``, the header lines `fields` appends
    /// (each ending in CRLF), `Content-Length` and `body`, written in one buffer.
    package static func encode(head: [UInt8], body: [UInt8], fields: (inout [UInt8]) -> Void) -> [UInt8] {
        var request: [UInt8] = []
        encode(head: head, body: body, into: &request, fields: fields)
        return request
    }

    /// Writes a request as ``encode(head:body:fields:)`` does into `request`, in place of
    /// what it held: a sender that keeps one buffer reuses its memory request after request.
    package static func encode(
        head: [UInt8], body: [UInt8], into request: inout [UInt8], fields: (inout [UInt8]) -> Void
    ) {
        request.removeAll(keepingCapacity: true)
        request.reserveCapacity(head.count + 160 + body.count)
        request += head
        fields(&request)
        request += "Content-Length: ".utf8
        HTTPBytes.appendDecimal(body.count, to: &request)
        request += "\r\n\r\n".utf8
        request += body
    }

    private static func appendLine(_ parts: String..., to request: inout [UInt8]) {
        for part in parts { request += part.utf8 }
        request += "\r\n".utf8
    }
}
