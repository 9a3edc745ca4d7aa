import PaylinksAppcharge
import PaylinksKit

/// The rendered result of one checkout with holes where its identifiers go, so that a
/// bulk run writes each further checkout by filling in new identifiers instead of
/// simulating and rendering it again.
///
/// A template is made from one real result and proven on two: filled with the first
/// result's identifiers it must give that result's exact bytes, and filled with the
/// identifiers of the next checkout it must give the next result's exact bytes. The
/// identifiers are found in the order and, quoted, in `error.data`; a result that
/// depends on them any other way fails the proof, and the run simulates every checkout.
struct CheckoutLineTemplate {
    private enum Slot: Int {
        case sessionToken, purchaseId, orderId
    }

    private var template: SlotTemplate
    /// The slots the template's holes are numbered by, in order.
    private var slots: [Slot]
    /// The bytes of one line, for reserving space.
    private(set) var lineLength = 0

    private static let sentinels: [(Slot, String)] = [
        // None is part of another, and none needs escaping in any output format.
        (.sessionToken, "QXSESSIONTOKENQX"),
        (.purchaseId, "QXPURCHASEIDQX"),
        (.orderId, "QXORDERIDQX"),
    ]

    /// A template for the results of a bulk run, or nil when none reproduces them exactly.
    ///
    /// - Parameters:
    ///   - result: the simulated result of checkout `index`.
    ///   - next: the simulated result of checkout `index + 1`.
    ///   - seed: the run's seed.
    init?(renderer: any CallbackRenderer, result: Callback, next: Callback, index: Int, seed: UInt64) {
        guard let template = Self(renderer: renderer, result: result) else { return nil }
        var filled: [UInt8] = []
        template.append(seed: seed, index: index + 1, to: &filled)
        guard filled == Array(renderer.render(next).utf8) else { return nil }
        self = template
    }

    /// A template for results shaped like `result`, or nil when none can be made exactly.
    private init?(renderer: any CallbackRenderer, result: Callback, tag: CallbackTag? = nil) {
        var withSentinels = result
        var expected: [Slot: String] = [:]
        switch result {
        case .onPurchaseSuccess(var order):
            expected = Self.replaceIdentifiers(in: &order)
            withSentinels = .onPurchaseSuccess(order: order)
        case .onPurchaseFailed(var error, var order?), .onPurchaseCanceled(var error, var order?):
            expected = Self.replaceIdentifiers(in: &order)
            // Details may quote an identifier (3003 and 3004 quote the order id).
            if let data = error.data {
                error.data = expected.reduce(data) { data, replaced in
                    data.replacingEvery(replaced.value, with: Self.sentinel(for: replaced.key))
                }
            }
            // The same callback, the identifiers replaced.
            withSentinels =
                result.name == .onPurchaseCanceled
                ? .onPurchaseCanceled(error: error, order: order) : .onPurchaseFailed(error: error, order: order)
        default:
            break
        }
        let slots = expected.keys.sorted { $0.rawValue < $1.rawValue }
        let sentinels = slots.map { Array(Self.sentinel(for: $0).utf8) }
        guard let template = SlotTemplate(Array(renderer.render(withSentinels, tag: tag).utf8), sentinels: sentinels)
        else { return nil }
        self.template = template
        self.slots = slots
        lineLength = template.literalLength + expected.values.reduce(0) { $0 + $1.utf8.count }
        // The proof: the template filled with the result's own identifiers is the result.
        let values = slots.map { Array((expected[$0] ?? "").utf8) }
        guard template.filled(with: values) == Array(renderer.render(result, tag: tag).utf8) else { return nil }
    }

    /// Appends the line of a success whose order is `order`, shaped as the template's: its
    /// identifiers as the order holds them, worked out once for both the order and its line.
    func append(_ order: OrderResponseModel, to buffer: inout [UInt8]) {
        template.append(to: &buffer) { hole, buffer in
            switch slots[hole] {
            case .sessionToken: buffer.append(contentsOf: order.sessionToken.utf8)
            case .purchaseId: buffer.append(contentsOf: order.purchaseId.utf8)
            case .orderId: buffer.append(contentsOf: order.orderId.utf8)
            }
        }
    }

    /// Appends the line of checkout `index` in a run seeded with `seed`.
    func append(seed: UInt64, index: Int, to buffer: inout [UInt8]) {
        CheckoutIdentifiers.withBytes(seed: seed, index: index) { token, purchase, order in
            template.append(to: &buffer) { hole, buffer in
                switch slots[hole] {
                case .sessionToken: buffer.append(contentsOf: token)
                case .purchaseId: buffer.append(contentsOf: purchase)
                case .orderId: buffer.append(contentsOf: order)
                }
            }
        }
    }

    private static func sentinel(for slot: Slot) -> String {
        sentinels.first { $0.0 == slot }?.1 ?? ""
    }

    /// Puts sentinels in place of the order's identifiers; returns the values replaced.
    private static func replaceIdentifiers(in order: inout OrderResponseModel) -> [Slot: String] {
        var replaced: [Slot: String] = [:]
        for (slot, sentinel) in sentinels {
            switch slot {
            case .sessionToken where !order.sessionToken.isEmpty:
                replaced[slot] = order.sessionToken
                order.sessionToken = sentinel
            case .purchaseId where !order.purchaseId.isEmpty:
                replaced[slot] = order.purchaseId
                order.purchaseId = sentinel
            case .orderId where !order.orderId.isEmpty:
                replaced[slot] = order.orderId
                order.orderId = sentinel
            default:
                break
            }
        }
        return replaced
    }
}
