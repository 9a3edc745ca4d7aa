package import PaylinksKit

// How the SDK's names read on each platform, for what paylinks shows and for the scenario
// files that may spell a callback any platform's way. Not the core's API: a game's tests
// compare callbacks, not their printed names.

extension Platform {
    /// The callback's name as the platform's code has it: Android and Unity call the
    /// price points failure `...Fail`, Unity capitalizes every name.
    package func name(of callback: CallbackName) -> String {
        var name = callback.rawValue
        if callback == .onPricePointsFailed && self != .ios { name = "onPricePointsFail" }
        if self == .unity { name = name.prefix(1).uppercased() + name.dropFirst() }
        return name
    }
}

extension CallbackName {
    /// The callback `text` names on any platform (`onPricePointsFailed`,
    /// `onPricePointsFail`, `OnPricePointsFail`, ...), or nil.
    init?(platformName text: String) {
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
