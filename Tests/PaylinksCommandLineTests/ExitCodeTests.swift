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
        "the last callback decides the code",
        arguments: [
            (Callback.onInitialized, ExitCode.success),
            (.onInitializeFailed(error: ACErrorMessage(code: 2003, message: "")), .initializeFailed),
            (.onPricePointsFailed(error: ACErrorMessage(code: 1000, message: "")), .pricePointsFailed),
            (.onPurchaseFailed(error: ACErrorMessage(code: 3003, message: ""), order: nil), .purchaseFailed),
            (.onPurchaseFailed(error: ACErrorMessage(code: 3000, message: ""), order: nil), .purchaseCanceled),
            (.onPurchaseFailed(error: ACErrorMessage(code: 3001, message: ""), order: nil), .purchaseCanceled),
            (.onPurchaseFailed(error: ACErrorMessage(code: 3002, message: ""), order: nil), .purchaseCanceled),
            (.onPurchaseFailed(error: ACErrorMessage(code: 3005, message: ""), order: nil), .purchaseFailed),
        ])
    func fromCallback(callback: Callback, code: ExitCode) {
        #expect(ExitCode(finishingWith: callback) == code)
    }
}
