import PaylinksJSON
public import PaylinksKit

/// One event Appcharge sends the game's server about an order, as it sends it: V2 (the
/// current envelope, `eventName` and `eventId`) or V1 (the older flat payload, `event`),
/// its body compact JSON in a fixed order, signed as the Grant Award is
/// (`after-the-purchase.md`, section 3).
public struct OrderEvent: Sendable {
    /// What happened to the order.
    public enum Name: String, CaseIterable, Sendable {
        case created
        case paymentSucceeded
        case paymentFailed
        case completed
        case canceled
        case refunded
        case disputeOpened
        case disputeWon
        case disputeLost

        /// The V2 `eventName`: `order.payment.resolved`.
        public var v2Name: String {
            switch self {
            case .created: "order.created"
            case .paymentSucceeded, .paymentFailed: "order.payment.resolved"
            case .completed: "order.completed"
            case .canceled: "order.canceled"
            case .refunded: "order.refunded"
            case .disputeOpened: "order.dispute.opened"
            case .disputeWon, .disputeLost: "order.dispute.resolved"
            }
        }

        /// The V2 `result`: `success`, `failed`, `won`, `lost`; nil for the others.
        public var result: String? {
            switch self {
            case .paymentSucceeded: "success"
            case .paymentFailed: "failed"
            case .disputeWon: "won"
            case .disputeLost: "lost"
            default: nil
            }
        }

        /// The V1 `event`: `order_dispute_lost`.
        public var v1Name: String {
            switch self {
            case .created: "order_created"
            case .paymentSucceeded: "payment_intent_success"
            case .paymentFailed: "payment_intent_failed"
            case .completed: "order_completed_success"
            case .canceled: "order_cancelled"
            case .refunded: "order_refunded"
            case .disputeOpened: "order_dispute_open"
            case .disputeWon: "order_dispute_won"
            case .disputeLost: "order_dispute_lost"
            }
        }

        /// The V2 names, each once, in the order of an order's life.
        public static var v2Names: [String] {
            allCases.map(\.v2Name).reduce(into: []) { names, name in if !names.contains(name) { names.append(name) } }
        }

        /// The results a V2 name takes: `won` and `lost` for `order.dispute.resolved`;
        /// none for a name without a result.
        public static func results(of v2Name: String) -> [String] {
            allCases.filter { $0.v2Name == v2Name }.compactMap(\.result)
        }

        /// The event a V2 name and result mean: `order.dispute.resolved` with `lost`.
        public init?(v2Name: String, result: String?) {
            guard
                let found = Self.allCases.first(where: {
                    $0.v2Name == v2Name && ($0.result == nil || $0.result == result)
                })
            else { return nil }
            self = found
        }
    }

    /// The two envelopes Appcharge has sent.
    public enum Version: String, CaseIterable, Sendable {
        /// The older flat payload, `timestamp` in seconds.
        case v1
        /// The current envelope, `timestamp` in milliseconds.
        case v2

        /// When each attempt is sent, after the one before, in milliseconds: V2 at once,
        /// then 15 s, 15 s and 15 min later; V1 three more, 5 min apart.
        public var retryDelays: [Int] {
            switch self {
            case .v1: [0, 300_000, 300_000, 300_000]
            case .v2: [0, 15_000, 15_000, 900_000]
            }
        }

        /// Whether an answer with `status` (nil: none came, a timeout) is retried: V2 on
        /// anything but 2xx, V1 only on a server error.
        public func retries(status: Int?) -> Bool {
            switch self {
            case .v1: status.map { (500..<600).contains($0) } ?? false
            case .v2: status.map { !(200..<300).contains($0) } ?? true
            }
        }
    }

    /// What the event is about: the order, and what its session and award knew of it.
    public struct Subject: Sendable {
        /// The order the client received.
        public var order: OrderResponseModel
        /// The order's money (``OrderMoney``): what every amount of the event comes from.
        public var money: OrderMoney
        /// The player's email, when the game's server sent one.
        public var email: String?
        /// `sessionMetadata`, compact JSON, echoed back.
        public var sessionMetadata: [UInt8]?
        /// The order's money movements so far, oldest first: the V2 `transactions`.
        public var transactions: [OrderTransaction]
        /// The V2 `device` object; none when nil.
        package var device: OrderDevice?

        /// A subject.
        public init(
            order: OrderResponseModel, money: OrderMoney, email: String? = nil, sessionMetadata: [UInt8]? = nil,
            transactions: [OrderTransaction] = []
        ) {
            self.order = order
            self.money = money
            self.email = email
            self.sessionMetadata = sessionMetadata
            self.transactions = transactions
        }
    }

    /// What happened.
    public let name: Name
    /// The envelope.
    public let version: Version
    /// The V2 `eventId`: a UUID, the same on every retry of this event.
    public let eventId: String
    /// The body's bytes.
    public let body: [UInt8]

    /// The event `name` of `subject`, at `milliseconds` (Unix), the `sequence`-th event of
    /// its order. The `eventId` comes from `seed`, the purchase and the sequence: the same
    /// inputs give the same bytes.
    public init(_ name: Name, version: Version, subject: Subject, milliseconds: Int, seed: UInt64, sequence: Int) {
        self.name = name
        self.version = version
        eventId = Self.uuid(seed: seed, purchaseId: subject.order.purchaseId, sequence: sequence)
        body =
            version == .v2
            ? Self.v2Body(name, subject, eventId: eventId, milliseconds: milliseconds)
            : Self.v1Body(name, subject, milliseconds: milliseconds)
    }

    /// The event `name` of `session`'s order as it stood then, at `milliseconds` (Unix),
    /// the `sequence`-th event of its order: what the sandbox and the command line send.
    public init(
        _ name: Name, of session: CheckoutSessions.Session, version: Version, milliseconds: Int, seed: UInt64,
        sequence: Int
    ) {
        var subject = Subject(
            order: session.order, money: session.money, email: session.email,
            sessionMetadata: session.metadata, transactions: session.transactions)
        subject.device = session.device ?? .seeded(seed: seed, purchaseId: session.purchaseId)
        self.init(
            name, version: version, subject: subject, milliseconds: milliseconds, seed: seed, sequence: sequence)
    }

    /// The event as its version names it: `order.dispute.resolved (lost)` in V2,
    /// `order_dispute_lost` in V1.
    public var label: String { Self.label(name, version) }

    /// How `version` names the event `name`: `order.dispute.resolved (lost)`, `order_dispute_lost`.
    public static func label(_ name: Name, _ version: Version) -> String {
        switch version {
        case .v1: name.v1Name
        case .v2: name.v2Name + (name.result.map { " (\($0))" } ?? "")
        }
    }

    /// The headers the event carries, `signature` made now over the exact body with `key`.
    public func headers(publisherToken: String, projectId: String, milliseconds: Int, key: HMACSHA256.Key)
        -> [(name: String, value: String)]
    {
        [
            ("Content-Type", "application/json"), ("x-publisher-token", publisherToken), ("x-project-id", projectId),
            ("signature", GrantAward.signature(body: body, milliseconds: milliseconds, key: key)),
        ]
    }

    /// A version 4 UUID from a hash of what identifies the event: `event:SEED:PURCHASE:SEQUENCE`.
    static func uuid(seed: UInt64, purchaseId: String, sequence: Int) -> String {
        var message: [UInt8] = []
        message.reserveCapacity(48 + purchaseId.utf8.count)
        message += "event:".utf8
        message.appendDecimal(seed)
        message.append(UInt8(ascii: ":"))
        message += purchaseId.utf8
        message.append(UInt8(ascii: ":"))
        message.appendDecimal(sequence)
        let digest = SHA256.hash(message)
        // 8-4-4-4-12 hex digits of the digest's first 16 bytes, with the version and variant set.
        return String(unsafeUninitializedCapacity: 36) { text in
            var at = 0
            for index in 0..<16 {
                var byte = digest[index]
                if index == 6 { byte = byte & 0x0F | 0x40 }
                if index == 8 { byte = byte & 0x3F | 0x80 }
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[at] = UInt8(ascii: "-")
                    at += 1
                }
                text[at] = hexDigits[Int(byte >> 4)]
                text[at + 1] = hexDigits[Int(byte & 0x0F)]
                at += 2
            }
            return at
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `amount` minor units of `currency` as a decimal string: 549 EUR → "5.49", −50 USD
    /// → "-0.50", 1500 JPY → "1500".
    public static func decimal(_ amount: Int, currency: String) -> String {
        let digits = CurrencyCodes.minorUnitDigits(of: currency)
        guard digits > 0 else { return String(amount) }
        var scale: UInt = 1
        for _ in 0..<digits { scale *= 10 }
        let magnitude = amount.magnitude
        let fraction = String(magnitude % scale)
        let sign = amount < 0 ? "-" : ""
        return "\(sign)\(magnitude / scale).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
    }

    private static func v2Body(_ name: Name, _ subject: Subject, eventId: String, milliseconds: Int) -> [UInt8] {
        let order = subject.order
        var writer = JSONWriter()
        writer.openObject()
        writer.field("eventName", name.v2Name)
        writer.field("eventId", eventId)
        writer.field("timestamp", milliseconds)
        writer.field("sessionId", order.sessionToken)
        writer.key("result")
        if let result = name.result { writer.string(result) } else { writer.null() }
        writer.key("customer")
        writer.openObject()
        writer.field("id", order.customerId)
        if let email = subject.email { writer.field("email", email) }
        writer.closeObject()
        writer.key("offer")
        writer.openObject()
        writer.field("externalId", order.offerSku)
        writer.field("name", order.offerName)
        writer.key("products")
        writer.openArray()
        for item in order.items {
            writer.openObject()
            writer.field("displayName", item.name)
            writer.field("productExternalId", item.sku)
            writer.field("productQuantity", item.quantity)
            writer.closeObject()
        }
        writer.closeArray()
        writer.closeObject()
        writer.key("order")
        writer.openObject()
        writer.field("subtotal", subject.money.subTotal)
        writer.field("discountAmount", 0)
        writer.field("totalPayment", subject.money.priceInCents)
        writer.field("taxAmount", subject.money.tax)
        writer.field("currencyCode", order.currency)
        // A free order was paid with nothing.
        if order.price != 0 { writer.field("paymentMethod", order.paymentMethodName) }
        writer.field("pricePointMetadata", subject.money.pricePoint)
        writer.field("isSavedPaymentMethodUsed", false)
        writer.field("isNewPaymentMethodSaved", false)
        writer.closeObject()
        writer.key("geolocation")
        writer.openObject()
        writer.field("countryCode2", order.customerCountry)
        writer.closeObject()
        if let device = subject.device {
            writer.key("device")
            device.write(to: &writer)
        }
        writer.key("transactions")
        writer.openArray()
        for transaction in subject.transactions { write(transaction, of: subject, to: &writer) }
        writer.closeArray()
        if let metadata = subject.sessionMetadata {
            writer.key("sessionMetadata")
            writer.json(metadata)
        }
        writer.closeObject()
        return writer.bytes
    }

    /// One row of the V2 `transactions`, at the time it happened: the parts it moved
    /// (``OrderMoney/moved(by:)``), negative for money given back, as decimal strings with
    /// the currency's minor digits.
    private static func write(_ transaction: OrderTransaction, of subject: Subject, to writer: inout JSONWriter) {
        let order = subject.order
        let moved = subject.money.moved(by: transaction)
        writer.openObject()
        writer.field("purchaseId", order.purchaseId)
        writer.field("type", transaction.kind.rawValue)
        writer.field("timestamp", transaction.milliseconds)
        writer.field("amount", decimal(moved.priceInCents, currency: order.currency))
        writer.field("amountUSD", OrderMoney.dollars(moved.priceTotalInDollar))
        writer.field("totalTaxAmount", decimal(moved.tax, currency: order.currency))
        writer.field("totalTaxAmountUsd", OrderMoney.dollars(moved.taxInDollar))
        writer.field("currencyExchangeCostUsd", OrderMoney.dollars(moved.currencyExchangeCost))
        writer.field("chargeBackFeeUsd", OrderMoney.dollars(transaction.chargebackFee))
        writer.field("receiptNumber", GrantAward.receiptId(orderId: order.orderId))
        writer.closeObject()
    }

    private static func v1Body(_ name: Name, _ subject: Subject, milliseconds: Int) -> [UInt8] {
        let order = subject.order
        let money = subject.money
        var writer = JSONWriter()
        writer.openObject()
        writer.field("event", name.v1Name)
        writer.field("timestamp", milliseconds / 1000)
        writer.field("appChargePaymentId", GrantAward.paymentId(orderId: order.orderId))
        writer.field("appChargeOrderId", order.orderId)
        writer.field("playerId", order.customerId)
        if let metadata = subject.sessionMetadata {
            writer.key("sessionMetadata")
            writer.json(metadata)
        }
        if order.price != 0 { writer.field("paymentMethod", order.paymentMethodName) }
        writer.field("pricePointMetadata", money.pricePoint)
        // V1 documents its estimates and dollar prices in dollars, not the award's cents.
        writer.key("estimatedPublisherNetAmount")
        writer.rawNumber(OrderMoney.dollars(money.net))
        writer.key("estimatedAppchargeFee")
        writer.rawNumber(OrderMoney.dollars(money.fee))
        writer.field("isSavedPaymentMethodUsed", false)
        writer.field("isNewPaymentMethodSaved", false)
        writer.key("offer")
        writer.openObject()
        writer.field("offerName", order.offerName)
        writer.field("offerExternalId", order.offerSku)
        writer.key("originalPriceInDollar")
        writer.rawNumber(OrderMoney.dollars(money.pricePoint))
        writer.field("country", order.customerCountry)
        writer.field("currency", order.currency)
        writer.key("priceInDollar")
        writer.rawNumber(OrderMoney.dollars(money.priceInDollar))
        writer.field("priceInCents", money.priceInCents)
        writer.field("subtotal", money.subTotal)
        writer.field("tax", money.tax)
        writer.key("products")
        writer.openArray()
        for item in order.items {
            writer.openObject()
            writer.field("name", item.name)
            writer.field("sku", item.sku)
            writer.field("amount", Int(item.quantity) ?? 0)
            writer.closeObject()
        }
        writer.closeArray()
        writer.closeObject()
        writer.closeObject()
        return writer.bytes
    }
}

/// What can go wrong on the way to the game's server, on purpose: the faults a handler
/// must survive (`after-the-purchase.md`, sections 3.1 and 6).
public enum DeliveryFault: String, CaseIterable, Sendable {
    /// The event is delivered twice, the same `eventId` both times.
    case duplicate
    /// The event is held back and arrives after the one that follows it.
    case reorder
    /// The first attempt is lost on the way, as a timeout: the retry brings it (V2), or
    /// nothing does (V1 retries server errors only).
    case dropFirst = "drop-first"
    /// The event arrives late: its first attempt is sent ``delayMilliseconds`` after it happened.
    case delay

    /// How late a delayed event arrives: 5 minutes.
    public static let delayMilliseconds = 300_000
}
