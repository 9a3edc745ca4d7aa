import PaylinksJSON

/// One status code of the SDK's table, with the message paylinks sends for it.
public struct StatusCode: Equatable, Sendable {
    /// How much of the order comes with a failure on `onPurchaseFailed`.
    public enum OrderAtFailure: String, CaseIterable, Sendable {
        /// No order (`null`): the failure came before the checkout opened.
        case none
        /// The order as the open checkout knows it: session token, purchase id, offer,
        /// items, price, currency and customer; no payment method or order id.
        case checkout
        /// All of the order: a payment was attempted, so it has a payment method and an order id.
        case payment
    }

    /// The code: 3002.
    public var code: Int
    /// The SDK's name for it: "CHARGE_CANCELED".
    public var name: String
    /// What it means, as the SDK's table says.
    public var meaning: String
    /// The message paylinks puts in `ACErrorMessage.message`.
    public var message: String
    /// The failure callbacks it can arrive on.
    public var callbacks: [CallbackName]
    /// How much of the order comes with it on `onPurchaseFailed`.
    public var orderAtFailure: OrderAtFailure
    /// The raw JSON of `ACErrorMessage.data`, with `${name}` placeholders; nil when the
    /// SDK sends no details.
    public var dataTemplate: String?
    /// What a game should do about it, as `paylinks errors CODE` says it: help text,
    /// not part of the code's behaviour.
    package var advice: String?
    /// Whether the code means the player canceled: the game grants nothing and keeps the
    /// player in the store, without an error message.
    public var isCancel: Bool
    /// In an older generation's table, the current codes whose causes this code reports:
    /// G1's 2000 BOOT_INITIALIZATION reports what the current table splits into 2001–2004.
    public var reports: [Int]

    /// Creates a status code.
    public init(
        code: Int, name: String, meaning: String, message: String, callbacks: [CallbackName],
        orderAtFailure: OrderAtFailure = .none, dataTemplate: String? = nil, isCancel: Bool = false,
        reports: [Int] = []
    ) {
        self.init(
            code: code, name: name, meaning: meaning, message: message, callbacks: callbacks,
            orderAtFailure: orderAtFailure, dataTemplate: dataTemplate, advice: nil, isCancel: isCancel,
            reports: reports)
    }

    /// Creates a status code with the help text `paylinks errors` shows.
    init(
        code: Int, name: String, meaning: String, message: String, callbacks: [CallbackName],
        orderAtFailure: OrderAtFailure = .none, dataTemplate: String? = nil, advice: String?, isCancel: Bool = false,
        reports: [Int] = []
    ) {
        self.code = code
        self.name = name
        self.meaning = meaning
        self.message = message
        self.callbacks = callbacks
        self.orderAtFailure = orderAtFailure
        self.dataTemplate = dataTemplate
        self.advice = advice
        self.isCancel = isCancel
        self.reports = reports
    }

    /// The result of a purchase that ends in `code`: on `onPurchaseCanceled` when that is the
    /// code's only callback (the player's cancels in G3), on `onPurchaseFailed` otherwise.
    public static func purchaseResult(
        _ code: StatusCode?, error: ACErrorMessage, order: OrderResponseModel?
    ) -> Callback {
        code?.callbacks == [.onPurchaseCanceled]
            ? .onPurchaseCanceled(error: error, order: order) : .onPurchaseFailed(error: error, order: order)
    }

    /// The steps of the SDK's lifecycle this code can fail.
    public var steps: [Step] {
        callbacks.compactMap(Step.init(failingWith:))
    }

    /// The part of `order` the SDK knows when a code with `rule` happens: nothing, the
    /// checkout's part (no payment method, no order id), or the whole order.
    package static func disclosed(_ order: OrderResponseModel, by rule: OrderAtFailure) -> OrderResponseModel? {
        switch rule {
        case .none:
            return nil
        case .checkout:
            var partial = order
            partial.paymentMethodName = ""
            partial.orderId = ""
            return partial
        case .payment:
            return order
        }
    }

    /// The error the SDK delivers for this code, its data filled from `details`.
    ///
    /// Values are escaped for JSON strings, so the data stays valid JSON whatever they hold.
    public func error(details: [String: String] = [:]) -> ACErrorMessage {
        ACErrorMessage(code: code, message: message, data: dataTemplate.map { Self.fill($0, with: details) })
    }

    private static func fill(_ template: String, with details: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let start = rest.firstOccurrence(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                rest = rest[start.lowerBound...]
                break
            }
            var escaped = ""
            JSONWriter.appendQuoted(details[String(rest[start.upperBound..<end])] ?? "", to: &escaped)
            result += escaped.dropFirst().dropLast()
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }
}
