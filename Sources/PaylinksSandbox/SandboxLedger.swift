import PaylinksAppcharge
import PaylinksDelivery
import PaylinksHTTP

/// The game's ledger as a player's page reads it (`serve --ledger-url`): each reading on
/// a thread of its own, bounded in time (2 s to connect, 2 s to answer) and in number
/// (``limit`` at once; past it the page is made without the ledger and says it is busy),
/// so that no reading stalls the server's loop or its other clients.
final class SandboxLedger: Sendable {
    /// The ledger's URL.
    let url: HTTPURL
    /// Readings under way at once, at most.
    static let limit = 4
    /// The readings under way, and the threads that ended and wait to be joined.
    private let works = Locked<[BackgroundWork<Void>]>([])

    /// The ledger at `url`.
    init(url: HTTPURL) {
        self.url = url
    }

    /// Reads what `player` holds and calls `done` once with it or with what was wrong.
    func read(_ player: String, done: @escaping @Sendable (Result<AuditBalances, LedgerProblem>) -> Void) {
        let url = url
        let ended = works.withLock { works -> [BackgroundWork<Void>] in
            let ended = works.filter(\.isFinished)
            works.removeAll { $0.isFinished }
            return ended
        }
        for work in ended { work.join() }
        let admitted = works.withLock { works -> Bool in
            guard works.count < Self.limit else { return false }
            let work = BackgroundWork<Void>.thread { done(Self.reading(player, at: url)) }
            if let work { works.append(work) }
            return work != nil
        }
        guard admitted else {
            done(
                .failure(
                    LedgerProblem(
                        "\(Self.limit) readings of the ledger are under way already; reload the page in a moment")))
            return
        }
    }

    /// Waits for the readings under way: each ends within its bounds.
    func finish() {
        let all = works.withLock { works -> [BackgroundWork<Void>] in
            defer { works = [] }
            return works
        }
        for work in all { work.join() }
    }

    /// What the ledger at `url` says `player` holds, read now on the caller's thread.
    static func reading(_ player: String, at url: HTTPURL) -> Result<AuditBalances, LedgerProblem> {
        let client = HTTPClient(
            url: AuditLedger.query(url, player: PercentCoding.encoded(player)), connectTimeout: 2, responseTimeout: 2)
        defer { client.close() }
        var status: Int?
        var body: [UInt8] = []
        var failure: HTTPError?
        do {
            let response = try client.send(method: .get, headers: [], body: [])
            status = response.status
            body = response.body
        } catch {
            failure = error
        }
        do throws(AuditCannotRun) {
            return .success(try AuditLedger.balances(status: status, body: body, failure: failure, url: url))
        } catch {
            let advice = error.advice ?? "Start the game's server, or point --ledger-url at its ledger"
            // A reason that asks a question ends with its own mark.
            let reason = error.reason.hasSuffix("?") ? error.reason : error.reason + "."
            return .failure(LedgerProblem("\(reason) \(advice)."))
        }
    }
}
