import PaylinksKit
import Testing

@testable import PaylinksCommandLine

/// The type and key names the renderers write as each platform's code has them.
@Suite("Platform names in output")
struct PlatformNameTests {
    @Test("the error type and the item count's key are named as each platform's code names them")
    func modelNames() {
        #expect(Platform.allCases.map(\.errorTypeName) == ["ACErrorMessage", "ErrorMessage", "ErrorMessage"])
        #expect(Platform.allCases.map(\.itemCountKey) == ["quantity", "quantity", "amount"])
    }
}
