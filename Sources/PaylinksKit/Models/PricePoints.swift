/// The publisher's price tiers localized for the player's country, as the SDK hands
/// them to `onPricePointsSuccess`.
public struct PricePoints: Equatable, Sendable {
    /// One price tier.
    public struct PricingPoint: Equatable, Sendable {
        /// The tier's price in US dollars: "4.99".
        public var basePriceInUSD: String
        /// The local price as an integer string scaled by the multiplier: "549".
        public var localizedPrice: String
        /// The local price as the player sees it: "5,49 €".
        public var formattedPrice: String

        /// Creates a pricing point.
        public init(basePriceInUSD: String, localizedPrice: String, formattedPrice: String) {
            self.basePriceInUSD = basePriceInUSD
            self.localizedPrice = localizedPrice
            self.formattedPrice = formattedPrice
        }
    }

    /// How the local currency is written.
    public struct PricingPointData: Equatable, Sendable {
        /// ISO 4217 code: "EUR".
        public var currencyCode: String
        /// The symbol: "€".
        public var currencySymbol: String
        /// The decimal separator: ",".
        public var fractionalSeparator: String
        /// The thousands separator: ".".
        public var milSeparator: String
        /// Where the symbol stands: "Left" or "Right".
        public var symbolPosition: String
        /// Whether a space separates the symbol from the amount.
        public var spacing: Bool
        /// What localized prices are scaled by: 100 means "549" is 5.49.
        public var multiplier: Int

        /// Creates currency formatting data.
        public init(
            currencyCode: String, currencySymbol: String, fractionalSeparator: String, milSeparator: String,
            symbolPosition: String, spacing: Bool, multiplier: Int
        ) {
            self.currencyCode = currencyCode
            self.currencySymbol = currencySymbol
            self.fractionalSeparator = fractionalSeparator
            self.milSeparator = milSeparator
            self.symbolPosition = symbolPosition
            self.spacing = spacing
            self.multiplier = multiplier
        }
    }

    /// The tiers, cheapest first.
    public var pricingPoints: [PricingPoint]
    /// How the local currency is written.
    public var pricingPointData: PricingPointData

    /// Creates price points.
    public init(pricingPoints: [PricingPoint], pricingPointData: PricingPointData) {
        self.pricingPoints = pricingPoints
        self.pricingPointData = pricingPointData
    }
}
