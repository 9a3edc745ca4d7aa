import PaylinksAppcharge
import PaylinksHTTP
import PaylinksKit

/// The dashboard's home: the list of orders.
extension Sandbox {
    /// The dashboard's home: the clock, the newest orders, with the counts of sessions and
    /// deliveries, and the notice its link names.
    func home(_ request: HTTPRequest) -> HTTPAnswer {
        let held = sessions.held
        let counts = (sessions: held.count, deliveries: history.deliveries.count)
        let catalog = catalog
        let said = notice(named: request, purchaseId: nil)
        let clock = SandboxPage.ClockView(
            mode: clock.mode, now: now, formToken: settings.formToken, lastMove: lastMove, said: said?.text,
            problem: said?.problem ?? false)
        let blocked = blockedPlayers
        return Self.later(contentType: Self.html) {
            Array(
                SandboxPage.home(
                    held.newest(SandboxPage.dashboardRows), counts: counts, catalog: catalog, clock: clock,
                    blocked: blocked
                ).utf8)
        }
    }
}

extension SandboxPage {
    /// The list's own rules of the style sheet.
    static let listStyle = ""

    /// The dashboard: the clock, the `newest` orders, newest first, each a link to its
    /// page, with how many sessions and deliveries the sandbox holds, the `blocked`
    /// players, and what it serves.
    static func home(
        _ newest: [CheckoutSessions.Session], counts: (sessions: Int, deliveries: Int), catalog: Catalog,
        clock: ClockView, blocked: [String] = []
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
            \(clockSection(clock))
            <table class="orders">
            <thead><tr><th>Purchase</th><th>Offer</th><th>Price</th><th>Player</th><th>State</th><th>Created</th></tr></thead>
            <tbody>
            \(rows.isEmpty ? "<tr><td colspan=\"6\">No sessions yet: POST /checkout/v1/session creates one.</td></tr>" : rows)
            </tbody>
            </table>
            \(blockedSection(blocked))<details><summary>What the sandbox serves</summary>
            <ul class="note">
            <li>POST /checkout/v1/session (x-publisher-token)</li>
            <li>POST /checkout/v3/cancel (Authorization: Bearer)</li>
            <li>GET /checkout/TOKEN: the checkout page</li>
            <li>GET /control/v1/sessions/PURCHASE_ID: a session's state</li>
            <li>POST /control/v1/sessions/PURCHASE_ID/complete {"choice": "pay"}</li>
            <li>POST /control/v1/sessions/PURCHASE_ID/refund, /dispute, /retry-award</li>
            <li>POST /control/v1/sessions/PURCHASE_ID/resolve {"outcome": "succeeded", "after": "PT5M"}</li>
            <li>GET /control/v1/clock; POST /control/v1/clock {"advance": "PT15M"}</li>
            <li>GET /control/v1/deliveries; POST /control/v1/deliveries/ID/replay</li>
            <li>GET /control/v1/blocked-players; POST /control/v1/blocked-players {"id": "PLAYER"}; DELETE /control/v1/blocked-players/PLAYER</li>
            <li>POST /reporting/reports/orders; GET /reporting/financial-data/transactions</li>
            </ul>
            </details>
            """)
    }

    /// The blocked players, the first ``blockedShown`` of them, with how to unblock one;
    /// nothing when none is.
    static func blockedSection(_ blocked: [String]) -> String {
        guard !blocked.isEmpty else { return "" }
        let items = blocked.prefix(blockedShown).map { "<li class=\"mono\">\(escaped(shortened($0)))</li>" }
        let more = blocked.count > blockedShown ? "\n<li>and \(blocked.count - blockedShown) more</li>" : ""
        return """
            <h2>Blocked players</h2>
            <p class="note">Create Checkout Session answers these players 403; DELETE /control/v1/blocked-players/PLAYER unblocks one.</p>
            <ul>
            \(items.joined(separator: "\n"))\(more)
            </ul>

            """
    }
}
