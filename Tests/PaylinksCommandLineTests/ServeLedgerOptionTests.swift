import Testing

@testable import PaylinksCommandLine

/// `serve --ledger-url` and `serve --partial-refund`: what the players' pages read and count by.
@Suite("serve's ledger options")
@MainActor
struct ServeLedgerOptionTests {
    @Test("serve --ledger-url refuses a URL it cannot read a ledger at, exit 64, naming the option")
    func badLedgerURL() {
        for bad in ["ftp://127.0.0.1/ledger", "not a url", ""] {
            let result = runCLI("serve", "--ledger-url", bad)
            #expect(result.exitCode.rawValue == 64, "\(bad): \(result.stderr)")
            #expect(result.stderr.contains("--ledger-url"), "\(bad): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("serve takes --partial-refund keep or revoke, and refuses anything else, exit 64")
    func partialRefund() {
        let result = runCLI("serve", "--partial-refund", "sometimes")
        #expect(result.exitCode.rawValue == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--partial-refund"))
    }
}
