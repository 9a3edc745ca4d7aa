import PaylinksAppcharge
import PaylinksFixtures
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// Create Checkout Session and Cancel, as the game's server calls them.
extension Sandbox {
    /// Create Checkout Session: 201 with the session's token, purchase id and checkout
    /// URLs; 415 and 400 for a body it cannot take, 503 when paid orders fill the sandbox.
    /// The publisher token is checked before, by the route. The created session's answer
    /// is written after the server's lock, from its identifiers.
    func createSession(_ arrival: Arrival) -> HTTPAnswer {
        let request = arrival.request
        guard Self.isJSON(request) else {
            let reason = Self.notJSON(request, "send the body as Content-Type: application/json")
            return refused(request, Sandbox.problem(415, reason), saying: reason)
        }
        let body: SessionRequest
        let parsed = arrival.session ?? Result { () throws(SessionRequest.Problem) in try SessionRequest(request.body) }
        switch parsed {
        case .success(let parsed): body = parsed
        case .failure(let error):
            return refused(request, Sandbox.problem(400, error.message, each: error.all), saying: error.message)
        }
        if let refusal = refusal(of: body, request) { return refusal }
        let session: CheckoutSessions.Session
        // The sessions forgotten to make room: freed with the answer, after the lock.
        var departed: [CheckoutSessions.Session] = []
        do throws(CheckoutSessions.Full) {
            let forgotten = sessions.forgotten
            let warnings = priceWarnings(body)
            let (created, events) = try sessions.create(body, now: now, warnings: warnings, departing: &departed)
            session = created
            for warning in warnings { say("warning: session \(created.purchaseId): \(warning)") }
            for field in body.unknownFields {
                let hint = Suggestion.hint(for: field.key, among: field.fields, quoted: .bare) ?? ""
                say(
                    "warning: session \(created.purchaseId): \(field.object)\(Self.quoted(field.key)) is not a field of "
                        + "Create Checkout Session, and Appcharge ignores it\(hint)")
            }
            if forgotten == 0 && sessions.forgotten > 0 {
                say(
                    "note: the sandbox forgets unpaid sessions from now on, the oldest first (two hours old, past "
                        + "\(settings.sessionLimit) of them, or past --session-budget \(settings.sessionByteBudget >> 20) "
                        + "MiB); a forgotten session answers 404, paid orders are kept")
            }
            report(events)
        } catch {
            return .ready(Sandbox.problem(503, Self.fullText(error, kept: persist != nil)))
        }
        let (token, purchaseId, base) = (session.token, session.purchaseId, arrival.base)
        return .later(HTTPServerResponse(status: 201, body: [])) { [departed] in
            withExtendedLifetime(departed) {}
            // Room for the four fields with the base twice, at once.
            var writer = JSONWriter(capacity: 192 + 2 * base.utf8.count)
            writer.openObject()
            writer.field("checkoutSessionToken", token)
            writer.field("purchaseId", purchaseId)
            let checkoutURL = String(concatenating: base, "/checkout")
            writer.field("url", checkoutURL)
            let parsedUrl = CheckoutSession.parsedUrl(
                checkoutURL: checkoutURL, sessionToken: token, purchaseId: purchaseId)
            writer.field("parsedUrl", parsedUrl)
            writer.closeObject()
            return writer.bytes
        }
    }

    /// Why a session was refused for want of room, in words true of any count: the paid
    /// orders' bytes, the budget's, the session's, and what to do, which depends on whether
    /// the sandbox keeps its state in a `--data` directory (`kept`) or in memory, where a
    /// reset frees the paid orders.
    static func fullText(_ full: CheckoutSessions.Full, kept: Bool) -> String {
        func kibibytes(_ bytes: Int) -> String { "\(max(1, (bytes + 1023) / 1024)) KiB" }
        let orders = full.paidOrders == 1 ? "1 paid order holds" : "\(full.paidOrders) paid orders hold"
        return "no room for a new session: \(orders) \(kibibytes(full.paidBytes)) of the sandbox's session budget, "
            + "\(full.byteBudget >> 20) MiB, and this session needs \(kibibytes(full.sessionBytes)); a paid order is "
            + "never forgotten, so start serve with a larger --session-budget, or "
            + (kept ? "with another --data directory" : "send POST /control/v1/reset to forget every session")
    }

    /// The answer that refuses a session `body` asks for, which the body alone cannot say:
    /// 400 for a `customer.identitySignals.firstSeenAt` that is not before the sandbox's
    /// clock ("must be a past date", release note of 2026-05-20), a virtual clock's too;
    /// then 403 for a blocked player, in the exact words of Create Checkout Session's
    /// reference, before any session exists. The log says why either way.
    private func refusal(of body: SessionRequest, _ request: HTTPRequest) -> HTTPAnswer? {
        if let firstSeenAt = body.firstSeenAt, firstSeenAt >= now {
            let reason =
                "customer.identitySignals.firstSeenAt must be a past date: "
                + "\(ClockText.iso8601(milliseconds: firstSeenAt)) is not before the sandbox's clock, "
                + "\(ClockText.iso8601(milliseconds: now)); send when the player was first seen, such as the account's "
                + "creation, before now"
            return refused(request, Sandbox.problem(400, reason), saying: reason)
        }
        return blockedRefusal(customerId: body.customerId).map(HTTPAnswer.ready)
    }

    /// The base of the URLs an answer to `request` hands out: `--public-url`, else
    /// `http://` and the request's `Host` (a plain host and port the sandbox serves, or
    /// the guard refused it), else the address the sandbox listens at.
    func base(for request: HTTPRequest) -> String {
        if let publicURL = settings.publicURL { return publicURL }
        guard let host = request.header("host"), !host.isEmpty else { return settings.baseURL }
        return "http://" + host
    }

    /// Cancel, with the session's own token as `Authorization: Bearer`: 200
    /// `{"isOrderCancelled":true}` when the session takes no more payments (cancelled now,
    /// or already cancelled, closed, expired or declined), `false` when its order was paid
    /// or its payment is pending, which the cancel leaves as they are (the log says why);
    /// 401 in the reporting API's shape.
    func cancel(_ request: HTTPRequest) -> HTTPServerResponse {
        let authorization = request.header("authorization") ?? ""
        guard authorization.hasPrefix("Bearer ") else {
            return Self.unauthorized(
                request.path,
                authorization.isEmpty
                    ? "Authorization: Bearer <checkoutSessionToken> is required."
                    : "The Authorization header must be Authorization: Bearer <checkoutSessionToken>.")
        }
        let (found, events) = sessions.cancel(token: String(authorization.dropFirst(7)))
        guard let session = found else {
            return Self.unauthorized(request.path, "No checkout session has this token.")
        }
        report(events)
        guard !session.isKept else {
            say(
                "session \(session.purchaseId) not cancelled: its order "
                    + (session.isPaid
                        ? "is paid (\(session.state.rawValue)), which a cancel leaves as it is; refund it instead"
                        : "has a payment pending, which a cancel leaves as it is"))
            return HTTPServerResponse(status: 200, body: Array(#"{"isOrderCancelled":false}"#.utf8))
        }
        return HTTPServerResponse(status: 200, body: Array(#"{"isOrderCancelled":true}"#.utf8))
    }
}
