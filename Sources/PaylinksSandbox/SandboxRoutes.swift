import PaylinksAppcharge
public import PaylinksHTTP
import PaylinksJSON

/// One row of the sandbox's route table: the methods a path takes, the path's pattern,
/// who may call it, and what answers a request the row takes.
struct SandboxRoute: Sendable {
    /// The methods the row takes, in the order `Allow` lists them.
    let methods: [HTTPMethod]
    /// The path the row answers.
    let pattern: Pattern
    /// Who may call the row: checked once the method is, before the handler runs.
    let access: Access
    /// Whether a method the row does not list reaches its handler all the same, which
    /// answers it: Appcharge's legacy link, whose handler answers 404 for a path that is no
    /// session's token whatever the method, and 405 for a live one.
    let answersEveryMethod: Bool
    /// What answers a request the row takes.
    let handler: @Sendable (Sandbox, Routed) -> HTTPAnswer

    /// A row for `methods` at `pattern`, a path such as `/orders/{purchaseId}`, that
    /// `access` may call.
    /// `answersEveryMethod` hands the handler the methods the row does not list too.
    init(
        _ methods: [HTTPMethod], _ pattern: String, access: Access = .open, answersEveryMethod: Bool = false,
        _ handler: @escaping @Sendable (Sandbox, Routed) -> HTTPAnswer
    ) {
        self.methods = methods
        self.pattern = Pattern(pattern)
        self.access = access
        self.answersEveryMethod = answersEveryMethod
        self.handler = handler
    }

    /// A path pattern: its segments, each a literal or a named capture such as
    /// `{purchaseId}`, which matches any one segment, an empty one too, as it was sent.
    struct Pattern: Equatable, Sendable {
        /// A segment of a pattern.
        enum Segment: Equatable, Sendable {
            /// A segment that is this text.
            case literal(String)
            /// A segment of any text, captured under this name.
            case capture(String)
        }

        /// The segments after the leading `/`; `/` alone is one empty literal.
        let segments: [Segment]

        /// The pattern `text`, which starts with `/`.
        init(_ text: String) {
            segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { part in
                part.hasPrefix("{") && part.hasSuffix("}")
                    ? .capture(String(part.dropFirst().dropLast())) : .literal(String(part))
            }
        }

        /// The captures of a path of `parts` (its segments after the leading `/`), or nil
        /// when the pattern does not match it.
        func match(_ parts: [Substring]) -> [String: String]? {
            guard parts.count == segments.count else { return nil }
            var captures: [String: String] = [:]
            for (segment, part) in zip(segments, parts) {
                switch segment {
                case .literal(let text): guard part == text else { return nil }
                case .capture(let name): captures[name] = String(part)
                }
            }
            return captures
        }
    }

    /// A request a row took, with the segments its pattern captured.
    struct Routed {
        /// What the sandbox read of the request before it was routed.
        let arrival: Sandbox.Arrival
        /// The captured segments, by name.
        let captures: [String: String]

        /// The request.
        var request: HTTPRequest { arrival.request }

        /// The segment the pattern captured as `{name}`. The table names only captures its
        /// own patterns have; a name they do not (a fault of the table's) reads as empty.
        subscript(name: String) -> String { captures[name] ?? "" }
    }
}

/// The route table grouped by pattern, in the order the table first names each: a path is
/// looked up once, on the loop it came to, and what it found is carried to its handler.
struct SandboxRouteTable: Sendable {
    /// The rows of one pattern, in the table's order.
    struct Group: Sendable {
        let pattern: SandboxRoute.Pattern
        let rows: [SandboxRoute]
    }

    /// A path's route: every row of the first pattern that matches it, and what the
    /// pattern captured.
    struct Found: Sendable {
        let rows: [SandboxRoute]
        let captures: [String: String]

        /// Whether a row takes `method`: a request none takes is answered 404 or 405.
        func takes(_ method: HTTPMethod) -> Bool {
            rows.contains { $0.methods.contains(method) }
        }
    }

    let groups: [Group]

    /// The table of `routes`.
    init(_ routes: [SandboxRoute]) {
        var groups: [Group] = []
        for route in routes {
            if let index = groups.firstIndex(where: { $0.pattern == route.pattern }) {
                groups[index] = Group(pattern: route.pattern, rows: groups[index].rows + [route])
            } else {
                groups.append(Group(pattern: route.pattern, rows: [route]))
            }
        }
        self.groups = groups
    }

    /// The segments of `path` after its leading `/`, as a pattern reads them.
    /// What comes before the first `/` is no segment.
    static func segments(of path: String) -> [Substring] {
        var segments: [Substring] = []
        // Room for the segments of every path the sandbox serves, made once.
        segments.reserveCapacity(6)
        var start: String.Index?
        // Scanned by its bytes: `/` is one byte in UTF-8, and never part of another character.
        for index in path.utf8.indices where path.utf8[index] == UInt8(ascii: "/") {
            if let start { segments.append(path[start..<index]) }
            start = path.utf8.index(after: index)
        }
        if let start { segments.append(path[start...]) }
        return segments
    }

    /// The route of a path of `segments`; nil when no pattern matches.
    func route(_ segments: [Substring]) -> Found? {
        for group in groups {
            if let captures = group.pattern.match(segments) { return Found(rows: group.rows, captures: captures) }
        }
        return nil
    }
}

extension [SandboxRoute] {
    /// 405 to `request`, whose method none of these rows takes: `Allow` lists theirs, in
    /// the table's order, and so does the problem.
    func notAllowed(_ request: HTTPRequest) -> HTTPServerResponse {
        let names = flatMap(\.methods).map(\.rawValue).joined(separator: ", ")
        var response = Sandbox.problem(405, "\(request.path) takes \(names), not \(request.method)")
        response.headers.append(HTTPHeader("Allow", names))
        return response
    }
}

extension Sandbox {
    /// The sandbox's routes, one row per path and methods. A path's route is the first
    /// pattern that matches it; a method none of its rows takes is answered 405. `HEAD`
    /// is taken only where a row lists it, and answered as `GET` is (the server leaves
    /// out the body).
    /// ``routes``, grouped by pattern to be looked up.
    static let routeTable = SandboxRouteTable(routes)

    static let routes: [SandboxRoute] = [
        SandboxRoute([.post], "/checkout/v1/session", access: .publisherToken(.reporting)) {
            $0.createSession($1.arrival)
        },
        SandboxRoute([.post], "/checkout/v3/cancel") { .ready($0.cancel($1.request)) },
        SandboxRoute([.get, .head], "/checkout/{token}") { $0.page(token: $1["token"]) },
        SandboxRoute([.post], "/checkout/{token}") { .ready($0.choose(token: $1["token"], $1.request)) },
        SandboxRoute([.get, .head], "/control/v1/sessions/{purchaseId}") { $0.state(purchaseId: $1["purchaseId"]) },
        SandboxRoute([.post], "/control/v1/sessions/{purchaseId}/complete") {
            $0.complete(purchaseId: $1["purchaseId"], $1.request)
        },
        SandboxRoute([.post], "/control/v1/sessions/{purchaseId}/refund") {
            $0.controlRefund(purchaseId: $1["purchaseId"], $1.request)
        },
        SandboxRoute([.post], "/control/v1/sessions/{purchaseId}/dispute") {
            $0.controlDispute(purchaseId: $1["purchaseId"], $1.request)
        },
        SandboxRoute([.post], "/control/v1/sessions/{purchaseId}/retry-award") {
            $0.retryAward(purchaseId: $1["purchaseId"])
        },
        SandboxRoute([.post], "/control/v1/sessions/{purchaseId}/resolve") {
            $0.resolve(purchaseId: $1["purchaseId"], $1.request)
        },
        SandboxRoute([.get, .head], "/control/v1/clock") { sandbox, _ in sandbox.clockState() },
        SandboxRoute([.get, .head], "/control/v1/health") { sandbox, _ in sandbox.health() },
        SandboxRoute([.post], "/control/v1/clock") { $0.moveClock($1.request) },
        SandboxRoute([.get, .head], "/control/v1/export") { sandbox, _ in sandbox.export() },
        SandboxRoute([.get, .head], "/control/v1/blocked-players") { sandbox, _ in .ready(sandbox.blockedList()) },
        SandboxRoute([.post], "/control/v1/blocked-players") { .ready($0.block($1.request)) },
        SandboxRoute([.delete], "/control/v1/blocked-players/{id}") { .ready($0.unblock($1["id"])) },
        SandboxRoute([.post], "/control/v1/reset") { .ready($0.reset($1.request)) },
        SandboxRoute([.get, .head], "/orders/{purchaseId}") { $0.orderPage(purchaseId: $1["purchaseId"], $1.request) },
        SandboxRoute([.get, .head], "/players/{id}") { $0.playerPage(id: $1["id"]) },
        SandboxRoute([.post], "/orders/{purchaseId}/{action}") {
            .ready($0.orderForm(purchaseId: $1["purchaseId"], action: $1["action"], $1.request))
        },
        SandboxRoute([.post], "/deliveries/{id}/replay") { .ready($0.replayForm(id: $1["id"], $1.request)) },
        SandboxRoute([.post], "/reporting/reports/orders", access: .publisherToken(.reporting)) {
            $0.ordersReport($1.request)
        },
        SandboxRoute([.get, .head], "/reporting/financial-data/transactions", access: .publisherToken(.reporting)) {
            $0.transactions($1.request)
        },
        SandboxRoute([.get, .head], "/control/v1/deliveries") { $0.deliveries($1.request) },
        SandboxRoute([.get, .head], "/control/v1/deliveries/{id}") { $0.delivery(id: $1["id"]) },
        SandboxRoute([.post], "/control/v1/deliveries/{id}/replay") { .ready($0.replay(id: $1["id"], $1.request)) },
        SandboxRoute([.post], "/checkout/api/v1/order/{orderId}/refund", access: .publisherToken(.orders)) {
            .ready($0.initiateRefund(orderId: $1["orderId"], $1.request))
        },
        SandboxRoute([.post], "/v1/price-points/localized/lookup", access: .publisherToken(.priceLocalization)) {
            $0.lookUpPrices($1.arrival)
        },
        SandboxRoute([.get, .head], "/v1/price-points", access: .publisherToken(.priceLocalization)) { sandbox, _ in
            .ready(sandbox.allPricePoints())
        },
        SandboxRoute([.post], "/v1/price-points", access: .publisherToken(.priceLocalization)) {
            .ready($0.createPricePoint($1.request))
        },
        SandboxRoute([.get, .head], "/v1/price-points/{priceInUsdCents}", access: .publisherToken(.priceLocalization)) {
            .ready($0.pricePoint($1["priceInUsdCents"]))
        },
        SandboxRoute([.put], "/v1/price-points/{priceInUsdCents}", access: .publisherToken(.priceLocalization)) {
            .ready($0.updatePricePoint($1["priceInUsdCents"], $1.request))
        },
        SandboxRoute([.delete], "/v1/price-points/{priceInUsdCents}", access: .publisherToken(.priceLocalization)) {
            .ready($0.deletePricePoint($1["priceInUsdCents"]))
        },
        SandboxRoute([.post], "/clock") { $0.clockForm($1.request) },
        SandboxRoute([.get, .head], "/openapi.json") { _, _ in .ready(Sandbox.openAPIDocument) },
        SandboxRoute([.get, .head], "/") { $0.home($1.request) },
        // Last, so that it never shadows another path: Appcharge's legacy link, which any
        // method reaches, so that a path that is no session's token is answered 404 still.
        SandboxRoute([.get, .head], "/{token}", answersEveryMethod: true) {
            $0.legacyPage(token: $1["token"], $1.request)
        },
    ]
}

// MARK: Routing

extension Sandbox {
    /// A request with what can be read of it before the sandbox's state is touched: the
    /// answer that refuses it, else a new session's body or a price lookup's, parsed and
    /// checked, and the base of the URLs its answer hands out.
    public struct Arrival {
        let request: HTTPRequest
        let refusal: HTTPServerResponse?
        /// The route of the request's path; nil when none matches it.
        let found: SandboxRouteTable.Found?
        /// The body, read already for the routes whose body is read before the lock.
        let read: ReadBody?
        let base: String

        /// A new session's body, when read already.
        var session: Result<SessionRequest, SessionRequest.Problem>? {
            if case .session(let session) = read { session } else { nil }
        }

        /// A price lookup's body, when read already: read but for its country's support,
        /// which needs the book.
        var lookup: Result<PriceLookup.Request, PriceLookup.Problem>? {
            if case .lookup(let lookup) = read { lookup } else { nil }
        }
    }

    /// A body read on the request's loop: a new session's, or a price lookup's.
    enum ReadBody {
        case session(Result<SessionRequest, SessionRequest.Problem>)
        case lookup(Result<PriceLookup.Request, PriceLookup.Problem>)
    }

    /// What can be read of `request` without the sandbox's state: it reads only the
    /// settings, which never change, so that several threads may call it at once while
    /// another is in ``handle(_:)-(Arrival)``.
    public func prepare(_ request: HTTPRequest) -> Arrival {
        let segments = SandboxRouteTable.segments(of: request.path)
        let found = Self.routeTable.route(segments)
        if let refusal = guardian.refusal(request, segments: segments, routed: found?.takes(request.method) ?? false) {
            return Arrival(request: request, refusal: refusal, found: found, read: nil, base: settings.baseURL)
        }
        let read: ReadBody? =
            if request.method != .post {
                nil
            } else if request.path == "/checkout/v1/session" {
                .session(Result { () throws(SessionRequest.Problem) in try SessionRequest(request.body) })
            } else if request.path == "/v1/price-points/localized/lookup" {
                .lookup(Result { () throws(PriceLookup.Problem) in try PriceLookup.read(request.body) })
            } else {
                nil
            }
        return Arrival(request: request, refusal: nil, found: found, read: read, base: base(for: request))
    }

    /// The answer to `request`, made whole.
    public func handle(_ request: HTTPRequest) -> HTTPServerResponse {
        answer(prepare(request)).response
    }

    /// The answer to a request ``prepare(_:)`` read: a report's or a page's body is made
    /// later, from what the sandbox held when it was asked, outside the server's lock.
    public func answer(_ arrival: Arrival) -> HTTPAnswer {
        let request = arrival.request
        refusalSaid = false
        var answer = arrival.refusal.map(HTTPAnswer.ready) ?? route(arrival)
        // A refused change says why in the log too, whichever API refused it: the answer
        // may go to a script that drops it. A read refused, a path the sandbox has nothing
        // at (404) and a method its route does not take (405) are said by the request's
        // line alone.
        if !refusalSaid, request.method != .get, request.method != .head, case .ready(let response) = answer,
            response.status != 405, let words = Self.refusalWords(response)
        {
            sayRefused(request, words)
        }
        if let failure = keep(undoing: true) {
            onLog("warning: a change could not be kept, so it was not made: \(failure)")
            answer = .ready(Self.notKept(failure))
        }
        // In a turn whose change waits to be kept, the answer waits too, and is finished
        // and logged when it is given.
        if batch?.holding == true { return holding(answer, method: request.method, path: request.path) }
        return finished(answer, method: request.method, path: request.path)
    }

    /// The 404 of a path the sandbox has nothing at, which its request's line says alone.
    func nothingAt(_ request: HTTPRequest) -> HTTPAnswer {
        refusalSaid = true
        return .ready(Sandbox.problem(404, "nothing at \(request.path); see the README's \"A local sandbox\""))
    }

    /// `answer` to the request of `method` and `path` as it goes out: its head finished by
    /// the guard (an awaited answer is finished by whoever gives it), and the request's line
    /// logged with its status, or, for an awaited answer (a move of the clock, a player's
    /// page and its ledger), with when it comes. An answer held for its turn's change is
    /// finished so when it is given.
    func finished(_ answer: HTTPAnswer, method: HTTPMethod, path: String) -> HTTPAnswer {
        let finished: HTTPAnswer
        let status: String
        switch answer {
        case .ready(var response):
            guardian.finish(&response)
            (finished, status) = (.ready(response), String(response.status))
        case .later(var head, let body):
            guardian.finish(&head)
            (finished, status) = (.later(head, body: body), String(head.status))
        case .awaited(let promise):
            (finished, status) = (answer, "answered \(promise.awaited)")
        }
        onLog(String(concatenating: method.rawValue, " ", path, " ", status))
        return finished
    }

    /// The answer of the route `arrival`'s path names, from ``routes``: 404 where no pattern
    /// matches the path, 405 with `Allow` where the path's rows do not take the method (one
    /// no RFC registers too: a 5xx would say the sandbox failed, and `Allow` says what to
    /// send), the row's refusal where its ``SandboxRoute/Access`` refuses the caller; else
    /// its handler's.
    private func route(_ arrival: Arrival) -> HTTPAnswer {
        let request = arrival.request
        guard let found = arrival.found else {
            return nothingAt(request)
        }
        guard
            let row = found.rows.first(where: { $0.methods.contains(request.method) })
                ?? found.rows.first(where: \.answersEveryMethod)
        else {
            return .ready(found.rows.notAllowed(request))
        }
        if let refusal = row.access.refusal(request, publisherToken: settings.publisherToken) {
            // The answer keeps Appcharge's words; the log says what to do, the token masked.
            let sent = Set(request.headers.filter { $0.isNamed("x-publisher-token") }.map(\.value))
            let problem =
                sent == [settings.publisherToken]
                ? "it names no player in x-user-id, which this API needs; send it"
                : (sent.isEmpty ? "it sends no x-publisher-token" : "its x-publisher-token is not the sandbox's")
                    + "; send the sandbox's, '\(Self.masked(settings.publisherToken))', which serve takes from "
                    + "--publisher-token or PAYLINKS_PUBLISHER_TOKEN, else the demo token"
            sayRefused(request, problem)
            return .ready(refusal)
        }
        // Past --rate-limit, every API the game's server calls with its token is refused alike.
        if case .publisherToken = row.access, rateLimiter != nil,
            rateLimiter?.admit(token: settings.publisherToken, now: now) == false
        {
            refusalSaid = true
            onLog(
                "warning: \(request.method) \(request.path) refused 429: past --rate-limit's "
                    + "\(settings.rateLimit ?? 0) requests in 60 seconds of the sandbox's clock; send fewer, or raise "
                    + "--rate-limit")
            return .ready(Self.message(429, "Rate limit exceeded."))
        }
        return row.handler(self, SandboxRoute.Routed(arrival: arrival, captures: found.captures))
    }
}
