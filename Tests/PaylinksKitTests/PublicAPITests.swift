import Foundation
import Testing
import _APIListing

/// The core library's public API is the product: it changes only on purpose, with its
/// listing, API/PaylinksKit.txt, changed alongside it (`make api`).
@Suite("Public API")
struct PublicAPITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let modules = root.appendingPathComponent(".build/debug/Modules")

    @Test(
        "the public API equals its checked-in listing",
        .enabled(
            if: FileManager.default.fileExists(atPath: modules.appendingPathComponent("PaylinksKit.swiftmodule").path),
            "the debug build's modules are not in .build/debug/Modules"))
    func listingIsCurrent() throws {
        let listing = try APIListing.listing(module: "PaylinksKit", modulesDirectory: Self.modules)
        let checkedIn = try String(
            contentsOf: Self.root.appendingPathComponent("API/PaylinksKit.txt"), encoding: .utf8)
        let added = Set(listing.split(separator: "\n")).subtracting(checkedIn.split(separator: "\n")).sorted()
        let removed = Set(checkedIn.split(separator: "\n")).subtracting(listing.split(separator: "\n")).sorted()
        #expect(
            listing == checkedIn,
            "the public API changed; if on purpose, run 'make api'. Added: \(added). Removed: \(removed).")
    }

    @Test("no public name shadows a module or type an app's tests already use")
    func noCollidingNames() throws {
        let listing = try String(contentsOf: Self.root.appendingPathComponent("API/PaylinksKit.txt"), encoding: .utf8)
        let topLevel = Set(
            listing.split(separator: "\n").compactMap { line -> String? in
                guard let colon = line.firstIndex(of: ":"), !line.contains(" conforms to ") else { return nil }
                let path = line[..<colon]
                return path.contains(".") ? nil : String(path)
            })
        #expect(topLevel.count > 10, "the listing names the library's types")
        let wellKnown: Set = [
            "ArgumentParser", "ExitCode", "System", "Expectation", "Command", "Test", "Suite", "Issue", "Tag",
            "Logger", "Data", "URL", "Date", "Decimal", "Locale", "Process", "Bundle", "Product", "Transaction",
        ]
        #expect(topLevel.intersection(wellKnown).isEmpty)
    }
}
