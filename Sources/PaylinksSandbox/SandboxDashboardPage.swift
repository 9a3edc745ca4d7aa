import PaylinksAppcharge
import PaylinksKit

/// An order's page: its timeline and its forms.
extension SandboxPage {
    /// The order page's own rules of the style sheet.
    static let orderStyle = ""

    /// How many blocked players the dashboard lists.
    static let blockedShown = 20
    /// How many orders the dashboard lists.
    static let dashboardRows = 200
    /// How many of an order's deliveries its page shows, the newest.
    static let orderDeliveries = 100
    /// The most characters of a name a listing shows: a page of 200 rows stays small
    /// however long the names its sessions were given.
    static let nameLimit = 120
    /// The most bytes of a request's or an answer's body a timeline shows.
    static let bodyLimit = 16 << 10

    /// `text` as a listing shows it: at most ``nameLimit`` characters, and `…` when cut.
    static func shortened(_ text: String, to limit: Int = nameLimit) -> String {
        guard text.utf8.count > limit else { return text }
        let kept = text.unicodeScalars.prefix(limit)
        return String(String.UnicodeScalarView(kept)) + "…"
    }

    /// What an order's page shows, as the sandbox held it when the page was asked for.
    struct OrderPage: Sendable {
        /// The order's session.
        var session: CheckoutSessions.Session
        /// Its newest deliveries, oldest first.
        var deliveries: [DeliveryHistory.Delivery]
        /// Whether it has older deliveries than those.
        var moreDeliveries: Bool
        /// Words the price.
        var catalog: Catalog
        /// The forms' token.
        var formToken: String
        /// What the last action came to, and whether it was refused.
        var said: String?
        var problem: Bool
    }

    /// One order's page: what it is, its timeline (states, award attempts and events, each
    /// with its request and answer, as `shown` shows a delivery) and its actions as forms.
    static func order(
        _ page: OrderPage, shown: (DeliveryHistory.Delivery) -> DeliveryHistory.Delivery
    ) -> String {
        let session = page.session
        let id = escaped(session.purchaseId)
        var moments: [(at: Int, html: String)] = [
            (session.created, "session created (<span class=\"state\">created</span>)")
        ]
        if session.date > 0 {
            moments.append(
                (
                    session.date * 1000,
                    session.shownPaymentMethod.map { "the player chose, with \(escaped($0))" }
                        ?? (session.isFree && session.hasOrder
                            ? "the player collected the free order" : "the player closed the checkout")
                ))
        }
        for (index, transition) in (session.life?.transitions ?? []).enumerated() {
            let at = index < session.lifeTimes.count ? session.lifeTimes[index] : session.date * 1000
            moments.append(
                (at, "\(escaped(transition.action.phrase)): <span class=\"state\">\(transition.to.rawValue)</span>"))
        }
        let token = tokenField(page.formToken)
        for delivery in page.deliveries {
            moments.append((delivery.attempts.first?.sentAt ?? 0, deliveryHTML(shown(delivery), token: token)))
        }
        let timeline = moments.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map {
            "<li><span class=\"mono\">\($0.element.at > 0 ? UTCDate.format(unixSeconds: $0.element.at / 1000) : "")</span> \($0.element.html)</li>"
        }.joined(separator: "\n")
        let banner = page.said.map { "<p class=\"said\(page.problem ? " problem" : "")\">\(escaped($0))</p>" } ?? ""
        let older =
            page.moreDeliveries
            ? "<p class=\"note\">The newest \(orderDeliveries) deliveries are shown; GET "
                + "/control/v1/deliveries?purchaseId=\(escaped(session.purchaseId)) lists them all.</p>" : ""
        return document(
            title: session.purchaseId,
            wide: true,
            """
            <p class="note"><a href="/">All orders</a></p>
            <h1>\(escaped(shortened(session.offerName, to: 4 * nameLimit))) · <span class="mono">\(id)</span></h1>
            \(banner)
            <p>\(escaped(price(session, catalog: page.catalog))) · \(escaped(shortened(session.customerId))) in \(escaped(session.country)) · \
            \(session.shownOrderId.map { "order <span class=\"mono\">\(escaped($0))</span>" } ?? "no order") · state <span class="state">\(session.state.rawValue)</span>\
            \(session.life?.refundAmount.map { " · refund \(escaped(PriceFormatter.formatMinorUnits($0, currency: session.currency)))" } ?? "")</p>
            \(session.warnings.map { "<p class=\"note\">warning: \(escaped($0))</p>\n" }.joined())\
            <h2>Actions</h2>
            <div class="actions">
            <form method="post" action="/orders/\(id)/refund">
            \(token)
            <strong>Refund</strong>
            <label>Amount, minor units (empty: all) <input name="amount" inputmode="numeric" size="8"></label>
            <button type="submit" name="outcome" value="refunded">Refund</button>
            <button type="submit" name="outcome" value="failed">Refund that fails</button>
            </form>
            <form method="post" action="/orders/\(id)/dispute">
            \(token)
            <strong>Dispute</strong><br>
            <button type="submit" name="outcome" value="open">Open</button>
            <button type="submit" name="outcome" value="won">Won</button>
            <button type="submit" name="outcome" value="lost">Lost</button>
            </form>
            <form method="post" action="/orders/\(id)/retry-award">
            \(token)
            <strong>Retry Award</strong>
            <p class="note">For a Failed (Charged) order: its award again, manual_retry.</p>
            <button type="submit">Retry Award</button>
            </form>
            \(resolveForms(session, token: token))
            </div>
            <h2>Timeline</h2>
            \(older)
            <ol class="timeline">
            \(timeline)
            </ol>
            """)
    }

    /// A body as a timeline shows it: its first ``bodyLimit`` bytes, and where the rest is.
    private static func shownBody(_ body: [UInt8], of delivery: DeliveryHistory.Delivery) -> String {
        guard body.count > bodyLimit else { return String(decoding: body, as: UTF8.self) }
        // Cut at a character's edge: no continuation byte starts what is left out.
        var end = bodyLimit
        while end > 0 && body[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: body[..<end], as: UTF8.self)
            + "\n… \(body.count - end) bytes more: GET /control/v1/deliveries/\(delivery.id) has them all"
    }

    /// A delivery in a timeline: what and where, how each attempt went, the request and
    /// the answer, and the forms that replay it, each with `token`, the form token's field.
    private static func deliveryHTML(_ delivery: DeliveryHistory.Delivery, token: String) -> String {
        let replay =
            delivery.replayOf.map {
                " (replay of dl_\($0)\(delivery.resigned == true ? ", newly signed" : ", exactly"))"
            } ?? ""
        let attempts = delivery.attempts.map { attempt in
            let outcome =
                attempt.succeeded
                ? "<span>\(attempt.status.map { String($0) } ?? "") in \(attempt.milliseconds) ms</span>"
                : "<span class=\"failed\">\(escaped(attempt.failure ?? ""))</span>"
            let request =
                attempt.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n\n"
                + shownBody(delivery.body, of: delivery)
            let response =
                attempt.status.map { status in
                    "\(status)\n" + attempt.responseHeaders.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
                        + "\n\n" + shownBody(attempt.responseBody, of: delivery)
                } ?? "no answer"
            return """
                <details><summary>attempt \(attempt.number): \(outcome)</summary>
                <pre>POST \(escaped(delivery.url))\n\(escaped(request))</pre><pre>\(escaped(response))</pre></details>
                """
        }.joined(separator: "\n")
        return """
            <strong>\(escaped(delivery.name))</strong> <span class="mono">\(delivery.id)</span>\(replay) \
            \(delivery.succeeded ? "delivered" : "<span class=\"failed\">not delivered</span>")
            <form method="post" action="/deliveries/\(delivery.id)/replay">
            \(token)
            <button type="submit" name="resign" value="true">Replay, newly signed</button>
            <button type="submit" name="resign" value="false">Replay exactly</button>
            </form>
            \(attempts)
            """
    }
}

extension OrderLife.Action {
    /// The action as a timeline says it.
    var phrase: String {
        switch self {
        case .requestRefund(let amount?): "refund of \(amount) asked for"
        case .requestRefund(nil): "refund asked for"
        case .processRefund(let succeeded): succeeded ? "refund processed" : "refund failed"
        case .openDispute: "dispute opened"
        case .submitEvidence: "evidence submitted"
        case .resolveDispute(let won): won ? "dispute won" : "dispute lost"
        }
    }
}
