import Foundation
import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

/// The built-in catalog is `Fixtures/*.json` compiled as Swift values; this keeps the two
/// the same. After editing a fixture, `make golden` regenerates the Swift file.
@Suite("Built-in catalog")
@MainActor
struct BuiltInCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let generated = root.appendingPathComponent("Sources/PaylinksKit/Catalog/BuiltInCatalog.swift")

    /// The catalog parsed and checked from the JSON files in `Fixtures/`.
    static func parsedFixtures() throws -> Catalog {
        func source(_ file: FixtureFile) throws -> FixtureSource {
            let path = root.appendingPathComponent("Fixtures/\(file.rawValue)").path
            return FixtureSource(name: path, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        return try CatalogLoader.load(
            offers: source(.offers), pricePoints: source(.pricePoints), statusCodes: source(.statusCodes))
    }

    @Test("the compiled catalog equals the fixture files, which pass every check")
    func inSync() throws {
        let parsed = try Self.parsedFixtures()
        let source = CatalogSwiftSource.render(parsed)
        if ProcessInfo.processInfo.environment["PAYLINKS_RECORD_GOLDEN"] == "1" {
            try Data(source.utf8).write(to: Self.generated)
            return
        }
        #expect(Catalog.builtIn == parsed, "Fixtures/*.json changed: run 'make golden'")
        #expect(try String(contentsOf: Self.generated, encoding: .utf8) == source, "run 'make golden'")
    }
}

/// Writes a catalog as the Swift source of `BuiltInCatalog`.
enum CatalogSwiftSource {
    static func render(_ catalog: Catalog) -> String {
        var out = """
            // swift-format-ignore-file
            // Generated from Fixtures/*.json by `make golden`; do not edit. A test keeps it in step.

            /// The catalog of `Fixtures/*.json`, as Swift values.
            enum BuiltInCatalog {
                /// The built-in catalog.
                static let catalog = Catalog(
                    offers: [

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
        out += "        ],\n        statusCodes: [\n"
        for code in catalog.statusCodes {
            out += "            StatusCode(\n"
            out += "                code: \(code.code), name: \(literal(code.name)),\n"
            out += "                meaning: \(literal(code.meaning)),\n"
            out += "                message: \(literal(code.message)),\n"
            out += "                callbacks: [\(code.callbacks.map { ".\($0.rawValue)" }.joined(separator: ", "))],\n"
            out += "                orderAtFailure: .\(code.orderAtFailure),\n"
            out += "                dataTemplate: \(code.dataTemplate.map(literal) ?? "nil"),\n"
            out += "                advice: \(code.advice.map(literal) ?? "nil")),\n"
        }
        out += "        ],\n"
        out += "        tiers: [\(catalog.tiers.map(literal).joined(separator: ", "))],\n"
        out += "        localizations: [\n"
        for country in catalog.localizations.keys.sorted() {
            guard let localization = catalog.localizations[country] else { continue }
            let data = localization.data
            out += "            \(literal(country)): PriceLocalization(\n"
            out += "                country: \(literal(country)),\n"
            out += "                data: .init(\n"
            out +=
                "                    currencyCode: \(literal(data.currencyCode)), currencySymbol: \(literal(data.currencySymbol)),\n"
            out += "                    fractionalSeparator: \(literal(data.fractionalSeparator)), "
            out += "milSeparator: \(literal(data.milSeparator)),\n"
            out += "                    symbolPosition: \(literal(data.symbolPosition)), spacing: \(data.spacing), "
            out += "multiplier: \(data.multiplier)),\n"
            out += "                localizedPrices: [\n"
            for tier in catalog.tiers {
                guard let price = localization.localizedPrices[tier] else { continue }
                out += "                    \(literal(tier)): \(price),\n"
            }
            out += "                ]),\n"
        }
        out += "        ])\n}\n"
        return out
    }

    /// A Swift string literal for `text`.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
