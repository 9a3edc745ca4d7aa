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
            if: ProcessInfo.processInfo.environment["CI"] == "true"
                || FileManager.default.fileExists(
                    atPath: modules.appendingPathComponent("PaylinksKit.swiftmodule").path),
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

    /// The library modules below the command line, whose public names an app's tests may
    /// import; the command-line module exports nothing.
    static let libraries = [
        "PaylinksJSON", "PaylinksKit", "PaylinksFixtures", "PaylinksAppcharge", "PaylinksHTTP", "PaylinksDelivery",
        "PaylinksSandbox",
    ]

    /// Names an app's tests already use, from the test frameworks, Foundation, and the
    /// command-line packages a game's tooling links.
    static let wellKnown: Set = [
        "ArgumentParser", "ExitCode", "System", "Expectation", "Command", "Test", "Suite", "Issue", "Tag",
        "Logger", "Data", "URL", "Date", "Decimal", "Locale", "Process", "Bundle", "Product", "Transaction",
    ]

    /// The top-level names of a listing.
    static func topLevel(_ listing: String) -> Set<String> {
        Set(
            listing.split(separator: "\n").compactMap { line -> String? in
                guard let colon = line.firstIndex(of: ":"), !line.contains(" conforms to ") else { return nil }
                let path = line[..<colon]
                return path.contains(".") ? nil : String(path)
            })
    }

    @Test(
        "no public name of any module shadows a module or type an app's tests already use",
        .enabled(
            if: ProcessInfo.processInfo.environment["CI"] == "true"
                || FileManager.default.fileExists(
                    atPath: modules.appendingPathComponent("PaylinksHTTP.swiftmodule").path),
            "the debug build's modules are not in .build/debug/Modules"),
        arguments: libraries)
    func noCollidingNames(module: String) throws {
        let names = Self.topLevel(try APIListing.listing(module: module, modulesDirectory: Self.modules))
        #expect(!names.isEmpty, "the listing names the module's types")
        #expect(names.intersection(Self.wellKnown).isEmpty)
        #expect(names.intersection(Self.libraries).isEmpty)
    }

    @Test(
        "the command-line module exports nothing: the paylinks program reaches it with package access",
        .enabled(
            if: ProcessInfo.processInfo.environment["CI"] == "true"
                || FileManager.default.fileExists(
                    atPath: modules.appendingPathComponent("PaylinksCommandLine.swiftmodule").path),
            "the debug build's modules are not in .build/debug/Modules"))
    func commandLineExportsNothing() throws {
        let listing = try APIListing.listing(module: "PaylinksCommandLine", modulesDirectory: Self.modules)
        let declarations = listing.split(whereSeparator: \.isNewline)
        #expect(declarations.isEmpty, "public in the command-line module: \(declarations)")
    }

    @Test("the checked-in listing of the core names no well-known type")
    func checkedInListing() throws {
        let listing = try String(contentsOf: Self.root.appendingPathComponent("API/PaylinksKit.txt"), encoding: .utf8)
        let names = Self.topLevel(listing)
        #expect(names.count > 10, "the listing names the library's types")
        #expect(names.intersection(Self.wellKnown).isEmpty)
    }
}
