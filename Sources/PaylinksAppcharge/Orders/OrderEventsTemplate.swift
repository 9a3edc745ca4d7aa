import PaylinksJSON
import PaylinksKit

/// The events of one order with holes where what differs from one order to the next
/// goes: its identifiers, what is derived from them (event ids, payment and receipt ids,
/// the seeded device) and its times. A load whose orders are all one order under their
/// own identifiers, each a fixed time after the one before, builds each further order's
/// events by filling in the holes instead of living the order again on Appcharge's side.
///
/// A template is made from the events of one order as Appcharge's side lived them and
/// proven on two: filled for the first order it must give that order's exact events, and
/// filled for the second it must give the second's exact events (names, ids, bodies and
/// times). Events that differ between orders in any other way fail the proof, and the
/// load lives every order.
package struct OrderEventsTemplate: Sendable {
    /// What a hole holds.
    private enum Hole: Sendable {
        case sessionToken, purchaseId, orderId, eventId, paymentId, receiptId, device, milliseconds, seconds, paid
    }

    /// One event: its body's literal parts and holes, and when it happens after the order's first.
    private struct Event: Sendable {
        var name: OrderEvent.Name
        var version: OrderEvent.Version
        var sequence: Int
        var milliseconds: Int
        var pieces: [(literal: [UInt8], hole: Hole?)]
        /// About how long its body is, for reserving space.
        var length: Int
    }

    private let events: [Event]
    private let seed: UInt64
    /// The first order's checkout index, and when its first event happened.
    private let index: Int
    /// The bytes of each device the seed picks from, when each order's device is the one
    /// its seed picks rather than one the options set.
    private let devices: [[UInt8]]?
    /// Whether a hole holds the payment id, and the receipt id.
    private let holdsPaymentId: Bool
    private let holdsReceiptId: Bool

    /// A template of the events of checkout `first`, proven on checkout `second`, each
    /// with the events it sent and when each happened; nil when no template gives both
    /// exactly.
    ///
    /// - Parameters:
    ///   - seededDevice: whether each order's device is the one its seed picks.
    package init?(
        first: (index: Int, events: [(event: OrderEvent, milliseconds: Int)]),
        second: (index: Int, events: [(event: OrderEvent, milliseconds: Int)]), seed: UInt64, seededDevice: Bool
    ) {
        guard let base = first.events.first?.milliseconds, let next = second.events.first?.milliseconds
        else { return nil }
        self.seed = seed
        self.index = first.index
        devices = seededDevice ? OrderDevice.seededChoices.map { Self.bytes(of: $0) } : nil
        let values = Values(seed: seed, index: first.index, devices: devices, paymentId: true, receiptId: true)
        var events: [Event] = []
        for (event, milliseconds) in first.events {
            guard let sequence = (0..<64).first(where: { values.eventId($0) == event.eventId }) else { return nil }
            let times = (milliseconds, milliseconds / 1000, base / 1000 * 1000)
            events.append(
                Event(
                    name: event.name, version: event.version, sequence: sequence, milliseconds: milliseconds - base,
                    pieces: Self.pieces(of: event.body, values: values, times: times, version: event.version),
                    length: event.body.count + 64))
        }
        self.events = events
        let holes = events.flatMap { $0.pieces.compactMap(\.hole) }
        holdsPaymentId = holes.contains(.paymentId)
        holdsReceiptId = holes.contains(.receiptId)
        // The proof: filled for each order, the template gives its events exactly.
        guard Self.same(self.events(index: first.index, at: base), first.events),
            Self.same(self.events(index: second.index, at: next), second.events)
        else { return nil }
    }

    /// The events of checkout `index`, the first happening at `milliseconds` (Unix), each
    /// with when it happens.
    package func events(index: Int, at milliseconds: Int) -> [(event: OrderEvent, milliseconds: Int)] {
        let values = Values(
            seed: seed, index: index, devices: devices, paymentId: holdsPaymentId, receiptId: holdsReceiptId)
        return events.map { event in
            let at = milliseconds + event.milliseconds
            let eventId = values.eventId(event.sequence)
            var body: [UInt8] = []
            body.reserveCapacity(event.length)
            for (literal, hole) in event.pieces {
                body += literal
                guard let hole else { continue }
                switch hole {
                case .sessionToken: body += values.identifiers.sessionToken.utf8
                case .purchaseId: body += values.identifiers.purchaseId.utf8
                case .orderId: body += values.identifiers.orderId.utf8
                case .eventId: body += eventId.utf8
                case .paymentId: body += values.paymentId.utf8
                case .receiptId: body += values.receiptId.utf8
                case .device: body += values.device
                case .milliseconds: body.appendDecimal(at)
                case .seconds: body.appendDecimal(at / 1000)
                case .paid: body.appendDecimal(milliseconds / 1000 * 1000)
                }
            }
            return (OrderEvent(name: event.name, version: event.version, eventId: eventId, body: body), at)
        }
    }

    /// What fills the holes for one order.
    private struct Values {
        let seed: UInt64
        let identifiers: CheckoutIdentifiers
        /// The payment and receipt ids, when a hole holds them.
        let paymentId: String
        let receiptId: String
        /// The device object's bytes; empty when the options set the device.
        let device: [UInt8]

        init(seed: UInt64, index: Int, devices: [[UInt8]]?, paymentId: Bool, receiptId: Bool) {
            self.seed = seed
            identifiers = CheckoutIdentifiers(seed: seed, index: index)
            self.paymentId = paymentId ? GrantAward.paymentId(orderId: identifiers.orderId) : ""
            self.receiptId = receiptId ? GrantAward.receiptId(orderId: identifiers.orderId) : ""
            device = devices?[OrderDevice.seededIndex(seed: seed, purchaseId: identifiers.purchaseId)] ?? []
        }

        func eventId(_ sequence: Int) -> String {
            OrderEvent.uuid(seed: seed, purchaseId: identifiers.purchaseId, sequence: sequence)
        }
    }

    /// `body` cut wherever one of the order's values stands as a whole JSON string or
    /// number (the device as the value of `"device"`). The order was paid when its first
    /// event happened, in whole seconds: its transaction's time.
    private static func pieces(
        of body: [UInt8], values: Values, times: (milliseconds: Int, seconds: Int, paid: Int),
        version: OrderEvent.Version
    ) -> [(literal: [UInt8], hole: Hole?)] {
        func quoted(_ text: String) -> [UInt8] { [UInt8(ascii: "\"")] + Array(text.utf8) + [UInt8(ascii: "\"")] }
        var strings: [(Hole, [UInt8])] = [
            (.sessionToken, quoted(values.identifiers.sessionToken)),
            (.purchaseId, quoted(values.identifiers.purchaseId)), (.orderId, quoted(values.identifiers.orderId)),
            (.paymentId, quoted(values.paymentId)), (.receiptId, quoted(values.receiptId)),
        ]
        if version == .v2 {
            for sequence in 0..<64 { strings.append((.eventId, quoted(values.eventId(sequence)))) }
        }
        if !values.device.isEmpty { strings.append((.device, Array("\"device\":".utf8) + values.device)) }
        let numbers: [(Hole, [UInt8])] = [
            (.milliseconds, Array(":\(times.milliseconds)".utf8)), (.seconds, Array(":\(times.seconds)".utf8)),
            (.paid, Array(":\(times.paid)".utf8)),
        ]
        var pieces: [(literal: [UInt8], hole: Hole?)] = []
        var literal: [UInt8] = []
        var at = 0
        scan: while at < body.count {
            for (hole, pattern) in strings where body.starts(with: pattern, at: at) {
                // The quotes (and the device's key) stay literal.
                let prefix = hole == .device ? 9 : 1
                let suffix = hole == .device ? 0 : 1
                literal += pattern.prefix(prefix)
                pieces.append((literal, hole))
                literal = Array(pattern.suffix(suffix))
                at += pattern.count
                continue scan
            }
            for (hole, pattern) in numbers where body.starts(with: pattern, at: at) {
                let end = at + pattern.count
                guard end < body.count, [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(body[end])
                else { continue }
                pieces.append((literal + [UInt8(ascii: ":")], hole))
                literal = []
                at = end
                continue scan
            }
            literal.append(body[at])
            at += 1
        }
        pieces.append((literal, nil))
        return pieces
    }

    /// The device object's bytes, as an event's body writes it.
    private static func bytes(of device: OrderDevice) -> [UInt8] {
        var writer = JSONWriter()
        device.write(to: &writer)
        return writer.bytes
    }

    private static func same(
        _ filled: [(event: OrderEvent, milliseconds: Int)], _ lived: [(event: OrderEvent, milliseconds: Int)]
    ) -> Bool {
        filled.count == lived.count
            && zip(filled, lived).allSatisfy { filled, lived in
                filled.milliseconds == lived.milliseconds && filled.event.name == lived.event.name
                    && filled.event.version == lived.event.version && filled.event.eventId == lived.event.eventId
                    && filled.event.body == lived.event.body
            }
    }
}

extension OrderEvent {
    /// An event of its parts, as a template fills them in.
    fileprivate init(name: Name, version: Version, eventId: String, body: [UInt8]) {
        self.name = name
        self.version = version
        self.eventId = eventId
        self.body = body
    }
}

extension Array where Element == UInt8 {
    /// Whether `pattern` stands at `offset`.
    fileprivate func starts(with pattern: [UInt8], at offset: Int) -> Bool {
        guard offset + pattern.count <= count else { return false }
        for index in pattern.indices where self[offset + index] != pattern[index] { return false }
        return true
    }
}
