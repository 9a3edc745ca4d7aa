/// Where the SDK opens the checkout: a browser view inside the app, or the device's own
/// browser outside it.
///
/// iOS opens the checkout in an in-app Safari view (``internal``) or in Safari itself
/// (``external``); Android in a Custom Tab (``customTab``), a Trusted Web Activity
/// (``trustedWebActivity``) or the default browser (``external``). The Unity plugin, whose
/// results the simulator delivers as its iOS bridge does, takes the iOS modes.
///
/// An external browser returns to the app through the configuration's `redirectUrl`, a
/// universal link, which iOS needs at `initialize`; and it can lose the checkout session,
/// which ends the purchase in 3000 BROWSER_CLOSED.
public enum BrowserMode: String, CaseIterable, Sendable {
    /// The device's own browser, outside the app: Safari on iOS.
    case external
    /// An in-app Safari view (iOS and Unity).
    case `internal`
    /// An Android Custom Tab, the Android default.
    case customTab = "custom-tab"
    /// An Android Trusted Web Activity: a Custom Tab without the browser's toolbar; the
    /// same callbacks as a Custom Tab.
    case trustedWebActivity = "trusted-web-activity"

    /// The modes `platform`'s SDK offers, its default first.
    public static func modes(on platform: Platform) -> [BrowserMode] {
        switch platform {
        case .ios, .unity: [.internal, .external]
        case .android: [.customTab, .trustedWebActivity, .external]
        }
    }

    /// The mode the SDK opens the checkout in when the game chooses none: an in-app Safari
    /// view on iOS and Unity, a Custom Tab on Android.
    public static func standard(on platform: Platform) -> BrowserMode {
        platform == .android ? .customTab : .internal
    }

    /// Whether the checkout opens outside the app, where the session can be lost.
    public var isExternal: Bool { self == .external }

    /// Whether the SDK on `platform` needs a `redirectUrl` in its configuration to return
    /// from this mode: the external mode on iOS (and Unity, which takes the iOS modes).
    public func needsRedirectUrl(on platform: Platform) -> Bool {
        isExternal && platform != .android
    }

    /// The browser the checkout opens in on `platform`, as a trace says it, the mode's
    /// name in parentheses: "in Safari (external)".
    package func place(on platform: Platform) -> String {
        let browser =
            switch self {
            case .external: platform == .android ? "the device's browser" : "Safari"
            case .internal: "an in-app Safari view"
            case .customTab: "a Custom Tab"
            case .trustedWebActivity: "a Trusted Web Activity"
            }
        return "in \(browser) (\(rawValue))"
    }
}
