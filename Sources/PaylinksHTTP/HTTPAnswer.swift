/// An answer to a request: made already, its status and headers decided now and its
/// body made later, or awaited: made whole by the application once something it started
/// has ended, while the server goes on serving everyone else.
public enum HTTPAnswer: Sendable {
    /// An answer made already.
    case ready(HTTPServerResponse)
    /// An answer whose body `body` makes when it is its turn to go out, from what the
    /// handler captured; `head` holds the rest.
    case later(_ head: HTTPServerResponse, body: @Sendable () -> [UInt8])
    /// An answer the application gives later through `promise`, from any thread: the
    /// connection waits for it (it is not idle meanwhile), every other connection is served.
    case awaited(HTTPPromise)

    /// The status, once decided; 0 for an answer still awaited.
    public var status: Int {
        switch self {
        case .ready(let response), .later(let response, _): response.status
        case .awaited(let promise): promise.response?.status ?? 0
        }
    }

    /// The answer, its body made now if it was not; nil while it is awaited.
    public var made: HTTPServerResponse? {
        switch self {
        case .ready(let response): return response
        case .later(var head, let body):
            head.body = body()
            return head
        case .awaited(let promise): return promise.response
        }
    }

    /// The answer, its body made now if it was not; an awaited answer not given yet is
    /// 500, for a caller that cannot wait (a test's direct call is given it first).
    public var response: HTTPServerResponse {
        made ?? HTTPServerResponse(status: 500, body: Array("the answer was not given".utf8))
    }
}

/// An answer given later, from any thread, once: the loop that holds the request is woken
/// to send it.
public final class HTTPPromise: Sendable {
    private struct State {
        var response: HTTPServerResponse?
        var wakers: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())
    /// When the answer comes, in words for a log: "once the clock is there".
    public let awaited: String

    /// An answer not given yet, which comes as `awaited` says.
    public init(awaited: String = "later") {
        self.awaited = awaited
    }

    /// The answer, once given.
    public var response: HTTPServerResponse? {
        state.withLock { $0.response }
    }

    /// Gives the answer; a second call changes nothing. Every loop waiting for it is woken.
    public func give(_ response: HTTPServerResponse) {
        let wakers = state.withLock { state -> [@Sendable () -> Void] in
            guard state.response == nil else { return [] }
            state.response = response
            self.state.broadcast()
            defer { state.wakers = [] }
            return state.wakers
        }
        for wake in wakers { wake() }
    }

    /// Calls `wake` once the answer is given (at once when it is), on the thread that gives it.
    public func whenGiven(_ wake: @escaping @Sendable () -> Void) {
        let given = state.withLock { state -> Bool in
            if state.response == nil { state.wakers.append(wake) }
            return state.response != nil
        }
        if given { wake() }
    }

    /// Waits up to `milliseconds` for the answer: for whoever calls a responder directly.
    public func wait(milliseconds: Int) -> HTTPServerResponse? {
        state.withLock(waitingAtMost: milliseconds, until: { $0.response != nil }) { state, _ in state.response }
    }
}
