import Testing

@testable import PaylinksCommandLine
@testable import PaylinksFixtures
@testable import PaylinksKit

@Suite("Exit codes")
@MainActor
struct ExitCodeTests {
    @Test("every exit code is distinct")
    func distinct() {
        let values = ExitCode.allCases.map(\.rawValue)
        #expect(Set(values).count == values.count)
    }

    @Test(
        "the meanings name what link-out and check-links end with",
        arguments: [
            (ExitCode.purchaseFailed, "link-out: status=fail"), (.purchaseCanceled, "link-out: status=cancel"),
            (.expectationsFailed, "check-links: a rule of a link file is broken"), (.dataError, "check-links: "),
            (.noInput, "check-links: "), (.unavailable, "check-links: "),
        ])
    func linkMeanings(code: ExitCode, words: String) {
        #expect(code.meaning.contains(words), "\(code.meaning)")
    }

    @Test("a status paylinks does not name is passed on as it is, and names no code")
    func passedOn() {
        #expect(ExitCode(passingOn: 3).rawValue == 3)
        #expect(ExitCode(rawValue: 3) == nil)
        #expect(ExitCode(passingOn: 127) == .commandNotFound)
        #expect(ExitCode(rawValue: 126) == .cannotExecute)
    }

    @Test(
        "the last callback decides the code",
        arguments: [
            (Callback.onInitialized, ExitCode.success),
            (.onInitializeFailed(error: ACErrorMessage(code: 2003, message: "")), .initializeFailed),
            (.onPricePointsFailed(error: ACErrorMessage(code: 1000, message: "")), .pricePointsFailed),
            (.onPurchaseFailed(error: ACErrorMessage(code: 3003, message: ""), order: nil), .purchaseFailed),
            (.onPurchaseFailed(error: ACErrorMessage(code: 3000, message: ""), order: nil), .purchaseCanceled),
            (.onPurchaseFailed(error: ACErrorMessage(code: 3002, message: ""), order: nil), .purchaseCanceled),
            (.onPurchaseFailed(error: ACErrorMessage(code: 3005, message: ""), order: nil), .purchaseCanceled),
            (.onPurchaseFailed(error: ACErrorMessage(code: 3001, message: ""), order: nil), .purchaseFailed),
            (.onPurchaseFailed(error: ACErrorMessage(code: 2000, message: ""), order: nil), .purchaseFailed),
        ])
    func fromCallback(callback: Callback, code: ExitCode) {
        #expect(ExitCode(finishingWith: callback, catalog: .builtIn) == code)
    }

    @Test("the cancel set is the catalog's: exactly the codes whose advice is to treat them as a cancel")
    func cancelSet() {
        for code in Catalog.builtIn.statusCodes {
            let advisedCancel = code.advice?.hasPrefix("Treat it as a cancel") == true
            #expect(code.isCancel == advisedCancel, "\(code.code)")
        }
        #expect(ExitCode.purchaseCanceled.meaning.contains("3000, 3002, 3005"))
        #expect(!Help.overview().contains("3001"))
    }

    /// A status-codes.json with the codes paylinks requires, `cancel` marked as a cancel.
    static func statusCodes(cancel: Int) -> String {
        let entries = CatalogLoader.requiredCodes.map { code in
            let mark = code == cancel ? #", "cancel": true"# : ""
            return #"{"code": \#(code), "name": "C\#(code)", "meaning": "m", "message": "m", "#
                + #""callbacks": ["onPurchaseFailed"]\#(mark)}"#
        }
        return #"{"statusCodes": [\#(entries.joined(separator: ","))]}"#
    }

    @Test("a fixture decides what a cancel is, and a code only onPurchaseFailed carries can be one")
    func cancelFromFixture() throws {
        let catalog = try CatalogLoader.load(
            offers: nil, pricePoints: nil,
            statusCodes: FixtureSource(
                name: "status-codes.json",
                bytes: Array(Self.statusCodes(cancel: 3003).utf8)))
        let error = { (code: Int) in ACErrorMessage(code: code, message: "") }
        #expect(
            ExitCode(finishingWith: .onPurchaseFailed(error: error(3003), order: nil), catalog: catalog)
                == .purchaseCanceled)
        #expect(
            ExitCode(finishingWith: .onPurchaseFailed(error: error(3002), order: nil), catalog: catalog)
                == .purchaseFailed)
        #expect(throws: FixtureError.self) {
            try CatalogLoader.load(
                offers: nil, pricePoints: nil,
                statusCodes: FixtureSource(
                    name: "status-codes.json",
                    bytes: Array(
                        #"{"statusCodes": [{"code": 1, "name": "A", "meaning": "m", "message": "m", "callbacks": ["onInitializeFailed"], "cancel": true}]}"#
                            .utf8)))
        }
    }
}
