package import PaylinksAppcharge
package import PaylinksHTTP
import PaylinksJSON

/// The game's ledger as `check-events` reads it: `GET <ledger>?playerId=ID` answers
/// `{"balances": {SKU: n}}`, what the player holds now. After a case's events it is
/// watched until it shows what they did, as a handler may acknowledge an event at once
/// and revoke from a queue.
@MainActor
package final class AuditLedger {
    /// The ledger's URL.
    package let url: HTTPURL
    /// The endpoint the readings go to, which the audit's watch keeps an eye on.
    let peer: AuditPeer
    /// How long a money case watches the ledger after the handler's answer, in
    /// milliseconds.
    package let wait: Int
    /// The longest the ledger took in this run to show what events did, in milliseconds
    /// after the handler's answer: 0 when it showed it at once (the handler acts before it
    /// answers), nil until a change was seen.
    private var lag: Int?

    /// The ledger at `url`, watched for `wait` milliseconds at most after an answer.
    package init(url: HTTPURL, wait: Int) {
        self.url = url
        self.wait = wait
        peer = AuditPeer(url: url, role: "the ledger")
    }

    /// What `player` holds once the ledger shows what the case's events did: read until it
    /// differs from `before`, for ``wait`` at most when the case's events should `change`
    /// it, else (a case whose events must take nothing) for about twice as long as this
    /// handler's ledger took before, or ``wait`` while that is not known; once only, when
    /// it showed a change at once before. Once it changes, it is watched as long again,
    /// within the bound, as a second copy of an event may take effect a moment after the
    /// first.
    func settled(_ player: String, from before: AuditBalances, changing: Bool) throws(AuditCannotRun)
        -> LedgerReading
    {
        // A handler whose ledger showed an earlier case's change at once acts before it answers:
        // one reading says all. Otherwise a change may be on its way for the whole bound, or,
        // where none is due, for about twice as long as this handler's changes took.
        let limit =
            switch (lag, changing) {
            case (0?, _): 0
            case (let lag?, false): min(wait, 2 * lag + 250)
            default: wait
            }
        let first = try balances(of: player, within: limit) { !$0.same(as: before) }
        guard !first.balances.same(as: before) else {
            let waited = LedgerReading.shown(milliseconds: first.waited)
            return LedgerReading(
                balances: first.balances,
                note: first.waited == 0 ? "" : " (no change in the ledger within \(waited) of the answer)",
                timedOut: changing && limit == wait)
        }
        lag = max(lag ?? 0, first.waited)
        guard first.waited > 0 else { return LedgerReading(balances: first.balances, note: "", timedOut: false) }
        let watched = try balances(of: player, within: min(wait, 2 * first.waited) - first.waited) { _ in false }
        return LedgerReading(
            balances: watched.balances,
            note: " (the ledger changed \(LedgerReading.shown(milliseconds: first.waited)) after the answer)",
            timedOut: false)
    }

    /// What `player` holds, read from the ledger until `done` holds of it or `milliseconds`
    /// have passed, every 50 ms; and how long after the first reading the last one came (0
    /// when the first reading was it).
    package func balances(of player: String, within milliseconds: Int, until done: (AuditBalances) -> Bool)
        throws(AuditCannotRun) -> (balances: AuditBalances, waited: Int)
    {
        let start = Deadline.nowMilliseconds()
        var reading = try balances(of: player)
        var waited = 0
        while !done(reading), waited < milliseconds {
            pause(milliseconds: min(50, milliseconds - waited))
            reading = try balances(of: player)
            waited = Deadline.nowMilliseconds() - start
        }
        return (reading, waited)
    }

    /// What `player` holds, read from the ledger.
    ///
    /// - Throws: ``AuditCannotRun`` when nothing answers, or the answer is not 200
    ///   `{"balances": {SKU: integer, ...}}`.
    package func balances(of player: String) throws(AuditCannotRun) -> AuditBalances {
        let exchange = peer.send(method: .get, at: Self.query(url, player: player), body: [], headers: [])
        return try Self.balances(status: exchange.status, body: exchange.body, failure: exchange.failure, url: url)
    }

    /// `url` asking for one player's balances: `playerId=` and `player` as given after its
    /// query, or as its query.
    package nonisolated static func query(_ url: HTTPURL, player: String) -> HTTPURL {
        var query = url
        query.target += (query.target.contains("?") ? "&" : "?") + "playerId=" + player
        return query
    }

    /// The balances a ledger at `url` answered with `status` and `body`, or failed to
    /// answer with `failure`: what the audits and the sandbox's player pages both read.
    ///
    /// - Throws: ``AuditCannotRun`` when nothing answers, or the answer is not 200
    ///   `{"balances": {SKU: integer, ...}}` with each balance within ±10^15.
    package nonisolated static func balances(status: Int?, body: [UInt8], failure: HTTPError?, url: HTTPURL)
        throws(AuditCannotRun) -> AuditBalances
    {
        // The server answers, so the advice is the contract, never to start it.
        let contract =
            "its contract: GET \(url)?playerId=ID answers 200 {\"balances\": {\"SKU\": n, ...}}, what the player "
            + "holds now"
        let advice =
            "The game's server answers there but not as that ledger: point --ledger-url at the route that does, or "
            + "make it answer so"
        func offContract(_ what: String) -> AuditCannotRun {
            AuditCannotRun(reason: "the ledger \(url) \(what); \(contract)", advice: advice)
        }
        guard let status else {
            let error = failure.map { "\($0)" } ?? "no answer"
            guard failure?.meansNothingListens ?? false else {
                throw AuditCannotRun(
                    reason: "the ledger \(url): \(error)",
                    advice: "The game's server took the request but gave no whole answer: check its log, and "
                        + "that --ledger-url names its ledger")
            }
            throw AuditCannotRun(reason: "nothing answers at the ledger \(url): \(error)")
        }
        guard status == 200 else {
            throw offContract("answered \(status) \(HTTPServerResponse.reason(status))")
        }
        guard let value = try? JSONParser.parse(body), case .object(let members) = value.kind,
            let balances = members.first(where: { $0.key == "balances" }),
            case .object(let entries) = balances.value.kind
        else {
            throw offContract("answered without a \"balances\" object")
        }
        var result: AuditBalances = [:]
        for entry in entries {
            guard case .number(let text) = entry.value.kind, let amount = Int(text) else {
                throw AuditCannotRun(
                    reason: "a balance in the ledger's answer is not an integer; \(contract)", advice: advice)
            }
            // No game holds more; the bound keeps every sum and difference of balances far
            // from overflowing, and shows a ledger that answers garbage for what it is.
            guard balanceRange.contains(amount) else {
                throw AuditCannotRun(
                    reason: "a balance in the ledger's answer is \(amount), beyond ±10^15; \(contract)", advice: advice)
            }
            result[entry.key] = amount
        }
        return result
    }

    /// The balances a ledger may answer: ±10^15.
    private nonisolated static let balanceRange = -1_000_000_000_000_000...1_000_000_000_000_000
}
