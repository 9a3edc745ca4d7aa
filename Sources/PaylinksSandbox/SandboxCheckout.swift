import PaylinksAppcharge
import PaylinksFixtures
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// The checkout page a tester pays on, and the control API's session state and
/// completion, which a script uses instead of the page.
extension Sandbox {
    /// The checkout page of the session of `token`: its offer and the choices while it
    /// takes a payment, then what came of it, written later from the session as it stands
    /// now; 404 without a live session. A session created with a `redirectUrl` (Link Out)
    /// sends the browser there with its status once it ended (303), and says it is
    /// finishing while its award is under way.
    func page(token: String) -> HTTPAnswer {
        guard let session = live(token: token) else {
            return .ready(
                HTTPServerResponse(
                    status: 404, contentType: "text/html; charset=utf-8", body: Array(SandboxPage.missing(token).utf8)))
        }
        if let redirect = session.redirect {
            // The game's redirectUrl was checked when the session was created: no line break, no space.
            return .ready(
                HTTPServerResponse(
                    status: 303, contentType: "text/plain", headers: [HTTPHeader("Location", redirect)],
                    body: Array("See \(redirect)\n".utf8)))
        }
        let catalog = catalog
        let formToken = settings.formToken
        var head = HTTPServerResponse(status: 200, contentType: Self.html, body: [])
        if let redirectUrl = session.redirectUrl, session.state == .created {
            head.headers.append(
                HTTPHeader("Content-Security-Policy", SandboxPage.contentSecurityPolicy(returningTo: redirectUrl)))
        }
        return .later(head) {
            let html =
                if session.state == .created {
                    SandboxPage.checkout(session, catalog: catalog, formToken: formToken)
                } else if session.redirectUrl != nil && session.state != .paymentPending {
                    SandboxPage.finishing(session)
                } else {
                    SandboxPage.result(session)
                }
            return Array(html.utf8)
        }
    }

    /// The checkout of the session of `token` at Appcharge's legacy link,
    /// `/{checkoutSessionToken}?cot={CheckoutPublicKey}`: the checkout page, when `cot` is
    /// the sandbox's checkout public key; a page that says how to fix the link when it is
    /// missing or another. A path that is no session's token is nothing, as any unknown
    /// path is.
    func legacyPage(token: String, _ request: HTTPRequest) -> HTTPAnswer {
        guard let session = live(token: token) else {
            return nothingAt(request)
        }
        guard request.method == .get || request.method == .head else {
            var response = Sandbox.problem(405, "\(request.path) takes GET, HEAD, not \(request.method)")
            response.headers.append(HTTPHeader("Allow", "GET, HEAD"))
            return .ready(response)
        }
        let cot = Self.form(Array(request.query.utf8))["cot"]
        guard cot == settings.checkoutPublicKey else {
            return .ready(
                HTTPServerResponse(
                    status: 400, contentType: "text/html; charset=utf-8",
                    body: Array(SandboxPage.legacyLinkRefused(session, cot: cot).utf8)))
        }
        return page(token: token)
    }

    /// A choice sent from the checkout page: applied, then 303 back to the page; 400, a
    /// short page, for a choice or a payment method it cannot take. A payment left pending
    /// with `resolve` resolves `minutes` later on the sandbox's clock.
    func choose(token: String, _ request: HTTPRequest) -> HTTPServerResponse {
        let form = Self.form(request.body)
        guard let session = live(token: token) else {
            return HTTPServerResponse(
                status: 404, contentType: "text/html; charset=utf-8", body: Array(SandboxPage.missing(token).utf8))
        }
        let later: (succeeded: Bool, after: Int)?
        switch Self.laterResolution(form) {
        case .success(let resolution): later = resolution
        case .failure(let problem): return Self.refusedPage(400, title: "Refused", problem.message)
        }
        guard let choice = later != nil ? .pending : form["choice"].flatMap(CheckoutSessions.Choice.init(rawValue:))
        else {
            let choices = CheckoutSessions.Choice.allCases.map(\.rawValue).joined(separator: ", ")
            return Self.refusedPage(400, title: "Refused", "choose one of: \(choices)")
        }
        if session.isFree, choice != .pay, !choice.leaves {
            return Self.refusedPage(400, title: "Refused", Self.freeChoices)
        }
        if let later, now > SandboxClock.latest - later.after {
            return Self.refusedPage(
                400, title: "Refused",
                "the payment would resolve past the end of 9999, where the clock stops; choose fewer minutes")
        }
        let method = form["paymentMethod"] ?? ""
        guard method.utf8.count <= Self.paymentMethodLimit else {
            return Self.refusedPage(
                400, title: "Refused", "paymentMethod is longer than \(Self.paymentMethodLimit) bytes")
        }
        // The V2 events' device is the player's browser, when its User-Agent names one.
        let device = request.header("user-agent").flatMap(OrderDevice.init(userAgent:))
        let chosen = apply(choice, paymentMethod: method, to: session, device: device)
        // A form sent twice schedules nothing the second time.
        if let later, session.state == .created, chosen.state == .paymentPending {
            _ = schedule(purchaseId: chosen.purchaseId, succeeded: later.succeeded, after: later.after)
        }
        return HTTPServerResponse(
            status: 303, contentType: "text/plain", headers: [HTTPHeader("Location", "/checkout/\(token)")],
            body: Array("See /checkout/\(token)\n".utf8))
    }

    /// Applies the player's choice, made on `device` when known; returns the session as it
    /// then stands.
    func apply(
        _ choice: CheckoutSessions.Choice, paymentMethod: String, to session: CheckoutSessions.Session,
        device: OrderDevice? = nil
    ) -> CheckoutSessions.Session {
        let (chosen, events) = sessions.choose(
            choice, paymentMethod: paymentMethod, for: session, now: now, device: device)
        report(events)
        // A payment's award may have been decided at once.
        return live(token: chosen.token) ?? chosen
    }

    /// Why a free order refuses a decline or a pending payment.
    static let freeChoices =
        "the session is free (priced 0): it has no payment to decline or leave pending; choose pay to collect it, "
        + "or close or cancel"

    /// The longest payment method a player's choice names, in bytes.
    static let paymentMethodLimit = 64

    /// The session's state, as the control API reads it, written later from the session
    /// as it stands now.
    func state(purchaseId: String) -> HTTPAnswer {
        guard let session = live(purchaseId: purchaseId) else {
            return .ready(noSession(purchaseId))
        }
        return Self.stateAnswer(session)
    }

    /// `{"choice": ..., "paymentMethod": ...}`: the player's choice made by a script, the
    /// session as it then stands; what was wrong first, then the shape, when refused. With
    /// `"choice": "pending"`, `"resolve": {"outcome": "succeeded" | "failed", "after": "PT5M"}`
    /// schedules the pending payment's resolution on the sandbox's clock.
    func complete(purchaseId: String, _ request: HTTPRequest) -> HTTPAnswer {
        guard let session = live(purchaseId: purchaseId) else {
            return .ready(noSession(purchaseId))
        }
        let names = CheckoutSessions.Choice.allCases.map(\.rawValue)
        let choices = names.joined(separator: ", ")
        let shape = "send {\"choice\": \"...\"} with one of: \(choices)"
        let read = Self.jsonObject(request)
        guard case .success(let members) = read else { return .ready(read.refusal(shape)) }
        // What is wrong first, quoted as sent, then the shape.
        let known = ["choice", "paymentMethod", "resolve", "device"]
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            return .ready(
                Sandbox.problem(
                    400,
                    "'\(Reports.quoted(unknown.key))' is not a field of complete; it takes "
                        + known.joined(separator: ", ") + Self.meant(unknown.key, among: known)))
        }
        guard let choiceValue = members.first(where: { $0.key == "choice" })?.value else {
            return .ready(Sandbox.problem(400, "choice is missing; \(shape)"))
        }
        guard case .string(let choiceText) = choiceValue.kind else {
            return .ready(Sandbox.problem(400, "choice must be a string, not \(choiceValue.typeDescription); \(shape)"))
        }
        guard let choice = CheckoutSessions.Choice(rawValue: choiceText) else {
            // The choices once: the shape without them.
            return .ready(
                Sandbox.problem(
                    400,
                    "choice '\(Reports.quoted(choiceText))' is not one of \(choices)"
                        + Self.meant(choiceText, among: names) + "; send {\"choice\": \"...\"}"))
        }
        var method = PlayerAction.defaultPaymentMethod
        if let methodValue = members.first(where: { $0.key == "paymentMethod" })?.value {
            guard case .string(let text) = methodValue.kind, (1...Self.paymentMethodLimit).contains(text.utf8.count)
            else {
                return .ready(
                    Sandbox.problem(
                        400,
                        "paymentMethod must be a non-empty string of at most \(Self.paymentMethodLimit) bytes, such as \"Visa\""
                    ))
            }
            method = text
        }
        // The device the V2 events name, as --device writes it: a preset or KEY=VALUE,...
        var device: OrderDevice?
        if let deviceValue = members.first(where: { $0.key == "device" })?.value {
            guard case .string(let text) = deviceValue.kind else {
                return .ready(
                    Sandbox.problem(400, "device must be a string, such as \"ios\" or \"osType=iOS,osVersion=18.0\""))
            }
            do throws(OrderDevice.Problem) {
                device = try OrderDevice.parse(text)
            } catch {
                return .ready(Sandbox.problem(400, "device \(error.reason)"))
            }
        }
        var later: (succeeded: Bool, after: Int)?
        if let resolveValue = members.first(where: { $0.key == "resolve" })?.value {
            switch Self.laterResolution(resolveValue, choice: choice) {
            case .success(let resolution): later = resolution
            case .failure(let problem): return .ready(Sandbox.problem(400, problem.message))
            }
            let (at, overflow) = now.addingReportingOverflow(later?.after ?? 0)
            guard !overflow, at <= SandboxClock.latest else {
                return .ready(Sandbox.problem(400, "resolve.after goes past the end of 9999, where the clock stops"))
            }
        }
        guard session.state == .created else {
            return .ready(Sandbox.problem(409, "the session is already \(session.state.rawValue); create a new one"))
        }
        if session.isFree, choice != .pay, !choice.leaves {
            return .ready(Sandbox.problem(409, Self.freeChoices))
        }
        let finished = apply(choice, paymentMethod: method, to: session, device: device)
        if let later, finished.state == .paymentPending,
            let scheduled = schedule(purchaseId: finished.purchaseId, succeeded: later.succeeded, after: later.after)
        {
            return Self.stateAnswer(scheduled)
        }
        return Self.stateAnswer(finished)
    }

    /// `status` with the session's state as its body, written later from `session`, a copy
    /// of the session as it stood when asked: a customer id or an offer can be megabytes.
    static func stateAnswer(_ session: CheckoutSessions.Session, status: Int = 200) -> HTTPAnswer {
        .later(HTTPServerResponse(status: status, body: [])) { stateJSON(session) }
    }

    /// The session as the control API shows it.
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
        if let resolution = session.resolution {
            writer.key("resolution")
            writer.openObject()
            writer.field("outcome", resolution.outcome)
            writer.field("at", ClockText.iso8601(milliseconds: resolution.at))
            writer.closeObject()
        }
        if session.resolvedLate { writer.field("resolvedLate", true) }
        if let redirect = session.redirect { writer.field("redirect", redirect) }
        if !session.warnings.isEmpty {
            writer.key("warnings")
            writer.openArray()
            for warning in session.warnings { writer.string(warning) }
            writer.closeArray()
        }
        writer.closeObject()
        return writer.bytes
    }
}
