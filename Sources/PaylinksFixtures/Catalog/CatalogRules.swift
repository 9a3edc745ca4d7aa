package import PaylinksKit

// What a catalog must hold for the simulator to use it, as the loader checks it: the status
// codes the simulator sends by itself, the placeholders a code's data may use, and the
// multipliers a localization may have.

extension PaymentLinksSimulator {
    /// The status codes the simulator sends by itself, from their real causes, without
    /// an injected failure: a catalog must explain every one of them.
    nonisolated static let ownStatusCodes: Set<Int> = [
        2000, 2001, 2002, 2003, 2004, 3000, 3002, 3003, 3004, 3005, 3006, 3007, 4002,
    ]
    /// The codes a G3 simulator adds: a second initialize while one runs, the arguments
    /// `openCheckout` checks, and `getPricePoints`, which G3 does not have.
    nonisolated static let ownG3StatusCodes: Set<Int> = [2005, 8000, 8001, 8002, 9999]
}

extension StatusCode {
    /// The placeholders a ``dataTemplate`` may use, each filled with what the SDK knows.
    static let dataPlaceholders = [
        "sdkCustomerId", "orderCustomerId", "sdkEnvironment", "sessionEnvironment", "redirectUrl", "offerSku",
        "purchaseId", "orderId", "request", "lastState",
    ]

    /// The `${name}` placeholders a template uses.
    package static func placeholders(in template: String) -> [String] {
        var names: [String] = []
        var rest = Substring(template)
        while let start = rest.firstOccurrence(of: "${"), let end = rest[start.upperBound...].firstIndex(of: "}") {
            names.append(String(rest[start.upperBound..<end]))
            rest = rest[rest.index(after: end)...]
        }
        return names
    }
}

extension PriceFormatter {
    /// Whether `value` is 1, 10, 100 ...
    static func isPowerOfTen(_ value: Int) -> Bool {
        var rest = value
        while rest > 1 && rest % 10 == 0 { rest /= 10 }
        return rest == 1
    }
}
