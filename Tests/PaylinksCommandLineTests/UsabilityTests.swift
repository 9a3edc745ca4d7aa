import Foundation
import Testing

@testable import PaylinksAppcharge
@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksHTTP
@testable import PaylinksKit

/// The `error:` lines of `text`.
private func errorLines(_ text: String) -> [Substring] {
    text.split(separator: "\n").filter { $0.hasPrefix("error:") }
}

/// `run --matrix`: every value checked as its option checks it, before anything runs, and
/// every report of a combination naming it.
@Suite("Matrix values and combinations")
@MainActor
struct MatrixValueTests {
    static let happyPath = ScenarioTests.examples.appendingPathComponent("happy-path.json").path

    @Test(
        "a matrix value its option refuses is refused as the option refuses it: one error line, exit 64",
        arguments: [
            (
                "country=UK,ZZ,xx",
                "--matrix country: 'UK' is not an ISO 3166-1 alpha-2 country code; did you mean GB?"
            ),
            ("country=US,ZZ", "--matrix country: 'ZZ' is not an ISO 3166-1 alpha-2 country code"),
            ("platform=ios,web", "--matrix platform takes ios, android, unity, not 'web'"),
            ("sdkVersion=1.9,9.9", "--matrix sdkVersion: iOS SDK 9.9 is not a version paylinks knows"),
            ("paymentMethod=Visa,a\tb", "--matrix paymentMethod contains the control character U+0009"),
            ("environment=sandbox,a\u{7F}", "--matrix environment contains the control character U+007F"),
        ])
    func refusedAsTheOption(matrix: String, message: String) {
        let result = runCLI("run", Self.happyPath, "--matrix", matrix)
        #expect(result.exitCode == .usage, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let errors = errorLines(result.stderr)
        #expect(errors.count == 1 && errors.count == result.stderr.split(separator: "\n").count, "\(result.stderr)")
        #expect(errors.first?.hasPrefix("error: \(message)") == true, "\(result.stderr)")
    }

    @Test("a matrix version is checked on each platform the matrix names, whichever --matrix comes first")
    func versionOnEveryPlatform() {
        // 2.6 is a Unity version, not an iOS one.
        let refused = runCLI("run", Self.happyPath, "--matrix", "sdkVersion=2.6", "--matrix", "platform=unity,ios")
        #expect(refused.exitCode == .usage, "\(refused.stderr)")
        #expect(
            refused.stderr.hasPrefix("error: --matrix sdkVersion: iOS SDK 2.6 is not a version"), "\(refused.stderr)")
        let accepted = runCLI("run", Self.happyPath, "--matrix", "sdkVersion=2.6", "--matrix", "platform=unity")
        #expect(accepted.exitCode == .success, "\(accepted.stderr)")
    }

    @Test("a country of the matrix is read in any case and named as the option names it")
    func countryInAnyCase() {
        let result = runCLI("run", Self.happyPath, "--matrix", "country=de")
        #expect(result.exitCode == .success, "\(result.stderr)")
        #expect(result.stderr.contains("ok    happy path[country=DE]"), "\(result.stderr)")
    }
}
