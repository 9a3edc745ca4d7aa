package import PaylinksJSON
import PaylinksKit

/// A checkout session as a durable record: one compact JSON object that holds all of it,
/// from which ``CheckoutSessions/Session/init(record:)`` makes the same session again.
///
/// The members are the session's own names; an order's life is its actions, replayed
/// on the state its award left (`granted`), so that the rules it was built by are the
/// rules it is read by.
extension CheckoutSessions.Session {
    /// The record's bytes: `{"index":0,"token":"...",...}`.
    public var record: [UInt8] {
        var writer = JSONWriter()
        writer.openObject()
        writer.field("index", index)
        writer.field("token", token)
        writer.field("purchaseId", purchaseId)
        writer.field("orderId", orderId)
        writer.field("created", created)
        writer.field("offerName", offerName)
        writer.field("offerSku", offerSku)
        writer.key("items")
        writer.openArray()
        for item in items {
            writer.openObject()
            writer.field("name", item.name)
            writer.field("sku", item.sku)
            writer.field("quantity", item.quantity)
            writer.closeObject()
        }
        writer.closeArray()
        writer.field("price", price)
        writer.field("currency", currency)
        writer.field("customerId", customerId)
        if let email { writer.field("email", email) }
        writer.field("country", country)
        if let redirectUrl { writer.field("redirectUrl", redirectUrl) }
        if let metadata {
            writer.key("metadata")
            writer.json(metadata)
        }
        if let pricePointMetadata { writer.field("pricePointMetadata", pricePointMetadata) }
        if !warnings.isEmpty {
            writer.key("warnings")
            writer.openArray()
            for warning in warnings { writer.string(warning) }
            writer.closeArray()
        }
        if let device {
            writer.key("device")
            device.write(to: &writer)
        }
        writer.field("state", state.rawValue)
        writer.field("paymentMethod", paymentMethod)
        writer.field("date", date)
        writer.field("eventCount", eventCount)
        if let resolution {
            writer.key("resolution")
            writer.openObject()
            writer.field("outcome", resolution.outcome)
            writer.field("at", resolution.at)
            writer.closeObject()
        }
        if resolvedLate { writer.field("resolvedLate", true) }
        if canceledByPlayer { writer.field("canceledByPlayer", true) }
        if let life {
            writer.key("life")
            writer.openObject()
            writer.field("granted", life.granted)
            writer.key("actions")
            writer.openArray()
            for (index, transition) in life.transitions.enumerated() {
                Self.write(transition.action, at: index < lifeTimes.count ? lifeTimes[index] : 0, to: &writer)
            }
            writer.closeArray()
            writer.closeObject()
        }
        writer.closeObject()
        return writer.bytes
    }

    /// Why a record is not a session.
    public struct RecordProblem: Error, Sendable, CustomStringConvertible {
        /// What is wrong, naming the member.
        public var description: String
        /// Where in the record's text the member that is wrong starts, in bytes, when it
        /// is there.
        public var offset: Int?

        /// A problem, said in `description`, of the member at `offset`.
        public init(description: String, offset: Int? = nil) {
            self.description = description
            self.offset = offset
        }
    }

    /// The session a ``record`` holds.
    ///
    /// - Throws: ``RecordProblem`` naming the first member that is missing or not what the
    ///   record writes, or an action its order's rules refuse.
    package init(record value: JSONValue) throws(RecordProblem) {
        guard case .object = value.kind else { throw RecordProblem(description: "not an object") }
        let fields = RecordFields(value)
        index = try fields.integer("index", in: RecordRange.count)
        token = try fields.string("token")
        purchaseId = try fields.string("purchaseId")
        orderId = try fields.string("orderId")
        created = try fields.integer("created", in: RecordRange.milliseconds)
        offerName = try fields.string("offerName")
        offerSku = try fields.string("offerSku")
        items = try fields.array("items").map { (item) throws(RecordProblem) in
            let fields = RecordFields(item)
            return OrderResponseModel.Item(
                name: try fields.string("name"), sku: try fields.string("sku"),
                quantity: try fields.string("quantity"))
        }
        price = try fields.integer("price", in: RecordRange.amount)
        currency = try fields.string("currency")
        customerId = try fields.string("customerId")
        email = try fields.optionalString("email")
        country = try fields.string("country")
        redirectUrl = try fields.optionalString("redirectUrl")
        // Checked again, as Create Checkout Session checked it: a record is a file anyone
        // may have written, and the checkout sends the browser there in a Location.
        if let url = redirectUrl, let problem = RedirectURL.problem(url) {
            throw RecordProblem(description: "redirectUrl \(problem)")
        }
        metadata = fields["metadata"].map { value in
            var writer = JSONWriter()
            value.write(to: &writer)
            return writer.bytes
        }
        pricePointMetadata =
            fields["pricePointMetadata"] == nil ? nil : try fields.integer("pricePointMetadata", in: RecordRange.amount)
        if fields["warnings"] != nil {
            warnings = try fields.array("warnings").map { (value) throws(RecordProblem) in
                guard case .string(let text) = value.kind else {
                    throw RecordProblem(
                        description: "warnings holds a value that is not a string", offset: value.offset)
                }
                return text
            }
        }
        if let value = fields["device"] {
            guard case .object(let members) = value.kind else {
                throw RecordProblem(description: "device is not an object", offset: value.offset)
            }
            var pairs: [(key: String, value: String)] = []
            for member in members {
                guard case .string(let text) = member.value.kind else {
                    throw RecordProblem(
                        description: "device.\(member.key) is not a string", offset: member.value.offset)
                }
                pairs.append((member.key, text))
            }
            do throws(OrderDevice.Problem) {
                device = try OrderDevice(pairs: pairs)
            } catch {
                throw RecordProblem(description: "device \(error.reason)", offset: value.offset)
            }
        }
        let stateName = try fields.string("state")
        guard let state = OrderState(rawValue: stateName) else {
            throw RecordProblem(description: "state '\(stateName)' is not an order state")
        }
        self.state = state
        paymentMethod = try fields.string("paymentMethod")
        date = try fields.integer("date", in: RecordRange.seconds)
        eventCount = try fields.integer("eventCount", in: RecordRange.count)
        if let value = fields["resolution"] {
            let resolutionFields = RecordFields(value)
            let outcome = try resolutionFields.string("outcome")
            guard outcome == "succeeded" || outcome == "failed" else {
                throw RecordProblem(description: "resolution: outcome '\(outcome)' is not succeeded or failed")
            }
            guard state == .paymentPending else {
                throw RecordProblem(description: "resolution is for a payment_pending session, not \(stateName)")
            }
            resolution = CheckoutSessions.Resolution(
                succeeded: outcome == "succeeded", at: try resolutionFields.integer("at", in: RecordRange.milliseconds))
        }
        resolvedLate = fields["resolvedLate"] == nil ? false : try fields.bool("resolvedLate")
        // A record of an older sandbox, which knew only closing, has none.
        canceledByPlayer = fields["canceledByPlayer"] == nil ? false : try fields.bool("canceledByPlayer")
        if let lifeValue = fields["life"] {
            let lifeFields = RecordFields(lifeValue)
            let granted = try lifeFields.bool("granted")
            let actions = try lifeFields.array("actions")
            var life = OrderLife(state: granted ? .chargeSucceed : .chargeFailed, price: price)
            for action in actions {
                let actionFields = RecordFields(action)
                lifeTimes.append(
                    actionFields["at"] == nil ? 0 : try actionFields.integer("at", in: RecordRange.milliseconds))
                do {
                    try life.apply(try Self.action(action))
                } catch let refusal as OrderLife.Refusal {
                    throw RecordProblem(description: "life: \(refusal.message)")
                } catch let problem as RecordProblem {
                    throw problem
                } catch {
                    throw RecordProblem(description: "life: \(error)")
                }
            }
            guard life.state == state else {
                throw RecordProblem(description: "life ends in \(life.state.rawValue), not the state \(stateName)")
            }
            self.life = life
        } else {
            life = nil
        }
    }

    private static func write(_ action: OrderLife.Action, at milliseconds: Int, to writer: inout JSONWriter) {
        writer.openObject()
        writer.field("at", milliseconds)
        switch action {
        case .requestRefund(let amount):
            writer.field("action", "requestRefund")
            if let amount { writer.field("amount", amount) }
        case .processRefund(let succeeded):
            writer.field("action", "processRefund")
            writer.field("succeeded", succeeded)
        case .openDispute: writer.field("action", "openDispute")
        case .submitEvidence: writer.field("action", "submitEvidence")
        case .resolveDispute(let won):
            writer.field("action", "resolveDispute")
            writer.field("won", won)
        }
        writer.closeObject()
    }

    private static func action(_ value: JSONValue) throws(RecordProblem) -> OrderLife.Action {
        let fields = RecordFields(value)
        switch try fields.string("action") {
        case "requestRefund":
            return .requestRefund(
                amount: fields["amount"] == nil ? nil : try fields.integer("amount", in: RecordRange.amount))
        case "processRefund": return .processRefund(succeeded: try fields.bool("succeeded"))
        case "openDispute": return .openDispute
        case "submitEvidence": return .submitEvidence
        case "resolveDispute": return .resolveDispute(won: try fields.bool("won"))
        case let other: throw RecordProblem(description: "'\(other)' is not an action")
        }
    }
}

/// The ranges a record's numbers are written in.
enum RecordRange {
    /// Indexes and counts: sessions, deliveries, events, attempts.
    static let count = 0...(1 << 40)
    /// Unix milliseconds, up to the end of the year 9999, the latest `--now` there is.
    static let milliseconds = 0...253_402_300_799_999
    /// Unix seconds, up to the same.
    static let seconds = 0...253_402_300_799
    /// Prices and refunds in minor units, and price points in US cents.
    static let amount = 0...SessionRequest.maximumAmount
    /// How long something took or waited, in milliseconds: about 35 years.
    static let duration = 0...(1 << 40)
    /// An HTTP status.
    static let status = 100...999
}

/// A record's members by name, read as a record writes them; each read names the member
/// that is missing or of another type.
struct RecordFields {
    typealias Problem = CheckoutSessions.Session.RecordProblem
    let members: [String: JSONValue]

    /// The members of `value`; none when it is not an object.
    init(_ value: JSONValue) {
        var members: [String: JSONValue] = [:]
        if case .object(let list) = value.kind {
            for (key, value) in list where members[key] == nil { members[key] = value }
        }
        self.members = members
    }

    subscript(name: String) -> JSONValue? { members[name] }

    func value(_ name: String) throws(Problem) -> JSONValue {
        guard let value = members[name] else { throw Problem(description: "\(name) is missing") }
        return value
    }

    func string(_ name: String) throws(Problem) -> String {
        guard case .string(let text)? = members[name]?.kind else {
            throw Problem(description: "\(name) is missing or not a string", offset: members[name]?.offset)
        }
        return text
    }

    func optionalString(_ name: String) throws(Problem) -> String? {
        members[name] == nil ? nil : try string(name)
    }

    /// The integer `name`, which must be in `range`: the sandbox writes every number of a
    /// record within one, so that no later arithmetic on it can overflow.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(Problem) -> Int {
        let offset = members[name]?.offset
        guard case .number(let text)? = members[name]?.kind else {
            throw Problem(description: "\(name) is missing or not an integer", offset: offset)
        }
        guard let number = Int(text), range.contains(number) else {
            let shown = text.count > 24 ? text.prefix(24) + "…" : Substring(text)
            throw Problem(
                description: "\(name) is \(shown), outside \(range.lowerBound) to \(range.upperBound), where the "
                    + "sandbox writes it", offset: offset)
        }
        return number
    }

    func bool(_ name: String) throws(Problem) -> Bool {
        guard case .bool(let flag)? = members[name]?.kind else {
            throw Problem(description: "\(name) is missing or not true or false", offset: members[name]?.offset)
        }
        return flag
    }

    func array(_ name: String) throws(Problem) -> [JSONValue] {
        guard case .array(let items)? = members[name]?.kind else {
            throw Problem(description: "\(name) is missing or not an array", offset: members[name]?.offset)
        }
        return items
    }

    /// `[["name", "value"], ...]`, as headers are written.
    func pairs(_ name: String) throws(Problem) -> [(name: String, value: String)] {
        try array(name).map { (pair) throws(Problem) in
            guard case .array(let parts) = pair.kind, parts.count == 2, case .string(let first) = parts[0].kind,
                case .string(let second) = parts[1].kind
            else { throw Problem(description: "\(name) holds something other than [name, value] pairs") }
            return (first, second)
        }
    }
}
