import PaylinksJSON
public import PaylinksKit

/// Appcharge's price points as its Price Localization API keeps them: the catalog's tiers
/// to begin with, then what Create, Update and Delete made of them, and the localized
/// price of any US-cents value in any country, the lookup's answer.
///
/// One source of prices: a tier the book holds as the catalog gave it is priced as the
/// catalog's localization prices it, so that the SDK's price points, the lookup and the
/// awards agree; any other value is the localization's exchange rate times the dollars,
/// rounded once, half up, to the currency's minor unit, with no tax multiplied in
/// (PL/introduction with "Display Tax-Inclusive Prices" off, which the documented
/// lookup's 699 → 664 at 0.95 EUR per dollar implies). A country's override replaces its
/// price as it is given.
public struct PricePointBook: Sendable {
    /// The localizations, by country, and the tiers the book starts with.
    let catalog: Catalog
    /// The time the catalog's tiers carry as their last update, Unix milliseconds: when
    /// the sandbox started.
    private(set) var since: Int
    /// The points held, by their US cents.
    private(set) var points: [Int: Point]
    /// The records of what changed since the last ``saved()``, oldest first.
    public private(set) var changes: [Record] = []
    /// What each point changed since the last ``saved()`` was before, to undo.
    private var undo: [Int: Point?] = [:]

    /// The fewest and most US cents a price point takes: the dashboard's $0.80 to $5,000
    /// (set-up-price-points; the CSV import's bounds), so that every sandbox price point
    /// could exist in the dashboard.
    public static let centsRange = 80...500_000

    /// A price point.
    public struct Point: Sendable, Equatable {
        /// Its base price in US cents: its key.
        public var cents: Int
        /// When it was created or last updated, Unix milliseconds.
        public var lastUpdate: Int
        /// Whether its local prices are the catalog's tier's: false once created or moved
        /// through the API, when they come from the exchange rates.
        public var fromCatalog: Bool
        /// The prices set by hand, in the order given.
        public var overrides: [Override]
    }

    /// A country's price set by hand, in the currency's major units, tax included where
    /// the country's model includes it (PL/introduction).
    public struct Override: Sendable, Equatable {
        /// The country, ISO 3166-1 alpha-2.
        public var country: String
        /// The price in major units: 29.99.
        public var price: ExactDecimal

        /// An override of `country`'s price to `price`.
        public init(country: String, price: ExactDecimal) {
            self.country = country
            self.price = price
        }
    }

    /// What a journal keeps of the book: a point as it now stands, or that the point of
    /// `cents` was deleted. A later record of the same cents replaces an earlier.
    public struct Record: Sendable, Equatable {
        /// The point's US cents.
        public var cents: Int
        /// The point, or nil when it was deleted.
        public var point: Point?
    }

    /// A country's price of a point: in minor units, with the localization it is in
    /// (nil for a country answered in US dollars), and whether an override set it.
    public struct LocalPrice: Sendable, Equatable {
        /// The price in the currency's minor units.
        public var minorUnits: Int
        /// The currency, ISO 4217.
        public var currency: String
        /// The price as a player reads it: "6,64 €".
        public var displayPrice: String
        /// Whether an override set it.
        public var isOverridden: Bool
    }

    /// The catalog's tiers, as points last updated at `since`.
    public init(catalog: Catalog, since: Int) {
        self.catalog = catalog
        self.since = since
        var points: [Int: Point] = [:]
        for tier in catalog.tiers {
            guard let cents = Self.cents(ofTier: tier) else { continue }
            points[cents] = Point(cents: cents, lastUpdate: since, fromCatalog: true, overrides: [])
        }
        self.points = points
    }

    /// The US cents a tier such as "4.99" names; nil when it names none.
    static func cents(ofTier tier: String) -> Int? {
        guard let value = ExactDecimal(tier), value.scale <= 2 else { return nil }
        return value.scale == 2 ? value.significand : value.significand * (value.scale == 1 ? 10 : 100)
    }

    /// The tier a point of `cents` is in the catalog, with two decimals as tiers are
    /// written: "4.99" for 499, "5.00" for 500.
    static func tier(ofCents cents: Int) -> String {
        let (dollars, rest) = cents.quotientAndRemainder(dividingBy: 100)
        // No tier is negative: such cents find none, as before.
        guard cents >= 0 else { return String(dollars) + (rest < 10 ? ".0" : ".") + String(rest) }
        // Written from the end in a buffer on the stack: a lookup of many prices makes one
        // short string each, and no other.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            let end = buffer.count - 3
            buffer[end] = UInt8(ascii: ".")
            buffer[end + 1] = UInt8(ascii: "0") + UInt8(rest / 10)
            buffer[end + 2] = UInt8(ascii: "0") + UInt8(rest % 10)
            let start = buffer.writeDecimal(UInt64(dollars), endingAt: end)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }

    /// The sandbox started at `time` on its clock, a journal's virtual clock once it is
    /// read: the catalog's tiers no request changed carry it as their `lastUpdate`.
    public mutating func started(at time: Int) {
        for (cents, point) in points
        where point == Point(cents: cents, lastUpdate: since, fromCatalog: true, overrides: []) {
            points[cents]?.lastUpdate = time
        }
        since = time
    }

    /// Every point, cheapest first: the catalog's tiers are in that order.
    public var all: [Point] { points.values.sorted { $0.cents < $1.cents } }

    /// The point of `cents`, when there is one.
    public func point(_ cents: Int) -> Point? { points[cents] }

    /// Every record that makes the catalog's book this one: a point created, changed or
    /// deleted, by cents. A book never changed has none.
    public var records: [Record] {
        var records: [Record] = []
        var keys = Set(points.keys)
        for tier in catalog.tiers {
            if let cents = Self.cents(ofTier: tier) { keys.insert(cents) }
        }
        let fresh = PricePointBook(catalog: catalog, since: since)
        for cents in keys.sorted() where points[cents] != fresh.points[cents] {
            records.append(Record(cents: cents, point: points[cents]))
        }
        return records
    }

    // MARK: Changes

    /// Puts `point` at its cents, replacing what was there.
    public mutating func put(_ point: Point) {
        note(point.cents)
        points[point.cents] = point
        changes.append(Record(cents: point.cents, point: point))
    }

    /// Deletes the point of `cents`.
    public mutating func delete(_ cents: Int) {
        note(cents)
        points[cents] = nil
        changes.append(Record(cents: cents, point: nil))
    }

    private mutating func note(_ cents: Int) {
        if undo.index(forKey: cents) == nil { undo[cents] = .some(points[cents]) }
    }

    /// The changes are kept: forget how to undo them.
    public mutating func saved() {
        changes = []
        undo = [:]
    }

    /// The changes could not be kept: the book is as it was at the last ``saved()``.
    public mutating func rollback() {
        for (cents, point) in undo { points[cents] = point }
        saved()
    }

    /// Takes back a record kept before a restart.
    public mutating func restore(_ record: Record) {
        var point = record.point
        // An override the fixtures no longer take (its country gone, its currency's digits
        // changed) is dropped, as the API would refuse it now.
        point?.overrides.removeAll { !takes($0) }
        points[record.cents] = point
    }

    // MARK: Prices

    /// Whether `country` is one the lookup answers: a localization of the catalog's, or
    /// any other officially assigned ISO 3166-1 code, answered in US dollars. The list of
    /// supported countries is Appcharge's page
    /// https://docs.appcharge.com/guides/checkout/price-localization/supported-countries,
    /// whose body is not public: the sandbox takes every assigned code, and refuses the
    /// user-assigned ones (XX, ZZ, AA, QM to QZ, XA to XZ) as not supported.
    public func supports(_ country: String) -> Bool {
        catalog.ownLocalization(of: country) != nil || CountryCodes.contains(country)
    }

    /// The localized price of `cents` in `country`: the point's own (the catalog's tier's,
    /// else converted), its override, or, for a value no point holds, the conversion. A
    /// country without a localization gets the US-dollar price, as a currency that is not
    /// enabled shows the dollar price (PL/introduction). Nil when the localization has no
    /// exchange rate to convert with, or the amount does not fit.
    public func price(_ cents: Int, in country: String) -> LocalPrice? {
        price(cents, point: points[cents], in: country, localization: catalog.ownLocalization(of: country))
    }

    /// The localized price of each of `cents` in `country`, in their order, as
    /// ``price(_:in:)`` gives it: the lookup's answer, the country's localization found once.
    public func prices(_ cents: [Int], in country: String) -> [LocalPrice?] {
        let localization = catalog.ownLocalization(of: country)
        return cents.map { price($0, point: points[$0], in: country, localization: localization) }
    }

    /// The price of `cents` in `country`, whose localization is `localization`, when
    /// `point` is the point of those cents.
    func price(_ cents: Int, point: Point?, in country: String, localization: PriceLocalization?) -> LocalPrice? {
        guard let localization else {
            return LocalPrice(
                minorUnits: cents, currency: "USD",
                displayPrice: Self.display(cents, currency: "USD", catalog: catalog),
                isOverridden: false)
        }
        guard let found = minorUnits(cents, point: point, in: country, localization: localization) else { return nil }
        return LocalPrice(
            minorUnits: found.minorUnits, currency: localization.data.currencyCode,
            displayPrice: Self.display(found.minorUnits, as: localization),
            isOverridden: found.isOverridden)
    }

    /// A price without its display: the amount in the currency's minor units, the
    /// currency, and whether an override set it; the cents, in USD, where the catalog has
    /// no localization of the country.
    public typealias Amount = (minorUnits: Int, currency: String, isOverridden: Bool)

    /// The amount of `cents` in `country`: what a check of a price sent needs, which shows
    /// the price only when it differs.
    public func amount(_ cents: Int, in country: String) -> Amount? {
        guard let localization = catalog.ownLocalization(of: country) else { return (cents, "USD", false) }
        guard let found = minorUnits(cents, point: points[cents], in: country, localization: localization) else {
            return nil
        }
        return (found.minorUnits, localization.data.currencyCode, found.isOverridden)
    }

    /// The amount of `cents` in `country`'s currency, `localization`'s, when `point` is the
    /// point of those cents, and whether an override set it; nil when it cannot be figured.
    private func minorUnits(_ cents: Int, point: Point?, in country: String, localization: PriceLocalization)
        -> (minorUnits: Int, isOverridden: Bool)?
    {
        if let overridden = point?.overrides.last(where: { $0.country == country }) {
            return Self.minorUnits(overridden.price, currency: localization.data.currencyCode).map { ($0, true) }
        }
        if point?.fromCatalog ?? false, let tierPrice = localization.minorUnits(ofTier: Self.tier(ofCents: cents)) {
            return (tierPrice, false)
        }
        return Self.converted(cents, localization: localization).map { ($0, false) }
    }

    /// `cents` US cents at the localization's exchange rate, in its currency's minor units,
    /// rounded once, half up: 4550 at 0.95 EUR is 4322.5, so 4323.
    static func converted(_ cents: Int, localization: PriceLocalization) -> Int? {
        guard let rate = localization.usdExchangeRate, cents >= 0 else { return nil }
        let scale = CurrencyCodes.minorUnitScale(of: localization.data.currencyCode)
        // cents × rate × scale / 100, rate = significand / 10^scale.
        let (product, overflow) = cents.multipliedReportingOverflow(by: rate.significand)
        let (numerator, overflow2) = product.multipliedReportingOverflow(by: scale)
        let (denominator, overflow3) = rate.denominator.multipliedReportingOverflow(by: 100)
        guard !overflow, !overflow2, !overflow3, denominator > 0 else { return nil }
        return roundedHalfUp(numerator, denominator)
    }

    /// A price in major units, in minor units, rounded once, half up: 29.99 BRL is 2999.
    static func minorUnits(_ price: ExactDecimal, currency: String) -> Int? {
        let (numerator, overflow) = price.significand.multipliedReportingOverflow(
            by: CurrencyCodes.minorUnitScale(of: currency))
        guard !overflow else { return nil }
        return roundedHalfUp(numerator, price.denominator)
    }

    /// `numerator / denominator`, both not negative, rounded half up.
    static func roundedHalfUp(_ numerator: Int, _ denominator: Int) -> Int {
        numerator / denominator + (numerator % denominator * 2 >= denominator ? 1 : 0)
    }

    /// An amount in minor units as the localization's price points show it, with the
    /// formatter the SDK's `formattedPrice` comes from: "6,64 €", "¥1,500".
    static func display(_ amount: Int, as localization: PriceLocalization) -> String {
        let data = localization.data
        let scale = CurrencyCodes.minorUnitScale(of: data.currencyCode)
        let (scaled, overflow) = amount.multipliedReportingOverflow(by: data.multiplier)
        guard !overflow, scaled % scale == 0 else {
            return PriceFormatter.formatMinorUnits(amount, currency: data.currencyCode)
        }
        return PriceFormatter.format(scaled / scale, as: data)
    }

    /// An amount in minor units of `currency`, by the first localization of the catalog
    /// that uses it (the fallback country's first), else with its code: "$6.99".
    static func display(_ amount: Int, currency: String, catalog: Catalog) -> String {
        let fallback = catalog.ownLocalization(of: Catalog.fallbackCountry)
        let found =
            fallback?.data.currencyCode == currency
            ? fallback
            : catalog.localizedCountries.lazy.compactMap { catalog.ownLocalization(of: $0) }.first {
                $0.data.currencyCode == currency
            }
        guard let found else { return PriceFormatter.formatMinorUnits(amount, currency: currency) }
        return display(amount, as: found)
    }

    /// The localizations a point has a row for, by country code: every one the point has
    /// a price in.
    public func rows(of point: Point) -> [(localization: PriceLocalization, price: LocalPrice)] {
        catalog.localizedCountries.compactMap { country in
            guard let localization = catalog.ownLocalization(of: country),
                let price = price(point.cents, point: point, in: country, localization: localization)
            else { return nil }
            return (localization, price)
        }
    }

    /// Whether `country` has a row in a point: a localization of the catalog's, which
    /// an override may name (`Country code XX not found in existing custom pricing.`).
    public func hasRow(_ country: String) -> Bool {
        catalog.ownLocalization(of: country) != nil
    }

    /// The most minor units a price set by hand may be: Create Session's largest amount.
    public static let overrideLimit = 1_000_000_000_000

    /// Whether `override` is a price its country can be set to by hand: a row of the point's,
    /// and exactly a whole number of its currency's minor units (no rounding rule applies to
    /// an override, PL/introduction), from one to ``overrideLimit``: 0.004 EUR is refused,
    /// never priced 0, so that a paid price point cannot become a free order.
    public func takes(_ override: Override) -> Bool {
        guard let localization = catalog.ownLocalization(of: override.country) else { return false }
        let scale = CurrencyCodes.minorUnitScale(of: localization.data.currencyCode)
        let (scaled, overflow) = override.price.significand.multipliedReportingOverflow(by: scale)
        guard !overflow, scaled % override.price.denominator == 0 else { return false }
        return (1...Self.overrideLimit).contains(scaled / override.price.denominator)
    }
}
