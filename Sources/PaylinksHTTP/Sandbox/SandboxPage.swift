import PaylinksAppcharge
import PaylinksKit

/// The sandbox's pages: plain HTML and CSS, usable without JavaScript, every value that
/// came from a request escaped.
enum SandboxPage {
    /// The payment methods a tester can pick.
    static let paymentMethods = ["Visa", "Mastercard", "American Express", "PayPal", "Apple Pay", "Google Pay"]

    /// Text as HTML: `&`, `<`, `>`, `"` and `'` escaped.
    static let escaped = TextEscaping(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"])

    private static func document(title: String, _ body: String) -> String {
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
        </style>
        </head>
        <body>
        <main>
        \(body)
        </main>
        </body>
        </html>

        """
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

    /// The sandbox's front page: what it serves.
    static func home(_ sandbox: Sandbox) -> String {
        document(
            title: "Sandbox",
            """
            <h1>paylinks sandbox</h1>
            <p>\(sandbox.sessionCount == 1 ? "1 checkout session" : "\(sandbox.sessionCount) checkout sessions").</p>
            <ul>
            <li>POST /checkout/v1/session (x-publisher-token)</li>
            <li>POST /checkout/v3/cancel (Authorization: Bearer)</li>
            <li>GET /checkout/TOKEN: the checkout page</li>
            <li>GET /control/v1/sessions/PURCHASE_ID: a session's state</li>
            <li>POST /control/v1/sessions/PURCHASE_ID/complete {"choice": "pay"}</li>
            </ul>
            """)
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
