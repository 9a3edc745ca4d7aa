import PaylinksAppcharge
import PaylinksJSON
import PaylinksKit

/// An order's page: its timeline and its forms.
extension SandboxPage {
    /// The order page's own rules of the style sheet: long ids and addresses wrap, a
    /// refused action reads as a line of its own, a disabled button looks it, and nothing
    /// is wider than a phone's window.
    static let orderStyle = """
        .order-page h1, .order-page .note, .order-page .order-facts, .order-page ol.timeline li {
          overflow-wrap: anywhere; }
        .order-page .order-facts { line-height: 1.9; }
        .order-page .actions p.refused { flex: 1 1 100%; margin: .25rem 0; }
        .order-page .actions form .note { margin: .25rem 0; line-height: 1.5; }
        .order-page .actions input { max-width: 100%; box-sizing: border-box; }
        .order-page button[disabled] { color: #4f5868; background: #eef1f5; border-style: dashed; cursor: not-allowed; }
        .order-page ol.timeline .when { color: #4f5868; margin-right: .25rem; }
        .order-page ol.timeline .pill { white-space: normal; }
        @media (max-width: 640px) {
          .order-page ol.timeline { padding-left: 1rem; }
          .order-page .actions form { flex-basis: 100%; }
        }

        """

    /// How many blocked players the dashboard lists.
    static let blockedShown = 20
    /// How many of an order's deliveries its page shows, the newest.
    static let orderDeliveries = 100
    /// The most characters of a name a listing shows: a page of 200 rows stays small
    /// however long the names its sessions were given.
    static let nameLimit = 120
    /// The most bytes of a request's or an answer's body a timeline shows.
    static let bodyLimit = 16 << 10

    /// `text` as a listing or a log line shows it: at most `limit` characters (Unicode
    /// scalars), ``nameLimit`` unless told, and `…` only when cut.
    static func shortened(_ text: String, to limit: Int = nameLimit) -> String {
        // No more bytes than the limit is no more characters either: kept without a count.
        guard text.utf8.count > limit, text.unicodeScalars.count > limit else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "…"
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
        /// Why Retry Award is refused now, nil when it may be sent.
        var retryRefusal: String?
    }

    /// One order's page: what it is, its actions as forms (only those its rules allow), and
    /// its timeline (states, the player's choice, award attempts and events, each with its
    /// request and answer, as `shown` shows a delivery). It reloads itself.
    static func order(
        _ page: OrderPage, shown: (DeliveryHistory.Delivery) -> DeliveryHistory.Delivery
    ) -> String {
        let session = page.session
        let id = escaped(session.purchaseId)
        let token = tokenField(page.formToken)
        let timeline = timeline(page, shown: shown, token: token)
        let banner = page.said.map { "<p class=\"said\(page.problem ? " problem" : "")\">\(escaped($0))</p>" } ?? ""
        let older =
            page.moreDeliveries
            ? "<p class=\"note\">The newest \(orderDeliveries) deliveries are shown; GET "
                + "/control/v1/deliveries?purchaseId=\(escaped(session.purchaseId)) lists them all.</p>" : ""
        let player =
            "<a href=\"/players/\(escaped(Sandbox.percentEncoded(session.customerId)))\">"
            + "\(escaped(shortened(session.customerId)))</a>"
        return document(
            title: session.purchaseId,
            wide: true,
            refresh: true,
            """
            <div class="order-page">
            <p class="note"><a href="/">All orders</a></p>
            <h1>\(escaped(shortened(session.offerName, to: 4 * nameLimit))) · <span class="mono">\(id)</span></h1>
            \(banner)
            <p class="order-facts">\(escaped(price(session, catalog: page.catalog))) · \(player) in \(escaped(session.country)) · \
            \(session.shownOrderId.map { "order <span class=\"mono\">\(escaped($0))</span>" } ?? "no order") · \
            \(statePill(session.state, partialRefund: partialRefund(session)))</p>
            \(session.warnings.map { "<p class=\"note\">warning: \(escaped($0))</p>\n" }.joined())\
            <h2>Actions</h2>
            <div class="actions">
            \(actions(page, token: token))
            \(resolveForms(session, token: token))
            </div>
            <h2>Timeline</h2>
            \(older)
            <ol class="timeline">
            \(timeline)
            </ol>
            </div>
            """)
    }

    /// Why the rules refuse `actions` taken in turn on `life`, or nil when they allow them:
    /// the rule the control API and the forms answer with.
    private static func refusal(_ life: OrderLife, _ actions: [OrderLife.Action]) -> OrderLife.Refusal? {
        var trial = life
        for action in actions {
            do throws(OrderLife.Refusal) {
                try trial.apply(action)
            } catch {
                return error
            }
        }
        return nil
    }

    /// Why an order with no life after its award (never paid, or its award under way) can be
    /// neither refunded nor disputed, in a sentence.
    private static func noMoney(_ session: CheckoutSessions.Session) -> String {
        switch session.state {
        case .paymentFailed: "Declined orders moved no money: nothing to refund or dispute"
        case .paymentCanceled: "The checkout was closed before any payment: nothing to refund or dispute"
        case .created: "The player has not paid: nothing to refund or dispute"
        case .paymentPending: "The payment is still pending: nothing to refund or dispute until it is paid"
        default: "The award is under way: a refund or a dispute waits for its outcome"
        }
    }

    /// A submit button of a form, disabled with `refusal` as its title when the rules refuse it.
    private static func button(_ label: String, name: String, value: String, refusal: String?) -> String {
        let refused = refusal.map { " disabled title=\"\(escaped($0))\"" } ?? ""
        return "<button type=\"submit\" name=\"\(name)\" value=\"\(value)\"\(refused)>\(escaped(label))</button>"
    }

    /// The order's refund, dispute and Retry Award forms, each with `token`: only what the
    /// order's rules allow; a form with nothing allowed is one line saying why.
    private static func actions(_ page: OrderPage, token: String) -> String {
        let session = page.session
        let id = escaped(session.purchaseId)
        var forms: [String] = []
        if let life = session.life, refusal(life, [.openDispute]) == .free {
            forms.append("<p class=\"note refused\">Free orders moved no money: nothing to refund or dispute</p>")
        } else if let life = session.life {
            if let refused = refusal(life, OrderLife.refund(amount: nil, succeeds: true)) {
                forms.append("<p class=\"note refused\"><strong>Refund</strong>: \(escaped(refused.message))</p>")
            } else {
                forms.append(
                    """
                    <form method="post" action="/orders/\(id)/refund">
                    \(token)
                    <strong>Refund</strong>
                    <label>Amount, minor units (empty: all) <input name="amount" inputmode="numeric" size="8"></label>
                    <button type="submit" name="outcome" value="refunded">Refund</button>
                    <button type="submit" name="outcome" value="failed">Refund, declined by the bank</button>
                    <p class="note">Declined by the bank: the refund is asked for and fails (payment_refund_failed).</p>
                    </form>
                    """)
            }
            let goals = OrderLife.DisputeGoal.allCases.map { ($0, refusal(life, life.dispute(to: $0))) }
            if goals.allSatisfy({ $0.1 != nil }), let refused = goals.first?.1 {
                forms.append("<p class=\"note refused\"><strong>Dispute</strong>: \(escaped(refused.message))</p>")
            } else {
                let buttons = goals.map { goal, refused in
                    button(goal.label, name: "outcome", value: goal.rawValue, refusal: refused?.message)
                }
                let why = goals.compactMap { goal, refused in
                    refused.map { "<p class=\"note\">\(goal.label): \(escaped($0.message))</p>" }
                }
                forms.append(
                    """
                    <form method="post" action="/orders/\(id)/dispute">
                    \(token)
                    <strong>Dispute</strong><br>
                    \(buttons.joined(separator: "\n"))
                    \(why.joined(separator: "\n"))
                    </form>
                    """)
            }
        } else {
            forms.append("<p class=\"note refused\">\(escaped(noMoney(session)))</p>")
        }
        if session.state == .chargeFailed {
            let why = page.retryRefusal.map { "<p class=\"note\">\(escaped($0))</p>" } ?? ""
            let disabled = page.retryRefusal.map { " disabled title=\"\(escaped($0))\"" } ?? ""
            forms.append(
                """
                <form method="post" action="/orders/\(id)/retry-award">
                \(token)
                <strong>Retry Award</strong>
                <p class="note">Every award attempt failed: send the award again (awardFlow manual_retry).</p>
                <button type="submit"\(disabled)>Retry Award</button>
                \(why)
                </form>
                """)
        }
        return forms.joined(separator: "\n")
    }

}

extension OrderLife.DisputeGoal {
    /// What the dispute form's button says.
    var label: String {
        switch self {
        case .open: "Open"
        case .won: "Won"
        case .lost: "Lost"
        }
    }
}
