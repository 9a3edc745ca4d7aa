// How the SDK's names read on each platform and in each language, for what paylinks
// shows and for the scenario files that may spell a callback any platform's way. Not
// the core's public API: a game's tests compare callbacks, not their printed names.

extension Platform {
    /// The callback's name as the platform's code has it: Android and Unity call the
    /// price points failure `...Fail`, Unity capitalizes every name.
    package func name(of callback: CallbackName) -> String {
        var name = callback.rawValue
        if callback == .onPricePointsFailed && self != .ios { name = "onPricePointsFail" }
        if self == .unity { name = name.prefix(1).uppercased() + name.dropFirst() }
        return name
    }

    /// The error type's name: `ACErrorMessage` on iOS, `ErrorMessage` on Android and Unity.
    package var errorTypeName: String {
        self == .ios ? "ACErrorMessage" : "ErrorMessage"
    }

    /// The item count's key in the order's items: `amount` in Unity's model, the
    /// documented `quantity` elsewhere.
    package var itemCountKey: String {
        self == .unity ? "amount" : "quantity"
    }
}

extension CallbackName {
    /// The callback `text` names on any platform (`onPricePointsFailed`,
    /// `onPricePointsFail`, `OnPricePointsFail`, ...), or nil.
    package init?(platformName text: String) {
        guard
            let found = Self.allCases.first(where: { callback in
                Platform.allCases.contains { $0.name(of: callback) == text } || callback.rawValue == text
            })
        else { return nil }
        self = found
    }
}

/// What to say when price points are asked of a G3 SDK, which has none.
package enum PricePointsRemoved {
    /// "iOS SDK 2.0 (G3) has no price points: ..."
    package static func message(_ target: SDKTarget) -> String {
        "\(target) has no price points: G3 removed getPricePoints and its callbacks; "
            + "show your own prices, or simulate an earlier SDK version"
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
    package func objectiveCSelector(in generation: Generation) -> String {
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
