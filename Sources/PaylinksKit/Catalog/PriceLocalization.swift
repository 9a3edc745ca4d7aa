/// How one country sees the price tiers: its currency, how it writes amounts, and the
/// local price of every tier.
public struct PriceLocalization: Equatable, Sendable {
    /// The country, ISO 3166-1 alpha-2.
    public var country: String
    /// The currency and its formatting, as the SDK reports it.
    public var data: PricePoints.PricingPointData
    /// The local price of each tier, keyed by the tier's `basePriceInUSD`, scaled by
    /// `data.multiplier`.
    public var localizedPrices: [String: Int]

    /// Creates a localization.
    public init(country: String, data: PricePoints.PricingPointData, localizedPrices: [String: Int]) {
        self.country = country
        self.data = data
        self.localizedPrices = localizedPrices
    }

    /// A localized price converted to the currency's minor units (cents for USD, yen
    /// for JPY), as an order carries it; nil when the tier has no local price or does
    /// not convert to whole minor units.
    public func minorUnits(ofTier basePriceInUSD: String) -> Int? {
        guard let localized = localizedPrices[basePriceInUSD] else { return nil }
        return Self.minorUnits(localized, multiplier: data.multiplier, currency: data.currencyCode)
    }

    /// `localized` scaled by `multiplier`, in the minor units of `currency`.
    static func minorUnits(_ localized: Int, multiplier: Int, currency: String) -> Int? {
        let scale = CurrencyCodes.minorUnitScale(of: currency)
        let (scaled, overflow) = localized.multipliedReportingOverflow(by: scale)
        guard !overflow, multiplier > 0, scaled % multiplier == 0 else { return nil }
        return scaled / multiplier
    }
}
