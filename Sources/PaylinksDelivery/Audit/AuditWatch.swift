import PaylinksAppcharge
import PaylinksHTTP

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
