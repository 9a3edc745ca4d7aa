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
    /// Whether the country's prices hold its tax or have it added at checkout.
    public var taxModel: TaxModel
    /// The country's tax rate, in percent: 19 for 19%.
    public var taxRate: ExactDecimal
    /// Units of the local currency one US dollar buys (`usdExchangeRateOnCalc`): 0.95 for
    /// EUR. Nil when the fixture gives none: an order's dollar total is then its price
    /// point, whatever it cost locally.
    public var usdExchangeRate: ExactDecimal?

    /// How a country's prices treat tax, as Appcharge's price points name it.
    public enum TaxModel: String, Sendable, CaseIterable {
        /// The price holds the tax; the publisher receives the price less the tax.
        case included = "Included"
        /// The tax is added to the price at checkout.
        case excluded = "Excluded"
    }

    /// Creates a localization; without tax terms, its prices hold no tax.
    public init(
        country: String, data: PricePoints.PricingPointData, localizedPrices: [String: Int],
        taxModel: TaxModel = .included, taxRate: ExactDecimal = ExactDecimal(significand: 0, scale: 0),
        usdExchangeRate: ExactDecimal? = nil
    ) {
        self.country = country
        self.data = data
        self.localizedPrices = localizedPrices
        self.taxModel = taxModel
        self.taxRate = taxRate
        self.usdExchangeRate = usdExchangeRate
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
