/// A step of the SDK's lifecycle: a request that ends in one result callback.
public enum Step: String, CaseIterable, Sendable {
    /// `initialize`: ends in `onInitialized` or `onInitializeFailed`.
    case initialize = "init"
    /// `getPricePoints`: ends in `onPricePointsSuccess` or `onPricePointsFailed`.
    case pricePoints = "price-points"
    /// `openCheckout` and the order's validation: ends in `onPurchaseSuccess` or `onPurchaseFailed`.
    case purchase

    /// The step whose failure callback is `callback`; nil for a success callback.
    public init?(failingWith callback: CallbackName) {
        switch callback {
        case .onInitializeFailed: self = .initialize
        case .onPricePointsFailed: self = .pricePoints
        case .onPurchaseFailed, .onPurchaseCanceled: self = .purchase
        case .onInitialized, .onPricePointsSuccess, .onPurchaseSuccess: return nil
        }
    }

    /// The callback a failure of this step arrives on.
    public var failureCallback: CallbackName {
        switch self {
        case .initialize: .onInitializeFailed
        case .pricePoints: .onPricePointsFailed
        case .purchase: .onPurchaseFailed
        }
    }
}

/// The names of the callbacks (the six of `ios-callbacks.md`, and G3's `onPurchaseCanceled`),
/// as they appear in output and fixtures.
public enum CallbackName: String, CaseIterable, Sendable {
    /// ``ACPaymentLinksDelegate/onInitialized()``.
    case onInitialized
    /// ``ACPaymentLinksDelegate/onInitializeFailed(error:)``.
    case onInitializeFailed
    /// ``ACPaymentLinksDelegate/onPricePointsSuccess(pricePoints:)``.
    case onPricePointsSuccess
    /// ``ACPaymentLinksDelegate/onPricePointsFailed(error:)``.
    case onPricePointsFailed
    /// ``ACPaymentLinksDelegate/onPurchaseSuccess(order:)``.
    case onPurchaseSuccess
    /// ``ACPaymentLinksDelegate/onPurchaseFailed(error:order:)``.
    case onPurchaseFailed
    /// ``ACPaymentLinksDelegate/onPurchaseCanceled(error:order:)``: G3 only.
    case onPurchaseCanceled

    /// The callbacks that report a failure, the only ones a status code arrives on.
    public static let failures: [CallbackName] = [
        .onInitializeFailed, .onPricePointsFailed, .onPurchaseFailed, .onPurchaseCanceled,
    ]
}
