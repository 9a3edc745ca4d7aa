/// Why an HTTP exchange failed, in words for a message.
public enum HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL cannot be used: the URL and why.
    case invalidURL(String, String)
    /// The host name did not resolve.
    case cannotResolve(host: String)
    /// Nothing listens there.
    case connectionRefused(String)
    /// A wait ran past its limit.
    case timedOut(phase: String, seconds: Double)
    /// The response is larger than the client takes.
    case responseTooLarge(limit: Int)
    /// The response is not HTTP/1.1 as the client reads it.
    case malformedResponse(String)
    /// The server closed the connection before a whole response.
    case connectionClosed
    /// Another program listens on the address already.
    case addressInUse(String)
    /// The address cannot be listened on: the address and the system's reason.
    case cannotListen(address: String, reason: String)
    /// Another error of the system's.
    case system(String)

    /// Whether the error says that no server is there at all: a host that does not resolve,
    /// a refused connection, or a connection that never opens.
    public var meansNothingListens: Bool {
        switch self {
        case .cannotResolve, .connectionRefused: true
        case .timedOut(let phase, _): phase == "connecting"
        default: false
        }
    }

    /// The reason, in a phrase.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): "cannot use '\(url)': \(reason)"
        case .cannotResolve(let host): "cannot resolve the host '\(host)'"
        case .connectionRefused(let address): "connection refused by \(address): is the server running?"
        case .timedOut(let phase, let seconds): "timed out after \(Self.seconds(seconds)) \(phase)"
        case .responseTooLarge(let limit): "the response is larger than \(limit >> 10) KiB"
        case .malformedResponse(let reason): "malformed response: \(reason)"
        case .connectionClosed: "the server closed the connection before a whole response"
        case .addressInUse(let address): "\(address) is in use by another program"
        case .cannotListen(let address, let reason): "cannot listen on \(address): \(reason)"
        case .system(let reason): reason
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// A response: its status, headers and body.
public struct HTTPResponse: Equatable, Sendable {
    /// The status code: 200.
    public var status: Int
    /// The headers in the order received, names as sent.
    public var headers: [HTTPHeader]
    /// The body, its transfer coding removed.
    public var body: [UInt8]

    /// The first header named `name`, in any case.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}

/// One header line.
public struct HTTPHeader: Equatable, Sendable {
    /// The name: `content-type`.
    public var name: String
    /// The value.
    public var value: String

    /// A header.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

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

    private var socket: Socket?
    private var buffered: [UInt8] = []
    private var pendingDeadline: Deadline?
    private var pendingMethod = "POST"

    /// A client for `url`; nothing connects until the first request.
    public init(
        url: HTTPURL, connectTimeout: Double = 5, responseTimeout: Double = 10, maximumResponseSize: Int = 1 << 20
    ) {
        self.url = url
        self.connectTimeout = connectTimeout
        self.responseTimeout = responseTimeout
        self.maximumResponseSize = maximumResponseSize
    }

    /// Sends one request to the URL's path and returns the response. A kept-alive
    /// connection that the server closed in the meantime is opened again once.
    public func send(method: String = "POST", headers: [HTTPHeader], body: [UInt8]) throws(HTTPError) -> HTTPResponse {
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
    public func start(method: String = "POST", headers: [HTTPHeader], body: [UInt8]) throws(HTTPError) {
        try start(encoded: Self.encode(method: method, url: url, headers: headers, body: body), method: method)
    }

    /// Sends a request already encoded with ``encode(method:url:headers:body:)`` for this
    /// client's URL, without waiting for its response.
    public func start(encoded request: [UInt8], method: String = "POST") throws(HTTPError) {
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
        let parser = HTTPResponseParser(maximumResponseSize: maximumResponseSize, method: pendingMethod)
        var closed = false
        do throws(HTTPError) {
            while true {
                switch try parser.parse(buffered[...], closed: closed) {
                case .complete(let response, let length, let keepAlive):
                    buffered.removeFirst(length)
                    // An interim response (100 Continue) comes before the real one.
                    if (100..<200).contains(response.status) { continue }
                    if !keepAlive { close() }
                    return response
                case .incomplete:
                    if closed { throw .connectionClosed }
                    let phase = buffered.isEmpty ? "waiting for the response" : "reading the response"
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
    var awaitedSocket: Socket? {
        guard let deadline = pendingDeadline, deadline.remainingMilliseconds() > 0 else { return nil }
        return socket
    }

    /// Closes the connection.
    public func close() {
        socket?.close()
        socket = nil
        buffered = []
    }

    private func connectedSocket() throws(HTTPError) -> Socket {
        if let socket { return socket }
        let opened = try Socket.connect(host: url.host, port: url.port, timeout: connectTimeout)
        socket = opened
        buffered = []
        return opened
    }

    /// A request's bytes: its line, `Host`, `headers`, `Content-Length` and `body`.
    public static func encode(method: String, url: HTTPURL, headers: [HTTPHeader], body: [UInt8]) -> [UInt8] {
        encode(head: head(method: method, url: url, headers: headers), body: body)
    }

    /// The start of a request, for many requests that share it: its line, `Host` and
    /// `headers`.
    public static func head(method: String, url: HTTPURL, headers: [HTTPHeader]) -> [UInt8] {
        var head: [UInt8] = []
        appendLine(method, " ", url.target, " HTTP/1.1", to: &head)
        appendLine("Host: ", url.hostHeader, to: &head)
        for header in headers { appendLine(header.name, ": ", header.value, to: &head) }
        return head
    }

    /// A request from its ``head(method:url:headers:)``, the headers that differ from one
    /// request to the next, `Content-Length` and `body`.
    public static func encode(head: [UInt8], headers: [HTTPHeader] = [], body: [UInt8]) -> [UInt8] {
        var request: [UInt8] = []
        request.reserveCapacity(head.count + 128 + body.count)
        request += head
        for header in headers { appendLine(header.name, ": ", header.value, to: &request) }
        appendLine("Content-Length: ", String(body.count), to: &request)
        appendLine(to: &request)
        request += body
        return request
    }

    private static func appendLine(_ parts: String..., to request: inout [UInt8]) {
        for part in parts { request += part.utf8 }
        request += "\r\n".utf8
    }
}
