// The values of HTTP/1.1 that the client, the server and their parsers share: methods,
// headers, requests, responses and what can go wrong, as SwiftNIO's HTTPTypes.swift
// gathers them. The parsers, the client, the server and the sockets have files of
// their own.

/// A request's method: a case-sensitive token (RFC 9110, section 9), the common ones
/// named.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The token, as sent: `POST`.
    public var rawValue: String

    /// A method; the request parser accepts any token of `tchar`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: a response without a body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")

    /// `OPTIONS`.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")

    /// The token.
    public var description: String { rawValue }
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
        headers.value(named: name)
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

    /// Whether the header's name is `name` in any case, as header names compare (RFC 9110
    /// §5.1): letters are ASCII in a name, so no other character is folded.
    public func isNamed(_ name: String) -> Bool {
        // Most names differ in length, which a string knows without a look at its bytes.
        guard self.name.utf8.count == name.utf8.count else { return false }
        // Both names read where they are: neither string is copied, so neither is retained.
        let compared = self.name.utf8.withContiguousStorageIfAvailable { own in
            name.utf8.withContiguousStorageIfAvailable { other in Self.same(own, other) }
        }
        if let compared, let compared { return compared }
        // A string whose bytes are not in one piece (one bridged from Objective-C) is copied.
        return Array(self.name.utf8).withUnsafeBufferPointer { own in
            Array(name.utf8).withUnsafeBufferPointer { other in Self.same(own, other) }
        }
    }

    /// Whether two names' bytes are the same, letters in any case.
    private static func same(_ own: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard own.count == other.count else { return false }
        for index in own.indices where own[index] != other[index] {
            guard own[index] | 0x20 == other[index] | 0x20, (0x61...0x7A).contains(own[index] | 0x20) else {
                return false
            }
        }
        return true
    }
}

extension [HTTPHeader] {
    /// The value of the first header named `name`, in any case.
    public func value(named name: String) -> String? {
        // Each header read where it is: one copied out of the array, as its subscript gives
        // it, would retain both its strings and release them again.
        withUnsafeBufferPointer { headers in
            for index in headers.indices where headers[index].isNamed(name) { return headers[index].value }
            return nil
        }
    }
}

/// A request as the server received it.
public struct HTTPRequest: Equatable, Sendable {
    /// The method: `POST`.
    public var method: HTTPMethod
    /// The path, without the query: `/checkout/v1/session`.
    public var path: String
    /// The query after `?`, without it; empty when there is none.
    public var query: String
    /// The headers in the order received, names as sent.
    public var headers: [HTTPHeader]
    /// The body.
    public var body: [UInt8]
    /// Whether the connection may carry another request after this one.
    public var keepAlive: Bool

    /// A request, as a parser or a test makes one.
    public init(method: HTTPMethod, path: String, query: String, headers: [HTTPHeader], body: [UInt8], keepAlive: Bool)
    {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.keepAlive = keepAlive
    }

    /// The first header named `name`, in any case.
    public func header(_ name: String) -> String? {
        headers.value(named: name)
    }

    /// Whether `Content-Type` names the media type `lowercase`, its letters in any case
    /// (RFC 9110 §8.3.1), alone or with parameters after `;` and optional blanks:
    /// `Application/JSON ; charset=utf-8` names `application/json`. Compared in ASCII, as
    /// ``HTTPHeader/isNamed(_:)`` compares names.
    public func hasContentType(_ lowercase: StaticString) -> Bool {
        guard var type = header("content-type") else { return false }
        let length = lowercase.utf8CodeUnitCount
        return type.withUTF8 { bytes in
            guard bytes.count >= length,
                HTTPBytes.equalsIgnoringCase(UnsafeBufferPointer(rebasing: bytes[..<length]), lowercase)
            else { return false }
            let rest = bytes[length...].drop(while: HTTPBytes.isBlank)
            return rest.isEmpty || rest.first == UInt8(ascii: ";")
        }
    }
}

/// A request's method and path, as its request line gave them: what a refusal of the
/// rest of it can still name.
public struct HTTPRequestLine: Equatable, Sendable {
    /// The method, as sent.
    public var method: String
    /// The target, as sent: the path, and the query after a `?`.
    public var target: String

    /// The line's method and target.
    public init(method: String, target: String) {
        self.method = method
        self.target = target
    }

    /// The path, without the query.
    public var path: String { pathAndQuery.path }

    /// The target split at its first `?`, found by its byte, not by characters, which would
    /// break the whole target into graphemes; the query is empty without one.
    var pathAndQuery: (path: String, query: String) {
        guard let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target, "") }
        return (String(target[..<question]), String(target[target.utf8.index(after: question)...]))
    }
}

/// Why a request cannot be taken, with the status that says so.
public enum HTTPRequestError: Error, Equatable, Sendable {
    /// 400: the request line or a header is malformed; what is wrong.
    case malformed(String)
    /// 431: the request line and headers are larger than the limit.
    case headersTooLarge(limit: Int)
    /// 413: the body is larger than the limit.
    case bodyTooLarge(limit: Int)
    /// 501: a transfer coding the server does not know.
    case unknownTransferCoding(String)
    /// 505: a version other than HTTP/1.0 and HTTP/1.1.
    case unsupportedVersion(String)

    /// The status code that answers it.
    public var status: Int {
        switch self {
        case .malformed: 400
        case .headersTooLarge: 431
        case .bodyTooLarge: 413
        case .unknownTransferCoding: 501
        case .unsupportedVersion: 505
        }
    }

    /// The reason, in a phrase.
    public var message: String {
        switch self {
        case .malformed(let reason): "malformed request: \(reason)"
        case .headersTooLarge(let limit): "the request line and headers are larger than \(limit >> 10) KiB"
        case .bodyTooLarge(let limit): "the body is larger than \(limit >> 10) KiB"
        case .unknownTransferCoding(let coding):
            "the transfer coding '\(coding)' is not implemented; send Content-Length"
        case .unsupportedVersion(let version): "HTTP version '\(version)' is not supported; send HTTP/1.1 or HTTP/1.0"
        }
    }
}

/// A response the server sends.
public struct HTTPServerResponse: Equatable, Sendable {
    /// The status code: 201.
    public var status: Int
    /// The headers besides `Content-Length`, `Connection` and `Date`.
    public var headers: [HTTPHeader]
    /// The body.
    public var body: [UInt8]

    /// A response with `body` of type `contentType`.
    public init(status: Int, contentType: String = "application/json", headers: [HTTPHeader] = [], body: [UInt8]) {
        self.status = status
        self.headers = [HTTPHeader("Content-Type", contentType)] + headers
        self.body = body
    }

    /// The response's bytes, `Connection: close` when `closing`; without the body (but
    /// with its length) when answering `HEAD`. A header whose name or value holds a CR, an
    /// LF or a NUL is left out: whatever put it there, it would split the answer and let its
    /// text write headers or a body of its own (RFC 9110, section 5.5).
    func encoded(closing: Bool, head: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160 + body.count)
        // Appended piece by piece: no line is made as a string first.
        bytes += "HTTP/1.1 ".utf8
        HTTPBytes.appendDecimal(status, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        bytes += Self.reason(status).utf8
        bytes += "\r\n".utf8
        for header in headers where !Self.splits(header.name) && !Self.splits(header.value) {
            bytes += header.name.utf8
            bytes += ": ".utf8
            bytes += header.value.utf8
            bytes += "\r\n".utf8
        }
        bytes += "Content-Length: ".utf8
        HTTPBytes.appendDecimal(body.count, to: &bytes)
        bytes += (closing ? "\r\nConnection: close\r\n\r\n" : "\r\nConnection: keep-alive\r\n\r\n").utf8
        if !head { bytes += body }
        return bytes
    }

    /// Whether `text` holds a byte that would end a header line: CR, LF or NUL.
    private static func splits(_ text: String) -> Bool {
        text.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
    }

    /// The reason phrase of a status: RFC 9110's (section 15), or RFC 6585's for the four
    /// it adds; any other code is named by its class, as a client treats an unknown code
    /// as its class's x00 (section 15): `Client Error` for 499.
    package static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 205: "Reset Content"
        case 206: "Partial Content"
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 305: "Use Proxy"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 407: "Proxy Authentication Required"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 426: "Upgrade Required"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        case 511: "Network Authentication Required"
        // 306 and 418 are reserved, unused: named by their class, as every other code.
        case 100..<200: "Informational"
        case 200..<300: "Successful"
        case 300..<400: "Redirection"
        case 400..<500: "Client Error"
        case 500..<600: "Server Error"
        default: "Unknown"
        }
    }
}

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
