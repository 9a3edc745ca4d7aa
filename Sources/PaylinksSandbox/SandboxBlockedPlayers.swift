import PaylinksAppcharge
public import PaylinksHTTP
import PaylinksJSON

/// The rules of the list of blocked players: what an id on it may be, and how long it grows.
public enum BlockedPlayers {
    /// The most players the list holds: its journal record stays far below a line's limit.
    public static let limit = 10_000
    /// The longest id the list takes, in bytes.
    public static let idLimit = 512

    /// Why `id` cannot be on the list, or nil when it can: it is a `customer.id`, not
    /// empty, without control characters, at most ``idLimit`` bytes.
    public static func problem(_ id: String) -> String? {
        if id.isEmpty { return "is empty; give the player's customer.id" }
        if id.utf8.count > idLimit { return "is longer than \(idLimit) bytes" }
        if id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "holds a control character"
        }
        return nil
    }

    /// Whether `list` holds `id`, byte for byte: two ids Unicode calls equivalent (an é
    /// written whole or as e and its accent) are two players, as `customer.id` is compared.
    public static func holds(_ list: [String], _ id: String) -> Bool {
        index(of: id, in: list) != nil
    }

    /// `ids` with each one once, the first of each kept, told apart byte for byte: in one
    /// pass, however long the list.
    public static func unique(_ ids: [String]) -> [String] {
        var seen: Set<[UInt8]> = []
        return ids.filter { seen.insert(Array($0.utf8)).inserted }
    }

    /// Where `list` holds `id`, byte for byte.
    public static func index(of id: String, in list: [String]) -> Int? {
        list.firstIndex { $0.utf8.elementsEqual(id.utf8) }
    }

    /// Create Checkout Session's answer to a blocked player: 403 with the body of its
    /// reference (OAS, `/checkout/v1/session`), the words exact and no `errorCode`. The
    /// reference prints it with a space after the colon; the sandbox writes it compact, as
    /// it writes every body, and as the reference's other `{"message"}` answer (429) is.
    public static let refusal = HTTPServerResponse(
        status: 403,
        body: Array(
            #"{"message":"Blocked player: this player has been blocked. See the blocked player list in the dashboard for more info."}"#
                .utf8))

    /// `id` as a path segment: every byte but letters, digits and `-._~` percent-encoded.
    static func pathSegment(_ id: String) -> String {
        PercentCoding.encoded(id)
    }

    /// A path segment with each `%XX` as its byte; nil for a broken escape or bytes that
    /// are not UTF-8.
    static func decoded(_ segment: String) -> String? {
        PercentCoding.decoded(segment, plusAsSpace: false, strict: true).flatMap {
            String(validating: $0, as: UTF8.self)
        }
    }
}

/// The blocked players: Create Checkout Session's 403, and the control API that lists,
/// blocks and unblocks them. Appcharge's dashboard has the list; no API of Appcharge's
/// changes it, so this one is the sandbox's own.
extension Sandbox {
    /// 403 for a session of a blocked player, with a log line that says how to unblock
    /// them; nil for any other player.
    func blockedRefusal(customerId: String) -> HTTPServerResponse? {
        guard BlockedPlayers.holds(blockedPlayers, customerId) else { return nil }
        refusalSaid = true
        say(
            "warning: POST /checkout/v1/session refused: the player '\(Reports.quoted(customerId))' is blocked "
                + "(--block-player or the control API); DELETE /control/v1/blocked-players/"
                + "\(BlockedPlayers.pathSegment(customerId)) unblocks them")
        return BlockedPlayers.refusal
    }

    /// `GET /control/v1/blocked-players`: `{"blockedPlayers": [...]}`, in the order they
    /// were blocked.
    func blockedList(status: Int = 200) -> HTTPServerResponse {
        var writer = JSONWriter()
        writer.openObject()
        writer.key("blockedPlayers")
        writer.openArray()
        for player in blockedPlayers { writer.string(player) }
        writer.closeArray()
        writer.closeObject()
        return HTTPServerResponse(status: status, body: writer.bytes)
    }

    /// `POST /control/v1/blocked-players` with `{"id": "PLAYER"}`: blocks the player's next
    /// sessions (those made before stay as they are); 201 with the list, 200 when they were
    /// blocked already.
    func block(_ request: HTTPRequest) -> HTTPServerResponse {
        let shape = #"send {"id": "PLAYER"}, the player's customer.id"#
        let read = Self.jsonObject(request)
        guard case .success(let members) = read else { return read.refusal(shape) }
        guard members.count == 1, members[0].key == "id", case .string(let id) = members[0].value.kind else {
            let wrong = members.first { $0.key != "id" }.map { "unknown key '\(Reports.quoted($0.key))'" }
            let id = members.first { $0.key == "id" }.map { "id must be a string, not \($0.value.typeDescription)" }
            return Self.problem(400, "\(wrong ?? id ?? "id is missing"); \(shape)")
        }
        if let problem = BlockedPlayers.problem(id) { return Self.problem(400, "id \(problem); \(shape)") }
        guard !BlockedPlayers.holds(blockedPlayers, id) else { return blockedList() }
        guard blockedPlayers.count < BlockedPlayers.limit else {
            return Self.problem(
                409, "the sandbox blocks at most \(BlockedPlayers.limit) players; unblock one first")
        }
        if let refused = changeBlocked(to: blockedPlayers + [id]) { return refused }
        say(
            "player '\(Reports.quoted(id))' blocked: Create Checkout Session answers their new sessions 403; DELETE "
                + "/control/v1/blocked-players/\(BlockedPlayers.pathSegment(id)) unblocks them")
        return blockedList(status: 201)
    }

    /// `DELETE /control/v1/blocked-players/{id}`, the id percent-encoded: 200 with the list;
    /// 404 for a player who is not blocked.
    func unblock(_ segment: String) -> HTTPServerResponse {
        guard let id = BlockedPlayers.decoded(segment) else {
            return Self.problem(400, "the player's id is not percent-encoded UTF-8 text")
        }
        guard let index = BlockedPlayers.index(of: id, in: blockedPlayers) else {
            return Self.problem(
                404,
                "the player '\(Reports.quoted(id))' is not blocked; GET /control/v1/blocked-players lists those who are"
            )
        }
        var players = blockedPlayers
        players.remove(at: index)
        if let refused = changeBlocked(to: players) { return refused }
        say("player '\(Reports.quoted(id))' unblocked")
        return blockedList()
    }

    /// Makes `players` the list and keeps the change at once, before the log says it: nil
    /// when it is kept; else the 503 that answers the request, the list put back as it was
    /// (the log names the refusal by the request's line alone).
    private func changeBlocked(to players: [String]) -> HTTPServerResponse? {
        if blockedBefore == nil { blockedBefore = blockedPlayers }
        blockedPlayers = players
        return keep(undoing: true).map(Self.notKept)
    }
}
