import PaylinksKit

// How the SDK's names read on each platform and in each language, as the renderers
// write a callback the way the game's code has it.

extension Platform {
    /// The error type's name: `ACErrorMessage` on iOS, `ErrorMessage` on Android and Unity.
    var errorTypeName: String {
        self == .ios ? "ACErrorMessage" : "ErrorMessage"
    }

    /// The item count's key in the order's items: `amount` in Unity's model, the
    /// documented `quantity` elsewhere.
    var itemCountKey: String {
        self == .unity ? "amount" : "quantity"
    }
}

/// The language of the game's delegate on iOS: the SDK's Swift protocol, or the same
/// protocol as Objective-C sees it, whose callbacks are messages with selectors.
package enum DelegateLanguage: String, CaseIterable, Sendable {
    /// `func onPurchaseFailed(error:order:)`.
    case swift
    /// `- (void)onPurchaseFailedWithError:(ACErrorMessage *)error order:(GameOrderResponse *)order`.
    case objc
}

extension CallbackName {
    /// The callback's Objective-C selector, as `ios-callbacks.md` shows the delegate:
    /// `onPurchaseSuccessWithOrder:`; G1's `onPurchaseFailed(error)` is `onPurchaseFailedWithError:`.
    func objectiveCSelector(in generation: Generation) -> String {
        switch self {
        case .onInitialized: "onInitialized"
        case .onInitializeFailed: "onInitializeFailedWithError:"
        case .onPricePointsSuccess: "onPricePointsSuccessWithPricePoints:"
        case .onPricePointsFailed: "onPricePointsFailedWithError:"
        case .onPurchaseSuccess: "onPurchaseSuccessWithOrder:"
        case .onPurchaseFailed: generation == .g1 ? "onPurchaseFailedWithError:" : "onPurchaseFailedWithError:order:"
        case .onPurchaseCanceled: "onPurchaseCanceledWithError:order:"
        }
    }
}
