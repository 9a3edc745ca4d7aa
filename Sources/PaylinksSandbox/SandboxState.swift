import PaylinksAppcharge
import PaylinksHTTP
import PaylinksJSON

/// The control API's whole state: an export of it, in the journal's own format, and a
/// reset to a sandbox as it was at its start.
extension Sandbox {
    /// The name a browser saves an export under.
    static let exportName = "paylinks-sandbox.jsonl"

    /// `GET /control/v1/export`: everything the sandbox holds, as a journal written anew
    /// holds it (``SandboxJournalFormat/compacted(_:seed:)``), which `serve --import` reads
    /// back. The state is taken now; its lines are written later, outside the server's lock,
    /// as a report's are.
    func export() -> HTTPAnswer {
        let held = journalContents
        let seed = settings.seed
        let head = HTTPServerResponse(
            status: 200, contentType: SandboxJournalFormat.mediaType,
            headers: [HTTPHeader("Content-Disposition", #"attachment; filename="\#(Self.exportName)""#)], body: [])
        return .later(head) { SandboxJournalFormat.compacted(held, seed: seed) }
    }

    /// `POST /control/v1/reset` with `{}` or an empty body: forgets every session and
    /// delivery, and what the Price Localization API made of the price points, so that the
    /// sandbox is as it was at a start with the same seed, the next session taking the
    /// first id again, and the blocked players `--block-player`'s; a virtual clock stays
    /// where it is. The journal is
    /// replaced first: when it cannot be, 503 and nothing is forgotten. 409 while the clock
    /// moves or a delivery to the game's server is out, whose outcome would otherwise reach
    /// a new session of the same id.
    func reset(_ request: HTTPRequest) -> HTTPServerResponse {
        let isEmpty = request.body.allSatisfy { [9, 10, 13, 32].contains($0) }
        if !isEmpty {
            let read = Self.jsonObject(request)
            guard case .success(let members) = read else { return read.refusal("send {} or an empty body") }
            guard members.isEmpty else { return Self.problem(400, "reset takes no options; send {} or an empty body") }
        }
        // What the turn changed before the reset is kept first, and its effects go: the reset
        // finds them behind it, as it would had each been kept at once.
        keepBatch()
        guard advance == nil else {
            return Self.problem(409, "the clock is moving; send the reset once that move's answer came")
        }
        let out = deliveriesUnderWay() + retriesInFlight.count
        guard out == 0 else {
            return Self.problem(
                409,
                "\(out) deliver\(out == 1 ? "y" : "ies") to the game's server \(out == 1 ? "is" : "are") under way, "
                    + "and an outcome would reach the new session that takes its order's id; send the reset again "
                    + "once \(out == 1 ? "it has" : "they have") ended")
        }
        var fresh = Self.emptySessions(catalog: catalog, settings: settings)
        fresh.recordsSteps = sessions.recordsSteps
        // The players --block-player names are blocked again; the control API's are not.
        if let replaceKept, let failure = replaceKept((fresh.held, [], keptClock, settings.blockedPlayers)) {
            return Self.problem(
                503,
                "the sandbox could not rewrite its journal (\(failure)), so nothing was forgotten; free the disk, "
                    + "then try again")
        }
        let forgotten = (sessions: sessions.count, deliveries: history.deliveries.count)
        sessions = fresh
        // The price points go back to the catalog's tiers, as fresh.held's empty list keeps them.
        pricePoints = PricePointBook(catalog: catalog, since: now)
        history = DeliveryHistory(limit: history.limit, byteBudget: history.byteBudget)
        unsavedDeliveries = []
        deliveriesReadied = 0
        notices = []
        blockedPlayers = settings.blockedPlayers
        blockedBefore = nil
        lastMove = nil
        clockKept = keptClock
        say(
            "sandbox reset: \(forgotten.sessions) session\(forgotten.sessions == 1 ? "" : "s") and "
                + "\(forgotten.deliveries) deliver\(forgotten.deliveries == 1 ? "y" : "ies") forgotten")
        var writer = JSONWriter()
        writer.openObject()
        writer.field("reset", true)
        writer.field("sessions", 0)
        writer.field("deliveries", 0)
        writer.key("forgotten")
        writer.openObject()
        writer.field("sessions", forgotten.sessions)
        writer.field("deliveries", forgotten.deliveries)
        writer.closeObject()
        writer.closeObject()
        return HTTPServerResponse(status: 200, body: writer.bytes)
    }
}
