import PaylinksAppcharge
import PaylinksHTTP
import PaylinksKit

/// The dashboard's home: the list of orders.
extension Sandbox {
    /// The dashboard's home: the clock, the orders its query's filter and search match,
    /// newest first, a page of them with their totals, the counts of sessions and
    /// deliveries, and the notice its link names. The orders are filtered and paged once
    /// the sandbox's lock is let go, from the sessions it held when asked.
    func home(_ request: HTTPRequest) -> HTTPAnswer {
        let held = sessions.held
        let deliveries = history.deliveries.count
        let catalog = catalog
        let said = notice(named: request, purchaseId: nil)
        let clock = SandboxPage.ClockView(
            mode: clock.mode, now: now, formToken: settings.formToken, lastMove: lastMove, said: said?.text,
            problem: said?.problem ?? false)
        let blocked = blockedPlayers
        let query = OrdersQuery(request.query)
        return Self.later(contentType: Self.html) {
            let list = SandboxPage.OrdersList(held, query: query)
            return Array(
                SandboxPage.home(list, deliveries: deliveries, catalog: catalog, clock: clock, blocked: blocked).utf8)
        }
    }
}

extension SandboxPage {
    /// What the dashboard's list shows for a query: the orders it matched, their totals,
    /// and the page of them asked for.
    struct OrdersList: Sendable {
        /// What was asked.
        var query: OrdersQuery
        /// How many sessions the sandbox held.
        var held: Int
        /// The money of every order matched, on every page, and how many they were.
        var totals: OrderTotals
        /// The orders of the page asked for, newest first; none for a page past the end.
        var rows: [CheckoutSessions.Session]
        /// How many pages the orders matched fill, 1 when none matched.
        var pages: Int
        /// The offers of the sessions held, matched or not, by SKU: the filter offers them
        /// beside the catalog's, as a game's server may sell offers of its own.
        var offers: [String: String] = [:]
        /// The most offers the filter lists from the sessions.
        static let offerLimit = 200

        /// The list of `held`'s sessions for `query`: one pass that filters and sums them,
        /// and one sort of those it matched.
        init(_ held: CheckoutSessions.Held, query: OrdersQuery) {
            var totals = OrderTotals()
            var offers: [String: String] = [:]
            let matched = held.newestFirst { session in
                if offers.count < Self.offerLimit, offers[session.offerSku] == nil {
                    offers[session.offerSku] = session.offerName
                }
                guard query.matches(session) else { return false }
                totals.add(session)
                return true
            }
            let size = OrdersQuery.pageSize
            self.query = query
            self.held = held.count
            self.totals = totals
            self.offers = offers
            pages = max(1, (matched.count + size - 1) / size)
            // A page past the end is empty; its number may be as large as Int goes.
            rows = query.page <= pages ? Array(matched.dropFirst((query.page - 1) * size).prefix(size)) : []
        }

        /// Whether the page asked for is past the last.
        var isPastTheEnd: Bool { query.page > pages }
    }

    /// The list's own rules of the style sheet: the filters' form, the totals and the
    /// pages' links.
    static let listStyle = """
        form.filters { display: flex; flex-wrap: wrap; gap: .5rem .75rem; align-items: flex-end; margin: .5rem 0 1rem; }
        form.filters label { flex: 1 1 10rem; min-width: 0; font-size: .9rem; }
        form.filters input, form.filters select { display: block; width: 100%; box-sizing: border-box; margin-top: .15rem;
                                                  padding: .35rem .4rem; font: inherit; border: 1px solid #8a93a3;
                                                  border-radius: 6px; background: #fff; color: #1d2330; }
        form.filters .go { display: flex; gap: .75rem; align-items: center; flex: 0 1 auto; }
        form.filters button { display: inline-block; width: auto; margin: 0; padding: .4rem 1rem; font-size: .95rem; }
        table.totals { margin: .25rem 0 1rem; }
        table.totals caption { text-align: left; color: #5b6475; font-size: .9rem; padding-bottom: .25rem; }
        table.totals td, table.totals th[scope="row"] { font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
        table.orders td { overflow-wrap: anywhere; }
        table.orders td.empty pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f7f9; padding: .5rem;
                                    border-radius: 6px; font-size: .8rem; }
        nav.pages { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; margin: .75rem 0; }

        """

    /// The columns of an orders table, as its head and each cell's `data-label` name them;
    /// a player's own page leaves out the player.
    static func orderColumns(player: Bool = true) -> [String] {
        ["Purchase", "Offer", "Price"] + (player ? ["Player"] : []) + ["State", "Created"]
    }

    /// An orders table's head, with or without the player's column.
    static func orderHead(player: Bool = true) -> String {
        "<thead><tr>" + orderColumns(player: player).map { "<th scope=\"col\">\($0)</th>" }.joined() + "</tr></thead>"
    }

    /// One order as a row of an orders table: its purchase id (a link to its page), offer,
    /// price, player (a link to their page; left out on a player's own page), state and
    /// creation time, each cell labelled for a narrow screen.
    static func orderRow(_ session: CheckoutSessions.Session, catalog: Catalog, player: Bool = true) -> String {
        let purchaseId = session.purchaseId
        let playerCell =
            player
            ? "<td data-label=\"Player\"><a href=\"/players/\(escaped(Sandbox.percentEncoded(session.customerId)))\">"
                + "\(escaped(shortened(session.customerId)))</a></td>" : ""
        return """
            <tr data-purchase-id="\(escaped(purchaseId))">\
            <td class="id" data-label="Purchase"><a href="/orders/\(escaped(Sandbox.percentEncoded(purchaseId)))">\
            \(escaped(shortened(purchaseId)))</a></td>\
            <td data-label="Offer">\(escaped(shortened(session.offerName)))</td>\
            <td data-label="Price">\(escaped(price(session, catalog: catalog)))</td>\
            \(playerCell)<td data-label="State">\(statePill(session.state, partialRefund: partialRefund(session)))</td>\
            <td class="mono" data-label="Created">\(UTCDate.format(unixSeconds: session.created / 1000))</td></tr>
            """
    }

    /// The dashboard: the clock, then the orders `list` found, with the form that filters
    /// them, their totals and the links to the other pages; how many sessions and
    /// `deliveries` the sandbox holds, the `blocked` players, and what it serves.
    static func home(
        _ list: OrdersList, deliveries: Int, catalog: Catalog, clock: ClockView, blocked: [String] = []
    ) -> String {
        let count = list.held == 1 ? "1 checkout session" : "\(list.held) checkout sessions"
        let problems = list.query.problems.map { "<p class=\"said problem\">\(escaped($0))</p>\n" }.joined()
        return document(
            title: "Sandbox",
            wide: true,
            refresh: true,
            """
            <h1>paylinks sandbox</h1>
            <p class="note">\(count) · \(deliveries) deliveries to the game's server</p>
            \(clockSection(clock))
            <h2>Orders</h2>
            \(problems)\(filters(list.query, catalog: catalog, held: list.offers))
            \(summary(list))
            \(totalsTable(list))<table class="orders cards">
            \(orderHead())
            <tbody>
            \(orderRows(list, catalog: catalog))
            </tbody>
            </table>
            \(pageLinks(list))\(blockedSection(blocked))<details><summary>What the sandbox serves</summary>
            <ul class="note">
            <li>POST /checkout/v1/session (x-publisher-token): Create Checkout Session</li>
            <li>POST /checkout/v3/cancel (Authorization: Bearer)</li>
            <li>GET /checkout/TOKEN: the checkout page</li>
            <li>POST /checkout/api/v1/order/ORDER_ID/refund (x-publisher-token, x-user-id): Initiate Refund</li>
            <li>GET, POST /v1/price-points; GET, PUT, DELETE /v1/price-points/PRICE_IN_USD_CENTS; \
            POST /v1/price-points/localized/lookup (x-publisher-token): the price points API</li>
            <li>POST /reporting/reports/orders; GET /reporting/financial-data/transactions (x-publisher-token)</li>
            <li>GET /orders/PURCHASE_ID: an order's page; GET /players/PLAYER_ID: a player's page</li>
            <li>GET /control/v1/sessions/PURCHASE_ID: a session's state</li>
            <li>POST /control/v1/sessions/PURCHASE_ID/complete {"choice": "pay"}</li>
            <li>POST /control/v1/sessions/PURCHASE_ID/refund, /dispute, /retry-award</li>
            <li>POST /control/v1/sessions/PURCHASE_ID/resolve {"outcome": "succeeded", "after": "PT5M"}</li>
            <li>GET /control/v1/clock; POST /control/v1/clock {"advance": "PT15M"}</li>
            <li>GET /control/v1/deliveries; GET /control/v1/deliveries/ID; POST /control/v1/deliveries/ID/replay</li>
            <li>GET /control/v1/blocked-players; POST /control/v1/blocked-players {"id": "PLAYER"}; DELETE /control/v1/blocked-players/PLAYER</li>
            <li>GET /control/v1/export; POST /control/v1/reset; GET /control/v1/health</li>
            </ul>
            </details>
            """)
    }

    /// The form that filters and searches the list, a plain GET of `/`, showing `query`'s
    /// values; a value it could not take shows as none.
    static func filters(_ query: OrdersQuery, catalog: Catalog, held: [String: String]) -> String {
        func option(_ value: String, _ text: String, selected: Bool) -> String {
            "<option value=\"\(escaped(value))\"\(selected ? " selected" : "")>\(escaped(text))</option>"
        }
        let kinds = OrderState.Kind.allCases.map { kind in
            option(kind.rawValue, kind.title, selected: query.state == .kind(kind))
        }
        let states = OrderState.allCases.map { state in
            option(state.rawValue, "\(state.label) (\(state.rawValue))", selected: query.state == .exact(state))
        }
        // The offers of the sessions held and the catalog's, by name; an offer neither has
        // can still be asked for by its SKU.
        var names = held
        for offer in catalog.offers where names[offer.sku] == nil { names[offer.sku] = offer.name }
        if !query.offer.isEmpty && names[query.offer] == nil { names[query.offer] = query.offer }
        let offers = names.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map { sku, name in
            option(
                sku, name == sku ? shortened(sku) : "\(shortened(name)) (\(shortened(sku)))",
                selected: query.offer == sku)
        }
        return """
            <form method="get" action="/" class="filters">
            <label>State <select name="state">
            \(option("", "All", selected: query.state == nil))
            <optgroup label="Kinds">
            \(kinds.joined(separator: "\n"))
            </optgroup>
            <optgroup label="States">
            \(states.joined(separator: "\n"))
            </optgroup>
            </select></label>
            <label>Player <input name="player" value="\(escaped(query.player))" placeholder="customer id"></label>
            <label>Offer <select name="offer">
            \(option("", "All offers", selected: query.offer.isEmpty))
            \(offers.joined(separator: "\n"))
            </select></label>
            <label>From <input type="date" name="from" value="\(escaped(query.from ?? ""))"></label>
            <label>To <input type="date" name="to" value="\(escaped(query.to ?? ""))"></label>
            <label>Search <input type="search" name="q" value="\(escaped(query.search))" \
            placeholder="purchase id, order id or player"></label>
            <div class="go"><button type="submit">Filter</button> <a href="/">Clear</a></div>
            </form>
            """
    }

    /// How many orders matched and, when any did, which page of them is shown.
    static func summary(_ list: OrdersList) -> String {
        let count = list.totals.count
        let orders =
            list.query.isFiltered
            ? (count == 1 ? "1 order matches" : "\(count) orders match") : (count == 1 ? "1 order" : "\(count) orders")
        guard count > 0 else { return "<p class=\"note\">\(orders)</p>" }
        return "<p class=\"note\">\(orders), newest first · page \(list.query.page) of \(list.pages)</p>"
    }

    /// The money of every order matched, a row per currency; nothing when none matched.
    static func totalsTable(_ list: OrdersList) -> String {
        let totals = list.totals
        guard totals.count > 0 else { return "" }
        let rows = totals.currencies.map { currency in
            let sums = totals[currency]
            let cells = [
                ("Paid", sums.paid), ("Refunded", sums.refunded), ("Disputed", sums.disputed), ("Net", sums.net),
            ]
            .map { label, amount in
                "<td data-label=\"\(label)\">\(escaped(PriceFormatter.formatMinorUnits(amount, currency: currency)))</td>"
            }.joined()
            return "<tr data-currency=\"\(escaped(currency))\"><th scope=\"row\" data-label=\"Currency\">"
                + "\(escaped(currency))</th>\(cells)</tr>"
        }
        let orders = totals.count == 1 ? "the order" : "the \(totals.count) orders"
        return """
            <table class="totals cards">
            <caption>The money of \(orders) \(list.query.isFiltered ? "matched" : "held"), on every page, \
            before Appcharge's fees</caption>
            <thead><tr><th scope="col">Currency</th><th scope="col">Paid</th><th scope="col">Refunded</th>\
            <th scope="col">Disputed</th><th scope="col">Net</th></tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody>
            </table>

            """
    }

    /// The rows of the page shown, or what to do when it has none.
    static func orderRows(_ list: OrdersList, catalog: Catalog) -> String {
        func empty(_ html: String) -> String { "<tr><td colspan=\"6\" class=\"empty\">\(html)</td></tr>" }
        if list.held == 0 {
            return empty(
                """
                No sessions yet. The game's server creates one with POST /checkout/v1/session, its \
                x-publisher-token and a body such as:
                <pre>{"priceDetails": {"price": 499, "currency": "USD"},
                 "offer": {"name": "Starter Pack", "sku": "starter_pack_001"},
                 "customer": {"id": "player-1"}, "countryCode2": "US"}</pre>
                Its answer's url opens the checkout page; the order shows here.
                """)
        }
        if list.totals.count == 0 {
            return empty("No order matches. <a href=\"/\">Clear the filters</a> to see all \(list.held).")
        }
        if list.isPastTheEnd {
            return empty(
                "Page \(list.query.page) is past the last, \(list.pages). "
                    + "<a href=\"\(escaped(list.query.link(page: 1)))\">Back to page 1</a>")
        }
        return list.rows.map { orderRow($0, catalog: catalog) }.joined(separator: "\n")
    }

    /// The links to the previous and the next page, with the filter and the search kept;
    /// nothing when there is neither.
    static func pageLinks(_ list: OrdersList) -> String {
        let page = list.query.page
        guard !list.isPastTheEnd, list.pages > 1 else { return "" }
        var links: [String] = []
        if page > 1 {
            links.append("<a rel=\"prev\" href=\"\(escaped(list.query.link(page: page - 1)))\">← Newer</a>")
        }
        links.append("<span>page \(page) of \(list.pages)</span>")
        if page < list.pages {
            links.append("<a rel=\"next\" href=\"\(escaped(list.query.link(page: page + 1)))\">Older →</a>")
        }
        return "<nav class=\"pages\" aria-label=\"Pages\">\(links.joined(separator: " "))</nav>\n"
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
