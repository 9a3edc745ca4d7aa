import Foundation
import PaylinksFixtures
import PaylinksKit
import Testing
import _GenerateCatalog

/// The built-in catalog is `Fixtures/*.json` compiled as Swift values by
/// `generate-catalog`; this keeps the two the same.
@Suite("Built-in catalog")
struct BuiltInCatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let generated = root.appendingPathComponent("Sources/PaylinksKit/Catalog/BuiltInCatalog.swift")

    @Test("the fixture files pass every check, and the compiled catalog equals them")
    func equalsTheFixtures() throws {
        let parsed = try CatalogSwiftSource.loadFixtures(in: Self.root.appendingPathComponent("Fixtures"))
        #expect(Catalog.builtIn == parsed, "Fixtures/*.json changed: run 'make catalog'")
    }

    @Test("BuiltInCatalog.swift is what the generator writes for the fixtures")
    func generatedSourceIsCurrent() throws {
        let parsed = try CatalogSwiftSource.loadFixtures(in: Self.root.appendingPathComponent("Fixtures"))
        let onDisk = try String(contentsOf: Self.generated, encoding: .utf8)
        #expect(onDisk == CatalogSwiftSource.render(parsed), "run 'make catalog'")
    }

    @Test("the generator's string literals escape what Swift needs escaped")
    func literals() {
        let catalog = Catalog(
            offers: [
                Offer(
                    sku: "a\"b", name: "back\\slash\nline\u{7}", basePriceInUSD: "0.99",
                    items: [.init(name: "Gems — \u{1F48E}", sku: "g", quantity: "1")])
            ],
            statusCodes: [], tiers: ["0.99"], localizations: [:])
        let source = CatalogSwiftSource.render(catalog)
        #expect(source.contains(#"sku: "a\"b", name: "back\\slash\nline\u{7}""#))
        #expect(source.contains(#"name: "Gems — 💎""#))
    }
}
