import PaylinksAppcharge
import PaylinksHTTP

/// One request of an audit and what came of it: the status and body, or why there was none.
struct AuditExchange: Sendable {
    var status: Int?
    var body: [UInt8] = []
    var milliseconds = 0
    var failure: HTTPError?

    var error: String? { failure?.description }

    /// The answer as the verdicts read it.
    var answer: AuditAnswer { AuditAnswer(status: status, body: body, milliseconds: milliseconds, error: error) }

    /// Whether the answer is a 2xx.
    var accepted: Bool { answer.accepted }

    /// The status and the start of the body, or why nothing came, as a finding shows it.
    var shown: String { answer.shown }
}

/// The endpoint an audit talks to: each request on a connection of its own, with
/// Appcharge's 10 s for the connection and for the answer. It counts its requests that were
/// answered and those that reached it (a connection opened) but were not, so that an audit
/// can tell an endpoint that misbehaves from one that went away.
@MainActor
final class AuditPeer {
    let url: HTTPURL
    /// What findings and messages call it: "the endpoint", "the ledger".
    let role: String
    /// How many requests got an answer.
    private(set) var answered = 0
    /// How many requests reached the endpoint, answered or not.
    private(set) var reached = 0
    /// How many requests got no answer, whether they reached it or not.
    private(set) var unanswered = 0
    /// How many requests reached the endpoint (a connection opened) and got no answer: the
    /// connection broke, or the answer never came.
    private(set) var dropped = 0

    init(url: HTTPURL, role: String) {
        self.url = url
        self.role = role
    }

    /// Sends one request to the endpoint, or to `at`, a URL of it with a query.
    func send(method: HTTPMethod = .post, at: HTTPURL? = nil, body: [UInt8], headers: [HTTPHeader]) -> AuditExchange {
        let client = HTTPClient(url: at ?? url, connectTimeout: 10, responseTimeout: 10)
        defer { client.close() }
        let start = Deadline.nowMilliseconds()
        do {
            let response = try client.send(method: method, headers: headers, body: body)
            return count(
                AuditExchange(
                    status: response.status, body: response.body, milliseconds: Deadline.nowMilliseconds() - start))
        } catch {
            return count(AuditExchange(status: nil, milliseconds: Deadline.nowMilliseconds() - start, failure: error))
        }
    }

    /// Two copies of a request over two connections, both sent before either answer is read.
    func sendTogether(body: [UInt8], headers: [HTTPHeader]) -> (AuditExchange, AuditExchange) {
        let clients = [
            HTTPClient(url: url, connectTimeout: 10, responseTimeout: 10),
            HTTPClient(url: url, connectTimeout: 10, responseTimeout: 10),
        ]
        defer { clients.forEach { $0.close() } }
        var started: [HTTPError?] = []
        for client in clients {
            do {
                try client.start(headers: headers, body: body)
                started.append(nil)
            } catch {
                started.append(error)
            }
        }
        func finish(_ client: HTTPClient, _ startError: HTTPError?) -> AuditExchange {
            if let startError { return AuditExchange(status: nil, failure: startError) }
            do {
                let response = try client.finish()
                return AuditExchange(status: response.status, body: response.body)
            } catch {
                return AuditExchange(status: nil, failure: error)
            }
        }
        return (count(finish(clients[0], started[0])), count(finish(clients[1], started[1])))
    }

    private func count(_ exchange: AuditExchange) -> AuditExchange {
        if exchange.status != nil { answered += 1 } else { unanswered += 1 }
        if !(exchange.failure?.meansNothingListens ?? false) {
            reached += 1
            if exchange.status == nil { dropped += 1 }
        }
        return exchange
    }

    /// Why nothing listens at the endpoint now, or nil when connections still open there:
    /// what an audit asks once a request of a case got no answer. A process that is going
    /// away may still take a connection for a moment after it dropped one, so that a
    /// connection must open five times over 200 ms.
    func nothingListens() -> HTTPError? {
        for attempt in 0..<5 {
            if attempt > 0 { pause(milliseconds: 50) }
            do {
                try Socket.connect(host: url.host, port: url.port, timeout: 2).close()
            } catch {
                if error.meansNothingListens { return error }
            }
        }
        return nil
    }
}
