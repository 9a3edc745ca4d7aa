import PaylinksAppcharge
import PaylinksHTTP
import PaylinksKit

/// The sandbox's pages: plain HTML and CSS, usable without JavaScript, every value that
/// came from a request escaped.
enum SandboxPage {
    /// The payment methods a tester can pick.
    static let paymentMethods = ["Visa", "Mastercard", "American Express", "PayPal", "Apple Pay", "Google Pay"]

    /// Text as HTML: `&`, `<`, `>`, `"` and `'` escaped.
    /// A control character other than a tab or a line's end, which HTML may not hold, is
    /// shown as U+FFFD.
    static let escaped = TextEscaping(
        ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;", "\t": "\t", "\n": "\n", "\r": "\r"],
        control: { _ in "\u{FFFD}" })

    /// A page of the sandbox's: `title`, and `body`, which is HTML already, in the
    /// sandbox's one style sheet; `wide` for the dashboard's tables. With `refresh`, the
    /// page reloads itself every ``refreshSeconds``, except while the tester is typing in
    /// it, has a section of it open, or is looking at another tab; without script, a
    /// refresh every twice as long does it. With `reloadEverySecond`, a meta refresh reloads
    /// it every second, whatever the tester does: a page that is about to send the browser on.
    static func document(
        title: String, wide: Bool = false, refresh: Bool = false, reloadEverySecond: Bool = false, _ body: String
    ) -> String {
        let reloading =
            reloadEverySecond
            ? "<meta http-equiv=\"refresh\" content=\"1\">\n"
            : refresh
                ? "<script>\(reloadScript)</script>\n"
                    + "<noscript><meta http-equiv=\"refresh\" content=\"\(refreshSeconds * 2)\"></noscript>\n" : ""
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escaped(title)) · paylinks sandbox</title>
            \(reloading)<style>
            \(styleSheet)</style>
            </head>
            <body>
            <main\(wide ? " class=\"wide\"" : "")>
            \(body)
            </main>
            </body>
            </html>

            """
    }

    /// The one style sheet: the pages' common rules, then each page's own.
    static let styleSheet = baseStyle + stateStyle + listStyle + orderStyle + playerStyle

    /// The rules every page shares.
    static let baseStyle = """
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
          table.cards thead { display: none; }
          table.cards tr { display: block; border-bottom: 1px solid #d8dce3; padding: .4rem 0; }
          table.cards td, table.cards th[scope="row"] { display: block; border: none; padding: .1rem .25rem; }
          table.cards td[data-label]::before, table.cards th[data-label]::before {
            content: attr(data-label); display: inline-block; min-width: 5.5rem; margin-right: .5rem;
            font-weight: 600; color: #5b6475; font-size: .85rem; }
        }

        """

    /// The seconds a self-refreshing page waits between reloads.
    static let refreshSeconds = 5

    /// The few lines that reload a page every ``refreshSeconds``, except while a field has
    /// the focus, a `<details>` is open or the tab is hidden: then it tries again later.
    static let reloadScript: String = {
        let seconds = refreshSeconds
        return "setTimeout(function tick(){var a=document.activeElement;"
            + "if(document.hidden||(a&&/^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(a.tagName))"
            + "||document.querySelector(\"details[open]\")){setTimeout(tick,\(seconds * 1000));return;}"
            + "location.reload();},\(seconds * 1000));"
    }()

    /// The Content-Security-Policy of every page: nothing from elsewhere, no script but the
    /// reload script (by its hash), forms sent only to the sandbox, and no framing.
    static let contentSecurityPolicy = contentSecurityPolicy(formAction: "'self'")

    /// The pages' Content-Security-Policy with `formAction` the sources forms may be sent to.
    private static func contentSecurityPolicy(formAction: String) -> String {
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
            + "script-src '\(scriptHash(reloadScript))'; form-action \(formAction); base-uri 'none'; "
            + "frame-ancestors 'none'"
    }

    /// The Content-Security-Policy of a checkout page whose session has `redirectUrl`: as
    /// every page's, but its form may also end at the game's return address, where the
    /// checkout sends the browser once the choice is made (a browser checks `form-action`
    /// at every redirect after a form is sent).
    static func contentSecurityPolicy(returningTo redirectUrl: String) -> String {
        contentSecurityPolicy(formAction: "'self' \(formSource(of: redirectUrl))")
    }

    /// The CSP source of `redirectUrl`, which Create Checkout Session checked: its scheme
    /// and host (`https://game.example`) for http and https, its scheme alone
    /// (`mygame:`) for another, or when its host holds what a source may not.
    static func formSource(of redirectUrl: String) -> String {
        let scheme = redirectUrl.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https" else { return scheme + ":" }
        let rest = redirectUrl.dropFirst(scheme.count + 3)
        var authority = rest.prefix { !"/?#".contains($0) }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let allowed = authority.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || ".-:[]".unicodeScalars.contains(scalar)
        }
        return !authority.isEmpty && allowed ? "\(scheme)://\(authority)" : scheme + ":"
    }

    /// The CSP source that allows exactly `script`: `sha256-` and its digest in base64.
    static func scriptHash(_ script: String) -> String {
        "sha256-" + base64(SHA256.hash(Array(script.utf8)))
    }

    /// `bytes` in base64 (RFC 4648, section 4), with padding.
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var text: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var word = 0
            for offset in 0..<3 { word = word << 8 | (offset < count ? Int(bytes[index + offset]) : 0) }
            for position in 0..<4 {
                text.append(position <= count ? alphabet[word >> (18 - 6 * position) & 63] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The hidden field of a form that carries `formToken`, the sandbox's form token: every
    /// form of its pages has it, or the sandbox refuses what the form sends.
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

    /// An order's URL whose session the sandbox does not hold.
    static func missingOrder(_ purchaseId: String) -> String {
        document(
            title: "No such order",
            """
            <h1>No such order</h1>
            <p>The sandbox holds no order with the purchase id <span class="state">\(escaped(String(purchaseId.prefix(80))))</span>:
            it was never made here, or it was forgotten: by a reset, or, unpaid, to keep the sandbox within its limits.
            <a href="/">All orders</a> lists those it holds.</p>
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
}
