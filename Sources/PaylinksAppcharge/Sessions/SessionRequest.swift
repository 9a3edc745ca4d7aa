package import PaylinksJSON
package import PaylinksKit

/// The body of a Create Checkout Session request, checked field by field as the
/// reference documents it.
package struct SessionRequest {
    /// Why a body is refused: the field and what is wrong, in a sentence.
    package struct Problem: Error {
        /// Every problem in one sentence each, joined with "; ".
        package var message: String
        /// Each problem, in the order of the reference's fields: the first 20, then how many
        /// more there were.
        package var all: [String] = []
    }

    package var price: Int
    package var currency: String
    package var offerName: String
    package var offerSku: String
    package var pricePointMetadata: Int?
    package var items: [OrderResponseModel.Item]
    package var customerId: String
    package var email: String?
    /// `customer.identitySignals.firstSeenAt`, Unix milliseconds: when the publisher first
    /// saw the player. Read here, and held to the past where the clock is (the sandbox).
    package var firstSeenAt: Int?
    package var country: String
    package var metadata: [UInt8]?
    package var redirectUrl: String?
    /// The members the body has that Create Checkout Session has no field for, which
    /// Appcharge ignores (a `countryCode` for `countryCode2`, say): the first
    /// ``unknownFieldLimit``, each key once.
    package var unknownFields: [UnknownField] = []

    /// A member of the body that is none of the reference's fields.
    package struct UnknownField: Equatable, Sendable {
        /// Where it is: "", "offer.", "items[2]." ...
        package var object: String
        /// Its key, as sent.
        package var key: String
        /// The fields its object has.
        package var fields: [String]
    }

    /// The most unknown fields a session notes.
    package static let unknownFieldLimit = 5

    /// The fields of the reference's request, object by object: what the sandbox reads,
    /// and what it knows Appcharge takes and ignores.
    private static let topFields: [StaticString] = [
        "priceDetails", "offer", "items", "customer", "countryCode2", "receiptMetadata", "sessionMetadata",
        "attributes", "redirectUrl",
    ]
    private static let priceFields: [StaticString] = ["price", "currency"]
    private static let offerFields: [StaticString] = [
        "name", "sku", "displayName", "pricePointMetadata", "assetUrl", "description",
    ]
    private static let itemFields: [StaticString] = [
        "name", "sku", "quantity", "assetUrl", "quantityDisplay", "displayName",
    ]
    private static let customerFields: [StaticString] = ["id", "email", "identitySignals"]

    /// Reads a body, or throws every problem of it, in the order of the reference's fields:
    /// off a ``JSONTape`` when the body is plain JSON, as bodies are, or else parsed.
    package init(_ body: [UInt8]) throws(Problem) {
        if let tape = JSONTape(body) {
            try self.init(reading: tape.root)
            return
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(body)
        } catch {
            // The parser words an empty text as a file; a request's body is no file.
            throw Problem(
                message: error.isEmptyText
                    ? "the body is empty; send the session as a JSON object with priceDetails, offer and customer "
                        + "at least"
                    : error.bodyProblem)
        }
        try self.init(reading: root)
    }

    /// Reads a body's value, or throws every problem of it, in the order of the reference's
    /// fields.
    package init(reading root: some JSONReadable) throws(Problem) {
        let top = try Self.object(root, "the body")
        var problems = ProblemList()
        /// `read()`, or nil with its problem noted, so that the rest is read too.
        func noted<T>(_ read: () throws(Problem) -> T) -> T? {
            do {
                return try read()
            } catch {
                problems.append(error.message)
                return nil
            }
        }
        let priceDetails = noted { () throws(Problem) in
            try Self.object(try Self.required(top, "priceDetails", in: ""), "priceDetails")
        }
        let price = priceDetails.flatMap { details in
            noted { () throws(Problem) in
                try Self.amount(try Self.required(details, "price", in: "priceDetails."), "priceDetails.price")
            }
        }
        let currency = priceDetails.flatMap { details in
            noted { () throws(Problem) in
                let currency = try Self.string(
                    try Self.required(details, "currency", in: "priceDetails."), "priceDetails.currency")
                guard CurrencyCodes.contains(currency) else {
                    throw Problem(
                        message:
                            "priceDetails.currency '\(currency.prefix(12))' is not an ISO 4217 code, such as USD or EUR"
                    )
                }
                return currency
            }
        }
        let offer = noted { () throws(Problem) in try Self.object(try Self.required(top, "offer", in: ""), "offer") }
        let offerName = offer.flatMap { offer in
            noted { () throws(Problem) in
                let name = try Self.string(try Self.required(offer, "name", in: "offer."), "offer.name")
                guard !name.isEmpty else { throw Problem(message: "offer.name is empty; give the offer's name") }
                return name
            }
        }
        let offerSku = offer.flatMap { offer in
            noted { () throws(Problem) in
                let sku = try Self.string(try Self.required(offer, "sku", in: "offer."), "offer.sku")
                guard !sku.isEmpty else { throw Problem(message: "offer.sku is empty; give the game's offer id") }
                return sku
            }
        }
        pricePointMetadata = offer?.member("pricePointMetadata").flatMap { value in
            noted { () throws(Problem) in try Self.amount(value, "offer.pricePointMetadata") }
        }
        for name: StaticString in ["displayName", "assetUrl", "description"] {
            if let value = offer?.member(name) {
                _ = noted { () throws(Problem) in try Self.string(value, "offer.\(name)") }
            }
        }
        var items: [OrderResponseModel.Item] = []
        if let list = top.member("items") {
            if let elements = list.elements {
                for (index, element) in elements.enumerated() {
                    // Named only in a problem.
                    func path() -> String { "items[\(index)]" }
                    guard let item = noted({ () throws(Problem) in try Self.object(element, path()) }) else { continue }
                    let name = noted { () throws(Problem) in
                        try Self.string(try Self.required(item, "name", in: path() + "."), path() + ".name")
                    }
                    let sku = noted { () throws(Problem) in
                        try Self.string(try Self.required(item, "sku", in: path() + "."), path() + ".sku")
                    }
                    let quantity = noted { () throws(Problem) in
                        try Self.integer(
                            try Self.required(item, "quantity", in: path() + "."), path() + ".quantity",
                            maximum: Int.max,
                            largest: "the largest quantity a session takes")
                    }
                    if let name, let sku, let quantity {
                        items.append(OrderResponseModel.Item(name: name, sku: sku, quantity: String(quantity)))
                    }
                }
            } else {
                problems.append("items must be an array of {name, sku, quantity}, not \(list.typeDescription)")
            }
        }
        self.items = items
        let customer = noted { () throws(Problem) in
            try Self.object(try Self.required(top, "customer", in: ""), "customer")
        }
        let customerId = customer.flatMap { customer in
            noted { () throws(Problem) in
                let id = try Self.string(try Self.required(customer, "id", in: "customer."), "customer.id")
                guard !id.isEmpty else {
                    throw Problem(
                        message: "customer.id is empty; send the player's id, the customerId the app gives the SDK")
                }
                return id
            }
        }
        email = customer?.member("email").flatMap { value in
            noted { () throws(Problem) in try Self.string(value, "customer.email") }
        }
        if let signals = customer?.member("identitySignals") {
            firstSeenAt = noted { () throws(Problem) in try Self.firstSeenAt(in: signals) } ?? nil
        }
        country = "US"
        if let value = top.member("countryCode2") {
            country =
                noted { () throws(Problem) in
                    let country = try Self.string(value, "countryCode2")
                    guard CountryCodes.contains(country) else {
                        // The mistakes the CLI's --country knows (UK for GB, ...), with its suggestion.
                        let advice =
                            CountryCodes.commonMistakes[country.uppercased()].map { "; did you mean \($0)?" }
                            ?? ", such as US or DE"
                        throw Problem(
                            message:
                                "countryCode2 '\(Reports.quoted(String(country.prefix(12))))' is not an ISO 3166-1 alpha-2 code\(advice)"
                        )
                    }
                    return country
                } ?? country
        }
        if let value = top.member("sessionMetadata") {
            if value.isObject, value.nesting > Self.metadataDepthLimit {
                problems.append(
                    "sessionMetadata nests \(value.nesting) levels deep; the sandbox keeps at most "
                        + "\(Self.metadataDepthLimit)")
            } else if value.isObject {
                var writer = JSONWriter()
                value.write(to: &writer)
                metadata = writer.bytes
            } else {
                problems.append("sessionMetadata must be an object, not \(value.typeDescription)")
            }
        }
        redirectUrl = top.member("redirectUrl").flatMap { value in
            noted { () throws(Problem) in try Self.redirectUrl(try Self.string(value, "redirectUrl")) }
        }
        guard problems.isEmpty, let price, let currency, let offerName, let offerSku, let customerId else {
            throw Problem(message: problems.reasons.joined(separator: "; "), all: problems.reasons)
        }
        self.price = price
        self.currency = currency
        self.offerName = offerName
        self.offerSku = offerSku
        self.customerId = customerId
        unknownFields = Self.unknownFields(of: top)
    }

    /// The members of `top`, and of its objects, that are none of the reference's fields:
    /// the first ``unknownFieldLimit``, a key of the items once. A body with none, the
    /// usual, costs a look at each key and makes nothing.
    private static func unknownFields<Value: JSONReadable>(of top: Value) -> [UnknownField] {
        var found: [UnknownField] = []
        /// Notes the unknown keys of `value`, in `place` (`item`: of the items' `item`th).
        func note(_ value: Value?, _ place: String, _ names: [StaticString], item: Int? = nil) {
            guard let value, found.count < unknownFieldLimit else { return }
            for key in value.keys(besides: names) where found.count < unknownFieldLimit {
                if item != nil && found.contains(where: { $0.key == key && $0.object.hasPrefix("items[") }) { continue }
                let object = item.map { "items[\($0)]." } ?? place
                found.append(UnknownField(object: object, key: key, fields: names.map(\.description)))
            }
        }
        note(top, "", topFields)
        note(top.member("priceDetails"), "priceDetails.", priceFields)
        note(top.member("offer"), "offer.", offerFields)
        if let items = top.member("items")?.elements {
            for (index, item) in items.enumerated() { note(item, "items[].", itemFields, item: index) }
        }
        note(top.member("customer"), "customer.", customerFields)
        return found
    }

    /// How deeply `sessionMetadata` may nest, itself the first level. Every record that
    /// holds it nests it a few levels deeper (the journal's line and the session around
    /// it), and must still read back within the parser's ``JSONParser/maximumDepth``.
    package static let metadataDepthLimit = 32

    /// The member `name` of the object `object`, at `parent` + `name`.
    private static func required<Value: JSONReadable>(
        _ object: Value, _ name: StaticString, in parent: @autoclosure () -> String
    ) throws(Problem) -> Value {
        guard let value = object.member(name) else { throw Problem(message: "\(parent())\(name) is required") }
        return value
    }

    private static func object<Value: JSONReadable>(_ value: Value, _ path: @autoclosure () -> String)
        throws(Problem) -> Value
    {
        guard value.isObject else {
            throw Problem(message: "\(path()) must be an object, not \(value.typeDescription)")
        }
        return value
    }

    private static func string(_ value: some JSONReadable, _ path: @autoclosure () -> String) throws(Problem)
        -> String
    {
        guard let text = value.stringValue else {
            throw Problem(message: "\(path()) must be a string, not \(value.typeDescription)")
        }
        return text
    }

    /// A whole number of 0 or more at `path`; one above `maximum`, within `Int` or beyond
    /// it (`9223372036854775808`, `1e999999999`), is refused as more than `maximum`, which
    /// `largest` names, since it is whole and not below 0.
    private static func integer(
        _ value: some JSONReadable, _ path: @autoclosure () -> String, maximum: Int, largest: String
    ) throws(Problem) -> Int {
        switch value.wholeNumberReading {
        case .whole(let number)? where number >= 0:
            guard number <= maximum else { throw Problem(message: "\(path()) is more than \(maximum), \(largest)") }
            return number
        case .aboveInt?: throw Problem(message: "\(path()) is more than \(maximum), \(largest)")
        default: throw Problem(message: "\(path()) must be a whole number of 0 or more, not \(Self.shown(value))")
        }
    }

    /// The largest amount a session takes, in minor units (`priceDetails.price`) or US
    /// cents (`offer.pricePointMetadata`): 10^12, ten billion dollars in cents. Prices,
    /// fees and net amounts figured from it stay far from the range of `Int`.
    package static let maximumAmount = 1_000_000_000_000

    /// A number with a fraction is refused with what an amount counts: `4.99` is 499.
    private static func amount(_ value: some JSONReadable, _ path: @autoclosure () -> String) throws(Problem) -> Int {
        do {
            return try integer(value, path(), maximum: maximumAmount, largest: "the largest amount a session takes")
        } catch {
            guard case .notWhole? = value.wholeNumberReading else { throw error }
            let unit = path() == "priceDetails.price" ? "the currency's minor units" : "US cents"
            throw Problem(message: "\(error.message); an amount is in \(unit), 499 for 4.99")
        }
    }

    /// `customer.identitySignals.firstSeenAt` of `signals`, in Unix milliseconds: an RFC 3339
    /// time (`Z` or an offset, an optional fraction), as the 2026-05-20 release note and
    /// Create Checkout Session's reference have it; nil when absent.
    private static func firstSeenAt(in signals: some JSONReadable) throws(Problem) -> Int? {
        let path = "customer.identitySignals"
        let example = "such as 2021-01-01T00:00:00Z"
        guard signals.isObject else {
            throw Problem(
                message: "\(path) must be an object, such as {\"firstSeenAt\": \"2021-01-01T00:00:00Z\"}, not "
                    + signals.typeDescription)
        }
        guard let value = signals.member("firstSeenAt") else { return nil }
        guard let text = value.stringValue else {
            throw Problem(
                message: "\(path).firstSeenAt must be a string, an RFC 3339 time \(example), not "
                    + value.typeDescription)
        }
        guard let milliseconds = RFC3339.milliseconds(text) else {
            throw Problem(
                message: "\(path).firstSeenAt '\(Reports.quoted(text))' is not an RFC 3339 time; "
                    + "send the date, the time and Z or an offset, \(example) or 2021-01-01T02:00:00.5+02:00")
        }
        return milliseconds
    }

    /// `text` as a `redirectUrl`, which the checkout sends the browser to in a `Location`,
    /// by ``RedirectURL``'s rule.
    private static func redirectUrl(_ text: String) throws(Problem) -> String {
        if let problem = RedirectURL.problem(text) {
            throw Problem(message: "redirectUrl '\(Reports.quoted(String(text.prefix(80))))' \(problem)")
        }
        return text
    }

    private static func shown(_ value: some JSONReadable) -> String {
        if let text = value.numberText { return text.count > 20 ? "a number that large" : text }
        return value.typeDescription
    }
}
