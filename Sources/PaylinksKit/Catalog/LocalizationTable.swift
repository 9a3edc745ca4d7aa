/// Where a catalog keeps its localizations: the built-in ones, each country's made the
/// first time it is asked for, or a table of the catalog's own.
///
/// A command that prices one country then makes that country's prices alone, rather than
/// every country's at each start.
struct LocalizationTable: Equatable, Sendable {
    /// The catalog's own table; nil for the built-in localizations.
    private var own: [String: PriceLocalization]?

    /// The built-in localizations.
    static let builtIn = LocalizationTable(own: nil)

    /// A table of the catalog's own.
    init(_ table: [String: PriceLocalization]) {
        own = table
    }

    private init(own: [String: PriceLocalization]?) {
        self.own = own
    }

    /// Every localization, keyed by country.
    var all: [String: PriceLocalization] {
        own ?? BuiltInCatalog.localizations
    }

    /// The localization of `country` itself, nil when it has none.
    func localization(of country: String) -> PriceLocalization? {
        guard let own else { return BuiltInCatalog.localization(country) }
        return own[country]
    }

    /// The countries with a localization, in the order of their codes.
    var countries: [String] {
        own?.keys.sorted() ?? BuiltInCatalog.countries
    }

    static func == (lhs: LocalizationTable, rhs: LocalizationTable) -> Bool {
        if lhs.own == nil && rhs.own == nil { return true }
        return lhs.all == rhs.all
    }
}
