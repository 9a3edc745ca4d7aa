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
    /// The status codes, in fixture order: the current table (G2) in a loaded catalog, the
    /// generation's own in one from ``forGeneration(_:)``.
    public var statusCodes: [StatusCode]
    /// G1's table, which the current one replaced: other names and messages, and codes
    /// that report several of today's causes (``StatusCode/reports``).
    public var g1StatusCodes: [StatusCode] {
        get { ownsTables ? ownG1StatusCodes : BuiltInCatalog.g1StatusCodes }
        set { ownTables(g1: newValue, g3: g3StatusCodes) }
    }
    /// What G3 changes in the current table: the codes it adds (2005, 8000–8002) and the
    /// ones it delivers otherwise (the player's cancels, on `onPurchaseCanceled`).
    public var g3StatusCodes: [StatusCode] {
        get { ownsTables ? ownG3StatusCodes : BuiltInCatalog.g3StatusCodes }
        set { ownTables(g1: g1StatusCodes, g3: newValue) }
    }
    /// The price tiers in US dollars ("0.99", "4.99" ...), cheapest first.
    public var tiers: [String]
    /// The localizations, keyed by country.
    public var localizations: [String: PriceLocalization] {
        get { localizationTable.all }
        set { localizationTable = LocalizationTable(newValue) }
    }
    /// The catalog's own tables of G1 and G3, when ``ownsTables``; otherwise it has the
    /// built-in ones, which the built-in catalog makes only when a command asks for them.
    /// (Arrays and a flag rather than optional arrays: a catalog is then let go of with
    /// two releases, not through the run-time type of an optional array.)
    private var ownG1StatusCodes: [StatusCode] = []
    private var ownG3StatusCodes: [StatusCode] = []
    private var ownsTables = false
    /// Where the localizations are kept: the built-in catalog makes a country's only when
    /// it is asked for.
    private var localizationTable: LocalizationTable

    /// Creates a catalog.
    public init(
        offers: [Offer], statusCodes: [StatusCode], g1StatusCodes: [StatusCode] = [],
        g3StatusCodes: [StatusCode] = [], tiers: [String], localizations: [String: PriceLocalization]
    ) {
        self.offers = offers
        self.statusCodes = statusCodes
        self.ownG1StatusCodes = g1StatusCodes
        self.ownG3StatusCodes = g3StatusCodes
        self.ownsTables = true
        self.tiers = tiers
        self.localizationTable = LocalizationTable(localizations)
    }

    /// Creates the built-in catalog, whose other generations' tables and localizations are
    /// ``BuiltInCatalog``'s, each made the first time it is asked for.
    init(builtInOffers offers: [Offer], statusCodes: [StatusCode], tiers: [String]) {
        self.offers = offers
        self.statusCodes = statusCodes
        self.tiers = tiers
        self.localizationTable = .builtIn
    }

    /// Makes `g1` and `g3` the catalog's own tables of G1 and G3.
    private mutating func ownTables(g1: [StatusCode], g3: [StatusCode]) {
        (ownG1StatusCodes, ownG3StatusCodes, ownsTables) = (g1, g3, true)
    }

    /// Whether two catalogs hold the same offers, status codes, tiers and localizations,
    /// wherever each keeps them.
    public static func == (lhs: Catalog, rhs: Catalog) -> Bool {
        lhs.offers == rhs.offers && lhs.statusCodes == rhs.statusCodes && lhs.g1StatusCodes == rhs.g1StatusCodes
            && lhs.g3StatusCodes == rhs.g3StatusCodes && lhs.tiers == rhs.tiers
            && lhs.localizationTable == rhs.localizationTable
    }

    /// The localization of `country` itself, nil when it has none of its own (unlike
    /// ``localization(for:)``, which falls back).
    package func ownLocalization(of country: String) -> PriceLocalization? {
        localizationTable.localization(of: country)
    }

    /// The countries with a localization of their own, in the order of their codes.
    package var localizedCountries: [String] {
        localizationTable.countries
    }

    /// This catalog as an SDK of `generation` sees it: ``statusCodes`` is that
    /// generation's table (G1's old one; G3's, the current one with its changes).
    public func forGeneration(_ generation: Generation) -> Catalog {
        var catalog = self
        switch generation {
        case .g1:
            catalog.statusCodes = g1StatusCodes
        case .g2:
            break
        case .g3:
            // G3 has no price points, so no code of the current table arrives on their
            // failure; G3's own table says what a call of getPricePoints gets.
            let changed = Set(g3StatusCodes.map(\.code))
            let current = statusCodes.filter { !changed.contains($0.code) }.map { code in
                var code = code
                code.callbacks.removeAll { $0 == .onPricePointsFailed }
                return code
            }
            // A G3 change with no callbacks is a code G3 never sends.
            catalog.statusCodes = (current + g3StatusCodes.filter { !$0.callbacks.isEmpty }).sorted {
                $0.code < $1.code
            }
        }
        return catalog
    }

    /// The code this catalog's table sends for a cause the current table gives `code`:
    /// the code that reports it, else `code` itself.
    public func code(reporting code: Int) -> Int {
        statusCodes.first { $0.reports.contains(code) }?.code ?? code
    }

    /// The offer with this SKU.
    public func offer(sku: String) -> Offer? {
        offers.first { $0.sku == sku }
    }

    /// The status code with this number.
    public func statusCode(_ code: Int) -> StatusCode? {
        statusCodes.first { $0.code == code }
    }

    /// The error the client receives for `code`, its `data` filled from `details`: the
    /// status code's own, or "Status code N." for a code a hand-made catalog leaves out.
    package func error(_ code: Int, details: [String: String] = [:]) -> ACErrorMessage {
        statusCode(code)?.error(details: details) ?? ACErrorMessage(code: code, message: "Status code \(code).")
    }

    /// The status code `text` names: its number, or its name in any case.
    public func statusCode(matching text: String) -> StatusCode? {
        if let number = Int(text) { return statusCode(number) }
        return statusCodes.first { $0.name.lowercased() == text.lowercased() }
    }

    /// The localization a player in `country` sees: the country's own, or the fallback
    /// country's when it has none.
    public func localization(for country: String) -> PriceLocalization? {
        ownLocalization(of: country) ?? ownLocalization(of: Self.fallbackCountry)
    }

    /// An amount as paylinks writes it everywhere: the price as the player sees it, then
    /// the SDK's own field, `price` in minor units with its currency: "$4.99 (price 499 USD)",
    /// "₹8,999.00 (price 899900 INR)". A currency no localization writes is shown with its
    /// code: "4.99 XYZ (price 499 XYZ)".
    package func priceText(minorUnits amount: Int, currency: String) -> String {
        "\(formattedPrice(minorUnits: amount, currency: currency)) (price \(amount) \(currency))"
    }

    /// The player's view of an amount in minor units, by the first localization (the
    /// fallback country's first) that uses its currency.
    private func formattedPrice(minorUnits amount: Int, currency: String) -> String {
        // The fallback country's first, and only when it uses another currency the others,
        // in the order of their codes: no list of them is made for a price in dollars.
        let fallback = ownLocalization(of: Self.fallbackCountry)?.data
        let found =
            fallback?.currencyCode == currency
            ? fallback
            : localizedCountries.lazy.compactMap { ownLocalization(of: $0)?.data }.first {
                $0.currencyCode == currency
            }
        guard let data = found else {
            return PriceFormatter.formatMinorUnits(amount, currency: currency)
        }
        let scale = CurrencyCodes.minorUnitScale(of: currency)
        let (scaled, overflow) = amount.multipliedReportingOverflow(by: data.multiplier)
        guard !overflow, scale > 0, scaled % scale == 0 else {
            return PriceFormatter.formatMinorUnits(amount, currency: currency)
        }
        return PriceFormatter.format(scaled / scale, as: data)
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
