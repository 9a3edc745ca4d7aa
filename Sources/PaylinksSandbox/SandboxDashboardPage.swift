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
        /// Why Retry Award is refused now, nil when it may be sent.
        var retryRefusal: String?
    }

    /// A moment of an order's timeline: when (Unix milliseconds, nil when the sandbox does
    /// not know), and what, in HTML.
    private struct Moment {
        var at: Int?
        var html: String
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
        var moments = [Moment(at: session.created, html: "session created " + statePill(.created))]
        moments += choice(session)
        let awards = page.deliveries.filter { $0.kind == .award && $0.replayOf == nil && $0.nextAttemptAt == nil }
        if awards.isEmpty, let outcome = awardOutcome(session) {
            moments.append(Moment(at: session.date > 0 ? session.date * 1000 : nil, html: outcome))
        }
        for (index, transition) in (session.life?.transitions ?? []).enumerated() {
            let at = index < session.lifeTimes.count ? session.lifeTimes[index] : session.date * 1000
            let refund = refundAmount(transition.action, session)
            moments.append(
                Moment(
                    at: at,
                    html: "\(escaped(transition.action.phrase(session.currency))): "
                        + statePill(transition.to, partialRefund: refund)))
        }
        for delivery in page.deliveries {
            let sent = delivery.attempts.first?.sentAt ?? 0
            moments.append(Moment(at: sent, html: deliveryHTML(shown(delivery), token: token)))
            guard delivery.kind == .award, delivery.replayOf == nil, delivery.nextAttemptAt == nil,
                let last = delivery.attempts.last
            else { continue }
            let manual = isManualRetry(delivery)
            moments.append(
                Moment(
                    at: last.sentAt + last.milliseconds,
                    html: delivery.succeeded
                        ? (manual ? "award granted on a manual retry: " : "award granted: ")
                            + statePill(.chargeSucceed)
                        : (manual ? "the manual retry failed on every attempt: " : "every award attempt failed: ")
                            + statePill(.chargeFailed)))
        }
        // A moment whose time is not known keeps its place after the session's creation.
        let timeline = moments.enumerated().sorted {
            ($0.element.at ?? session.created, $0.offset) < ($1.element.at ?? session.created, $1.offset)
        }
        .map { moment in
            let time = moment.element.at.flatMap { $0 > 0 ? UTCDate.format(unixSeconds: $0 / 1000) : nil }
            return "<li><span class=\"mono when\">\(time ?? "")</span> \(moment.element.html)</li>"
        }.joined(separator: "\n")
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

    /// The amount of a refund `action` asked for, when it is a part of the order's price,
    /// worded as the price is; nil otherwise.
    private static func refundAmount(_ action: OrderLife.Action, _ session: CheckoutSessions.Session) -> String? {
        guard case .requestRefund(let amount?) = action, amount < session.price else { return nil }
        return PriceFormatter.formatMinorUnits(amount, currency: session.currency)
    }

    /// What the player chose, in words, with the state it led to; a payment left pending
    /// and resolved later is two moments. Nothing while the checkout is open.
    private static func choice(_ session: CheckoutSessions.Session) -> [Moment] {
        let at = session.date > 0 ? session.date * 1000 : nil
        let method = session.shownPaymentMethod.map { " with \(escaped($0))" } ?? ""
        if session.resolvedLate {
            let left = Moment(at: nil, html: "the payment was left pending\(method) " + statePill(.paymentPending))
            let resolved =
                session.state == .paymentFailed
                ? "the pending payment was declined: " + statePill(.paymentFailed)
                : "the pending payment was approved: " + statePill(.chargePending)
            return [left, Moment(at: at, html: resolved)]
        }
        switch session.state {
        case .created: return []
        case .paymentCanceled:
            return [
                Moment(
                    at: at,
                    html: (at == nil
                        ? "the checkout was canceled or expired before the player chose: "
                        : "the player closed the checkout: ") + statePill(.paymentCanceled))
            ]
        case .paymentFailed:
            let words = "the player declined: the payment\(method) failed "
            return [Moment(at: at, html: words + statePill(.paymentFailed))]
        case .paymentPending:
            let planned = session.resolution.map { " " + escaped(scheduled($0)) } ?? ""
            return [
                Moment(at: at, html: "the payment was left pending\(method) " + statePill(.paymentPending) + planned)
            ]
        default:
            let words =
                session.isFree ? "the player collected the free order" : "the player paid\(method)"
            return [Moment(at: at, html: "\(words): the award is sent " + statePill(.chargePending))]
        }
    }

    /// The award's outcome as the order holds it, for a timeline without its delivery:
    /// granted or failed on every attempt; nil while the award is under way.
    private static func awardOutcome(_ session: CheckoutSessions.Session) -> String? {
        guard let life = session.life else { return nil }
        switch life.transitions.first?.from ?? life.state {
        case .chargeSucceed: return "award granted: " + statePill(.chargeSucceed)
        case .chargeFailed: return "every award attempt failed: " + statePill(.chargeFailed)
        default: return nil
        }
    }

    /// Whether `delivery` is an award sent by Retry Award: its body's `awardFlow` is
    /// `manual_retry`.
    private static func isManualRetry(_ delivery: DeliveryHistory.Delivery) -> Bool {
        guard delivery.kind == .award, case .object(let members)? = try? JSONParser.parse(delivery.body).kind,
            case .string(let flow)? = members.first(where: { $0.key == "awardFlow" })?.value.kind
        else { return false }
        return flow == "manual_retry"
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

    /// A body as a timeline shows it: JSON indented by two spaces, its members in their
    /// order and its numbers as written, anything else as it came; its first ``bodyLimit``
    /// bytes, and where the rest is.
    private static func shownBody(_ body: [UInt8], of delivery: DeliveryHistory.Delivery) -> String {
        let text = body.count <= bodyLimit ? pretty(body).map { Array($0.utf8) } ?? body : body
        guard text.count > bodyLimit else { return String(decoding: text, as: UTF8.self) }
        // Cut at a character's edge: no continuation byte starts what is left out.
        var end = bodyLimit
        while end > 0 && text[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: text[..<end], as: UTF8.self)
            + "\n… \(text.count - end) bytes more: GET /control/v1/deliveries/\(delivery.id) has them all"
    }

    /// `body` indented by two spaces a level, when it is JSON: its members in their order,
    /// its numbers as written; nil when it is not JSON.
    static func pretty(_ body: [UInt8]) -> String? {
        guard let value = try? JSONParser.parse(body) else { return nil }
        var text = ""
        write(value, indent: "", to: &text)
        return text
    }

    /// Writes `value` indented, its nested lines starting with `indent` and two spaces more.
    private static func write(_ value: JSONValue, indent: String, to text: inout String) {
        let inner = indent + "  "
        switch value.kind {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number): text += number
        case .string(let string): JSONWriter.appendQuoted(string, to: &text)
        case .array(let items):
            guard !items.isEmpty else { return text += "[]" }
            text += "[\n"
            for (index, item) in items.enumerated() {
                text += inner
                write(item, indent: inner, to: &text)
                text += index < items.count - 1 ? ",\n" : "\n"
            }
            text += indent + "]"
        case .object(let members):
            guard !members.isEmpty else { return text += "{}" }
            text += "{\n"
            for (index, member) in members.enumerated() {
                text += inner
                JSONWriter.appendQuoted(member.key, to: &text)
                text += ": "
                write(member.value, indent: inner, to: &text)
                text += index < members.count - 1 ? ",\n" : "\n"
            }
            text += indent + "}"
        }
    }

    /// A delivery in a timeline: what and where, how each attempt went, the request and
    /// the answer, and the forms that replay it, each with `token`, the form token's field.
    private static func deliveryHTML(_ delivery: DeliveryHistory.Delivery, token: String) -> String {
        let replay =
            (delivery.replayOf.map {
                " (replay of dl_\($0)\(delivery.resigned == true ? ", newly signed" : ", exactly"))"
            } ?? "") + (isManualRetry(delivery) ? " (manual retry)" : "")
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
    /// The action as a timeline says it, an amount in `currency`'s minor units worded as
    /// a price.
    func phrase(_ currency: String) -> String {
        switch self {
        case .requestRefund(let amount?):
            "refund of \(PriceFormatter.formatMinorUnits(amount, currency: currency)) asked for"
        case .requestRefund(nil): "refund asked for"
        case .processRefund(let succeeded): succeeded ? "refund processed" : "refund failed: declined by the bank"
        case .openDispute: "dispute opened"
        case .submitEvidence: "evidence submitted"
        case .resolveDispute(let won): won ? "dispute won" : "dispute lost"
        }
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
