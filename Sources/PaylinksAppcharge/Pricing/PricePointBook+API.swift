import PaylinksJSON
import PaylinksKit

/// Create, Get, Update and Delete of price points, as the Price Localization API takes
/// them (PL/create-price-point and the pages beside it): the bodies read and checked,
/// and the book changed.
extension PricePointBook {
    /// Why a call is refused, each with Appcharge's words.
    public enum Problem: Error, Equatable {
        /// A body that is not the documented shape: 400.
        case invalidBody
        /// An override names a country the point has no row for: 400.
        case unknownCountry(String)
        /// The point to create, or to move an update to, exists: 409.
        case exists
        /// No point of the path's cents, as sent: 404.
        case notFound(String)

        /// The `message`, exactly as Appcharge words it, with the value substituted.
        public var message: String {
            switch self {
            case .invalidBody: "Invalid request body"
            case .unknownCountry(let country): "Country code \(country) not found in existing custom pricing."
            case .exists: "Cannot create new pricing. The price point already exists."
            // A path with no cents at all (`/v1/price-points/`) names none.
            case .notFound(let cents): cents.isEmpty ? "Price point not found." : "Price point \(cents) not found."
            }
        }
    }

    /// Create: `{"priceInUsdCents": 999, "priceOverrides"?: [{"countryCode2", "price"}]}`,
    /// and no other member; the new point, last updated `now`.
    public mutating func create(_ body: [UInt8], now: Int) throws(Problem) -> Point {
        let members = try Self.members(body, allowed: ["priceInUsdCents", "priceOverrides"])
        guard let centsValue = members["priceInUsdCents"] else { throw .invalidBody }
        let cents = try Self.cents(centsValue)
        let overrides = try members["priceOverrides"].map { (value) throws(Problem) in try self.overrides(value) } ?? []
        guard points[cents] == nil else { throw .exists }
        let point = Point(cents: cents, lastUpdate: now, fromCatalog: false, overrides: overrides)
        put(point)
        return point
    }

    /// The point a path names, as sent: `999`.
    public func point(path: String) throws(Problem) -> Point {
        guard let cents = Self.pathCents(path), let point = points[cents] else {
            throw .notFound(Self.shown(path))
        }
        return point
    }

    /// Update: `{"updatedPriceInUsdCents"?, "priceOverrides"?}` and no other member. A new
    /// base recomputes every local price from the rates, then the overrides apply (the
    /// ones sent, else the point's own); the point, last updated `now`.
    public mutating func update(path: String, _ body: [UInt8], now: Int) throws(Problem) -> Point {
        let members = try Self.members(body, allowed: ["updatedPriceInUsdCents", "priceOverrides"])
        let newCents = try members["updatedPriceInUsdCents"].map { (value) throws(Problem) in try Self.cents(value) }
        let overrides = try members["priceOverrides"].map { (value) throws(Problem) in try self.overrides(value) }
        let old = try point(path: path)
        let cents = newCents ?? old.cents
        // Moving a point onto another is the only conflict an update can make.
        guard cents == old.cents || points[cents] == nil else { throw .exists }
        let point = Point(
            cents: cents, lastUpdate: now, fromCatalog: old.fromCatalog && cents == old.cents,
            overrides: overrides ?? old.overrides)
        if cents != old.cents { delete(old.cents) }
        put(point)
        return point
    }

    /// Delete: the point as it was.
    public mutating func delete(path: String) throws(Problem) -> Point {
        let old = try point(path: path)
        delete(old.cents)
        return old
    }

    /// The members of an object `body`, each named in `allowed`, each once.
    private static func members(_ body: [UInt8], allowed: Set<String>) throws(Problem) -> [String: JSONValue] {
        guard let value = try? JSONParser.parse(body), case .object(let list) = value.kind else { throw .invalidBody }
        var members: [String: JSONValue] = [:]
        for (key, value) in list {
            guard allowed.contains(key), members[key] == nil else { throw .invalidBody }
            members[key] = value
        }
        return members
    }

    /// A point's US cents: a whole number in ``centsRange``.
    private static func cents(_ value: JSONValue) throws(Problem) -> Int {
        guard let cents = value.wholeNumber, centsRange.contains(cents) else {
            throw .invalidBody
        }
        return cents
    }

    /// `[{"countryCode2": "BR", "price": 29.99}]`: each country once, a row of the point's,
    /// and a price in major units its currency can charge exactly (``takes(_:)``).
    private func overrides(_ value: JSONValue) throws(Problem) -> [Override] {
        guard case .array(let items) = value.kind else { throw .invalidBody }
        var overrides: [Override] = []
        for item in items {
            guard case .object(let fields) = item.kind, fields.count == 2,
                case .string(let country)? = fields.first(where: { $0.key == "countryCode2" })?.value.kind,
                case .number(let text)? = fields.first(where: { $0.key == "price" })?.value.kind,
                let price = ExactDecimal.reading(jsonNumber: text), !price.isZero,
                !overrides.contains(where: { $0.country == country })
            else { throw .invalidBody }
            guard hasRow(country) else { throw .unknownCountry(Self.shown(country)) }
            let override = Override(country: country, price: price)
            guard takes(override) else { throw .invalidBody }
            overrides.append(override)
        }
        return overrides
    }

    /// The cents a path segment names: digits alone.
    private static func pathCents(_ path: String) -> Int? {
        guard !path.isEmpty, path.utf8.count <= 18, path.utf8.allSatisfy({ (48...57).contains($0) }) else {
            return nil
        }
        return Int(path)
    }

    /// A value from a request as a message shows it: at most 40 characters of it.
    private static func shown(_ text: String) -> String {
        String(text.prefix(40))
    }
}
