import PaylinksJSON
public import PaylinksKit

/// The Grant Award Callback of one paid order, built as Appcharge builds it: the body
/// from the order the client's `onPurchaseSuccess` carries, compact JSON in a fixed order,
/// and the signature over the exact bytes sent.
public struct GrantAward: Sendable {
    /// The body's bytes.
    public var body: [UInt8]

    /// The award of `order`, its money figures from `money` (``OrderMoney``). An order
    /// priced 0 is free: a bonus, every money field 0, with no payment method.
    ///
    /// `estimates` replaces Appcharge's fee and the publisher's net amount, as JSON numbers
    /// (`"100.0"`, `"850.5"`): Appcharge's own example carries half cents.
    /// `playerEmail` and `sessionMetadata` (compact JSON) are what the game's server sent
    /// with the session, echoed back as Appcharge does.
    public init(
        order: OrderResponseModel, money: OrderMoney, awardFlow: String = "auto",
        estimates: (fee: String, net: String)? = nil, playerEmail: String? = nil, sessionMetadata: [UInt8]? = nil
    ) {
        let isFree = order.price == 0
        var writer = JSONWriter()
        writer.openObject()
        writer.field("orderId", order.orderId)
        writer.field("purchaseId", order.purchaseId)
        writer.field("appChargePaymentId", Self.paymentId(orderId: order.orderId))
        writer.field("purchaseDateAndTimeUtc", UTCDate.iso8601(unixSeconds: order.date))
        writer.field("playerId", order.customerId)
        writer.field("bundleName", order.offerName)
        writer.field("bundleId", Self.identifier("bundle", order.offerSku, length: 24, digits: false))
        writer.field("sku", order.offerSku)
        writer.key("products")
        writer.openArray()
        for item in order.items {
            writer.openObject()
            writer.field("amount", Int(item.quantity) ?? 0)
            writer.field("sku", item.sku)
            writer.field("name", item.name)
            writer.closeObject()
        }
        writer.closeArray()
        writer.field("priceInCents", money.priceInCents)
        writer.field("subTotal", money.subTotal)
        writer.field("tax", money.tax)
        writer.key("taxRate")
        writer.rawNumber(money.taxRate.description)
        writer.field("priceInDollar", money.priceInDollar)
        writer.field("taxInDollar", money.taxInDollar)
        writer.field("originalPriceInDollar", money.pricePoint)
        writer.field("paymentPriceInDollar", money.pricePoint)
        writer.field("priceTotalInDollar", money.priceTotalInDollar)
        writer.field("pricePointMetadata", money.pricePoint)
        writer.field("currency", order.currency)
        writer.field("currencyExchangeCost", money.currencyExchangeCost)
        // Appcharge's fee and the publisher's net, in whole USD cents unless given.
        writer.key("estimatedAppchargeFee")
        writer.rawNumber(estimates?.fee ?? String(money.fee))
        writer.key("estimatedPublisherNetAmount")
        writer.rawNumber(estimates?.net ?? String(money.net))
        writer.field("action", isFree ? "bonus" : "purchase")
        writer.field("actionStatus", "completed")
        if !isFree { writer.field("paymentMethod", "card") }
        writer.field("countryCode2", order.customerCountry)
        if let playerEmail { writer.field("playerEmail", playerEmail) }
        if let sessionMetadata {
            writer.key("sessionMetadata")
            writer.json(sessionMetadata)
        }
        writer.field("receiptId", Self.receiptId(orderId: order.orderId))
        writer.field("awardFlow", awardFlow)
        writer.closeObject()
        body = writer.bytes
    }

    /// The `signature` header for `body` sent at `milliseconds`: `t=<ms>,v1=<hex>`, the
    /// HMAC-SHA256 of `t.body` under the studio's main key.
    public static func signature(body: [UInt8], milliseconds: Int, key: [UInt8]) -> String {
        signature(body: body, milliseconds: milliseconds, key: HMACSHA256.Key(key))
    }

    /// The `signature` header for `body` sent at `milliseconds`, under a key prepared once
    /// for many signatures.
    public static func signature(body: [UInt8], milliseconds: Int, key: HMACSHA256.Key) -> String {
        var bytes: [UInt8] = []
        appendSignature(body: body, milliseconds: milliseconds, key: key, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the `signature` header's value for `body` sent at `milliseconds` to `bytes`:
    /// a request can be written in place, with no string made for the header.
    public static func appendSignature(body: [UInt8], milliseconds: Int, key: HMACSHA256.Key, to bytes: inout [UInt8]) {
        // The time is sent after `t=` and signed before a dot and the body: written once, in place.
        bytes += "t=".utf8
        let start = bytes.count
        bytes.appendDecimal(milliseconds)
        var mac = key.authenticator()
        mac.update(bytes[start...])
        mac.update(CollectionOfOne(UInt8(ascii: ".")))
        mac.update(body)
        bytes += ",v1=".utf8
        HMACSHA256.appendHex(mac.finalize(), to: &bytes)
    }

    /// Appcharge's payment id of an order: `pay_` and ten digits.
    static func paymentId(orderId: String) -> String {
        text { appendPaymentId(orderId: orderId, to: &$0) }
    }

    /// Appends ``paymentId(orderId:)`` to `bytes`, with no string made for it.
    static func appendPaymentId(orderId: String, to bytes: inout [UInt8]) {
        bytes += "pay_".utf8
        appendIdentifier("payment", orderId, length: 10, digits: true, to: &bytes)
    }

    /// The receipt id of an order: `rcpt_` and sixteen hex digits.
    static func receiptId(orderId: String) -> String {
        text { appendReceiptId(orderId: orderId, to: &$0) }
    }

    /// The text `write` appends to an empty buffer.
    private static func text(_ write: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        write(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``receiptId(orderId:)`` to `bytes`, with no string made for it.
    static func appendReceiptId(orderId: String, to bytes: inout [UInt8]) {
        bytes += "rcpt_".utf8
        appendIdentifier("receipt", orderId, length: 16, digits: false, to: &bytes)
    }

    /// "4.99" → 499; a figure beyond `Int`'s range in cents saturates at `Int.max`
    /// rather than trap, since it may come from a fixture or a request.
    static func cents(_ dollars: String) -> Int {
        let (first, second) = leadingParts(of: dollars)
        let whole = max(0, Int(first ?? "0") ?? 0)
        let fraction = second.map { max(0, Int($0.prefix(2).padding(toLength: 2)) ?? 0) } ?? 0
        let (hundreds, overflow) = whole.multipliedReportingOverflow(by: 100)
        guard !overflow, hundreds <= Int.max - fraction else { return Int.max }
        return hundreds + fraction
    }

    /// The first two of the pieces of `text` between dots, empty pieces skipped, as
    /// `split(separator: ".")` gives them, without making the array of them all.
    private static func leadingParts(of text: String) -> (Substring?, Substring?) {
        var first: Substring?
        var rest = text[...]
        while true {
            let end = rest.firstIndex(of: ".") ?? rest.endIndex
            let piece = rest[..<end]
            if !piece.isEmpty {
                if let first { return (first, piece) }
                first = piece
            }
            guard end < rest.endIndex else { return (first, nil) }
            rest = rest[rest.index(after: end)...]
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A stable identifier derived from `value`: digits (not starting with 0) or hex.
    /// FNV-1a over `kind:value` seeds SplitMix64, which gives each character: the same
    /// value always gets the same identifier, at a fraction of a cryptographic hash's cost.
    static func identifier(_ kind: String, _ value: String, length: Int, digits: Bool) -> String {
        var text: [UInt8] = []
        appendIdentifier(kind, value, length: length, digits: digits, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends ``identifier(_:_:length:digits:)`` to `bytes`, with no string made for it.
    static func appendIdentifier(_ kind: String, _ value: String, length: Int, digits: Bool, to bytes: inout [UInt8]) {
        var seed: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { seed = (seed ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        mix(kind.utf8)
        mix(CollectionOfOne(UInt8(ascii: ":")))
        mix(value.utf8)
        var random = SeededGenerator(seed: seed)
        for index in 0..<length {
            bytes.append(
                digits
                    ? UInt8(ascii: "0") + UInt8(index == 0 ? 1 + random.next() % 9 : random.next() % 10)
                    : hexDigits[Int(random.next() & 15)])
        }
    }
}

extension Substring {
    fileprivate func padding(toLength length: Int) -> String {
        String(self) + String(repeating: "0", count: Swift.max(0, length - count))
    }
}

extension GrantAward {
    /// The awards of orders that differ only in their identifiers (the orders of one bulk
    /// run), written from a template instead of field by field. Made from one order with
    /// sentinels for its identifiers, and proven on two real orders.
    public struct Template: Sendable {
        private enum Slot: Int, CaseIterable {
            case orderId, purchaseId, paymentId, receiptId
        }

        private let template: SlotTemplate
        private let model: OrderResponseModel
        private let money: OrderMoney

        /// A template for orders shaped like `first` and `second`, whose money is `money`,
        /// or nil when filling one in would not give both their exact bodies.
        public init?(first: OrderResponseModel, second: OrderResponseModel, money: OrderMoney) {
            var withSentinels = first
            withSentinels.orderId = "QXORDERIDQX"
            withSentinels.purchaseId = "QXPURCHASEIDQX"
            let sentinels = Slot.allCases.map { Array(Self.value(of: $0, in: withSentinels).utf8) }
            let body = GrantAward(order: withSentinels, money: money).body
            guard let template = SlotTemplate(body, sentinels: sentinels) else { return nil }
            self.template = template
            self.model = first
            self.money = money
            guard hasShape(of: second) else { return nil }
            for order in [first, second] {
                guard fill(order) == GrantAward(order: order, money: money).body else { return nil }
            }
        }

        /// The award of `order`: from the template when it differs from the template's
        /// orders only in its order and purchase ids, built field by field otherwise.
        public func award(for order: OrderResponseModel) -> GrantAward {
            hasShape(of: order)
                ? GrantAward(body: fill(order)) : GrantAward(order: order, money: money)
        }

        /// Whether `order` is the template's first order under other identifiers.
        private func hasShape(of order: OrderResponseModel) -> Bool {
            var shape = order
            shape.orderId = model.orderId
            shape.purchaseId = model.purchaseId
            shape.sessionToken = model.sessionToken
            return shape == model
        }

        private func fill(_ order: OrderResponseModel) -> [UInt8] {
            var body: [UInt8] = []
            body.reserveCapacity(template.literalLength + 80)
            template.append(to: &body) { slot, body in
                // Each written straight into the body; a slot's number is its raw value.
                switch Slot(rawValue: slot) {
                case .orderId?: body += order.orderId.utf8
                case .purchaseId?: body += order.purchaseId.utf8
                case .paymentId?: GrantAward.appendPaymentId(orderId: order.orderId, to: &body)
                case .receiptId?: GrantAward.appendReceiptId(orderId: order.orderId, to: &body)
                case nil: break
                }
            }
            return body
        }

        /// What fills `slot` for `order`.
        private static func value(of slot: Slot, in order: OrderResponseModel) -> String {
            switch slot {
            case .orderId: order.orderId
            case .purchaseId: order.purchaseId
            case .paymentId: GrantAward.paymentId(orderId: order.orderId)
            case .receiptId: GrantAward.receiptId(orderId: order.orderId)
            }
        }
    }

    private init(body: [UInt8]) {
        self.body = body
    }
}
