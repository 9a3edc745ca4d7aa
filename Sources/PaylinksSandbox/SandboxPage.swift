import PaylinksAppcharge
import PaylinksHTTP
import PaylinksKit

/// The sandbox's pages: plain HTML and CSS, usable without JavaScript, every value that
/// came from a request escaped.
enum SandboxPage {
    /// The payment methods a tester can pick.
    static let paymentMethods = ["Visa", "Mastercard", "American Express", "PayPal", "Apple Pay", "Google Pay"]

    /// Text as HTML: `&`, `<`, `>`, `"` and `'` escaped.
    static let escaped = TextEscaping(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"])

    private static func document(title: String, wide: Bool = false, _ body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escaped(title)) · paylinks sandbox</title>
        <style>
        body { font-family: system-ui, sans-serif; background: #f4f5f7; color: #1d2330; margin: 0; }
        main { max-width: 28rem; margin: 2rem auto; background: #fff; border-radius: 12px; padding: 1.5rem 2rem;
               box-shadow: 0 2px 12px rgba(0,0,0,.08); }
        h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
        .price { font-size: 2rem; font-weight: 700; margin: .5rem 0 1rem; }
        .note { color: #5b6475; font-size: .9rem; line-height: 1.7; }
        ul.items { padding-left: 1.2rem; }
        fieldset { border: 1px solid #d8dce3; border-radius: 8px; margin: 1rem 0; }
        label { display: block; padding: .2rem 0; }
        button { display: block; width: 100%; margin: .5rem 0; padding: .7rem; border-radius: 8px; border: 1px solid #c4cad4;
                 background: #fff; font-size: 1rem; cursor: pointer; }
        button.pay { background: #1f6feb; color: #fff; border-color: #1f6feb; font-weight: 600; }
        .state { font-family: ui-monospace, monospace; background: #eef1f5; padding: .1rem .4rem; border-radius: 4px; }
        main.wide { max-width: 72rem; padding: 1rem 1.25rem; margin: 1rem auto; }
        table { border-collapse: collapse; width: 100%; font-size: .92rem; }
        th, td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid #e3e6eb; vertical-align: top; }
        th { color: #5b6475; font-weight: 600; }
        td.id, .mono { font-family: ui-monospace, monospace; font-size: .85rem; overflow-wrap: anywhere; }
        .said { background: #eef6ee; border: 1px solid #b9dcb9; padding: .5rem .75rem; border-radius: 8px; }
        .said.problem { background: #fbeeee; border-color: #e5b8b8; }
        .actions { display: flex; flex-wrap: wrap; gap: .75rem; }
        .actions form { border: 1px solid #d8dce3; border-radius: 8px; padding: .5rem .75rem; flex: 1 1 14rem; }
        .actions button, td button { display: inline-block; width: auto; margin: .25rem .25rem .25rem 0;
                                     padding: .35rem .7rem; font-size: .9rem; }
        ol.timeline { padding-left: 1.2rem; }
        ol.timeline form { display: inline; }
        ol.timeline button { display: inline-block; width: auto; margin: .2rem .3rem .2rem 0; padding: .25rem .6rem;
                             font-size: .85rem; }
        ol.timeline li { margin: .5rem 0; }
        details pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f7f9; padding: .5rem;
                      border-radius: 6px; font-size: .8rem; }
        .failed { color: #b42318; }
        @media (max-width: 640px) {
          table.orders thead { display: none; }
          table.orders tr { display: block; border-bottom: 1px solid #d8dce3; padding: .4rem 0; }
          table.orders td { display: block; border: none; padding: .1rem .25rem; }
        }
        </style>
        </head>
        <body>
        <main\(wide ? " class=\"wide\"" : "")>
        \(body)
        </main>
        </body>
        </html>

        """
    }

    /// The hidden field that carries the sandbox's form token: every form of its pages has
    /// it, or the sandbox refuses what the form sends.
    static func tokenField(_ sandbox: Sandbox) -> String {
        tokenField(sandbox.settings.formToken)
    }

    /// The hidden field of a form that carries `formToken`.
    static func tokenField(_ formToken: String) -> String {
        "<input type=\"hidden\" name=\"\(SandboxGuard.formTokenField)\" value=\"\(escaped(formToken))\">"
    }

    /// The price as the player's country shows it when the catalog knows the currency
    /// there, else in minor units with the currency code.
    static func price(_ session: CheckoutSessions.Session, catalog: Catalog) -> String {
        if let localization = catalog.localization(for: session.country),
            localization.data.currencyCode == session.currency
        {
            return PriceFormatter.format(session.price, as: localization.data)
        }
        return PriceFormatter.formatMinorUnits(session.price, currency: session.currency)
    }

    /// The checkout a tester uses: the offer, its items, the price, a payment method and
    /// the player's four choices.
    static func checkout(_ session: CheckoutSessions.Session, sandbox: Sandbox) -> String {
        let items =
            session.items.isEmpty
            ? ""
            : "<ul class=\"items\">"
                + session.items.map { "<li>\(escaped($0.name)) ×\(escaped($0.quantity))</li>" }.joined()
                + "</ul>"
        let methods = paymentMethods.enumerated().map { index, method in
            "<label><input type=\"radio\" name=\"paymentMethod\" value=\"\(escaped(method))\"\(index == 0 ? " checked" : "")> \(escaped(method))</label>"
        }.joined(separator: "\n")
        let choices = CheckoutSessions.Choice.allCases.map { choice in
            "<button type=\"submit\" name=\"choice\" value=\"\(choice.rawValue)\"\(choice == .pay ? " class=\"pay\"" : "")>\(choice.label)</button>"
        }.joined(separator: "\n")
        return document(
            title: session.offerName,
            """
            <p class="note">paylinks sandbox checkout · \(escaped(session.purchaseId))</p>
            <h1>\(escaped(session.offerName))</h1>
            \(items)
            <p class="price">\(escaped(price(session, catalog: sandbox.catalog)))</p>
            <p class="note">For \(escaped(session.customerId)) in \(escaped(session.country))</p>
            <form method="post" action="/checkout/\(escaped(session.token))">
            \(tokenField(sandbox))
            <fieldset>
            <legend>Payment method</legend>
            \(methods)
            </fieldset>
            \(choices)
            </form>
            """)
    }

    /// What the checkout shows once the player has chosen, or the session has ended.
    static func result(_ session: CheckoutSessions.Session) -> String {
        let (title, text): (String, String) =
            switch session.state {
            case .chargeSucceed: ("Payment complete", "The items were granted. You can return to the game.")
            case .chargePending, .paymentSucceed:
                ("Payment received", "The game's server is granting the items; refresh to see the result.")
            case .chargeFailed:
                ("Payment taken, items not granted", "The game's server refused the award on every attempt (3003).")
            case .paymentFailed: ("Card declined", "The payment failed (3003). Nothing was charged.")
            case .paymentPending: ("Payment pending", "The payment is still pending; the game sees 3004.")
            case .paymentCanceled: ("Checkout closed", "The checkout was closed or cancelled (3002).")
            case .created: ("Checkout", "")
            case .paymentRefundPending: ("Refund pending", "A refund of this payment is under way.")
            case .paymentRefunded: ("Refunded", "The payment was refunded to the player.")
            case .paymentRefundFailed: ("Refund failed", "A refund of this payment did not go through.")
            case .paymentDisputeOpen, .paymentDisputeEvidenceSubmitted:
                ("Payment disputed", "The player disputed this payment with the bank.")
            case .paymentDisputeWon: ("Dispute won", "The dispute was resolved for the studio: the payment stands.")
            case .paymentDisputeLost:
                ("Dispute lost", "The dispute was resolved for the player: the payment was taken back.")
            }
        return document(
            title: title,
            """
            <h1>\(escaped(title))</h1>
            <p>\(escaped(text))</p>
            <p class="note">\(escaped(session.offerName)) · \(escaped(session.purchaseId)) · state <span class="state">\(session.state.rawValue)</span></p>
            """)
    }

    /// A checkout URL whose session does not exist.
    static func missing(_ token: String) -> String {
        document(
            title: "No such checkout",
            """
            <h1>No such checkout</h1>
            <p>No checkout session has the token <span class="state">\(escaped(String(token.prefix(80))))</span>.
            Create one with POST /checkout/v1/session.</p>
            """)
    }

    /// A request the sandbox refuses, as a page: `title` and `html`, which is HTML already.
    static func refused(title: String, _ html: String) -> String {
        document(
            title: title,
            """
            <h1>\(escaped(title))</h1>
            <p>\(html)</p>
            """)
    }

    /// The dashboard: the `newest` orders, newest first, each a link to its page, with how
    /// many sessions and deliveries the sandbox holds, and what it serves.
    static func home(
        _ newest: [CheckoutSessions.Session], counts: (sessions: Int, deliveries: Int), catalog: Catalog
    ) -> String {
        let rows = newest.map { session in
            """
            <tr><td class="id"><a href="/orders/\(escaped(session.purchaseId))">\(escaped(shortened(session.purchaseId)))</a></td>\
            <td>\(escaped(shortened(session.offerName)))</td><td>\(escaped(price(session, catalog: catalog)))</td>\
            <td>\(escaped(shortened(session.customerId)))</td><td><span class="state">\(session.state.rawValue)</span></td>\
            <td class="mono">\(UTCDate.format(unixSeconds: session.created / 1000))</td></tr>
            """
        }.joined(separator: "\n")
        let count = counts.sessions == 1 ? "1 checkout session" : "\(counts.sessions) checkout sessions"
        let shown = counts.sessions > dashboardRows ? "; the newest \(dashboardRows) shown" : ""
        return document(
            title: "Sandbox",
            wide: true,
            """
            <h1>paylinks sandbox</h1>
            <p class="note">\(count)\(shown) · \(counts.deliveries) deliveries to the game's server</p>
            <table class="orders">
            <thead><tr><th>Purchase</th><th>Offer</th><th>Price</th><th>Player</th><th>State</th><th>Created</th></tr></thead>
            <tbody>
            \(rows.isEmpty ? "<tr><td colspan=\"6\">No sessions yet: POST /checkout/v1/session creates one.</td></tr>" : rows)
            </tbody>
            </table>
            <details><summary>What the sandbox serves</summary>
            <ul class="note">
            <li>POST /checkout/v1/session (x-publisher-token)</li>
            <li>POST /checkout/v3/cancel (Authorization: Bearer)</li>
            <li>GET /checkout/TOKEN: the checkout page</li>
            <li>GET /control/v1/sessions/PURCHASE_ID: a session's state</li>
            <li>POST /control/v1/sessions/PURCHASE_ID/complete {"choice": "pay"}</li>
            <li>POST /control/v1/sessions/PURCHASE_ID/refund, /dispute, /retry-award</li>
            <li>GET /control/v1/deliveries; POST /control/v1/deliveries/ID/replay</li>
            <li>POST /reporting/reports/orders; GET /reporting/financial-data/transactions</li>
            </ul>
            </details>
            """)
    }

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
                        ?? "the player closed the checkout"
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

extension CheckoutSessions.Choice {
    /// What the page's button says.
    var label: String {
        switch self {
        case .pay: "Pay"
        case .decline: "Card declined"
        case .pending: "Leave the payment pending"
        case .close: "Close the checkout"
        }
    }
}
