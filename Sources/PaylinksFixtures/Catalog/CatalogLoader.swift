public import PaylinksJSON
public import PaylinksKit

/// The fixture files a catalog is made of.
public enum FixtureFile: String, CaseIterable, Sendable {
    /// The store's offers.
    case offers = "offers.json"
    /// The price tiers and their localizations.
    case pricePoints = "price-points.json"
    /// The status codes and their messages.
    case statusCodes = "status-codes.json"
    /// G1's status table, which the current one replaced.
    case g1StatusCodes = "status-codes-g1.json"
    /// What G3 changes in the current status table.
    case g3StatusCodes = "status-codes-g3.json"
}

/// A fixture file's contents and the name to report it by.
public struct FixtureSource: Sendable {
    /// The name errors show: a path, or `built-in offers.json`.
    public var name: String
    /// The file's bytes.
    public var bytes: [UInt8]

    /// Creates a source.
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

}

extension FixtureSource {
    /// Parses the source as JSON and reads it to the end, turning every problem, of
    /// syntax or of shape, into a ``FixtureError`` with the file's name and the line and
    /// column: a syntax error stops the reading; problems of shape are gathered, up to
    /// the reader's limit, so that one run reports them all.
    func read<T>(_ reader: (JSONReader) throws(JSONShapeError) -> T) throws(FixtureError) -> T {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw FixtureError(file: name, position: error.position, path: nil, reason: error.reason)
        }
        let problems = JSONProblems()
        var result: T?
        do {
            result = try reader(JSONReader(root: root, problems: problems))
        } catch {
            problems.record(error)
        }
        if let result, problems.errors.isEmpty { return result }
        // In the order they stand in the file, which is not always the order they were found.
        let ordered = problems.errors.enumerated().sorted {
            ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset)
        }
        let found = ordered.map { _, error in
            FixtureError(
                file: name, position: TextPosition(offset: error.offset, in: bytes), path: error.path,
                reason: error.reason)
        }
        guard var first = found.first else {
            throw FixtureError(file: name, position: nil, path: nil, reason: "the file could not be read")
        }
        first.others = Array(found.dropFirst())
        first.uncounted = problems.uncounted
        throw first
    }
}

/// Why fixture data was refused: which file, where in it, and what was wrong.
public struct FixtureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file's name.
    public var file: String
    /// The line and column, when the problem has a place.
    public var position: TextPosition?
    /// The path of the offending value: `offers[2].items[0].sku`.
    public var path: String?
    /// What was wrong.
    public var reason: String
    /// The file's further problems, in the order found, when it has several.
    public var others: [FixtureError] = []
    /// How many more problems were found than are listed.
    public var uncounted = 0

    /// Every problem listed: this one, then the others.
    public var problems: [FixtureError] {
        var first = self
        first.others = []
        first.uncounted = 0
        return [first] + others
    }

    /// Creates an error.
    public init(file: String, position: TextPosition?, path: String?, reason: String) {
        self.file = file
        self.position = position
        self.path = path
        self.reason = reason
    }

    /// `file:line:column: path: reason`.
    public var description: String {
        var text = file
        if let position { text += ":\(position)" }
        if let path, !path.isEmpty { text += ": \(path)" }
        // Names and keys come from the file: nothing in them may break the line.
        return MessageText.oneLine(text + ": " + reason)
    }
}

/// Turns fixture JSON into a ``Catalog``, checking every field, so that a broken
/// fixture is reported with its file and place instead of misbehaving later.
///
/// The rules are the fixture format's documentation:
/// - every key is known (a misspelled key is an error naming it), every required key is present;
/// - SKUs, status codes and countries are unique; names and messages are not empty;
/// - tiers are dollar amounts ("4.99"), ascending; every offer's price is a tier;
/// - every localization prices every tier, in a currency whose minor units the
///   multiplier can express; the fallback country (US) has a localization;
/// - the codes the simulator sends by itself (``requiredCodes``) are in the table.
public enum CatalogLoader {
    /// Codes the simulator sends without being asked: a catalog must explain them.
    public static let requiredCodes = PaymentLinksSimulator.ownStatusCodes.sorted()
    /// Codes a G3 simulator sends without being asked, besides the current table's.
    public static let requiredG3Codes = PaymentLinksSimulator.ownG3StatusCodes.sorted()

    /// Which status table a file holds: it decides the keys and the codes required.
    private enum Table {
        /// The current table (G2): every code the simulator sends by itself.
        case current
        /// G1's: each code the simulator sends by itself, or a code that `reports` it.
        case g1
        /// G3's changes: the codes a G3 simulator adds, and entries of the `current`
        /// table delivered on other callbacks, given as just their code and callbacks.
        /// An empty list of callbacks drops the code from G3's table (2003: G3's initialize
        /// takes no customer id).
        case g3(current: [StatusCode])

        var isG1: Bool {
            if case .g1 = self { return true }
            return false
        }
    }

    /// Loads and checks a catalog from its files; a file not given is the built-in one.
    ///
    /// Offers are checked against the price tiers whichever side is built in, so a
    /// replaced `price-points.json` must still price every built-in offer.
    public static func load(
        offers: FixtureSource?, pricePoints: FixtureSource?, statusCodes: FixtureSource?,
        g1StatusCodes: FixtureSource? = nil, g3StatusCodes: FixtureSource? = nil
    ) throws(FixtureError) -> Catalog {
        let builtIn = Catalog.builtIn
        var tiers = builtIn.tiers
        var localizations = builtIn.localizations
        if let pricePoints {
            (tiers, localizations) = try pricePoints.read { root throws(JSONShapeError) in
                try readPriceTable(root)
            }
        }
        var offerList = builtIn.offers
        if let offers {
            offerList = try offers.read { root throws(JSONShapeError) in
                try readOffers(root, tiers: tiers)
            }
        } else if let pricePoints, let unpriced = offerList.first(where: { !tiers.contains($0.basePriceInUSD) }) {
            throw FixtureError(
                file: pricePoints.name, position: nil, path: "tiers",
                reason: "has no tier \"\(unpriced.basePriceInUSD)\", which the built-in offer \(unpriced.sku) uses; "
                    + "add the tier or replace offers.json too")
        }
        func table(_ source: FixtureSource?, _ table: Table, builtIn: [StatusCode]) throws(FixtureError)
            -> [StatusCode]
        {
            guard let source else { return builtIn }
            return try source.read { root throws(JSONShapeError) in try readStatusCodes(root, table: table) }
        }
        let current = try table(statusCodes, .current, builtIn: builtIn.statusCodes)
        return Catalog(
            offers: offerList, statusCodes: current,
            g1StatusCodes: try table(g1StatusCodes, .g1, builtIn: builtIn.g1StatusCodes),
            g3StatusCodes: try table(g3StatusCodes, .g3(current: current), builtIn: builtIn.g3StatusCodes),
            tiers: tiers, localizations: localizations)
    }

    // MARK: price-points.json

    private static func readPriceTable(_ root: JSONReader) throws(JSONShapeError)
        -> ([String], [String: PriceLocalization])
    {
        let object = try root.object(keys: ["tiers", "localizations"])
        let tierReaders = try object.required("tiers").array()
        guard !tierReaders.isEmpty else { throw try object.required("tiers").error("must list at least one tier") }
        var tiers: [String] = []
        var previousCents = -1
        for reader in tierReaders {
            let tier = try reader.string()
            guard let cents = dollarsToCents(tier) else {
                throw reader.error("\"\(tier)\" is not a dollar amount with two decimals, such as \"4.99\"")
            }
            guard cents > previousCents else {
                throw reader.error("tiers must be unique and ascending; \"\(tier)\" follows a larger or equal tier")
            }
            previousCents = cents
            tiers.append(tier)
        }
        var localizations: [String: PriceLocalization] = [:]
        var incomplete = false
        for reader in try object.required("localizations").array() {
            let read = try reader.collecting { () throws(JSONShapeError) -> PriceLocalization in
                let localization = try readLocalization(reader, tiers: tiers)
                guard localizations[localization.country] == nil else {
                    throw reader.error("duplicate localization for country \(localization.country)")
                }
                return localization
            }
            if let read { localizations[read.country] = read } else { incomplete = true }
        }
        // A localization that could not be read may be the fallback's: say nothing more.
        guard localizations[Catalog.fallbackCountry] != nil || incomplete else {
            throw try object.required("localizations").error(
                "needs a localization for \(Catalog.fallbackCountry), which countries without their own use")
        }
        return (tiers, localizations)
    }

    private static func readLocalization(_ reader: JSONReader, tiers: [String]) throws(JSONShapeError)
        -> PriceLocalization
    {
        let object = try reader.object(keys: [
            "country", "currencyCode", "currencySymbol", "fractionalSeparator", "milSeparator", "symbolPosition",
            "spacing", "multiplier", "localizedPrices", "taxModel", "taxRate", "usdExchangeRateOnCalc",
        ])
        let countryReader = try object.required("country")
        let country = try countryReader.string()
        guard CountryCodes.contains(country) else {
            throw countryReader.error("\"\(country)\" is not an ISO 3166-1 alpha-2 country code")
        }
        let currencyReader = try object.required("currencyCode")
        let currency = try currencyReader.string()
        guard CurrencyCodes.contains(currency) else {
            throw currencyReader.error("\"\(currency)\" is not an ISO 4217 currency code")
        }
        let positionReader = try object.required("symbolPosition")
        let symbolPosition = try positionReader.string()
        guard symbolPosition == "Left" || symbolPosition == "Right" else {
            throw positionReader.error("expected \"Left\" or \"Right\", got \"\(symbolPosition)\"")
        }
        let multiplierReader = try object.required("multiplier")
        let multiplier = try multiplierReader.int(in: 1...1_000_000)
        guard PriceFormatter.isPowerOfTen(multiplier) else {
            throw multiplierReader.error("must be a power of ten (1, 10, 100 ...), got \(multiplier)")
        }
        let data = PricePoints.PricingPointData(
            currencyCode: currency,
            currencySymbol: try object.required("currencySymbol").nonEmptyString(),
            fractionalSeparator: try object.required("fractionalSeparator").nonEmptyString(),
            milSeparator: try object.required("milSeparator").string(),
            symbolPosition: symbolPosition,
            spacing: try object.required("spacing").bool(),
            multiplier: multiplier
        )
        let pricesReader = try object.required("localizedPrices")
        var prices: [String: Int] = [:]
        for (tier, priceReader) in try pricesReader.members() {
            guard tiers.contains(tier) else {
                let hint = Suggestion.hint(for: tier, among: tiers, quoted: .double) ?? ""
                throw priceReader.error("\"\(tier)\" is not one of the tiers\(hint)")
            }
            let text = try priceReader.string()
            // The tier 0.00 is free in every country: its offers are free orders (a bonus).
            if tier == freeTier {
                guard text == "0" else {
                    throw priceReader.error(
                        "the tier \(freeTier) is free: its price is \"0\" in every country; got \"\(text)\"")
                }
                prices[tier] = 0
                continue
            }
            guard let price = positiveInteger(text) else {
                throw priceReader.error(
                    "expected a positive whole number as a string, such as \"499\"; got \"\(text)\"")
            }
            let priced = PriceLocalization(country: country, data: data, localizedPrices: [tier: price])
            guard priced.minorUnits(ofTier: tier) != nil else {
                throw priceReader.error(
                    "\(text) with multiplier \(multiplier) is not a whole number of \(currency) minor units")
            }
            prices[tier] = price
        }
        if let missing = tiers.first(where: { prices[$0] == nil }) {
            throw pricesReader.error("has no price for the tier \"\(missing)\"; every tier needs one")
        }
        var localization = PriceLocalization(country: country, data: data, localizedPrices: prices)
        if let modelReader = object.optional("taxModel") {
            let model = try modelReader.string()
            guard let taxModel = PriceLocalization.TaxModel(rawValue: model) else {
                throw modelReader.error("expected \"Included\" or \"Excluded\", got \"\(model)\"")
            }
            localization.taxModel = taxModel
        }
        if let rateReader = object.optional("taxRate") {
            localization.taxRate = try decimal(rateReader, "a tax rate in percent, such as 19 or 8.875", maximum: 100)
        }
        if let exchangeReader = object.optional("usdExchangeRateOnCalc") {
            let rate = try decimal(exchangeReader, "the local units one US dollar buys, such as 0.95", maximum: nil)
            guard !rate.isZero else { throw exchangeReader.error("must be more than 0") }
            localization.usdExchangeRate = rate
        }
        return localization
    }

    /// A plain decimal number (`19`, `0.95`, at most six digits after the point), at most
    /// `maximum` when one is given; `what` says in the error what the field holds.
    private static func decimal(_ reader: JSONReader, _ what: String, maximum: Int?) throws(JSONShapeError)
        -> ExactDecimal
    {
        guard case .number(let text) = reader.value.kind, let number = ExactDecimal(text) else {
            throw reader.error(
                "expected \(what): a number of at most \(ExactDecimal.maximumWhole) with at most "
                    + "\(ExactDecimal.maximumScale) digits after the point")
        }
        if let maximum, number.significand > maximum * number.denominator {
            throw reader.error("\(number) is out of range; expected 0 to \(maximum)")
        }
        return number
    }

    // MARK: offers.json

    private static func readOffers(_ root: JSONReader, tiers: [String]) throws(JSONShapeError) -> [Offer] {
        let object = try root.object(keys: ["offers"])
        let readers = try object.required("offers").array()
        guard !readers.isEmpty else { throw try object.required("offers").error("must list at least one offer") }
        var offers: [Offer] = []
        for reader in readers {
            let read = try reader.collecting { () throws(JSONShapeError) -> Offer in
                try readOffer(reader, tiers: tiers, earlier: offers)
            }
            if let read { offers.append(read) }
        }
        return offers
    }

    /// Reads one offer, every field on its own, so that one run reports each problem of it.
    private static func readOffer(_ reader: JSONReader, tiers: [String], earlier offers: [Offer])
        throws(JSONShapeError) -> Offer
    {
        let offer = try reader.object(keys: ["sku", "name", "basePriceInUSD", "items"])
        let sku = try JSONReader.collected(try offer.required("sku")) { skuReader throws(JSONShapeError) in
            let sku = try identifier(skuReader)
            guard !offers.contains(where: { $0.sku == sku }) else {
                throw skuReader.error("duplicate SKU \"\(sku)\"")
            }
            return sku
        }
        let name = try JSONReader.collected(try offer.required("name")) { value throws(JSONShapeError) in
            try value.nonEmptyString()
        }
        let price = try JSONReader.collected(try offer.required("basePriceInUSD")) {
            priceReader throws(JSONShapeError) in
            let price = try priceReader.string()
            guard tiers.contains(price) else {
                throw priceReader.error(
                    "\"\(price)\" is not a price tier; use one of \(tiers.joined(separator: ", ")) or add it to "
                        + "price-points.json")
            }
            return price
        }
        let items = try JSONReader.collected(try offer.required("items")) { itemsReader throws(JSONShapeError) in
            var items: [OrderResponseModel.Item?] = []
            for item in try itemsReader.array() {
                items.append(try item.collecting { () throws(JSONShapeError) in try readItem(item) })
            }
            guard !items.isEmpty else { throw itemsReader.error("an offer needs at least one item") }
            return items
        }
        guard let sku, let name, let price, let items, !items.contains(where: { $0 == nil }) else {
            throw reader.followingEarlierProblems()
        }
        return Offer(sku: sku, name: name, basePriceInUSD: price, items: items.compactMap { $0 })
    }

    private static func readItem(_ item: JSONReader) throws(JSONShapeError) -> OrderResponseModel.Item {
        let fields = try item.object(keys: ["name", "sku", "quantity"])
        let name = try JSONReader.collected(try fields.required("name")) { value throws(JSONShapeError) in
            try value.nonEmptyString()
        }
        let sku = try JSONReader.collected(try fields.required("sku")) { value throws(JSONShapeError) in
            try identifier(value)
        }
        let quantity = try JSONReader.collected(try fields.required("quantity")) { value throws(JSONShapeError) in
            let quantity = try value.string()
            guard positiveInteger(quantity) != nil else {
                throw value.error("expected a positive whole number as a string, such as \"100\"")
            }
            return quantity
        }
        guard let name, let sku, let quantity else { throw item.followingEarlierProblems() }
        return OrderResponseModel.Item(name: name, sku: sku, quantity: quantity)
    }

    // MARK: status-codes.json

    private static func readStatusCodes(_ root: JSONReader, table: Table) throws(JSONShapeError) -> [StatusCode] {
        let object = try root.object(keys: ["statusCodes"])
        let listReader = try object.required("statusCodes")
        var codes: [StatusCode] = []
        var incomplete = false
        for reader in try listReader.array() {
            let read = try reader.collecting { () throws(JSONShapeError) -> StatusCode in
                let entry = try reader.object(
                    keys: [
                        "code", "name", "meaning", "message", "callbacks", "orderAtFailure", "data", "advice", "cancel",
                    ] + (table.isG1 ? ["reports"] : []))
                let codeReader = try entry.required("code")
                let code = try codeReader.int(in: 1...99_999)
                guard !codes.contains(where: { $0.code == code }) else {
                    throw codeReader.error("duplicate code \(code)")
                }
                // G3's change to a current code: the same code, on other callbacks.
                if case .g3(let current) = table, entry.optional("name") == nil {
                    guard var changed = current.first(where: { $0.code == code }) else {
                        throw codeReader.error(
                            "code \(code) is not in status-codes.json; give its name, meaning, message and callbacks")
                    }
                    let callbacksReader = try entry.required("callbacks")
                    let dropped = try callbacksReader.array().isEmpty
                    changed.callbacks = dropped ? [] : try failureCallbacks(callbacksReader)
                    return changed
                }
                let nameReader = try entry.required("name")
                let name = try nameReader.nonEmptyString()
                guard
                    name.utf8.allSatisfy({
                        $0 == UInt8(ascii: "_") || (0x41...0x5A).contains($0) || (0x30...0x39).contains($0)
                    })
                else { throw nameReader.error("expected an UPPER_SNAKE_CASE name, got \"\(name)\"") }
                guard !codes.contains(where: { $0.name == name }) else {
                    throw nameReader.error("duplicate name \(name)")
                }
                let callbacks = try failureCallbacks(try entry.required("callbacks"))
                var orderAtFailure = StatusCode.OrderAtFailure.none
                if let orderReader = entry.optional("orderAtFailure") {
                    let text = try orderReader.string()
                    let names = StatusCode.OrderAtFailure.allCases.map(\.rawValue)
                    guard let value = StatusCode.OrderAtFailure(rawValue: text) else {
                        throw orderReader.error("expected one of \(names.joined(separator: ", ")), got \"\(text)\"")
                    }
                    orderAtFailure = value
                }
                var dataTemplate: String?
                if let dataReader = entry.optional("data") {
                    let template = try dataReader.nonEmptyString()
                    if let unknown = StatusCode.placeholders(in: template).first(where: {
                        !StatusCode.dataPlaceholders.contains($0)
                    }) {
                        throw dataReader.error(
                            "unknown placeholder ${\(unknown)}; known: "
                                + StatusCode.dataPlaceholders.map { "${\($0)}" }.joined(separator: ", "))
                    }
                    let sample = StatusCode(
                        code: code, name: name, meaning: "", message: "", callbacks: [], dataTemplate: template)
                    guard let filled = sample.error().data, (try? JSONParser.parse(Array(filled.utf8))) != nil else {
                        throw dataReader.error("is not valid JSON once its placeholders are filled")
                    }
                    dataTemplate = template
                }
                let isCancel = try entry.optional("cancel")?.bool() ?? false
                if isCancel, callbacks != [.onPurchaseFailed], callbacks != [.onPurchaseCanceled],
                    let cancelReader = entry.optional("cancel")
                {
                    throw cancelReader.error(
                        "only a code that arrives on onPurchaseFailed or onPurchaseCanceled alone can mean a cancel")
                }
                var reports: [Int] = []
                if let reportsReader = entry.optional("reports") {
                    for codeReader in try reportsReader.array() { reports.append(try codeReader.int(in: 1...99_999)) }
                }
                var statusCode = StatusCode(
                    code: code, name: name, meaning: try entry.required("meaning").nonEmptyString(),
                    message: try entry.required("message").nonEmptyString(), callbacks: callbacks,
                    orderAtFailure: orderAtFailure, dataTemplate: dataTemplate, isCancel: isCancel, reports: reports)
                statusCode.advice = try entry.optional("advice")?.nonEmptyString()
                return statusCode
            }
            if let read { codes.append(read) } else { incomplete = true }
        }
        // An entry that could not be read may be the required code: say nothing more.
        var required = requiredCodes
        if case .g3 = table { required = requiredG3Codes }
        for code in required
        where !incomplete && !codes.contains(where: { $0.code == code || $0.reports.contains(code) }) {
            let alternative = table.isG1 ? ", or a code that reports it" : ""
            throw listReader.error("is missing code \(code)\(alternative), which paylinks sends on its own")
        }
        return codes
    }

    /// A status code's callbacks: one or more failure callbacks.
    private static func failureCallbacks(_ reader: JSONReader) throws(JSONShapeError) -> [CallbackName] {
        var callbacks: [CallbackName] = []
        for callbackReader in try reader.array() {
            let text = try callbackReader.string()
            guard let callback = CallbackName(rawValue: text), CallbackName.failures.contains(callback) else {
                let names = CallbackName.failures.map(\.rawValue)
                let hint = Suggestion.hint(for: text, among: names, quoted: .double) ?? ""
                throw callbackReader.error(
                    "\"\(text)\" is not a failure callback (\(names.joined(separator: ", ")))\(hint)")
            }
            callbacks.append(callback)
        }
        guard !callbacks.isEmpty else { throw reader.error("must name at least one callback") }
        return callbacks
    }

    // MARK: Values

    /// A SKU: letters, digits, `_`, `-` and `.`, 1 to 64 characters.
    private static func identifier(_ reader: JSONReader) throws(JSONShapeError) -> String {
        let text = try reader.nonEmptyString()
        let allowed = text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        guard allowed, text.utf8.count <= 64 else {
            throw reader.error("\"\(text)\" is not a valid SKU: use up to 64 letters, digits, '_', '-' or '.'")
        }
        return text
    }

    /// The tier of free offers, priced 0 everywhere: buying one makes a free order.
    static let freeTier = "0.00"

    /// A string of decimal digits naming a positive number that fits in an Int.
    static func positiveInteger(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text), value > 0
        else { return nil }
        return value
    }

    /// "4.99" → 499; nil unless the text is digits, a dot and exactly two digits.
    static func dollarsToCents(_ text: String) -> Int? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, !parts[0].isEmpty,
            parts.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
            let dollars = Int(parts[0]), let cents = Int(parts[1]), dollars <= 1_000_000
        else { return nil }
        return dollars * 100 + cents
    }
}
