public import Foundation
import PaylinksFixtures
public import PaylinksKit

/// Writes a catalog as the Swift source of `BuiltInCatalog`.
public enum CatalogSwiftSource {
    /// The Swift source of `BuiltInCatalog` for `catalog`.
    public static func render(_ catalog: Catalog) -> String {
        var out = """
            // swift-format-ignore-file
            // Generated from Fixtures/*.json by `make catalog` (Sources/generate-catalog); do not edit.
            // A test keeps it equal to the fixtures.

            /// The catalog of `Fixtures/*.json`, as Swift values.
            enum BuiltInCatalog {
                /// The built-in catalog.
                static let catalog = Catalog(
                    builtInOffers: [

            """
        for offer in catalog.offers {
            out += "            Offer(\n"
            out += "                sku: \(literal(offer.sku)), name: \(literal(offer.name)), "
            out += "basePriceInUSD: \(literal(offer.basePriceInUSD)),\n"
            out += "                items: [\n"
            for item in offer.items {
                out += "                    .init(name: \(literal(item.name)), sku: \(literal(item.sku)), "
                out += "quantity: \(literal(item.quantity))),\n"
            }
            out += "                ]),\n"
        }
        /// The status codes, one a line at `indent`.
        func table(_ codes: [StatusCode], indent: String) {
            for code in codes {
                out += "\(indent)StatusCode(\n"
                out += "\(indent)    code: \(code.code), name: \(literal(code.name)),\n"
                out += "\(indent)    meaning: \(literal(code.meaning)),\n"
                out += "\(indent)    message: \(literal(code.message)),\n"
                out +=
                    "\(indent)    callbacks: [\(code.callbacks.map { ".\($0.rawValue)" }.joined(separator: ", "))],\n"
                out += "\(indent)    orderAtFailure: .\(code.orderAtFailure),\n"
                out += "\(indent)    dataTemplate: \(code.dataTemplate.map(literal) ?? "nil"),\n"
                out += "\(indent)    advice: \(code.advice.map(literal) ?? "nil")"
                if code.isCancel { out += ",\n\(indent)    isCancel: true" }
                if !code.reports.isEmpty {
                    out += ",\n\(indent)    reports: [\(code.reports.map(String.init).joined(separator: ", "))]"
                }
                out += "),\n"
            }
        }
        out += "        ],\n        statusCodes: [\n"
        table(catalog.statusCodes, indent: "            ")
        out += "        ],\n"
        out += "        tiers: [\(catalog.tiers.map(literal).joined(separator: ", "))])\n"
        let countries = catalog.localizations.keys.sorted()
        out += """

                /// The countries with a localization of their own, in the order of their codes.
                static var countries: [String] { [\(countries.map(literal).joined(separator: ", "))] }

                /// Every localization, keyed by country.
                static let localizations: [String: PriceLocalization] = [

            """
        for (index, country) in countries.enumerated() {
            out += "        \(literal(country)): localization\(index),\n"
        }
        out += """
                ]

                /// The localization of `country`, made the first time it is asked for; nil for
                /// a country without one.
                static func localization(_ country: String) -> PriceLocalization? {
                    switch country {

            """
        for (index, country) in countries.enumerated() {
            out += "        case \(literal(country)): localization\(index)\n"
        }
        out += "        default: nil\n        }\n    }\n"
        out += "\n    /// G1's status codes, made the first time they are asked for.\n"
        out += "    static let g1StatusCodes: [StatusCode] = [\n"
        table(catalog.g1StatusCodes, indent: "        ")
        out += "    ]\n"
        out += "\n    /// What G3 changes in the current status codes, made the first time it is asked for.\n"
        out += "    static let g3StatusCodes: [StatusCode] = [\n"
        table(catalog.g3StatusCodes, indent: "        ")
        out += "    ]\n"
        for (index, country) in countries.enumerated() {
            guard let localization = catalog.localizations[country] else { continue }
            let data = localization.data
            out += "\n    /// The localization of \(country).\n"
            out += "    static let localization\(index) = PriceLocalization(\n"
            out += "        country: \(literal(country)),\n"
            out += "        data: .init(\n"
            out +=
                "            currencyCode: \(literal(data.currencyCode)), currencySymbol: \(literal(data.currencySymbol)),\n"
            out += "            fractionalSeparator: \(literal(data.fractionalSeparator)), "
            out += "milSeparator: \(literal(data.milSeparator)),\n"
            out += "            symbolPosition: \(literal(data.symbolPosition)), spacing: \(data.spacing), "
            out += "multiplier: \(data.multiplier)),\n"
            out += "        localizedPrices: [\n"
            for tier in catalog.tiers {
                guard let price = localization.localizedPrices[tier] else { continue }
                out += "            \(literal(tier)): \(price),\n"
            }
            out += "        ],\n"
            out += "        taxModel: .\(localization.taxModel == .included ? "included" : "excluded"), "
            out += "taxRate: \(decimal(localization.taxRate)),\n"
            out += "        usdExchangeRate: \(localization.usdExchangeRate.map(decimal) ?? "nil"))\n"
        }
        out += "}\n"
        return out
    }

    /// The catalog of the fixture files in `directory`, checked as `paylinks` checks them.
    public static func loadFixtures(in directory: URL) throws -> Catalog {
        func source(_ file: FixtureFile) throws -> FixtureSource {
            let url = directory.appendingPathComponent(file.rawValue)
            return FixtureSource(name: url.path, bytes: Array(try Data(contentsOf: url)))
        }
        return try CatalogLoader.load(
            offers: source(.offers), pricePoints: source(.pricePoints), statusCodes: source(.statusCodes),
            g1StatusCodes: source(.g1StatusCodes), g3StatusCodes: source(.g3StatusCodes))
    }

    /// `number` as a Swift expression that makes it.
    static func decimal(_ number: ExactDecimal) -> String {
        "ExactDecimal(significand: \(number.significand), scale: \(number.scale))"
    }

    /// A Swift string literal for `text`.
    static func literal(_ text: String) -> String {
        SourceLiteral.quoted(text)
    }
}
