import PaylinksKit
import Testing

@testable import PaylinksFixtures

/// The names each platform's code gives the callbacks, which scenario files may use.
@Suite("Platform names")
struct PlatformNameTests {
    @Test("callbacks are named as each platform's code names them")
    func callbackNames() {
        let table: [(CallbackName, String, String, String)] = [
            (.onInitialized, "onInitialized", "onInitialized", "OnInitialized"),
            (.onInitializeFailed, "onInitializeFailed", "onInitializeFailed", "OnInitializeFailed"),
            (.onPricePointsSuccess, "onPricePointsSuccess", "onPricePointsSuccess", "OnPricePointsSuccess"),
            (.onPricePointsFailed, "onPricePointsFailed", "onPricePointsFail", "OnPricePointsFail"),
            (.onPurchaseSuccess, "onPurchaseSuccess", "onPurchaseSuccess", "OnPurchaseSuccess"),
            (.onPurchaseFailed, "onPurchaseFailed", "onPurchaseFailed", "OnPurchaseFailed"),
        ]
        for (callback, ios, android, unity) in table {
            #expect(Platform.ios.name(of: callback) == ios)
            #expect(Platform.android.name(of: callback) == android)
            #expect(Platform.unity.name(of: callback) == unity)
            for name in [ios, android, unity] { #expect(CallbackName(platformName: name) == callback) }
        }
        #expect(CallbackName(platformName: "onpurchasesuccess") == nil)
    }
}
