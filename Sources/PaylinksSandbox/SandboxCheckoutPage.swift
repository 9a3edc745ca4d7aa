import PaylinksAppcharge
import PaylinksKit

/// The checkout page: what a tester pays on, and what it shows once the session ended.
extension SandboxPage {
    /// The checkout a tester uses: the offer, its items, the price as `catalog` shows it,
    /// a payment method and the player's five choices, in a form that carries `formToken`.
    /// A free order asks for no card: it is collected, canceled, or the checkout closed.
    static func checkout(_ session: CheckoutSessions.Session, catalog: Catalog, formToken: String) -> String {
        guard !session.isFree else { return collect(session, formToken: formToken) }
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
            \(items(session))
            <p class="price">\(escaped(price(session, catalog: catalog)))</p>
            <p class="note">For \(escaped(session.customerId)) in \(escaped(session.country))</p>
            <form method="post" action="/checkout/\(escaped(session.token))">
            \(tokenField(formToken))
            <fieldset>
            <legend>Payment method</legend>
            \(methods)
            </fieldset>
            \(choices)
            \(pendingThen)
            </form>
            """)
    }

    /// The checkout of a free order: the offer, its items, and Collect, Close or Cancel, in
    /// a form that carries `formToken`. Collect sends `pay`, as the control API takes it.
    static func collect(_ session: CheckoutSessions.Session, formToken: String) -> String {
        document(
            title: session.offerName,
            """
            <p class="note">paylinks sandbox checkout · \(escaped(session.purchaseId))</p>
            <h1>\(escaped(session.offerName))</h1>
            \(items(session))
            <p class="price">Free</p>
            <p class="note">For \(escaped(session.customerId)) in \(escaped(session.country)): a free order, granted as a bonus with no payment</p>
            <form method="post" action="/checkout/\(escaped(session.token))">
            \(tokenField(formToken))
            <button type="submit" name="choice" value="pay" class="pay">Collect</button>
            <button type="submit" name="choice" value="close">\(CheckoutSessions.Choice.close.label)</button>
            <button type="submit" name="choice" value="cancel">\(CheckoutSessions.Choice.cancel.label)</button>
            </form>
            """)
    }

    /// The offer's items as a list; nothing when it has none.
    private static func items(_ session: CheckoutSessions.Session) -> String {
        session.items.isEmpty
            ? ""
            : "<ul class=\"items\">"
                + session.items.map { "<li>\(escaped($0.name)) ×\(escaped($0.quantity))</li>" }.joined()
                + "</ul>"
    }

    /// What the checkout shows once the player has chosen, or the session has ended: while
    /// the order is still moving (its payment pending, its award under way) the page
    /// reloads itself until it shows the outcome.
    static func result(_ session: CheckoutSessions.Session) -> String {
        let (title, text): (String, String) =
            session.isFree ? freeResult(session) : paidResult(session)
        return document(
            title: title,
            refresh: isMoving(session.state),
            """
            <h1>\(escaped(title))</h1>
            <p>\(escaped(text))</p>
            <p class="note">\(escaped(session.offerName)) · <span class="mono">\(escaped(session.purchaseId))</span></p>
            <p>\(statePill(session.state))</p>
            """)
    }

    /// What the checkout of a session created with a `redirectUrl` shows while its order is
    /// still moving (its payment taken, its award under way): it reloads every second, and
    /// the checkout sends the browser back to the game once the order ended.
    static func finishing(_ session: CheckoutSessions.Session) -> String {
        document(
            title: "Finishing your purchase…",
            reloadEverySecond: true,
            """
            <h1>Finishing your purchase…</h1>
            <p>The game's server is granting the items; this page takes you back to the game when it is done.</p>
            <p class="note">\(escaped(session.offerName)) · <span class="mono">\(escaped(session.purchaseId))</span></p>
            <p>\(statePill(session.state))</p>
            """)
    }

    /// What Appcharge's legacy link, `/{checkoutSessionToken}?cot={CheckoutPublicKey}`,
    /// answers when `cot`, the key it carries, is missing or not the game's: the checkout
    /// does not load without it.
    static func legacyLinkRefused(_ session: CheckoutSessions.Session, cot: String?) -> String {
        let what =
            cot == nil
            ? "The link carries no <span class=\"mono\">cot</span>, the game's CheckoutPublicKey"
            : "The link's <span class=\"mono\">cot</span> is not the game's CheckoutPublicKey"
        return refused(
            title: "The checkout does not load",
            "\(what), and the checkout does not load without it. Open <span class=\"mono\">/\(escaped(session.token))"
                + "?cot=</span> followed by the key serve was started with (<span class=\"mono\">--checkout-public-key"
                + "</span>, else the demo key), or the checkout URL Create Checkout Session answered, "
                + "<a href=\"/checkout/\(escaped(session.token))\">/checkout/\(escaped(session.token))</a>.")
    }

    /// Whether an order in `state` is still on its way to an outcome the checkout shows.
    static func isMoving(_ state: OrderState) -> Bool {
        state == .paymentPending || state == .paymentSucceed || state == .chargePending
    }

    /// What the checkout of a free order says once it was collected or closed.
    private static func freeResult(_ session: CheckoutSessions.Session) -> (String, String) {
        switch session.state {
        case .chargeSucceed: ("Collected", "The items were granted. You can return to the game.")
        case .chargePending:
            ("Collecting", "The game's server is granting the items; this page shows the result when it comes.")
        case .chargeFailed: ("Items not granted", "The game's server refused the award on every attempt (3003).")
        default: paidResult(session)
        }
    }

    /// What the checkout says once the player has chosen, or the session has ended.
    private static func paidResult(_ session: CheckoutSessions.Session) -> (String, String) {
        switch session.state {
        case .chargeSucceed: ("Payment complete", "The items were granted. You can return to the game.")
        case .chargePending, .paymentSucceed:
            ("Payment received", "The game's server is granting the items; this page shows the result when it comes.")
        case .chargeFailed:
            ("Payment taken, items not granted", "The game's server refused the award on every attempt (3003).")
        case .paymentFailed: ("Card declined", "The payment failed (3003). Nothing was charged.")
        case .paymentPending:
            (
                "Payment pending",
                (session.redirectUrl == nil
                    ? "The payment is still pending; the game sees 3004."
                    : "The payment is still pending; the browser goes back to the game once it is resolved.")
                    + (session.resolution.map { " " + scheduled($0) } ?? "")
            )
        case .paymentCanceled:
            session.canceledByPlayer
                ? ("Purchase canceled", "The player canceled the purchase (3002).")
                : ("Checkout closed", "The checkout was closed or cancelled (3002).")
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
    }
}

extension CheckoutSessions.Choice {
    /// What the page's button says.
    var label: String {
        switch self {
        case .pay: "Pay"
        case .decline: "Card declined"
        case .pending: "Leave the payment pending"
        case .close: "Close the window"
        case .cancel: "Cancel purchase"
        }
    }
}
