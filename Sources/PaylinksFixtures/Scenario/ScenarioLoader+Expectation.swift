import PaylinksJSON
import PaylinksKit

extension ScenarioLoader {
    /// The V2 names of order events, which an expectation's `events` lists.
    static let eventNames = [
        "order.created", "order.payment.resolved", "order.completed", "order.canceled", "order.refunded",
        "order.dispute.opened", "order.dispute.resolved",
    ]

    /// The checks an expectation may make, as its keys.
    static let expectationKeys = [
        "callback", "code", "error", "order", "pricePoints", "deliveries", "state", "events", "ledger", "redirect",
    ]

    /// The checks of an expectation that look at the SDK's callbacks, which a Link Out game never receives.
    static let callbackKeys = ["callback", "code", "error", "order", "pricePoints", "deliveries"]

    /// How far from 0 a count in an expected ledger may be.
    static let ledgerLimit = 1_000_000_000_000_000

    /// Reads a step's `expect`: the callbacks its kind of step may end with, the codes and
    /// values of the callback's arguments, the order's state and the events sent.
    static func expectation(_ reader: JSONReader, failureStep: Step, target: SDKTarget, catalog: Catalog)
        throws(JSONShapeError) -> StepExpectation
    {
        let object = try reader.object(keys: expectationKeys)
        var expectation = StepExpectation(callback: nil, code: nil, arguments: [], deliveries: nil)
        expectation.offsets["expect"] = reader.value.offset
        if case .object(let members) = reader.value.kind {
            for (member, offset) in zip(members, reader.value.keyOffsets) { expectation.offsets[member.key] = offset }
        }
        let allowed: [CallbackName] =
            switch failureStep {
            case .initialize: [.onInitialized, .onInitializeFailed]
            case .pricePoints: [.onPricePointsSuccess, .onPricePointsFailed]
            case .purchase:
                [.onPurchaseSuccess, .onPurchaseFailed] + (target.generation == .g3 ? [.onPurchaseCanceled] : [])
            }
        let platform = target.platform
        expectation.callback = try JSONReader.collected(object.optional("callback")) {
            callbackReader throws(JSONShapeError) in
            let text = try callbackReader.string()
            let names = allowed.map { platform.name(of: $0) }
            // The platform's name, or the canonical (iOS) one.
            let named = allowed.first { platform.name(of: $0) == text || $0.rawValue == text }
            guard let callback = named else {
                let hint = Suggestion.hint(for: text, among: names, quoted: .double) ?? ""
                throw callbackReader.error(
                    "\"\(text)\" is not a result of this step (\(names.joined(separator: " or ")))\(hint)")
            }
            return callback
        }
        // Any known code may be expected: a request before initialize fails with 2000 on
        // whichever callback it has.
        expectation.code = try JSONReader.collected(object.optional("code")) { value throws(JSONShapeError) in
            try statusCode(value, at: nil, catalog: catalog)
        }
        let shapes: [(name: String, shape: ModelShape)] = [
            ("error", .error), ("order", .order), ("pricePoints", .pricePoints),
        ]
        for (name, shape) in shapes {
            guard case .object(let members) = reader.value.kind,
                let member = members.first(where: { $0.key == name })
            else { continue }
            if case .null = member.value.kind, name != "order" {
                throw try object.required(name).error("expect a value here, or leave \"\(name)\" out")
            }
            if let argument = object.optional(name) {
                _ = try argument.collecting { () throws(JSONShapeError) in try shape.checkKeys(of: argument) }
            }
            expectation.arguments.append((name, member.value))
            recordOffsets(of: member.value, at: name, in: &expectation.offsets)
        }
        expectation.deliveries = try JSONReader.collected(object.optional("deliveries")) {
            value throws(JSONShapeError) in try value.int(in: 1...2)
        }
        expectation.state = try JSONReader.collected(object.optional("state")) { value throws(JSONShapeError) in
            try choice(value, OrderState.self)
        }
        expectation.events = try JSONReader.collected(object.optional("events")) { value throws(JSONShapeError) in
            var names: [String] = []
            for element in try value.array() {
                let name = try element.string()
                // Read in any case, as the other names paylinks knows.
                guard let known = eventNames.first(where: { $0.lowercased() == name.lowercased() }) else {
                    let hint = Suggestion.hint(for: name, among: eventNames, quoted: .double) ?? ""
                    throw element.error(
                        "\"\(name)\" is not a V2 event name (\(eventNames.joined(separator: ", ")))\(hint)")
                }
                names.append(known)
            }
            return names
        }
        expectation.redirect = try JSONReader.collected(object.optional("redirect")) { value throws(JSONShapeError) in
            let text = try value.string()
            guard let status = PaymentFlow.statuses.first(where: { $0 == text.lowercased() }) else {
                throw value.error(
                    "expected a Link Out status (\(PaymentFlow.statuses.joined(separator: ", "))), got \"\(text)\"")
            }
            return status
        }
        expectation.ledger = try JSONReader.collected(object.optional("ledger"), ledger)
        if let ledgerReader = object.optional("ledger") {
            recordOffsets(of: ledgerReader.value, at: "ledger", in: &expectation.offsets)
        }
        guard expectation.checkCount > 0 || !object.isEmpty else {
            throw reader.error("an expectation needs at least one of \(expectationKeys.joined(separator: ", "))")
        }
        return expectation
    }

    /// `ledger`: what the player holds, by product SKU, each a whole number within
    /// ``ledgerLimit``; every problem of it is reported, each at its place.
    private static func ledger(_ reader: JSONReader) throws(JSONShapeError) -> [String: Int] {
        let members = try reader.members()
        var ledger: [String: Int] = [:]
        for (index, (sku, count)) in members.enumerated() {
            if sku.isEmpty {
                let offset = index < reader.value.keyOffsets.count ? reader.value.keyOffsets[index] : count.value.offset
                let error = JSONShapeError(
                    offset: offset, path: reader.path, reason: "expected each key to be a product's SKU, got \"\"")
                _ = try reader.collecting { () throws(JSONShapeError) in throw error }
                continue
            }
            let read = try count.collecting { () throws(JSONShapeError) in
                try count.int(in: -ledgerLimit...ledgerLimit)
            }
            if let read { ledger[sku] = read }
        }
        return ledger
    }

    /// The offsets of the keys and elements inside an expected value, by the paths a
    /// mismatch names them with: `order.price`, `order.items[0].name`.
    static func recordOffsets(of value: JSONValue, at path: String, in offsets: inout [String: Int]) {
        switch value.kind {
        case .object(let members):
            for (member, offset) in zip(members, value.keyOffsets) {
                offsets["\(path).\(member.key)"] = offset
                recordOffsets(of: member.value, at: "\(path).\(member.key)", in: &offsets)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                offsets["\(path)[\(index)]"] = element.offset
                recordOffsets(of: element, at: "\(path)[\(index)]", in: &offsets)
            }
        case .null, .bool, .number, .string:
            break
        }
    }
}
