/// One delivered callback with its arguments, as a value that can be stored, compared
/// and rendered.
public enum Callback: Equatable, Sendable {
    /// `onInitialized()`.
    case onInitialized
    /// `onInitializeFailed(error:)`.
    case onInitializeFailed(error: ACErrorMessage)
    /// `onPricePointsSuccess(pricePoints:)`.
    case onPricePointsSuccess(pricePoints: PricePoints)
    /// `onPricePointsFailed(error:)`.
    case onPricePointsFailed(error: ACErrorMessage)
    /// `onPurchaseSuccess(order:)`.
    case onPurchaseSuccess(order: OrderResponseModel)
    /// `onPurchaseFailed(error:order:)`.
    case onPurchaseFailed(error: ACErrorMessage, order: OrderResponseModel?)
    /// `onPurchaseCanceled(error:order:)`: the player's cancels (3000, 3002) in G3.
    case onPurchaseCanceled(error: ACErrorMessage, order: OrderResponseModel?)

    /// The callback's name.
    public var name: CallbackName {
        switch self {
        case .onInitialized: .onInitialized
        case .onInitializeFailed: .onInitializeFailed
        case .onPricePointsSuccess: .onPricePointsSuccess
        case .onPricePointsFailed: .onPricePointsFailed
        case .onPurchaseSuccess: .onPurchaseSuccess
        case .onPurchaseFailed: .onPurchaseFailed
        case .onPurchaseCanceled: .onPurchaseCanceled
        }
    }

    /// The order a purchase callback carries: always on success, when known on failure.
    public var order: OrderResponseModel? {
        switch self {
        case .onPurchaseSuccess(let order): order
        case .onPurchaseFailed(_, let order), .onPurchaseCanceled(_, let order): order
        case .onInitialized, .onInitializeFailed, .onPricePointsSuccess, .onPricePointsFailed: nil
        }
    }

    /// The price points `onPricePointsSuccess` carries; nil for every other callback.
    public var pricePoints: PricePoints? {
        if case .onPricePointsSuccess(let pricePoints) = self { return pricePoints }
        return nil
    }

    /// The error a failure callback carries; nil for a success.
    public var error: ACErrorMessage? {
        switch self {
        case .onInitialized, .onPricePointsSuccess, .onPurchaseSuccess: nil
        case .onInitializeFailed(let error), .onPricePointsFailed(let error), .onPurchaseFailed(let error, _),
            .onPurchaseCanceled(let error, _):
            error
        }
    }
}

/// A delegate that handles every callback in one place, as a ``Callback`` value.
///
/// Conform and implement ``receive(_:)``; the delegate methods are provided.
@MainActor
public protocol CallbackReceiver: ACPaymentLinksDelegate {
    /// Handles one delivered callback.
    func receive(_ callback: Callback)
}

extension CallbackReceiver {
    /// Forwards to ``receive(_:)``.
    public func onInitialized() { receive(.onInitialized) }
    /// Forwards to ``receive(_:)``.
    public func onInitializeFailed(error: ACErrorMessage) { receive(.onInitializeFailed(error: error)) }
    /// Forwards to ``receive(_:)``.
    public func onPricePointsSuccess(pricePoints: PricePoints) {
        receive(.onPricePointsSuccess(pricePoints: pricePoints))
    }
    /// Forwards to ``receive(_:)``.
    public func onPricePointsFailed(error: ACErrorMessage) { receive(.onPricePointsFailed(error: error)) }
    /// Forwards to ``receive(_:)``.
    public func onPurchaseSuccess(order: OrderResponseModel) { receive(.onPurchaseSuccess(order: order)) }
    /// Forwards to ``receive(_:)``.
    public func onPurchaseFailed(error: ACErrorMessage, order: OrderResponseModel?) {
        receive(.onPurchaseFailed(error: error, order: order))
    }
    /// Forwards to ``receive(_:)``.
    public func onPurchaseCanceled(error: ACErrorMessage, order: OrderResponseModel?) {
        receive(.onPurchaseCanceled(error: error, order: order))
    }
}

/// A delegate that records every callback, for assertions in tests.
///
/// ```swift
/// let recorder = RecordingDelegate()
/// sdk.initialize(configModel: config, customerId: "cust_1", delegate: recorder)
/// #expect(recorder.callbacks == [.onInitialized])
/// ```
public final class RecordingDelegate: CallbackReceiver {
    /// The callbacks delivered so far, oldest first.
    public private(set) var callbacks: [Callback] = []

    /// Creates a delegate with nothing recorded.
    public init() {}

    /// Records the callback.
    public func receive(_ callback: Callback) {
        callbacks.append(callback)
    }

    /// Forgets what was recorded.
    public func removeAll() {
        callbacks.removeAll()
    }
}

extension Callback {
    /// Calls the delegate method this callback stands for.
    @MainActor
    func send(to delegate: any ACPaymentLinksDelegate) {
        switch self {
        case .onInitialized: delegate.onInitialized()
        case .onInitializeFailed(let error): delegate.onInitializeFailed(error: error)
        case .onPricePointsSuccess(let pricePoints): delegate.onPricePointsSuccess(pricePoints: pricePoints)
        case .onPricePointsFailed(let error): delegate.onPricePointsFailed(error: error)
        case .onPurchaseSuccess(let order): delegate.onPurchaseSuccess(order: order)
        case .onPurchaseFailed(let error, let order): delegate.onPurchaseFailed(error: error, order: order)
        case .onPurchaseCanceled(let error, let order): delegate.onPurchaseCanceled(error: error, order: order)
        }
    }
}
