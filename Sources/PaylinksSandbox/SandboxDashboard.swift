import PaylinksAppcharge
import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// The dashboard: the list of orders, an order's page, and its forms, each of which
/// comes back to the page with what it came to.
extension Sandbox {
    /// The notice the link of `request` names by its token, when the sandbox made it for
    /// the page of `purchaseId` (nil: the dashboard's home) less than ``noticeLife`` ago: the
    /// page shows it on every visit, its reloads included, until then, and the sandbox then
    /// forgets it. A page shows only what the sandbox said of it, never text a link
    /// carries; a token guessed, past its time or made for another page shows nothing.
    func notice(named request: HTTPRequest, purchaseId: String?) -> Notice? {
        let now = Deadline.nowMilliseconds()
        notices.removeAll { now - $0.made >= Self.noticeLife }
        guard let token = Self.form(Array(request.query.utf8))["said"] else { return nil }
        return notices.last { $0.token == token && $0.purchaseId == purchaseId }
    }

    /// An order's page: its timeline, its deliveries and its forms, with the notice its
    /// link names; 404 without a live session.
    func orderPage(purchaseId: String, _ request: HTTPRequest) -> HTTPAnswer {
        guard let session = live(purchaseId: purchaseId) else {
            return .ready(
                HTTPServerResponse(
                    status: 404, contentType: "text/html; charset=utf-8",
                    body: Array(SandboxPage.missingOrder(purchaseId).utf8)))
        }
        let said = notice(named: request, purchaseId: purchaseId)
        let (newest, more) = history.page(.init(purchaseId: purchaseId), limit: SandboxPage.orderDeliveries)
        let page = SandboxPage.OrderPage(
            session: session, deliveries: newest.reversed(), moreDeliveries: more != nil, catalog: catalog,
            formToken: settings.formToken, said: said?.text, problem: said?.problem ?? false,
            retryRefusal: retryRefusal(session))
        return Self.later(contentType: Self.html) {
            Array(SandboxPage.order(page, shown: Self.shown).utf8)
        }
    }

    /// A form of an order's page: refund, dispute, Retry Award or resolve, then back to the page
    /// with what it came to; the 404 page at once for an order the sandbox does not hold,
    /// and for a form an order's page does not have.
    func orderForm(purchaseId: String, action: String, _ request: HTTPRequest) -> HTTPServerResponse {
        guard let session = live(purchaseId: purchaseId) else {
            return HTTPServerResponse(
                status: 404, contentType: Self.html, body: Array(SandboxPage.missingOrder(purchaseId).utf8))
        }
        let form = Self.form(request.body)
        let answer: HTTPAnswer
        switch action {
        case "refund":
            var amount: Int?
            // A number pasted with spaces around it is still that number.
            let typed = Self.trimmed(form["amount"] ?? "")
            if !typed.isEmpty {
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
            answer = control(
                purchaseId: purchaseId,
                (session.life ?? OrderLife(state: session.state, price: session.price)).dispute(to: goal))
        case "retry-award":
            answer = retryAward(purchaseId: purchaseId)
        case "resolve":
            return resolveForm(purchaseId: purchaseId, form)
        default:
            return Self.refusedPage(
                404, title: "No such form",
                "Nothing at \(request.path): an order's page has refund, dispute, retry-award and resolve.")
        }
        guard (200..<300).contains(answer.status) else {
            return back(to: purchaseId, Self.problemText(answer.response), problem: true)
        }
        let state = live(purchaseId: purchaseId)?.state.rawValue ?? ""
        return back(to: purchaseId, action == "retry-award" ? "Retry Award sent" : "done: the order is \(state)")
    }

    /// The form that sends a delivery again from its order's page, then back to the page.
    func replayForm(id: String, _ request: HTTPRequest) -> HTTPServerResponse {
        guard let delivery = history.delivery(id: id) else {
            return Self.refusedPage(404, title: "No such delivery", "No delivery has the id '\(Self.quoted(id))'.")
        }
        let resign = Self.form(request.body)["resign"] != "false"
        guard onReplay != nil else {
            return back(
                to: delivery.purchaseId, "nowhere to send it: start serve with --award-url or --events-url",
                problem: true)
        }
        sendAgain(delivery, resign: resign)
        return back(to: delivery.purchaseId, "\(delivery.id) sent again \(resign ? "newly signed" : "exactly")")
    }

    /// What a form of an order's page came to: the page the form comes back to shows it
    /// for a minute, named in the link by a token the sandbox drew for it.
    struct Notice {
        /// `said=` of the link: 128 bits from the system's random source, in hex, as the
        /// form token is drawn, so that no link can name a notice it was not given.
        let token: String
        /// The order whose page shows it, nil for the dashboard's home; any other shows nothing.
        let purchaseId: String?
        /// What it says.
        let text: String
        /// Whether it says why the form was refused.
        let problem: Bool
        /// When it was made, in milliseconds of the monotonic clock: a virtual clock that
        /// stands still would keep it for ever.
        var made: Int
    }

    /// Notices kept at most; a link to an older one shows nothing.
    static let noticeLimit = 100
    /// How long a notice shows on its page, in milliseconds: long enough to be read
    /// across the page's reloads.
    static let noticeLife = 60_000

    /// 303 to the order's page, which shows `said` (as a refusal with `problem`): the link
    /// carries the token of a notice the sandbox keeps, not the words, so that no link
    /// of another site can make the page say what it likes.
    func back(to purchaseId: String, _ said: String, problem: Bool = false) -> HTTPServerResponse {
        redirect(to: "/orders/\(Self.percentEncoded(purchaseId))", purchaseId: purchaseId, said, problem: problem)
    }

    /// 303 to the dashboard's home, which shows `said` (as a refusal with `problem`), as
    /// ``back(to:_:problem:)`` does for an order's page.
    func backHome(_ said: String, problem: Bool = false) -> HTTPServerResponse {
        redirect(to: "/", purchaseId: nil, said, problem: problem)
    }

    /// 303 to `path`, the page of `purchaseId` (nil: the dashboard's home), which shows
    /// `said` by the token of the notice kept for it.
    private func redirect(to path: String, purchaseId: String?, _ said: String, problem: Bool) -> HTTPServerResponse {
        let token = Self.newFormToken()
        notices.append(
            Notice(
                token: token, purchaseId: purchaseId, text: said, problem: problem, made: Deadline.nowMilliseconds()))
        if notices.count > Self.noticeLimit { notices.removeFirst() }
        let location = "\(path)?said=\(token)"
        return HTTPServerResponse(
            status: 303, contentType: "text/plain", headers: [HTTPHeader("Location", location)],
            body: Array("See \(location)\n".utf8))
    }
}
