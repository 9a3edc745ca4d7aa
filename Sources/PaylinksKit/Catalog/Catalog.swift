/// Everything the simulated SDK and the game's server know: the offers, the price tiers
/// and their localizations, and the status codes with their messages.
///
/// A catalog is a plain value: use ``builtIn``, change a copy of it, or build one in
/// code for a test. The `paylinks` command also loads one from JSON fixture files.
public struct Catalog: Equatable, Sendable {
    /// The country whose localization serves countries that have none of their own.
    public static let fallbackCountry = "US"

    /// The catalog built into paylinks: the offers, prices and status codes of its
    /// `Fixtures/*.json`, compiled in.
    public static var builtIn: Catalog { BuiltInCatalog.catalog }

    /// The store's offers, in fixture order.
    public var offers: [Offer]
    /// The status codes, in fixture order.
    public var statusCodes: [StatusCode]
    /// The price tiers in US dollars ("0.99", "4.99" ...), cheapest first.
    public var tiers: [String]
    /// The localizations, keyed by country.
    public var localizations: [String: PriceLocalization]

    /// Creates a catalog.
    public init(
        offers: [Offer], statusCodes: [StatusCode], tiers: [String], localizations: [String: PriceLocalization]
    ) {
        self.offers = offers
        self.statusCodes = statusCodes
        self.tiers = tiers
        self.localizations = localizations
    }

    /// The offer with this SKU.
    public func offer(sku: String) -> Offer? {
        offers.first { $0.sku == sku }
    }

    /// The status code with this number.
    public func statusCode(_ code: Int) -> StatusCode? {
        statusCodes.first { $0.code == code }
    }

    /// The status code `text` names: its number, or its name in any case.
    public func statusCode(matching text: String) -> StatusCode? {
        if let number = Int(text) { return statusCode(number) }
        return statusCodes.first { $0.name.lowercased() == text.lowercased() }
    }

    /// The localization a player in `country` sees: the country's own, or the fallback
    /// country's when it has none.
    public func localization(for country: String) -> PriceLocalization? {
        localizations[country] ?? localizations[Self.fallbackCountry]
    }

    /// The price points a player in `country` receives.
    public func pricePoints(for country: String) -> PricePoints? {
        guard let localization = localization(for: country) else { return nil }
        let points = tiers.compactMap { tier -> PricePoints.PricingPoint? in
            guard let local = localization.localizedPrices[tier] else { return nil }
            return PricePoints.PricingPoint(
                basePriceInUSD: tier,
                localizedPrice: String(local),
                formattedPrice: PriceFormatter.format(local, as: localization.data)
            )
        }
        return PricePoints(pricingPoints: points, pricingPointData: localization.data)
    }
}
