import PaylinksAppcharge
import PaylinksKit

/// The money of the orders the dashboard's list matched, by currency, in each currency's
/// minor units, by Appcharge's rules (`after-the-purchase.md`, section 1): Paid is the price
/// of every order ever paid, Refunded what each refunded order gave back, Disputed the price
/// of each dispute lost, and Net what is left of Paid, before Appcharge's fees.
struct OrderTotals: Sendable, Equatable {
    /// One currency's sums, in its minor units.
    struct Sums: Sendable, Equatable {
        /// The price of every order ever paid: Succeeded, Failed (Charged), and every refund
        /// and dispute state after them.
        var paid = 0
        /// The refund of each refunded order: all of its price, or a partial refund's amount.
        var refunded = 0
        /// The price of each order whose dispute was lost: the money the bank took back.
        var disputed = 0

        /// What is left: Paid less Refunded and Disputed.
        var net: Int { Self.sum(paid, -refunded, -disputed) }

        /// `amounts` added, stopping at the ends of `Int` rather than trapping.
        static func sum(_ amounts: Int...) -> Int {
            amounts.reduce(0) { total, amount in
                let (sum, overflow) = total.addingReportingOverflow(amount)
                return overflow ? (amount > 0 ? .max : .min) : sum
            }
        }
    }

    /// How many orders were added, money moved or not.
    private(set) var count = 0
    /// The sums of each currency an added order was in.
    private var sums: [String: Sums] = [:]

    /// The currencies of the orders added, by code.
    var currencies: [String] { sums.keys.sorted() }

    /// The sums of `currency`: nothing for one no order was in.
    subscript(currency: String) -> Sums { sums[currency] ?? Sums() }

    /// Counts an order in `state` at `price`, whose refund, if any, was `refundAmount`
    /// (all of the price when nil), in `currency`.
    mutating func add(state: OrderState, price: Int, refundAmount: Int?, currency: String) {
        count += 1
        var sums = sums[currency] ?? Sums()
        switch state {
        case .chargeSucceed, .chargeFailed, .paymentRefundPending, .paymentRefundFailed, .paymentDisputeOpen,
            .paymentDisputeEvidenceSubmitted, .paymentDisputeWon:
            sums.paid = Sums.sum(sums.paid, price)
        case .paymentRefunded:
            sums.paid = Sums.sum(sums.paid, price)
            sums.refunded = Sums.sum(sums.refunded, refundAmount ?? price)
        case .paymentDisputeLost:
            sums.paid = Sums.sum(sums.paid, price)
            sums.disputed = Sums.sum(sums.disputed, price)
        case .created, .paymentPending, .paymentSucceed, .chargePending, .paymentCanceled, .paymentFailed:
            break
        }
        self.sums[currency] = sums
    }

    /// Counts the order of `session`.
    mutating func add(_ session: CheckoutSessions.Session) {
        add(
            state: session.state, price: session.price, refundAmount: session.life?.refundAmount,
            currency: session.currency)
    }
}

/// What the dashboard's list is asked for by its query (`GET /?state=...`): the filter, the
/// search and the page, and what in the query it could not take, each left out and said.
struct OrdersQuery: Sendable, Equatable {
    /// Which states the list shows.
    enum StateFilter: Sendable, Equatable {
        /// Every state of a kind.
        case kind(OrderState.Kind)
        /// One state.
        case exact(OrderState)

        /// The filter as the query names it.
        var name: String {
            switch self {
            case .kind(let kind): kind.rawValue
            case .exact(let state): state.rawValue
            }
        }

        /// Whether `state` is one it shows.
        func takes(_ state: OrderState) -> Bool {
            switch self {
            case .kind(let kind): state.kind == kind
            case .exact(let exact): state == exact
            }
        }
    }

    /// The most characters of a field the list reads; the rest is cut.
    static let fieldLimit = 2048
    /// Orders on a page.
    static let pageSize = 50

    /// `state`: a kind or a state code; nil for every state.
    var state: StateFilter?
    /// `player`: the customer id of the orders shown, exactly; empty for every player.
    var player = ""
    /// `offer`: the offer SKU of the orders shown, exactly; empty for every offer.
    var offer = ""
    /// `from`: the first UTC day of the orders shown, `YYYY-MM-DD`, by their creation.
    var from: String?
    /// `to`: the last UTC day of the orders shown, `YYYY-MM-DD`, by their creation.
    var to: String?
    /// `q`: a part of a purchase id, an order id or a player, in either case.
    var search = ""
    /// `page`: which page of ``pageSize`` orders, from 1.
    var page = 1
    /// What in the query could not be taken, and what it takes, one sentence each.
    var problems: [String] = []

    /// The first millisecond of `from`'s day, and the first after `to`'s.
    private var start: Int?
    private var end: Int?
    /// The search's bytes, ASCII capitals as small letters.
    private var needle: [UInt8] = []
    /// ``fallbacks(_:)`` of the needle.
    private var fallback: [Int] = []

    /// The query of `query`, a URL's query string.
    init(_ query: String) {
        let fields = Sandbox.form(Array(query.utf8)).mapValues { value in
            String(String.UnicodeScalarView(Sandbox.trimmed(value).unicodeScalars.prefix(Self.fieldLimit)))
        }
        player = fields["player"] ?? ""
        offer = fields["offer"] ?? ""
        search = fields["q"] ?? ""
        needle = search.utf8.map(Self.folded)
        fallback = Self.fallbacks(needle)
        if let text = fields["state"], !text.isEmpty {
            let name = text.lowercased()
            if let kind = OrderState.Kind(rawValue: name) {
                state = .kind(kind)
            } else if let exact = OrderState(rawValue: name) {
                state = .exact(exact)
            } else {
                let kinds = OrderState.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                problems.append(
                    "the state '\(Sandbox.quoted(text))' is neither a kind (\(kinds)) nor a state code such as "
                        + "payment_dispute_lost; every state is shown")
            }
        }
        for (name, text) in [("from", fields["from"]), ("to", fields["to"])] {
            guard let text, !text.isEmpty else { continue }
            guard let day = Self.day(text) else {
                problems.append(
                    "\(name) '\(Sandbox.quoted(text))' is not a date: it takes a UTC day as YYYY-MM-DD, such as "
                        + "2024-06-12; it is left out")
                continue
            }
            if name == "from" {
                (from, start) = (text, day * 1000)
            } else {
                (to, end) = (text, (day + 86_400) * 1000)
            }
        }
        if let from, let to, let start, let end, start >= end {
            problems.append("from \(from) is after to \(to): no day is in both, so no order matches; swap them")
        }
        if let text = fields["page"], !text.isEmpty {
            if let number = Int(text), number >= 1 {
                page = number
            } else {
                problems.append(
                    "page '\(Sandbox.quoted(text))' is not a page number: it takes 1, 2, 3 …; page 1 is shown")
            }
        }
    }

    /// The Unix seconds at which the UTC day `text` (`YYYY-MM-DD`, a day its month has) begins.
    private static func day(_ text: String) -> Int? {
        guard text.utf8.count == 10, let seconds = UTCDate.parse(text),
            UTCDate.format(unixSeconds: seconds).hasPrefix(text)
        else { return nil }
        return seconds
    }

    /// Whether it filters or searches at all.
    var isFiltered: Bool {
        state != nil || !player.isEmpty || !offer.isEmpty || from != nil || to != nil || !search.isEmpty
    }

    /// Whether the list shows `session`.
    func matches(_ session: CheckoutSessions.Session) -> Bool {
        if let state, !state.takes(session.state) { return false }
        if !player.isEmpty && session.customerId != player { return false }
        if !offer.isEmpty && session.offerSku != offer { return false }
        if let start, session.created < start { return false }
        if let end, session.created >= end { return false }
        if !search.isEmpty {
            // An order not made yet has no id to find, as none is shown.
            return contains(session.purchaseId) || contains(session.customerId)
                || session.shownOrderId.map(contains) == true
        }
        return true
    }

    /// Whether `text` holds the search, ASCII letters in either case: Knuth, Morris and
    /// Pratt's search, which reads each byte of `text` once, so that neither a long id nor
    /// a long search makes the list slow.
    private func contains(_ text: String) -> Bool {
        guard !needle.isEmpty else { return true }
        var matched = 0
        for byte in text.utf8 {
            let folded = Self.folded(byte)
            while matched > 0 && needle[matched] != folded { matched = fallback[matched - 1] }
            if needle[matched] == folded { matched += 1 }
            if matched == needle.count { return true }
        }
        return false
    }

    /// For each prefix of `needle`, the length of its longest proper prefix that is also
    /// its suffix: where a search goes on from after a mismatch.
    private static func fallbacks(_ needle: [UInt8]) -> [Int] {
        var table = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in needle.indices.dropFirst() {
            while length > 0 && needle[index] != needle[length] { length = table[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            table[index] = length
        }
        return table
    }

    /// `byte` with an ASCII capital as its small letter.
    private static func folded(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// The list's URL for `page`, with this query's filter and search, each percent-encoded.
    func link(page: Int) -> String {
        var fields: [(String, String)] = []
        if let state { fields.append(("state", state.name)) }
        if !player.isEmpty { fields.append(("player", player)) }
        if !offer.isEmpty { fields.append(("offer", offer)) }
        if let from { fields.append(("from", from)) }
        if let to { fields.append(("to", to)) }
        if !search.isEmpty { fields.append(("q", search)) }
        fields.append(("page", String(page)))
        return "/?" + fields.map { "\($0)=\(Sandbox.percentEncoded($1))" }.joined(separator: "&")
    }
}
