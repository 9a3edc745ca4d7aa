import PaylinksAppcharge
import PaylinksHTTP
import PaylinksKit

/// What was wrong with the game's ledger when a player's page read it, in words that say
/// how to fix it.
package struct LedgerProblem: Error, Sendable, Equatable {
    /// The words: what was wrong, then what to do.
    package var message: String

    /// A problem worded `message`.
    package init(_ message: String) {
        self.message = message
    }
}

/// A player's page: their orders, and what Appcharge's books say they should hold.
extension Sandbox {
    /// `GET /players/ID`: the player's orders, newest first, and what the books say they
    /// should hold, taken as the request arrived; with a ledger, the page waits for what it
    /// says, away from the server's loop. 404 for a player without orders.
    func playerPage(id segment: String) -> HTTPAnswer {
        let player = PercentCoding.decoded(segment, plusAsSpace: false, strict: true).flatMap {
            String(validating: $0, as: UTF8.self)
        }
        let orders = player.map { player in sessions.held.newestFirst { $0.customerId == player } } ?? []
        guard let player, !orders.isEmpty else {
            return .ready(
                HTTPServerResponse(
                    status: 404, contentType: Self.html,
                    body: Array(SandboxPage.noPlayer(player ?? segment).utf8)))
        }
        var books = PlayerBooks()
        // The books take the orders in the order they were made.
        for session in orders.reversed() { books.note(session) }
        let view = SandboxPage.PlayerView(
            player: player, orders: orders, books: books, rule: settings.partialRefund, catalog: catalog)
        guard let readLedger else {
            return Self.later(contentType: Self.html) { Array(SandboxPage.player(view, ledger: nil).utf8) }
        }
        let promise = HTTPPromise(awaited: "once the ledger is read")
        let guardian = guardian
        readLedger(player) { ledger in
            var response = HTTPServerResponse(
                status: 200, contentType: Self.html, body: Array(SandboxPage.player(view, ledger: ledger).utf8))
            guardian.finish(&response)
            promise.give(response)
        }
        return .awaited(promise)
    }
}

extension SandboxPage {
    /// The player page's own rules of the style sheet.
    static let playerStyle = """
        .player-id, .player td { overflow-wrap: anywhere; }
        table.books tr.differs td { background: #fff6e0; }
        .differs-by { font-weight: 600; color: #7a4100; }
        .unknown { color: #5b6475; }
        p.ledger-problem { background: #fbeeee; border: 1px solid #e5b8b8; padding: .5rem .75rem; border-radius: 8px;
                           overflow-wrap: anywhere; }

        """

    /// What a player's page shows, taken as its request arrived.
    struct PlayerView: Sendable {
        /// The player's id.
        var player: String
        /// Their orders, newest first.
        var orders: [CheckoutSessions.Session]
        /// Appcharge's books of their paid orders.
        var books: PlayerBooks
        /// What the game does with a partial refund's products.
        var rule: PlayerBooks.PartialRefundRule
        /// The catalog the prices are shown with.
        var catalog: Catalog
    }

    /// A player's page: their orders and what the books say they should hold, beside what
    /// `ledger` says they hold when the sandbox reads one.
    static func player(_ view: PlayerView, ledger: Result<AuditBalances, LedgerProblem>?) -> String {
        let id = escaped(view.player)
        let rows = view.orders.map { orderRow($0, catalog: view.catalog, player: false) }.joined(separator: "\n")
        let encoded = escaped(PercentCoding.encoded(view.player))
        return document(
            title: "Player \(view.player)",
            wide: true,
            """
            <div class="player">
            <h1>Player <span class="player-id mono">\(id)</span></h1>
            <p class="note"><a href="/">All orders</a> · <a href="/?player=\(encoded)">This player in the list of orders</a></p>
            <h2>Orders</h2>
            <table class="orders cards">
            \(orderHead(player: false))
            <tbody>
            \(rows)
            </tbody>
            </table>
            <h2>What Appcharge's books say they should hold</h2>
            \(booksSection(view, ledger: ledger))
            </div>
            """)
    }

    /// The books' table, one row per product SKU, with the ledger's column when there is a
    /// reading, and the line that says why there is none when the ledger could not be read.
    static func booksSection(_ view: PlayerView, ledger: Result<AuditBalances, LedgerProblem>?) -> String {
        let holdings = view.books.holdingsBySku(view.rule)
        let rule =
            view.rule == .keep
            ? "A partial refund leaves its products with the player (--partial-refund keep)."
            : "A partial refund takes its products back (--partial-refund revoke)."
        var problem = ""
        var balances: AuditBalances?
        switch ledger {
        case .success(let read): balances = read
        case .failure(let failure):
            problem = "<p class=\"ledger-problem\">The ledger could not be read: \(escaped(failure.message))</p>\n"
        case nil: break
        }
        guard !holdings.isEmpty else {
            return problem + "<p>No paid orders: the books say the player should hold nothing.</p>"
        }
        let rows = holdings.sorted { $0.key < $1.key }.map { sku, holding in
            var books: String
            var differs = ""
            switch holding {
            case .held(let amount):
                books = String(amount)
                if let balances {
                    let (difference, overflow) = balances[sku, default: 0].subtractingReportingOverflow(amount)
                    if overflow || difference != 0 {
                        let by =
                            overflow ? "more than any count" : difference > 0 ? "+\(difference)" : "−\(-difference)"
                        differs = " <span class=\"differs-by\">differs by \(by)</span>"
                    }
                }
            case .unknown(let purchaseIds):
                let links = purchaseIds.map {
                    "<a href=\"/orders/\(escaped(PercentCoding.encoded($0)))\">\(escaped($0))</a>"
                }.joined(separator: ", ")
                books =
                    "<span class=\"unknown\">The books cannot say: the award of \(links) failed (Failed (Charged)); "
                    + "a Retry Award, a refund or a lost dispute settles it.</span>"
            }
            let ledgerCell = balances.map { "<td data-label=\"Ledger\">\($0[sku, default: 0])\(differs)</td>" } ?? ""
            return "<tr data-sku=\"\(escaped(sku))\"\(differs.isEmpty ? "" : " class=\"differs\"")>"
                + "<td class=\"mono\" data-label=\"SKU\">\(escaped(sku))</td><td data-label=\"Books\">\(books)</td>"
                + ledgerCell + "</tr>"
        }.joined(separator: "\n")
        let ledgerHead = balances == nil ? "" : "<th scope=\"col\">Ledger</th>"
        // What the ledger holds of SKUs no order of the player's grants: none, by the books.
        let others = balances?.filter { holdings[$0.key] == nil && $0.value != 0 } ?? [:]
        let elsewhere =
            others.isEmpty
            ? ""
            : "\n<p class=\"differs-by\">The ledger also holds what no order of theirs grants, which the books say "
                + "they should not hold: \(escaped(others.shown)).</p>"
        return """
            \(problem)<p class="note">Orders paid and neither refunded nor lost in a dispute. \(rule)</p>
            <table class="books cards">
            <thead><tr><th scope="col">Product SKU</th><th scope="col">Books</th>\(ledgerHead)</tr></thead>
            <tbody>
            \(rows)
            </tbody>
            </table>\(elsewhere)
            """
    }

    /// A player's page for a player without orders.
    static func noPlayer(_ player: String) -> String {
        document(
            title: "No such player",
            """
            <h1>No such player</h1>
            <p>No order names the player <span class="mono">\(escaped(String(player.prefix(200))))</span>.
            A player appears here once a checkout session names them as its customer.id.</p>
            <p><a href="/">All orders</a></p>
            """)
    }
}
