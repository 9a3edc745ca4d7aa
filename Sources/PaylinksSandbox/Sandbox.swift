public import PaylinksAppcharge
public import PaylinksHTTP
import PaylinksJSON
public import PaylinksKit

/// Appcharge's half of a checkout, served locally: the Create Checkout Session and Cancel
/// APIs the game's server calls, the checkout page a tester uses, and a control API for
/// scripts. Pure: it maps requests to responses and reports what happens through its
/// `on...` closures; sockets, threads and output belong to whoever serves it.
public final class Sandbox {
    /// How a sandbox answers.
    public struct Settings: Sendable {
        /// The address the sandbox listens at, `http://127.0.0.1:4010`: the base of the URLs
        /// it hands out to a request that names no `Host` it can use.
        public var baseURL: String
        /// The base URL players reach the sandbox at (`--public-url`), for the URLs it hands
        /// out; when nil, each answer's URLs are built from its request's `Host`, so that a
        /// sandbox on 0.0.0.0 hands a phone an address it can reach.
        public var publicURL: String?
        /// Names besides `localhost` and the `--public-url` host that the sandbox answers
        /// to (`--allowed-host`); a request to any other name is refused with 421, since a
        /// page that rebinds a name of its own to this machine would otherwise read it.
        /// IP addresses are always answered.
        public var allowedHosts: [String] = []
        /// The publisher token the game's server must send.
        public var publisherToken: String
        /// Seeds the sessions' identifiers.
        public var seed: UInt64
        /// How long a session takes payments, in milliseconds: an hour.
        public var sessionLifetime = PaymentLinksSimulator.sessionLifetime
        /// Sessions kept at most; past it, the oldest are forgotten.
        public var sessionLimit = 10_000
        /// Bytes of sessions kept at most; past it, the oldest are forgotten.
        public var sessionByteBudget = Self.defaultSessionByteBudget
        /// 128 MiB: 10,000 sessions of a MiB each cannot take 10 GB.
        public static let defaultSessionByteBudget = 128 << 20
        /// The envelope of the orders' events.
        public var eventsVersion = OrderEvent.Version.v2
        /// The token the forms of the sandbox's pages carry, which a form sent without is
        /// refused: no other page can read it. A new one for each sandbox, from the
        /// system's random source.
        public var formToken = Sandbox.newFormToken()

        /// Settings for a sandbox at `baseURL`.
        public init(baseURL: String, publisherToken: String, seed: UInt64) {
            self.baseURL = baseURL
            self.publisherToken = publisherToken
            self.seed = seed
        }
    }

    let catalog: Catalog
    /// How it answers; set before it serves. The sessions take their seed, lifetime,
    /// limit and budget from the settings it was made with.
    public var settings: Settings {
        didSet { guardian = SandboxGuard(settings: settings) }
    }
    /// The checks every request passes before it is routed.
    private var guardian: SandboxGuard
    private let clock: () -> Int
    /// The sessions, their states and their rules: Appcharge's side.
    private var sessions: CheckoutSessions
    /// What was sent to the game's server.
    private var history = DeliveryHistory()
    /// What the forms of orders' pages came to, the newest ``noticeLimit``, oldest first.
    private var notices: [Notice] = []
    /// Notices made so far: the number of the last one.
    private var noticesMade = 0

    /// Says a line for the log: a request, a warning, an award's progress.
    public var onLog: (String) -> Void = { _ in }
    /// Says what the game's client receives for a finished checkout.
    public var onCallback: (Callback) -> Void = { _ in }
    /// A session was paid: its award is to be delivered, and ``awardDelivered(purchaseId:failureData:)``
    /// told how it went. Without a handler the award counts as granted at once.
    public var onPaid: ((_ purchaseId: String, _ award: GrantAward) -> Void)?
    /// Something happened to an order that Appcharge sends the game's server an event
    /// about: the event, ready to send. Without a handler no event is made.
    public var onOrderEvent: ((_ purchaseId: String, _ event: OrderEvent) -> Void)?
    /// Makes the sessions a request changed, and the deliveries that ended, durable before
    /// the answer goes out and before anything else of the change happens (an award sent,
    /// a callback, a log line): nil when they are kept; else why not, and then the change
    /// is undone and the answer is 503. What the sandbox learned on its own (an award's
    /// answer) stays in memory and is handed over again with the next change. All or none
    /// of what it is handed must be kept. Without one the sessions live in memory only.
    public var persist: ((_ changed: [CheckoutSessions.Session], _ deliveries: [DeliveryHistory.Delivery]) -> String?)?
    /// The control API asked for a delivery to be sent again: exactly as it was (the same
    /// signature) or newly signed; the one who sends it tells ``delivered(_:)`` how it went.
    public var onReplay: ((_ delivery: DeliveryHistory.Delivery, _ resign: Bool) -> Void)?

    /// A sandbox for `catalog` (its status codes word the callbacks) with `settings`;
    /// `clock` gives the time in milliseconds.
    public init(catalog: Catalog, settings: Settings, clock: @escaping () -> Int) {
        self.catalog = catalog
        self.settings = settings
        self.clock = clock
        guardian = SandboxGuard(settings: settings)
        sessions = CheckoutSessions(
            catalog: catalog, seed: settings.seed, lifetime: settings.sessionLifetime, limit: settings.sessionLimit,
            byteBudget: settings.sessionByteBudget)
    }

    /// A token for the forms: 128 bits from the system's random source, in hex.
    public static func newFormToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for _ in 0..<2 {
            let word: UInt64 = generator.next()
            for shift in stride(from: 60, through: 0, by: -4) { text.append(digits[Int(word >> UInt64(shift) & 15)]) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Sessions held now.
    public var sessionCount: Int { sessions.count }
    /// What the paid orders held take of the session budget, in bytes.
    public var paidOrderBytes: Int { sessions.paidBytes }

    /// Every session held, oldest first: what a durable store rewrites itself from.
    public var heldSessions: [CheckoutSessions.Session] { sessions.all }
    /// Every session held, as a snapshot taken at once, to read on another thread.
    public var snapshot: CheckoutSessions.Held { sessions.held }
    /// Every delivery held, oldest first.
    public var heldDeliveries: [DeliveryHistory.Delivery] { history.deliveries }

    /// What the sandbox keeps across a restart: a session as it stood after a change, or a
    /// delivery that ended.
    public enum Record: Sendable {
        /// A session; a later record of the same session replaces an earlier one.
        case session(CheckoutSessions.Session)
        /// A delivery to the game's server.
        case delivery(DeliveryHistory.Delivery)
        /// How many sessions had been created when the journal was last written whole, the
        /// forgotten among them, so that no id is handed out twice.
        case made(Int)
    }

    /// Takes back a record kept before a restart; sessions go on by their own clock (a
    /// session past its hour expires when next asked for). Records come one at a time, so
    /// that a start holds no more than the sandbox keeps.
    public func restore(_ record: Record) {
        switch record {
        case .session(let session): sessions.restore(session, now: clock())
        case .delivery(let delivery): history.restore(delivery)
        case .made(let count): sessions.restore(made: count)
        }
    }

    /// Sends the awards of the paid orders whose award had not ended when the sandbox last
    /// stopped (`charge_pending`) once more, as at the payment; the number sent. Without an
    /// award endpoint they are granted at once, as every award is then.
    @discardableResult
    public func resumeAwards() -> Int {
        let waiting = sessions.all.filter { $0.state == .chargePending && !$0.retryingAward }
        for session in waiting {
            effects.append(
                .log(
                    onPaid == nil
                        ? "award \(session.purchaseId): granted, with no award endpoint, at this start (the sandbox "
                            + "stopped before the award ended)"
                        : "award \(session.purchaseId): sent at this start (the sandbox stopped before it ended)"))
            due(purchaseId: session.purchaseId, award: session.award)
        }
        if let failure = keep(undoing: false) { onLog("warning: the awards sent again were not kept: \(failure)") }
        return waiting.count
    }

    /// What a change brings about beyond the sandbox's state: said or sent only once the
    /// change is kept, so that a change that could not be kept (503) had no effect at all.
    private enum Effect {
        case log(String)
        case award(purchaseId: String, GrantAward)
        case callback(Callback)
        case orderEvent(purchaseId: String, OrderEvent)
        case replay(DeliveryHistory.Delivery, resign: Bool)
    }

    /// The effects of the changes not kept yet, in order.
    private var effects: [Effect] = []
    /// Deliveries that ended and are not on the disk yet: kept with the next change that is.
    private var unsavedDeliveries: [DeliveryHistory.Delivery] = []
    /// When a write last failed: for ``writePause`` after it, what waits from before is
    /// not written again for a request that changes nothing (a read) or for what the
    /// sandbox learns on its own, so that on a full disk they cost no more than before;
    /// a change of a request's is always tried.
    private var lastFailure: Int?
    /// How long what waits is not written again after a write failed, in milliseconds.
    public static let writePause = 1000

    /// Hands what changed since the last keep to ``persist``; nil when it is kept (or
    /// nothing keeps it), else why not. When it is not kept and `undoing`, the change is
    /// undone and its effects dropped: the answer says nothing happened. Otherwise (what
    /// the game's server was sent cannot be unsent) the change stands in memory, its
    /// effects follow, and it is kept with the next change that reaches the disk.
    private func keep(undoing: Bool) -> String? {
        let changed = sessions.changedSessions
        // A request that changed nothing (a read, a replay) is answered whatever the disk
        // says of what waits from before it: it has nothing to undo.
        let undoable = undoing && sessions.isChanging
        var failure: String?
        let now = clock()
        let pausing = lastFailure.map { now >= $0 && now - $0 < Self.writePause } ?? false
        if let persist, !changed.isEmpty || !unsavedDeliveries.isEmpty, undoable || !pausing {
            failure = persist(changed, unsavedDeliveries)
            lastFailure = failure == nil ? nil : now
        } else if pausing {
            failure = "the disk refused the last write"
        }
        if failure == nil {
            sessions.saved()
            unsavedDeliveries = []
        } else if undoable {
            sessions.rollback()
            effects = []
            return failure
        } else {
            sessions.commit()
            if undoing { failure = nil }
        }
        let due = effects
        effects = []
        for effect in due {
            switch effect {
            case .log(let line): onLog(line)
            case .award(let purchaseId, let award): onPaid?(purchaseId, award)
            case .callback(let callback): onCallback(callback)
            case .orderEvent(let purchaseId, let event): onOrderEvent?(purchaseId, event)
            case .replay(let delivery, let resign): onReplay?(delivery, resign)
            }
        }
        return failure
    }

    /// Writes what waits for room on the disk (what the sandbox learned on its own while a
    /// write failed), however recently one failed: a stop calls it last. Nil when nothing
    /// waits any more, else why not.
    public func keepWaiting() -> String? {
        lastFailure = nil
        return keep(undoing: false)
    }

    /// Records a delivery to the game's server that ended: an award's or an event's
    /// attempts, or a replay's; it is in the history (and kept) from now on.
    @discardableResult
    public func delivered(
        _ kind: DeliveryHistory.Kind, purchaseId: String, name: String, url: String, body: [UInt8],
        attempts: [DeliveryAttempt], replayOf: Int? = nil, resigned: Bool? = nil
    ) -> DeliveryHistory.Delivery {
        let delivery = history.add(
            kind: kind, purchaseId: purchaseId, name: name, url: url, body: body, attempts: attempts,
            replayOf: replayOf, resigned: resigned)
        unsavedDeliveries.append(delivery)
        // A disk full for long does not make memory grow past what the history holds.
        var bytes = unsavedDeliveries.reduce(0) { $0 + $1.bytes }
        while unsavedDeliveries.count > history.limit || (bytes > history.byteBudget && unsavedDeliveries.count > 1) {
            bytes -= unsavedDeliveries.removeFirst().bytes
        }
        if let failure = keep(undoing: false) {
            onLog("warning: a delivery is not on the disk yet, it is kept with the next change: \(failure)")
        }
        return delivery
    }

    /// An award is due: the award endpoint's queue sends it once the change is kept;
    /// without one it is granted at once.
    private func due(purchaseId: String, award: GrantAward) {
        if onPaid != nil {
            effects.append(.award(purchaseId: purchaseId, award))
        } else {
            report(sessions.awardDelivered(purchaseId: purchaseId, failureData: nil))
        }
    }

    /// Says what happened, in order: log lines, awards due, and what the client receives,
    /// each an effect that follows once the change is kept.
    private func report(_ events: [CheckoutSessions.Event]) {
        for event in events {
            switch event {
            case .redirectUrlGiven(let sku):
                effects.append(
                    .log(
                        "warning: the session for \(sku) has a redirectUrl; it is for link-out without the SDK "
                            + "and must not be sent when the SDK opens the checkout"))
            case .expired(let purchaseId):
                effects.append(.log("session \(purchaseId) expired unpaid"))
            case .cancelled(let purchaseId):
                effects.append(.log("session \(purchaseId) cancelled by the game's server"))
            case .paid(let purchaseId, let paymentMethod, let award, let withoutPricePoint, let withoutItems):
                effects.append(.log("session \(purchaseId) paid with \(paymentMethod)"))
                if withoutPricePoint {
                    effects.append(
                        .log(
                            "warning: the session \(purchaseId) had no offer.pricePointMetadata, so its award says "
                                + "basePriceInUSD 0 and estimates from 0; send the offer's price point in US cents, "
                                + "such as 499"))
                }
                if withoutItems {
                    effects.append(
                        .log(
                            "warning: the session \(purchaseId) had no items, so its award grants no products "
                                + "(\"products\": []); send what the offer gives, such as \"items\": [{\"name\": "
                                + "\"Gems\", \"sku\": \"gem_01\", \"quantity\": 100}]"))
                }
                due(purchaseId: purchaseId, award: award)
            case .ended(let callback):
                effects.append(.callback(callback))
            case .order(let name, let session, let sequence):
                guard onOrderEvent != nil else { continue }
                let subject = OrderEvent.Subject(
                    order: session.order, pricePointMetadata: session.pricePointMetadata ?? 0, email: session.email,
                    sessionMetadata: session.metadata)
                effects.append(
                    .orderEvent(
                        purchaseId: session.purchaseId,
                        OrderEvent(
                            name, version: settings.eventsVersion, subject: subject, milliseconds: clock(),
                            seed: settings.seed, sequence: sequence, refundAmount: session.life?.refundAmount)))
            }
        }
    }

    /// The session of `token`, unless it has expired unpaid.
    private func live(token: String) -> CheckoutSessions.Session? {
        let (session, events) = sessions.session(token: token, now: clock())
        report(events)
        return session
    }

    /// The session of `purchaseId`, unless it has expired unpaid.
    private func live(purchaseId: String) -> CheckoutSessions.Session? {
        let (session, events) = sessions.session(purchaseId: purchaseId, now: clock())
        report(events)
        return session
    }

    // MARK: Routing

    /// A request with what can be read of it before the sandbox's state is touched: the
    /// answer that refuses it, else a new session's body, parsed and checked, and the base
    /// of the URLs its answer hands out.
    public struct Arrival {
        let request: HTTPRequest
        let refusal: HTTPServerResponse?
        let session: Result<SessionRequest, SessionRequest.Problem>?
        let base: String
    }

    /// What can be read of `request` without the sandbox's state: it reads only the
    /// settings, which never change, so that several threads may call it at once while
    /// another is in ``handle(_:)-(Arrival)``.
    public func prepare(_ request: HTTPRequest) -> Arrival {
        if let refusal = guardian.refusal(request) {
            return Arrival(request: request, refusal: refusal, session: nil, base: settings.baseURL)
        }
        let session =
            request.method == .post && request.path == "/checkout/v1/session"
            ? Result { () throws(SessionRequest.Problem) in try SessionRequest(request.body) } : nil
        return Arrival(request: request, refusal: nil, session: session, base: base(for: request))
    }

    /// The answer to `request`, made whole.
    public func handle(_ request: HTTPRequest) -> HTTPServerResponse {
        answer(prepare(request)).response
    }

    /// The answer to a request ``prepare(_:)`` read: a report's or a page's body is made
    /// later, from what the sandbox held when it was asked, outside the server's lock.
    public func answer(_ arrival: Arrival) -> HTTPAnswer {
        let request = arrival.request
        var answer = arrival.refusal.map(HTTPAnswer.ready) ?? route(arrival)
        if let failure = keep(undoing: true) {
            onLog("warning: a change could not be kept, so it was not made: \(failure)")
            answer = .ready(
                Sandbox.problem(
                    503,
                    "the sandbox could not keep the change on disk (\(failure)), so nothing changed; free the disk, "
                        + "then try again"))
        }
        switch answer {
        case .ready(var response):
            guardian.finish(&response)
            answer = .ready(response)
        case .later(var head, let body):
            guardian.finish(&head)
            answer = .later(head, body: body)
        }
        onLog("\(request.method) \(request.path) \(answer.status)")
        return answer
    }

    /// The answer to what the server refused on its own (a request it cannot take, one too
    /// slow to arrive, a connection past its limit): a JSON problem, as the sandbox's own
    /// refusals are, so that a client reads every error one way.
    public static func answer(to refusal: HTTPServer.Refusal) -> HTTPServerResponse {
        problem(refusal.status, refusal.message)
    }

    /// A JSON problem answer: `{"errorCode": status, "errorMessage": message}`, and with
    /// several `problems`, each of them in a list.
    public static func problem(_ status: Int, _ message: String, each problems: [String] = []) -> HTTPServerResponse {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("errorCode", status)
        writer.field("errorMessage", message)
        if problems.count > 1 {
            writer.key("problems")
            writer.openArray()
            for problem in problems { writer.string(problem) }
            writer.closeArray()
        }
        writer.closeObject()
        return HTTPServerResponse(status: status, body: writer.bytes)
    }

    /// The answer of the route `arrival`'s path names, from ``routes``: 501 to a method no
    /// RFC registers, 404 where no pattern matches the path, 405 with `Allow` where the
    /// path's rows do not take the method, the row's refusal where its ``SandboxRoute/Access``
    /// refuses the caller; else its handler's.
    private func route(_ arrival: Arrival) -> HTTPAnswer {
        let request = arrival.request
        guard HTTPMethod.registered.contains(request.method) else {
            return .ready(Sandbox.problem(501, "the sandbox does not implement the method \(request.method)"))
        }
        guard let (rows, captures) = Self.routes.rows(for: request.path) else {
            return .ready(Sandbox.problem(404, "nothing at \(request.path); see the README's \"A local sandbox\""))
        }
        guard let row = rows.first(where: { $0.methods.contains(request.method) }) else {
            return .ready(rows.notAllowed(request))
        }
        if let refusal = row.access.refusal(request, publisherToken: settings.publisherToken) {
            return .ready(refusal)
        }
        return row.handler(self, SandboxRoute.Routed(arrival: arrival, captures: captures))
    }

    /// 200 with a body `body` makes later, outside the server's lock, from what it captured
    /// now: a report or a page that may take a while and megabytes to write.
    private static func later(contentType: String = "application/json", _ body: @escaping @Sendable () -> [UInt8])
        -> HTTPAnswer
    {
        .later(HTTPServerResponse(status: 200, contentType: contentType, body: []), body: body)
    }

    /// The content type of the sandbox's pages.
    private static let html = "text/html; charset=utf-8"

    func home() -> HTTPAnswer {
        let held = sessions.held
        let counts = (sessions: held.count, deliveries: history.deliveries.count)
        let catalog = catalog
        return Self.later(contentType: Self.html) {
            Array(SandboxPage.home(held.newest(SandboxPage.dashboardRows), counts: counts, catalog: catalog).utf8)
        }
    }

    // MARK: The game's server

    func createSession(_ arrival: Arrival) -> HTTPServerResponse {
        let request = arrival.request
        guard Self.isJSON(request) else {
            return Sandbox.problem(415, "send the body as Content-Type: application/json")
        }
        let body: SessionRequest
        let parsed = arrival.session ?? Result { () throws(SessionRequest.Problem) in try SessionRequest(request.body) }
        switch parsed {
        case .success(let parsed): body = parsed
        case .failure(let error): return Sandbox.problem(400, error.message, each: error.all)
        }
        let session: CheckoutSessions.Session
        do throws(CheckoutSessions.Full) {
            let forgotten = sessions.forgotten
            let (created, events) = try sessions.create(body, now: clock())
            session = created
            if forgotten == 0 && sessions.forgotten > 0 {
                effects.append(
                    .log(
                        "note: the sandbox forgets unpaid sessions from now on, the oldest first (two hours old, past "
                            + "\(settings.sessionLimit) of them, or past --session-budget \(settings.sessionByteBudget >> 20) "
                            + "MiB); a forgotten session answers 404, paid orders are kept"))
            }
            report(events)
        } catch {
            return Sandbox.problem(
                503,
                "paid orders fill the sandbox: \(error.paidOrders) of them take all of its session budget "
                    + "(\(error.byteBudget >> 20) MiB), and a paid order is never forgotten; start serve with a larger "
                    + "--session-budget, or with another --data directory")
        }
        var writer = JSONWriter()
        writer.openObject()
        writer.field("checkoutSessionToken", session.token)
        writer.field("purchaseId", session.purchaseId)
        let checkoutURL = arrival.base + "/checkout"
        writer.field("url", checkoutURL)
        writer.field("parsedUrl", "\(checkoutURL)/\(session.token)#boot=\(session.purchaseId)")
        writer.closeObject()
        return HTTPServerResponse(status: 201, body: writer.bytes)
    }

    /// The base of the URLs an answer to `request` hands out: `--public-url`, else
    /// `http://` and the request's `Host` (a plain host and port the sandbox serves, or
    /// the guard refused it), else the address the sandbox listens at.
    func base(for request: HTTPRequest) -> String {
        if let publicURL = settings.publicURL { return publicURL }
        guard let host = request.header("host"), !host.isEmpty else { return settings.baseURL }
        return "http://" + host
    }

    func cancel(_ request: HTTPRequest) -> HTTPServerResponse {
        let authorization = request.header("authorization") ?? ""
        let (session, events) =
            authorization.hasPrefix("Bearer ") ? sessions.cancel(token: String(authorization.dropFirst(7))) : (nil, [])
        guard session != nil else {
            return Self.unauthorized(
                request.path,
                authorization.isEmpty
                    ? "Authorization: Bearer <checkoutSessionToken> is required."
                    : "No checkout session has this token.")
        }
        report(events)
        return HTTPServerResponse(status: 200, body: Array(#"{"isOrderCancelled":true}"#.utf8))
    }

    /// 401 in the shape Appcharge's reporting API uses.
    static func unauthorized(_ path: String, _ reason: String) -> HTTPServerResponse {
        reportingError(401, "Unauthorized", [reason], path: path)
    }

    /// An error in the reporting API's shape: `{statusCode, error, message: [{validationErrorNumber, error}], requestUrl}`.
    static func reportingError(_ status: Int, _ error: String, _ reasons: [String], path: String)
        -> HTTPServerResponse
    {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("statusCode", status)
        writer.field("error", error)
        writer.key("message")
        writer.openArray()
        for (index, reason) in reasons.enumerated() {
            writer.openObject()
            writer.field("validationErrorNumber", index + 1)
            writer.field("error", reason)
            writer.closeObject()
        }
        writer.closeArray()
        writer.field("requestUrl", path)
        writer.closeObject()
        return HTTPServerResponse(status: status, body: writer.bytes)
    }

    // MARK: Reports

    func ordersReport(_ request: HTTPRequest) -> HTTPAnswer {
        do throws(Reports.Problem) {
            let query = try Reports.ordersQuery(request.body)
            let held = sessions.held
            return Self.later { Reports.orders(held.all, query) }
        } catch {
            return .ready(Self.reportingError(400, "Bad Request", error.reasons, path: request.path))
        }
    }

    func transactions(_ request: HTTPRequest) -> HTTPAnswer {
        do throws(Reports.Problem) {
            let query = try Reports.transactionsQuery(Self.pairs(Array(request.query.utf8)))
            let held = sessions.held
            let text = request.query
            return Self.later { Reports.transactions(held.all, query, query: text) }
        } catch {
            return .ready(Self.reportingError(400, "Bad Request", error.reasons, path: request.path))
        }
    }

    /// 404 for a purchase id the sandbox holds no session of, saying why one may be gone.
    static func noSession(_ purchaseId: String) -> HTTPServerResponse {
        Sandbox.problem(
            404,
            "no checkout session has the purchase id '\(purchaseId)'; the sandbox forgets unpaid "
                + "sessions two hours old, and the oldest past 10,000 or past its --session-budget")
    }

    /// Whether the request's body is sent as `application/json`.
    static func isJSON(_ request: HTTPRequest) -> Bool {
        let type = request.header("content-type")?.lowercased() ?? ""
        return type == "application/json" || type.hasPrefix("application/json;")
    }

    // MARK: The player

    func page(token: String) -> HTTPServerResponse {
        guard let session = live(token: token) else {
            return HTTPServerResponse(
                status: 404, contentType: "text/html; charset=utf-8", body: Array(SandboxPage.missing(token).utf8))
        }
        let html =
            session.state == .created ? SandboxPage.checkout(session, sandbox: self) : SandboxPage.result(session)
        return HTTPServerResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(html.utf8))
    }

    func choose(token: String, _ request: HTTPRequest) -> HTTPServerResponse {
        let form = Self.form(request.body)
        guard let session = live(token: token) else {
            return HTTPServerResponse(
                status: 404, contentType: "text/html; charset=utf-8", body: Array(SandboxPage.missing(token).utf8))
        }
        guard let choice = form["choice"].flatMap(CheckoutSessions.Choice.init(rawValue:)) else {
            let choices = CheckoutSessions.Choice.allCases.map(\.rawValue).joined(separator: ", ")
            return Sandbox.problem(400, "choose one of: \(choices)")
        }
        let method = form["paymentMethod"] ?? ""
        guard method.utf8.count <= Self.paymentMethodLimit else {
            return Sandbox.problem(400, "paymentMethod is longer than \(Self.paymentMethodLimit) bytes")
        }
        _ = apply(choice, paymentMethod: method, to: session)
        return HTTPServerResponse(
            status: 303, contentType: "text/plain", headers: [HTTPHeader("Location", "/checkout/\(token)")],
            body: Array("See /checkout/\(token)\n".utf8))
    }

    // MARK: Scripts

    func state(purchaseId: String) -> HTTPServerResponse {
        guard let session = live(purchaseId: purchaseId) else {
            return Self.noSession(purchaseId)
        }
        return HTTPServerResponse(status: 200, body: Self.stateJSON(session))
    }

    func complete(purchaseId: String, _ request: HTTPRequest) -> HTTPServerResponse {
        guard let session = live(purchaseId: purchaseId) else {
            return Self.noSession(purchaseId)
        }
        let choices = CheckoutSessions.Choice.allCases.map(\.rawValue).joined(separator: ", ")
        let shape = "send {\"choice\": \"...\"} with one of: \(choices)"
        guard let value = try? JSONParser.parse(request.body), case .object(let members) = value.kind else {
            return Sandbox.problem(400, "the body is not a JSON object; \(shape)")
        }
        // What is wrong first, quoted as sent, then the shape.
        guard let choiceValue = members.first(where: { $0.key == "choice" })?.value else {
            return Sandbox.problem(400, "choice is missing; \(shape)")
        }
        guard case .string(let choiceText) = choiceValue.kind else {
            return Sandbox.problem(400, "choice must be a string, not \(choiceValue.typeDescription); \(shape)")
        }
        guard let choice = CheckoutSessions.Choice(rawValue: choiceText) else {
            let meant = CheckoutSessions.Choice(rawValue: Self.trimmed(choiceText).lowercased())
            return Sandbox.problem(
                400,
                "choice '\(Reports.quoted(choiceText))' is not one of \(choices)"
                    + (meant.map { "; did you mean \($0.rawValue)?" } ?? "") + "; \(shape)")
        }
        var method = PlayerAction.defaultPaymentMethod
        if let methodValue = members.first(where: { $0.key == "paymentMethod" })?.value {
            guard case .string(let text) = methodValue.kind, (1...Self.paymentMethodLimit).contains(text.utf8.count)
            else {
                return Sandbox.problem(
                    400,
                    "paymentMethod must be a non-empty string of at most \(Self.paymentMethodLimit) bytes, such as \"Visa\""
                )
            }
            method = text
        }
        guard session.state == .created else {
            return Sandbox.problem(409, "the session is already \(session.state.rawValue); create a new one")
        }
        let finished = apply(choice, paymentMethod: method, to: session)
        return HTTPServerResponse(status: 200, body: Self.stateJSON(finished))
    }

    static func stateJSON(_ session: CheckoutSessions.Session) -> [UInt8] {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("purchaseId", session.purchaseId)
        writer.field("state", session.state.rawValue)
        writer.field("offerSku", session.offerSku)
        writer.field("price", session.price)
        writer.field("currency", session.currency)
        writer.field("customerId", session.customerId)
        writer.field("countryCode2", session.country)
        if let orderId = session.shownOrderId { writer.field("orderId", orderId) }
        if let amount = session.life?.refundAmount { writer.field("refundAmount", amount) }
        writer.closeObject()
        return writer.bytes
    }

    // MARK: After the purchase

    /// Initiate Refund, as the game's server calls it: 201 `{}` and the refund goes
    /// through (`order.refunded` follows); 403, 404 and 422 in Appcharge's shapes.
    func initiateRefund(orderId: String, _ request: HTTPRequest) -> HTTPServerResponse {
        do throws(CheckoutSessions.LifeProblem) {
            try act(OrderLife.refund(amount: nil, succeeds: true), on: orderId, byOrderId: true)
        } catch {
            switch error {
            case .noOrder:
                return HTTPServerResponse(
                    status: 404, body: Array(#"{"message":"Order does not exist or cannot be found."}"#.utf8))
            case .refused(let refusal):
                effects.append(.log("refund of order \(orderId) refused: \(refusal.message)"))
                return HTTPServerResponse(
                    status: 422, body: Array(#"{"message":"Failed to initiate a refund request"}"#.utf8))
            }
        }
        return HTTPServerResponse(status: 201, body: Array("{}".utf8))
    }

    /// `{"outcome": "refunded" | "failed", "amount": N}`: a refund of the session's order.
    func controlRefund(purchaseId: String, _ request: HTTPRequest) -> HTTPServerResponse {
        let shape = #"send {"outcome": "refunded" or "failed", "amount": N (minor units, optional)}"#
        guard let members = Self.jsonObject(request) else { return Sandbox.problem(400, shape) }
        var succeeds = true
        var amount: Int?
        for (key, value) in members {
            switch (key, value.kind) {
            case ("outcome", .string("refunded")): succeeds = true
            case ("outcome", .string("failed")): succeeds = false
            case ("amount", .number(let text)):
                guard let session = live(purchaseId: purchaseId) else { return Self.noSession(purchaseId) }
                guard let number = Int(text), (1...max(1, session.price)).contains(number) else {
                    return Sandbox.problem(
                        400, "amount \(Self.quoted(text)) is not \(Self.amountRule(session)); \(shape)")
                }
                amount = number
            default: return Sandbox.problem(400, shape)
            }
        }
        return control(purchaseId: purchaseId, OrderLife.refund(amount: amount, succeeds: succeeds))
    }

    /// `{"outcome": "open" | "won" | "lost"}`: a dispute of the session's order.
    func controlDispute(purchaseId: String, _ request: HTTPRequest) -> HTTPServerResponse {
        let shape = #"send {"outcome": "open", "won" or "lost"}"#
        guard let members = Self.jsonObject(request) else {
            return Sandbox.problem(400, "the body is not a JSON object; \(shape)")
        }
        // What is wrong first, quoted as sent, then the shape.
        let names = OrderLife.DisputeGoal.allCases.map(\.rawValue)
        var goal: OrderLife.DisputeGoal?
        var wrong = "outcome is missing"
        if let unknown = members.first(where: { $0.key != "outcome" }) {
            wrong = "unknown key '\(Reports.quoted(unknown.key))'"
        } else if let outcome = members.first?.value {
            if case .string(let text) = outcome.kind {
                goal = OrderLife.DisputeGoal(rawValue: text)
                let meant = OrderLife.DisputeGoal(rawValue: Self.trimmed(text).lowercased())
                wrong =
                    "outcome '\(Reports.quoted(text))' is not one of \(names.joined(separator: ", "))"
                    + (meant.map { "; did you mean \($0.rawValue)?" } ?? "")
            } else {
                wrong = "outcome must be a string, not \(outcome.typeDescription)"
            }
        }
        guard let goal else { return Sandbox.problem(400, "\(wrong); \(shape)") }
        guard let session = live(purchaseId: purchaseId) else {
            return Self.noSession(purchaseId)
        }
        let life = session.life ?? OrderLife(state: session.state, price: session.price)
        return control(purchaseId: purchaseId, life.dispute(to: goal))
    }

    /// What a refund's amount must be, for `session`'s order: "a whole number of minor
    /// units from 1 to 549, the order's price".
    private static func amountRule(_ session: CheckoutSessions.Session) -> String {
        "a whole number of minor units from 1 to \(max(1, session.price)), the order's price"
    }

    /// `text` without the white space around it.
    static func trimmed(_ text: String) -> String {
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text.lastIndex { !$0.isWhitespace }.map { text.index(after: $0) } ?? start
        return String(text[start..<end])
    }

    /// What a peer typed, short enough to quote in a message: its first 24 characters.
    private static func quoted(_ text: String) -> String {
        text.count > 24 ? text.prefix(24) + "…" : text
    }

    /// Takes `actions` on the session's order; 200 with its state, or the rule refused.
    private func control(purchaseId: String, _ actions: [OrderLife.Action]) -> HTTPServerResponse {
        do throws(CheckoutSessions.LifeProblem) {
            try act(actions, on: purchaseId, byOrderId: false)
        } catch {
            switch error {
            case .noOrder: return Self.noSession(purchaseId)
            case .refused(let refusal): return Sandbox.problem(422, refusal.message)
            }
        }
        guard let session = live(purchaseId: purchaseId) else {
            return Self.noSession(purchaseId)
        }
        return HTTPServerResponse(status: 200, body: Self.stateJSON(session))
    }

    /// Takes `actions` in turn on the order, reporting each; stops at the first refused.
    private func act(_ actions: [OrderLife.Action], on id: String, byOrderId: Bool)
        throws(CheckoutSessions.LifeProblem)
    {
        for action in actions {
            let (session, events) = try sessions.act(action, on: id, byOrderId: byOrderId, now: clock())
            effects.append(.log("order \(session.orderId) \(session.state.rawValue)"))
            report(events)
        }
    }

    /// The members of a JSON object body sent as `application/json`, or nil.
    private static func jsonObject(_ request: HTTPRequest) -> [(key: String, value: JSONValue)]? {
        guard isJSON(request), let value = try? JSONParser.parse(request.body), case .object(let members) = value.kind
        else { return nil }
        return members
    }

    // MARK: The dashboard

    func orderPage(purchaseId: String, _ request: HTTPRequest) -> HTTPAnswer {
        guard let session = live(purchaseId: purchaseId) else {
            return .ready(
                HTTPServerResponse(
                    status: 404, contentType: "text/html; charset=utf-8",
                    body: Array(SandboxPage.missing(purchaseId).utf8)))
        }
        // A link names a notice by its number; a page shows only what the sandbox said of
        // this order, never text a link carries.
        let said = Self.form(Array(request.query.utf8))["said"].flatMap { Int($0) }.flatMap { number in
            notices.last { $0.number == number && $0.purchaseId == purchaseId }
        }
        let (newest, more) = history.page(.init(purchaseId: purchaseId), limit: SandboxPage.orderDeliveries)
        let page = SandboxPage.OrderPage(
            session: session, deliveries: newest.reversed(), moreDeliveries: more != nil, catalog: catalog,
            formToken: settings.formToken, said: said?.text, problem: said?.problem ?? false)
        return Self.later(contentType: Self.html) {
            Array(SandboxPage.order(page, shown: Self.shown).utf8)
        }
    }

    /// A form of an order's page: refund, dispute or Retry Award, then back to the page
    /// with what it came to.
    func orderForm(purchaseId: String, action: String, _ request: HTTPRequest) -> HTTPServerResponse {
        let form = Self.form(request.body)
        let answer: HTTPServerResponse
        switch action {
        case "refund":
            var amount: Int?
            // A number pasted with spaces around it is still that number.
            let typed = Self.trimmed(form["amount"] ?? "")
            if !typed.isEmpty {
                guard let session = live(purchaseId: purchaseId) else {
                    return orderPage(purchaseId: purchaseId, request).response
                }
                guard let number = Int(typed), (1...max(1, session.price)).contains(number) else {
                    return back(
                        to: purchaseId,
                        "the amount '\(Self.quoted(typed))' is not \(Self.amountRule(session)); leave it empty to "
                            + "refund all of it",
                        problem: true)
                }
                amount = number
            }
            answer = control(
                purchaseId: purchaseId, OrderLife.refund(amount: amount, succeeds: form["outcome"] != "failed"))
        case "dispute":
            guard let goal = form["outcome"].flatMap(OrderLife.DisputeGoal.init(rawValue:)) else {
                return back(to: purchaseId, "choose open, won or lost", problem: true)
            }
            guard let session = live(purchaseId: purchaseId) else {
                return orderPage(purchaseId: purchaseId, request).response
            }
            answer = control(
                purchaseId: purchaseId,
                (session.life ?? OrderLife(state: session.state, price: session.price)).dispute(to: goal))
        case "retry-award":
            answer = retryAward(purchaseId: purchaseId)
        default:
            return Sandbox.problem(
                404, "nothing at \(request.path); an order's page has refund, dispute and retry-award")
        }
        guard (200..<300).contains(answer.status) else {
            return back(to: purchaseId, Self.problemText(answer), problem: true)
        }
        let state = live(purchaseId: purchaseId)?.state.rawValue ?? ""
        return back(to: purchaseId, action == "retry-award" ? "Retry Award sent" : "done: the order is \(state)")
    }

    func replayForm(id: String, _ request: HTTPRequest) -> HTTPServerResponse {
        guard let delivery = history.delivery(id: id) else {
            return Sandbox.problem(404, "no delivery has the id '\(id)'")
        }
        let resign = Self.form(request.body)["resign"] != "false"
        guard onReplay != nil else {
            return back(
                to: delivery.purchaseId, "nowhere to send it: start serve with --award-url or --events-url",
                problem: true)
        }
        effects.append(.replay(delivery, resign: resign))
        return back(to: delivery.purchaseId, "\(delivery.id) sent again \(resign ? "newly signed" : "exactly")")
    }

    /// What a form of an order's page came to: the page the form comes back to shows it,
    /// named in the link by its number.
    struct Notice {
        /// `said=` of the link: 1, 2, ... in the order they were made.
        let number: Int
        /// The order whose page shows it; any other shows nothing.
        let purchaseId: String
        /// What it says.
        let text: String
        /// Whether it says why the form was refused.
        let problem: Bool
    }

    /// Notices kept at most; a link to an older one shows nothing.
    static let noticeLimit = 100

    /// 303 to the order's page, which shows `said` (as a refusal with `problem`): the link
    /// carries the number of a notice the sandbox keeps, not the words, so that no link
    /// of another site can make the page say what it likes.
    private func back(to purchaseId: String, _ said: String, problem: Bool = false) -> HTTPServerResponse {
        noticesMade += 1
        notices.append(Notice(number: noticesMade, purchaseId: purchaseId, text: said, problem: problem))
        if notices.count > Self.noticeLimit { notices.removeFirst() }
        let location = "/orders/\(Self.percentEncoded(purchaseId))?said=\(noticesMade)"
        return HTTPServerResponse(
            status: 303, contentType: "text/plain", headers: [HTTPHeader("Location", location)],
            body: Array("See \(location)\n".utf8))
    }

    /// The `errorMessage` of a problem answer.
    private static func problemText(_ response: HTTPServerResponse) -> String {
        guard let value = try? JSONParser.parse(response.body), case .object(let members) = value.kind,
            case .string(let text)? = members.first(where: { $0.key == "errorMessage" })?.value.kind
        else { return "refused (\(response.status))" }
        return text
    }

    /// `text` for a URL: letters, digits and `-._~` as they are, the rest `%XX`.
    static func percentEncoded(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                output += "%"
                output.unicodeScalars.append(digits[Int(byte >> 4)])
                output.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return output
    }

    // MARK: Deliveries

    /// The largest page of deliveries one request gets.
    static let deliveryPageLimit = 100

    /// `GET /control/v1/deliveries?purchaseId=&kind=award|event&failed=true&limit=N&cursor=ID`:
    /// newest first, with `nextCursor` for the page after.
    func deliveries(_ request: HTTPRequest) -> HTTPAnswer {
        var filter = DeliveryHistory.Filter()
        var limit = 20
        var before: Int?
        for (name, value) in Self.form(Array(request.query.utf8)) {
            switch name {
            case "purchaseId": filter.purchaseId = value
            case "kind":
                guard let kind = DeliveryHistory.Kind(rawValue: value) else {
                    return .ready(Sandbox.problem(400, "kind is award or event"))
                }
                filter.kind = kind
            case "failed":
                guard value == "true" || value == "false" else {
                    return .ready(Sandbox.problem(400, "failed is true or false"))
                }
                filter.failedOnly = value == "true"
            case "limit":
                guard let number = Int(value), (1...Self.deliveryPageLimit).contains(number) else {
                    return .ready(Sandbox.problem(400, "limit is a number from 1 to \(Self.deliveryPageLimit)"))
                }
                limit = number
            case "cursor":
                guard value.hasPrefix("dl_"), let number = Int(value.dropFirst(3)) else {
                    return .ready(Sandbox.problem(400, "cursor is a nextCursor a listing gave, such as dl_20"))
                }
                before = number
            default:
                return .ready(
                    Sandbox.problem(
                        400, "the deliveries take purchaseId, kind, failed, limit and cursor, not \(name)"))
            }
        }
        let (page, more) = history.page(filter, limit: limit, before: before)
        return .later(HTTPServerResponse(status: 200, body: [])) {
            var body = Array(#"{"deliveries":["#.utf8)
            var next = more
            for (index, delivery) in page.enumerated() {
                // A page ends early rather than grow past its bytes; its cursor goes on from there.
                if index > 0 && body.count >= Reports.pageBytes {
                    next = page[index - 1].number
                    break
                }
                if index > 0 { body.append(UInt8(ascii: ",")) }
                body += Self.shown(delivery).json
            }
            body += Array("],\"nextCursor\":".utf8) + Array((next.map { "\"dl_\($0)\"" } ?? "null").utf8) + [125]
            return body
        }
    }

    func delivery(id: String) -> HTTPAnswer {
        guard let delivery = history.delivery(id: id) else {
            return .ready(
                Sandbox.problem(404, "no delivery has the id '\(id)'; GET /control/v1/deliveries lists them"))
        }
        return Self.later { Self.shown(delivery).json }
    }

    /// `delivery` as the control API and the order's page show it: the publisher token
    /// its requests carried masked, since whoever reads them (a page the developer opens
    /// among them) could send the game's server anything as Appcharge. The history, the
    /// journal and the replays keep the real value.
    static func shown(_ delivery: DeliveryHistory.Delivery) -> DeliveryHistory.Delivery {
        var shown = delivery
        for index in shown.attempts.indices {
            shown.attempts[index].headers = shown.attempts[index].headers.map { header in
                header.name.lowercased() == "x-publisher-token" ? (header.name, masked(header.value)) : header
            }
        }
        return shown
    }

    /// A secret as the sandbox shows it: its first 4 characters and `…`, enough to tell
    /// the demo token from the studio's; `…` alone for one shorter than 16, of which 4
    /// would be too much.
    static func masked(_ secret: String) -> String {
        secret.count < 16 ? "…" : secret.prefix(4) + "…"
    }

    /// `{"resign": true}` (the default) or `{"resign": false}`: the delivery sent again.
    func replay(id: String, _ request: HTTPRequest) -> HTTPServerResponse {
        guard let delivery = history.delivery(id: id) else {
            return Sandbox.problem(404, "no delivery has the id '\(id)'; GET /control/v1/deliveries lists them")
        }
        // No body and {} mean the defaults: newly signed.
        var resign = true
        if !request.body.isEmpty {
            let shape = #"send {} (newly signed), {"resign": true} or {"resign": false} (exactly), or no body"#
            guard let members = Self.jsonObject(request) else { return Sandbox.problem(400, shape) }
            for (key, value) in members {
                guard key == "resign" else {
                    return Sandbox.problem(
                        400, #"the replay takes only "resign", not "\#(key.prefix(40))"; \#(shape)"#)
                }
                guard case .bool(let flag) = value.kind else {
                    return Sandbox.problem(
                        400, "resign must be true or false, not \(value.typeDescription); \(shape)")
                }
                resign = flag
            }
        }
        guard onReplay != nil else {
            return Sandbox.problem(
                409, "the sandbox has nowhere to send it: start serve with --award-url or --events-url")
        }
        effects.append(.replay(delivery, resign: resign))
        return HTTPServerResponse(
            status: 202,
            body: Array(#"{"replaying":"\#(delivery.id)","resign":\#(resign)}"#.utf8))
    }

    /// Retry Award, as the dashboard's: the award of a Failed (Charged) order sent again,
    /// `"awardFlow": "manual_retry"`, newly signed; granted, the order is Succeeded.
    func retryAward(purchaseId: String) -> HTTPServerResponse {
        guard live(purchaseId: purchaseId) != nil else {
            return Self.noSession(purchaseId)
        }
        guard onPaid != nil else {
            return Sandbox.problem(409, "the sandbox has no award endpoint: start serve with --award-url")
        }
        let award: GrantAward
        do throws(CheckoutSessions.RetryProblem) {
            award = try sessions.retryAward(purchaseId: purchaseId)
        } catch {
            return Sandbox.problem(409, error.message)
        }
        effects.append(.log("session \(purchaseId): Retry Award"))
        effects.append(.award(purchaseId: purchaseId, award))
        guard let session = live(purchaseId: purchaseId) else {
            return Self.noSession(purchaseId)
        }
        return HTTPServerResponse(status: 202, body: Self.stateJSON(session))
    }

    // MARK: Outcomes

    /// Applies the player's choice; returns the session as it then stands.
    private func apply(
        _ choice: CheckoutSessions.Choice, paymentMethod: String, to session: CheckoutSessions.Session
    ) -> CheckoutSessions.Session {
        let (chosen, events) = sessions.choose(choice, paymentMethod: paymentMethod, for: session, now: clock())
        report(events)
        // A payment's award may have been decided at once.
        return live(token: chosen.token) ?? chosen
    }

    /// Tells the sandbox how a paid session's award went: granted when `failureData` is
    /// nil, failed on every attempt otherwise (the `error.data` of the 3003).
    public func awardDelivered(purchaseId: String, failureData: String?) {
        report(sessions.awardDelivered(purchaseId: purchaseId, failureData: failureData))
        if let failure = keep(undoing: false) {
            onLog("warning: the award's outcome is not on the disk yet, it is kept with the next change: \(failure)")
        }
    }

    /// The longest payment method a player's choice names, in bytes.
    static let paymentMethodLimit = 64

    /// The fields of an `application/x-www-form-urlencoded` body, the last of a name winning.
    static func form(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in pairs(body) { fields[name] = value }
        return fields
    }

    /// The fields of a form or a query string, in order.
    static func pairs(_ body: [UInt8]) -> [(name: String, value: String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first.map({ percentDecoded($0) }) else { return nil }
            return (name, parts.count > 1 ? percentDecoded(parts[1]) : "")
        }
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(0x20)
            case UInt8(ascii: "%"):
                let high = utf8.next().flatMap(hexValue)
                let low = utf8.next().flatMap(hexValue)
                if let high, let low { bytes.append(high << 4 | low) }
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
