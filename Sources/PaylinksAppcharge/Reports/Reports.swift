import PaylinksJSON
public import PaylinksKit

/// Appcharge's reporting APIs, answered from the sessions held: the orders report and
/// the financial transactions, in the reference's shapes (`after-the-purchase.md`, 5).
public enum Reports {
    /// Why a query was refused: each reason one entry of the error's `message` list.
    public struct Problem: Error, Sendable {
        /// What is wrong, one reason each: the first 20 found, then how many more there were.
        public var reasons: [String]
    }

    // MARK: Orders

    /// `POST /reporting/reports/orders`'s body, read.
    public struct OrdersQuery: Sendable {
        /// Where the window starts, Unix milliseconds.
        public var start: Int
        /// Where it ends, Unix milliseconds, `endDate` included.
        public var end: Int
        /// Only orders in these states; every state when nil.
        public var statuses: Set<OrderState>?
        /// At most this many results, after `offset`.
        public var recordLimit = 100
        /// How many results to pass over first.
        public var offset = 0
        /// Only free orders (true), only paid ones (false), or both (nil).
        public var isFree: Bool?
    }

    /// The largest `recordLimit`.
    public static let orderLimit = 1000

    /// The bytes past which a page of either report takes no further result: however long
    /// the names its orders were given, a page stays a few megabytes, and the next page
    /// starts where it ended (the orders' `offset` plus the results given; the
    /// transactions' `nextCursor`).
    public static let pageBytes = 8 << 20

    /// The orders report's query in `body`, or every reason it is refused.
    package static func ordersQuery(_ body: [UInt8]) throws(Problem) -> OrdersQuery {
        guard let value = try? JSONParser.parse(body), case .object(let members) = value.kind else {
            throw Problem(reasons: ["send a JSON object: {\"startDate\": ..., \"endDate\": ..., ...}"])
        }
        let fields = RecordFields(value)
        var reasons = ProblemList()
        let window = dates(fields["startDate"], fields["endDate"], reasons: &reasons)
        var query = OrdersQuery(start: window.start, end: window.end)
        // In the order the body gives them (the parser refuses a key twice), so that the same
        // query is refused with the same reasons under the same numbers, in any process.
        for (key, member) in members {
            switch key {
            case "startDate", "endDate": break
            case "recordLimit", "offset":
                let range = key == "recordLimit" ? 1...orderLimit : 0...Int.max
                // An offset beyond Int is past every order, as Int.max is, rather than "not whole".
                let reading = member.wholeNumberReading
                let whole = key == "offset" && reading == .aboveInt ? Int.max : member.wholeNumber
                guard let number = whole, range.contains(number) else {
                    reasons.append(
                        "\(key) must be a whole number from \(range.lowerBound)\(key == "offset" ? "" : " to \(range.upperBound)"), "
                            + "not \(sent(member))")
                    continue
                }
                if key == "recordLimit" { query.recordLimit = number } else { query.offset = number }
            case "statuses":
                guard case .array(let items) = member.kind else {
                    reasons.append("statuses must be an array of order states, such as [\"charge_succeed\"]")
                    continue
                }
                var states = Set<OrderState>()
                // Each entry that is not a state is named by its place, with the state meant.
                for (index, item) in items.enumerated() {
                    guard case .string(let name) = item.kind else {
                        reasons.append(
                            "statuses[\(index)] must be an order state as a string, such as \"charge_succeed\", not "
                                + item.typeDescription)
                        continue
                    }
                    guard let state = OrderState(rawValue: name) else {
                        let shown = name.count > 40 ? name.prefix(40) + "…" : name
                        reasons.append(
                            "statuses[\(index)] '\(shown)' is not an order state; "
                                + (meantState(name).map { "did you mean \($0.rawValue)?" }
                                    ?? "states: " + OrderState.allCases.map(\.rawValue).joined(separator: ", ")))
                        continue
                    }
                    states.insert(state)
                }
                query.statuses = states
            case "isFree":
                guard case .bool(let flag) = member.kind else {
                    reasons.append("isFree must be true or false")
                    continue
                }
                query.isFree = flag
            default:
                reasons.append(
                    "\(key.prefix(40)) is not a field of the orders report; fields: startDate, endDate, recordLimit, "
                        + "offset, statuses, isFree")
            }
        }
        guard reasons.isEmpty else { throw Problem(reasons: reasons.reasons) }
        return query
    }

    /// The orders report: `{totalCount, results}`, oldest first, each order's `publisherId`
    /// the project's id (the `x-project-id` its events carry).
    public static func orders(
        _ sessions: [CheckoutSessions.Session], _ query: OrdersQuery, publisherId: String = DemoCredentials.projectId
    ) -> [UInt8] {
        let matching = sessions.filter { session in
            session.state != .created && (query.start...query.end).contains(session.created)
                && (query.statuses?.contains(session.state) ?? true)
                && (query.isFree.map { $0 == (session.price == 0) } ?? true)
        }
        var writer = JSONWriter()
        writer.openObject()
        writer.field("totalCount", matching.count)
        writer.key("results")
        writer.openArray()
        for session in matching.dropFirst(query.offset).prefix(query.recordLimit) {
            // A page ends early rather than grow past its bytes: the next starts at offset plus the results given.
            if writer.bytes.count >= pageBytes { break }
            let money = session.money
            writer.openObject()
            // A checkout closed before paying has no order: no id, receipt or payment method.
            writer.key("acOrderId")
            if let orderId = session.shownOrderId { writer.string(orderId) } else { writer.null() }
            writer.field("publisherId", publisherId)
            writer.field("currency", session.currency)
            writer.field("priceInCents", money.priceInCents)
            writer.field("priceInDollar", money.priceInDollar)
            // No source defines it; the publisher's net, as the estimate below.
            writer.field("priceNetInDollar", money.net)
            writer.field("subTotal", money.subTotal)
            writer.field("originalPriceInDollar", money.pricePoint)
            writer.field("pricePointMetaData", money.pricePoint)
            writer.field("currencySymbol", symbol(of: session.currency))
            writer.field("acOfferId", GrantAward.identifier("bundle", session.offerSku, length: 24, digits: false))
            writer.field("publisherOfferId", session.offerSku)
            writer.field("offerName", session.offerName)
            writer.field("createdAt", UTCDate.iso8601(unixSeconds: session.created / 1000))
            writer.field("playerId", session.customerId)
            writer.field("state", session.state.rawValue)
            writer.key("reason")
            writer.null()
            writer.key("offerDetails")
            writer.openObject()
            writer.key("products")
            writer.openArray()
            for item in session.items {
                writer.openObject()
                writer.field("name", item.name)
                writer.field("publisherProductId", item.sku)
                writer.field("amount", Int(item.quantity) ?? 0)
                // Appcharge prices the offer, not its products, and a session names no
                // product's price: a product's price is the offer's it came in, as the player
                // paid it (`priceInCents`, tax included, in `currencyCode`'s minor units). It
                // is exact for an offer of one product, invents no split for several, and is
                // never to be added up across an order's products.
                writer.field("price", money.priceInCents)
                writer.field("currencyCode", session.currency)
                writer.field("sku", item.sku)
                writer.closeObject()
            }
            writer.closeArray()
            writer.closeObject()
            writer.field("tax", money.tax)
            writer.field("taxInDollar", money.taxInDollar)
            writer.field("currencyExchangeCost", money.currencyExchangeCost)
            writer.key("paymentMethod")
            if let method = session.shownPaymentMethod { writer.string(method) } else { writer.null() }
            if let email = session.email {
                writer.field("playerEmail", email)
            } else {
                writer.key("playerEmail"); writer.null()
            }
            writer.field("estimatedPublisherNetAmount", money.net)
            writer.field("estimatedAppchargeFee", money.fee)
            writer.key("receiptId")
            if let orderId = session.shownOrderId {
                writer.string(GrantAward.receiptId(orderId: orderId))
            } else {
                writer.null()
            }
            writer.field("discount", 0)
            writer.key("promoCodeName")
            writer.null()
            writer.closeObject()
        }
        writer.closeArray()
        writer.closeObject()
        return writer.bytes
    }

    // MARK: Transactions

    /// `GET /reporting/financial-data/transactions`'s query, read.
    public struct TransactionsQuery: Sendable {
        /// Where the window starts, Unix milliseconds.
        public var start: Int
        /// Where it ends, Unix milliseconds, `endDate` included.
        public var end: Int
        /// 1 to 10,000; 10 by default.
        public var limit = 10
        /// Oldest first (`asc`, the default) or newest first.
        public var ascending = true
        /// Where the page starts: the `nextCursor` of the page before.
        public var offset = 0
    }

    /// The largest `limit`.
    public static let transactionLimit = 10_000

    /// The transactions' query in the pairs of a query string, or every reason it is refused.
    public static func transactionsQuery(_ pairs: [(name: String, value: String)]) throws(Problem) -> TransactionsQuery
    {
        var reasons = ProblemList()
        var values: [String: String] = [:]
        for (name, value) in pairs {
            // A parameter given twice is one the caller did not mean: neither value is taken.
            if values[name] != nil, !reasons.reasons.contains(where: { $0.hasPrefix("\(quoted(name)) is given twice") })
            {
                reasons.append("\(quoted(name)) is given twice; give each parameter once")
            }
            values[name] = value
        }
        let window = dates(
            values["startDate"].map { JSONValue(.string($0), at: 0) },
            values["endDate"].map { JSONValue(.string($0), at: 0) },
            reasons: &reasons)
        var query = TransactionsQuery(start: window.start, end: window.end)
        for (name, value) in pairs {
            switch name {
            case "startDate", "endDate": break
            case "limit":
                guard let number = Int(value), (1...transactionLimit).contains(number) else {
                    reasons.append("limit must be a whole number from 1 to \(transactionLimit), not '\(quoted(value))'")
                    continue
                }
                query.limit = number
            case "sortDirection":
                guard value == "asc" || value == "desc" else {
                    reasons.append("sortDirection must be asc or desc, not '\(quoted(value))'")
                    continue
                }
                query.ascending = value == "asc"
            case "cursor":
                guard value.hasPrefix("c_"), let number = Int(value.dropFirst(2)), number >= 0 else {
                    reasons.append("cursor must be a nextCursor the page before gave, not '\(quoted(value))'")
                    continue
                }
                query.offset = number
            default:
                reasons.append(
                    "\(name.prefix(40)) is not a parameter of the transactions; parameters: startDate, endDate, limit, "
                        + "sortDirection, cursor")
            }
        }
        guard reasons.isEmpty else { throw Problem(reasons: reasons.reasons) }
        return query
    }

    /// One money movement of an order, with the session it is of.
    struct Transaction {
        var session: CheckoutSessions.Session
        var movement: OrderTransaction
    }

    /// Every money movement of the orders held (``CheckoutSessions/Session/transactions``),
    /// oldest first.
    static func movements(_ sessions: [CheckoutSessions.Session]) -> [Transaction] {
        sessions.flatMap { session in session.transactions.map { Transaction(session: session, movement: $0) } }
            .sorted {
                ($0.movement.milliseconds, $0.session.index, $0.movement.number)
                    < ($1.movement.milliseconds, $1.session.index, $1.movement.number)
            }
    }

    /// The transactions: `{totalCount, nextCursor, nextPageQuery, results}`.
    public static func transactions(
        _ sessions: [CheckoutSessions.Session], _ query: TransactionsQuery, query text: String
    ) -> [UInt8] {
        var matching = movements(sessions).filter { (query.start...query.end).contains($0.movement.milliseconds) }
        if !query.ascending { matching.reverse() }
        var results = JSONWriter()
        results.openArray()
        var count = 0
        for transaction in matching.dropFirst(query.offset).prefix(query.limit) {
            // A page ends early rather than grow past its bytes; its nextCursor says where the next starts.
            if results.bytes.count >= pageBytes { break }
            write(transaction, to: &results)
            count += 1
        }
        results.closeArray()
        let next = query.offset + count < matching.count ? query.offset + count : nil
        var writer = JSONWriter()
        writer.openObject()
        writer.field("totalCount", matching.count)
        writer.key("nextCursor")
        if let next { writer.string("c_\(next)") } else { writer.null() }
        writer.key("nextPageQuery")
        if let next {
            let kept = text.split(separator: "&").filter { !$0.hasPrefix("cursor=") }.map(String.init)
            writer.string((kept + ["cursor=c_\(next)"]).joined(separator: "&"))
        } else {
            writer.null()
        }
        writer.key("results")
        writer.json(results.bytes)
        writer.closeObject()
        return writer.bytes
    }

    /// One transaction of the report, as the reference shapes it: the parts it moved
    /// (``OrderMoney/moved(by:)``) as numbers, in minor units and US cents, negative for
    /// money given back; the publisher's net less any chargeback fee.
    private static func write(_ transaction: Transaction, to writer: inout JSONWriter) {
        let session = transaction.session
        let movement = transaction.movement
        let moved = session.money.moved(by: movement)
        writer.openObject()
        writer.field("orderId", session.orderId)
        writer.field("purchaseId", session.purchaseId)
        writer.field("publisherTransactionId", "tx_\(session.orderId)_\(movement.number)")
        writer.field("timestamp", UTCDate.iso8601(unixSeconds: movement.milliseconds / 1000))
        writer.key("customerDetails")
        writer.openObject()
        writer.field("id", session.customerId)
        if let email = session.email { writer.field("email", email) }
        writer.closeObject()
        writer.key("geolocation")
        writer.openObject()
        writer.field("countryCode2", session.country)
        writer.closeObject()
        writer.key("offerDetails")
        writer.openObject()
        writer.field("offerId", session.offerSku)
        writer.field("offerName", session.offerName)
        writer.field("type", "bundle")
        writer.key("products")
        writer.openArray()
        for item in session.items {
            writer.openObject()
            writer.field("name", item.name)
            writer.field("sku", item.sku)
            writer.field("quantity", Int(item.quantity) ?? 0)
            writer.closeObject()
        }
        writer.closeArray()
        writer.closeObject()
        writer.key("transactionDetails")
        writer.openObject()
        writer.field("id", "tx_\(session.orderId)_\(movement.number)")
        writer.field("type", movement.kind.rawValue)
        writer.field("amount", moved.priceInCents)
        writer.field("amountUsd", moved.priceTotalInDollar)
        writer.field("totalTaxAmount", moved.tax)
        writer.field("totalTaxAmountUsd", moved.taxInDollar)
        writer.field("currencyExchangeCostUsd", moved.currencyExchangeCost)
        writer.field("chargebackFeeUsd", movement.chargebackFee)
        writer.field("transactionFeeUsd", moved.fee)
        writer.field("publisherNetAmountUsd", moved.net - movement.chargebackFee)
        writer.field("currencyCode", session.currency)
        writer.field("currencySymbol", symbol(of: session.currency))
        writer.field("paymentMethod", session.paymentMethod)
        writer.closeObject()
        writer.closeObject()
    }

    /// The symbol of the common currencies, else the code.
    private static func symbol(of currency: String) -> String {
        ["USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "CAD": "CA$", "AUD": "A$", "BRL": "R$", "INR": "₹"][currency]
            ?? currency
    }

    /// The order state `name` most likely means: the same words in another case or with
    /// spaces, a state's last words (`refunded` for `payment_refunded`), the dashboard's
    /// name (`Succeeded`), or a state it starts or ends (`charge_succeeded`); nil when
    /// none, or more than one, fits.
    static func meantState(_ name: String) -> OrderState? {
        let words = String(
            name.lowercased().unicodeScalars.map { $0 == " " || $0 == "-" ? "_" : Character($0) }
        ).filter { $0 != "(" && $0 != ")" }
        guard words.count >= 3 else { return nil }
        if let state = OrderState(rawValue: words) { return state }
        let dashboard: [String: OrderState] = ["succeeded": .chargeSucceed, "failed_charged": .chargeFailed]
        if let state = dashboard[words] { return state }
        func unique(_ fits: (String) -> Bool) -> OrderState? {
            let found = OrderState.allCases.filter { fits($0.rawValue) }
            return found.count == 1 ? found[0] : nil
        }
        return unique { $0.hasSuffix("_" + words) }
            ?? unique { words.count >= 6 && ($0.hasPrefix(words) || words.hasPrefix($0)) }
    }

    // MARK: Values sent

    /// A value a caller sent, as a refusal quotes it: its first 40 characters, every
    /// control and format character (line breaks, escapes, bidirectional controls) written
    /// as `\u{1B}`.
    package static func quoted(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(40) {
            switch scalar.properties.generalCategory {
            case .control, .format: shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return text.unicodeScalars.count > 40 ? shown + "…" : shown
    }

    /// A JSON value sent where a number belongs, as a refusal names it: `'0'`, `'ten' (a
    /// string)`, `an array`.
    private static func sent(_ value: JSONValue) -> String {
        switch value.kind {
        case .number(let text): "'\(quoted(text))'"
        case .string(let text): "'\(quoted(text))' (a string)"
        default: value.typeDescription
        }
    }

    // MARK: Dates

    /// `startDate` and `endDate` as a window of Unix milliseconds, `endDate`'s day whole
    /// when it is a date alone; a reason for each that is missing or not ISO 8601.
    private static func dates(_ start: JSONValue?, _ end: JSONValue?, reasons: inout ProblemList)
        -> (start: Int, end: Int)
    {
        let example = "an ISO 8601 date in UTC, such as 2024-06-12 or 2024-06-12T08:00:00Z"
        func read(_ value: JSONValue?, _ name: String) -> (seconds: Int, dateOnly: Bool)? {
            guard let value else {
                reasons.append("\(name) is required: \(example)")
                return nil
            }
            guard case .string(let text) = value.kind else {
                reasons.append("\(name) must be \(example), as a string, not \(value.typeDescription)")
                return nil
            }
            guard let seconds = UTCDate.parse(text) else {
                let shown = text.count > 40 ? text.prefix(40) + "…" : text
                // A date and time of another zone, or of none, is ISO 8601 all the same: say what it is in UTC.
                if let utc = inUTC(text) {
                    reasons.append(
                        "\(name) '\(shown)' \(utc.zoned ? "is not in UTC" : "has no time zone"): give it in UTC, "
                            + "ending in Z: \(utc.text)")
                } else {
                    reasons.append("\(name) '\(shown)' is not \(example)")
                }
                return nil
            }
            return (seconds, text.utf8.count == 10)
        }
        let from = read(start, "startDate")
        let to = read(end, "endDate")
        guard let from, let to else { return (0, 0) }
        let window = (from.seconds * 1000, to.seconds * 1000 + (to.dateOnly ? 86_400_000 - 1 : 999))
        if window.0 > window.1, case .string(let from) = start?.kind, case .string(let to) = end?.kind {
            reasons.append("startDate '\(quoted(from))' is after endDate '\(quoted(to))'")
        }
        return window
    }

    /// An ISO 8601 date and time with a zone other than `Z` (`+02:00`, `-0530`, `+02`; a
    /// space for a `+` a query string decoded), or with none, as the same moment in UTC:
    /// `2026-11-30T22:00:00Z` for `2026-12-01T00:00:00+02:00`. Nil for anything else.
    static func inUTC(_ text: String) -> (text: String, zoned: Bool)? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[10] == UInt8(ascii: "T") else { return nil }
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        func number(_ digits: ArraySlice<UInt8>) -> Int { digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } }
        var end = bytes.count
        var offset = 0
        let signs: [UInt8] = [UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: " ")]
        if let sign = bytes[19...].firstIndex(where: { signs.contains($0) }) {
            let digits = bytes[(sign + 1)...].filter { $0 != UInt8(ascii: ":") }
            guard digits.count == 2 || digits.count == 4, digits.allSatisfy(isDigit) else { return nil }
            let hours = number(digits[0..<2])
            let minutes = digits.count == 4 ? number(digits[2..<4]) : 0
            guard hours < 24, minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[sign] == UInt8(ascii: "-") ? -1 : 1)
            end = sign
        }
        guard let local = UTCDate.parse(String(decoding: bytes[..<end], as: UTF8.self) + "Z") else { return nil }
        return (String(UTCDate.iso8601(unixSeconds: local - offset).dropLast(5)) + "Z", end < bytes.count)
    }
}
