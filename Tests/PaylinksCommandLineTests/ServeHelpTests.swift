import Testing

@testable import PaylinksCommandLine

/// What `paylinks serve --help` says of the options serve shares with other commands.
@Suite("serve's help")
@MainActor
struct ServeHelpTests {
    @Test("serve --help says what --events-url does for serve, and nothing of other commands")
    func serveEventsURLHelp() throws {
        let help = runCLI("serve", "--help").stdout
        let start = try #require(help.firstRange(of: "  --events-url URL"))
        let entry = help[start.lowerBound...].split(separator: "\n").prefix(2).joined(separator: "\n")
        #expect(entry.contains("paid"), "\(entry)")
        for other in ["trigger", "purchase", "cancel"] {
            #expect(!entry.contains(other), "\(entry)")
        }
        let purchase = runCLI("purchase", "--help").stdout
        #expect(purchase.contains("purchase and cancel send none"), "the other commands keep their words")
    }
}
