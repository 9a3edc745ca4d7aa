import PaylinksAppcharge
import PaylinksHTTP
import PaylinksKit

/// Why an audit could not run at all: nothing answers at a URL it needs, or the ledger
/// does not keep its contract.
public struct AuditCannotRun: Error, Sendable, CustomStringConvertible {
    /// What went wrong: "nothing answers at ...: connection refused", say.
    public var reason: String
    /// What to do about it, when the audit knows better than "start the server": a server
    /// that answers off its contract is running already.
    public var advice: String?

    /// Why the audit cannot run, and what to do about it when the audit knows.
    public init(reason: String, advice: String? = nil) {
        self.reason = reason
        self.advice = advice
    }

    /// The reason.
    public var description: String { reason }
}

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

/// An endpoint that stopped answering in the middle of an audit: the cases after it are
/// not checked.
public struct AuditStop: Sendable {
    /// What the audit calls the endpoint: "the endpoint", "the ledger".
    public var role: String
    /// Its URL.
    public var url: String
    /// When, as a finding says it: "after valid", "during refund".
    public var when: String
    /// Why nothing answers: "connection refused by 127.0.0.1:8080: is the server running?".
    public var reason: String
    /// Whether the endpoint still answers, but no more as it did: not in time, or off its
    /// contract (``reason`` says how), rather than not at all.
    public var answersWrongly = false

    /// The summary of each case not checked for it.
    public var summary: String {
        answersWrongly ? "not checked: the audit stopped \(when)" : "not checked: \(role) stopped answering \(when)"
    }
}

/// What kept the money cases of `check-events` from running although the audit was given
/// what they need: the award endpoint did not grant the order a case refunds, or the ledger
/// did not show the grant. The cases say "not checked" with why, and the run fails, as one
/// that checks nothing it was asked for must not pass.
public struct AuditHold: Sendable {
    /// What went wrong, as the `error:` line says it: "the award endpoint URL did not grant
    /// an order (answered 200 without a publisherPurchaseId ...)".
    public var what: String
    /// What to do about it: "point --award-url at the game's award endpoint".
    public var fix: String
    /// How many cases it kept from running.
    public var cases: Int
}

/// What an audit keeps an eye on between its cases: whether an endpoint that reached an
/// answer before has gone, so that the cases after it say "not checked" rather than fail
/// as if the endpoint had refused them.
@MainActor
final class AuditWatch {
    private let peers: [AuditPeer]
    private var marks: [(answered: Int, unanswered: Int, dropped: Int)] = []
    /// The last case some endpoint answered.
    private var lastAnswered = "valid"
    /// The endpoint that stopped answering, once one has.
    private(set) var stop: AuditStop?
    /// Whether the endpoint went down on a request of the case that stopped the run: the
    /// request reached it, the connection broke unanswered, and nothing listens since.
    private(set) var wentDownOnCase = false

    init(_ peers: [AuditPeer]) {
        self.peers = peers
    }

    /// Notes where the endpoints stand before a case.
    func begin() {
        marks = peers.map { ($0.answered, $0.unanswered, $0.dropped) }
    }

    /// After the case `name`: whether an endpoint that was reached before and left one of
    /// the case's requests unanswered listens no more. When one of the case's own requests
    /// reached it and got no answer, it went down on that request, during the case; so it
    /// did when the case had an answer first; else (a connection refused at the case's
    /// first request) it stopped after the last case that had one.
    func end(_ name: String) -> Bool {
        let answeredNow = zip(peers, marks).contains { $0.answered > $1.answered }
        defer { if answeredNow { lastAnswered = name } }
        let changed = zip(peers, marks).filter { $0.unanswered > $1.unanswered && $0.reached > 0 }
        // An endpoint a request of this case reached and left unanswered comes first.
        let ordered = changed.filter { $0.dropped > $1.dropped } + changed.filter { $0.dropped == $1.dropped }
        for (peer, mark) in ordered {
            guard let error = peer.nothingListens() else { continue }
            wentDownOnCase = peer.dropped > mark.dropped
            stop = AuditStop(
                role: peer.role, url: peer.url.description,
                when: answeredNow || wentDownOnCase ? "during \(name)" : "after \(lastAnswered)",
                reason: error.description)
            return true
        }
        return false
    }

    /// Whether every endpoint of the audit has answered a request: an endpoint that fails
    /// after that fails in the middle of the run, not at its start.
    var everyEndpointAnswered: Bool { peers.allSatisfy { $0.answered > 0 } }

    /// Stops the run at the case `name`, during which an endpoint that had answered as it
    /// should failed to (`reason`): no whole answer in time, or one off its contract. What
    /// the cases before found stands; those after are not checked.
    func halt(during name: String, reason: String) {
        stop = AuditStop(role: "an endpoint", url: "", when: "during \(name)", reason: reason, answersWrongly: true)
    }

    /// The finding of `name`, a case not checked since the endpoint stopped answering.
    func notChecked(_ name: String) -> AuditFinding {
        AuditFinding(
            name: name, verdict: .notChecked, summary: stop?.summary ?? "not checked", sent: "nothing",
            received: "nothing", why: "")
    }

    /// What to report for the case `name` that has just ended with `finding` and stopped
    /// the run: a failure, when the endpoint went down on one of its requests, saying so;
    /// else not checked.
    func stopped(_ name: String, _ finding: AuditFinding?) -> AuditFinding {
        guard wentDownOnCase, let stop else { return notChecked(name) }
        let down = "\(stop.role) went down on this request: did it bring it down?"
        guard var finding, finding.verdict == .fail else {
            return AuditFinding(
                name: name, verdict: .fail, summary: down, sent: finding?.sent ?? "the case's requests",
                received: finding?.received ?? "no response", why: Self.wentDownWhy)
        }
        finding.summary += "; and \(down)"
        finding.why = Self.wentDownWhy
        return finding
    }

    private static let wentDownWhy =
        "a request Appcharge may send brought the server down, and every order after it is lost until it is back: "
        + "find what this request does to it (its log)"
}

/// The orders an audit sends: each a real checkout of the simulated SDK, seeded so that
/// every run has fresh ids.
@MainActor
final class AuditOrders {
    private let simulator: PaymentLinksSimulator
    private let clock: () -> Int

    init(seed: UInt64, clock: @escaping () -> Int) {
        simulator = PaymentLinksSimulator(seed: seed)
        self.clock = clock
    }

    /// The name of every order's offer and items unless a case names them: ASCII letters
    /// alone, no space, no `/`, nothing a JSON writer escapes, so that a verifier that
    /// mangles any of those fails only the case built to show it, never `valid`.
    static let plainName = "StarterPack"

    /// A paid order of `starter_pack_001` for `player`, its offer and items named
    /// `offerName`, else ``plainName``.
    func fresh(player: String = "audit_player", offerName: String? = nil) -> OrderResponseModel {
        let recorder = RecordingDelegate()
        if simulator.configuration == nil {
            simulator.initialize(
                configModel: ACConfigModel(checkoutPublicKey: "pk_audit", environment: "sandbox"),
                customerId: player, delegate: recorder)
        }
        simulator.delegate = recorder
        if let session = try? simulator.createCheckoutSession(offerSku: "starter_pack_001", customerId: player) {
            simulator.openCheckout(purchaseId: session.purchaseId, parsedUrl: session.parsedUrl)
            if let link = simulator.pendingDeepLink { simulator.handleDeepLink(link) }
        }
        var order =
            recorder.callbacks.last?.order
            ?? OrderResponseModel(
                date: 0, sessionToken: "", offerName: Self.plainName, offerSku: "starter_pack_001",
                items: [OrderResponseModel.Item(name: "Gems", sku: "gem_01", quantity: "100")], price: 499,
                currency: "USD",
                customerId: player, customerCountry: "US", paymentMethodName: PlayerAction.defaultPaymentMethod,
                orderId: String(clock()), purchaseId: "pr_audit_\(clock())")
        let name = offerName ?? Self.plainName
        order.offerName = name
        order.items = order.items.map { item in
            var renamed = item
            renamed.name = name
            return renamed
        }
        return order
    }
}
