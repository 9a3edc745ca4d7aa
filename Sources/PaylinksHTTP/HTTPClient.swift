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
    /// Another error of the system's.
    case system(String)

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
        let request = Self.encode(method: method, url: url, headers: headers, body: body)
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
        do {
            var response: HTTPResponse
            var keepAlive: Bool
            repeat {
                (response, keepAlive) = try readResponse(from: socket, method: pendingMethod, until: deadline)
            } while (100..<200).contains(response.status)
            if !keepAlive { close() }
            return response
        } catch {
            close()
            throw error
        }
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

    static func encode(method: String, url: HTTPURL, headers: [HTTPHeader], body: [UInt8]) -> [UInt8] {
        var head = "\(method) \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    // MARK: Reading

    /// Reads one response; says whether the connection may carry another.
    private func readResponse(from socket: Socket, method: String, until deadline: Deadline) throws(HTTPError)
        -> (HTTPResponse, Bool)
    {
        let headEnd = try fill(socket, until: deadline) { buffer in
            Self.find([13, 10, 13, 10], in: buffer).map { $0 + 4 }
        }
        guard let head = String(validating: buffered[0..<headEnd - 4], as: UTF8.self) else {
            throw .malformedResponse("the status line or headers are not UTF-8")
        }
        buffered.removeFirst(headEnd)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...999).contains(status)
        else { throw .malformedResponse("the status line is '\(statusLine.prefix(80))'") }
        var headers: [HTTPHeader] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw .malformedResponse("a header has no ':'") }
            headers.append(
                HTTPHeader(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: " \t")))
        }
        var response = HTTPResponse(status: status, headers: headers, body: [])
        let closes = response.header("connection")?.lowercased() == "close" || parts[0] == "HTTP/1.0"
        if method == "HEAD" || status == 204 || status == 304 || (100..<200).contains(status) {
            return (response, !closes)
        }
        if response.header("transfer-encoding")?.lowercased().contains("chunked") == true {
            response.body = try readChunked(from: socket, until: deadline)
            return (response, !closes)
        }
        if let lengthText = response.header("content-length") {
            guard let length = Int(lengthText), length >= 0 else {
                throw .malformedResponse("Content-Length is '\(lengthText.prefix(40))'")
            }
            guard length <= maximumResponseSize else { throw .responseTooLarge(limit: maximumResponseSize) }
            _ = try fill(socket, until: deadline) { $0.count >= length ? length : nil }
            response.body = Array(buffered[0..<length])
            buffered.removeFirst(length)
            return (response, !closes)
        }
        // No length: the body runs to the end of the connection.
        while try socket.read(into: &buffered, until: deadline, phase: "reading the response") > 0 {
            guard buffered.count <= maximumResponseSize else { throw .responseTooLarge(limit: maximumResponseSize) }
        }
        response.body = buffered
        buffered = []
        return (response, false)
    }

    private func readChunked(from socket: Socket, until deadline: Deadline) throws(HTTPError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let lineEnd = try fill(socket, until: deadline) { Self.find([13, 10], in: $0) }
            let sizeText = String(decoding: buffered[0..<lineEnd], as: UTF8.self)
            buffered.removeFirst(lineEnd + 2)
            let digits = sizeText.split(separator: ";").first.map { $0.trimmingCharacters(in: " ") } ?? ""
            guard let size = Int(digits, radix: 16), size >= 0 else {
                throw .malformedResponse("a chunk size is '\(sizeText.prefix(40))'")
            }
            if size == 0 {
                // Trailers, if any, end with an empty line.
                while true {
                    let end = try fill(socket, until: deadline) { Self.find([13, 10], in: $0) }
                    buffered.removeFirst(end + 2)
                    if end == 0 { return body }
                }
            }
            guard body.count + size <= maximumResponseSize else { throw .responseTooLarge(limit: maximumResponseSize) }
            _ = try fill(socket, until: deadline) { $0.count >= size + 2 ? size : nil }
            body += buffered[0..<size]
            buffered.removeFirst(size + 2)
        }
    }

    /// Reads until `complete` finds what it needs in the buffer; returns what it found.
    private func fill(_ socket: Socket, until deadline: Deadline, _ complete: ([UInt8]) -> Int?) throws(HTTPError)
        -> Int
    {
        while true {
            if let found = complete(buffered) { return found }
            guard buffered.count <= maximumResponseSize + 65_536 else {
                throw .responseTooLarge(limit: maximumResponseSize)
            }
            let count = try socket.read(into: &buffered, until: deadline, phase: "waiting for the response")
            if count == 0 { throw .connectionClosed }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = 0
        search: while index <= haystack.count - needle.count {
            for offset in 0..<needle.count where haystack[index + offset] != needle[offset] {
                index += 1
                continue search
            }
            return index
        }
        return nil
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(self).trimmingCharacters(in: set)
    }
}
