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
