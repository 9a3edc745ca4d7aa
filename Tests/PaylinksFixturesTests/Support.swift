import PaylinksKit

@testable import PaylinksFixtures

/// The catalog built into paylinks.
func builtInCatalog() throws -> Catalog {
    Catalog.builtIn
}

/// A fixture source made from text, named like the file it stands for.
func source(_ file: FixtureFile, _ text: String) -> FixtureSource {
    FixtureSource(name: file.rawValue, bytes: Array(text.utf8))
}

/// Loads a catalog with one file replaced by `text` and the others built in.
func loadCatalog(replacing file: FixtureFile, with text: String) throws -> Catalog {
    func pick(_ candidate: FixtureFile) -> FixtureSource? {
        candidate == file ? source(file, text) : nil
    }
    return try CatalogLoader.load(
        offers: pick(.offers), pricePoints: pick(.pricePoints), statusCodes: pick(.statusCodes))
}

/// The error loading a catalog with one file replaced throws, or nil when it loads.
func fixtureError(replacing file: FixtureFile, with text: String) -> FixtureError? {
    do {
        _ = try loadCatalog(replacing: file, with: text)
        return nil
    } catch let error as FixtureError {
        return error
    } catch {
        return nil
    }
}
