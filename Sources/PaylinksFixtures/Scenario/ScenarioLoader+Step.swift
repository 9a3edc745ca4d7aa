import PaylinksJSON
import PaylinksKit

extension ScenarioLoader {
    /// The step kinds and the keys each takes besides `step`, `expect` and `attempts`.
    static let stepKeys: [StepKind: [String]] = [
        .initialize: ["customerId", "checkoutPublicKey", "environment", "redirectUrl", "error", "wait"],
        .pricePoints: ["country", "error"],
        .purchase: [
            "sku", "country", "paymentMethod", "outcome", "orderCustomerId", "sessionEnvironment", "purchaseId",
            "parsedUrl", "error", "delivery", "eventFault", "awardFault",
        ],
        .cancel: [
            "sku", "country", "via", "beforeOrder", "leaveOpen", "orderCustomerId", "sessionEnvironment", "purchaseId",
            "parsedUrl", "error", "delivery", "eventFault",
        ],
        .refund: ["amount", "outcome", "eventFault"],
        .dispute: ["outcome", "eventFault"],
        .resolve: ["outcome", "after", "eventFault", "awardFault"],
        .advance: ["by", "eventFault", "awardFault"],
        .retryAward: ["eventFault", "awardFault"],
    ]

    /// The keys an attempt may set, per step kind: how this attempt ends.
    static let attemptKeys: [StepKind: [String]] = [
        .initialize: ["error", "expect"],
        .pricePoints: ["error", "expect"],
        .purchase: ["outcome", "paymentMethod", "error", "delivery", "expect"],
        .cancel: ["via", "beforeOrder", "leaveOpen", "error", "delivery", "expect"],
        .refund: ["expect"],
        .dispute: ["expect"],
        .resolve: ["expect"],
        .advance: ["expect"],
        .retryAward: ["expect"],
    ]

    /// The kinds of step that send an award (a purchase paid, a payment resolved, a Retry
    /// Award), which alone take `awardFault`.
    static var awardSteps: [StepKind] {
        StepKind.allCases.filter { stepKeys[$0]?.contains("awardFault") == true }
    }

    /// Refuses `awardFault` on a step that sends no award, at the key, saying which steps
    /// take it; returns the key then, so that it is not refused again as unknown.
    private static func misplacedAwardFault(_ reader: JSONReader, kind: StepKind, keys: [String])
        throws(JSONShapeError) -> [String]
    {
        guard !keys.contains("awardFault"), case .object(let members) = reader.value.kind,
            let index = members.firstIndex(where: { $0.key == "awardFault" })
        else { return [] }
        let offset =
            index < reader.value.keyOffsets.count ? reader.value.keyOffsets[index] : members[index].value.offset
        let article = kind.rawValue.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        let error = JSONShapeError(
            offset: offset, path: reader.path.isEmpty ? "awardFault" : "\(reader.path).awardFault",
            reason: "\(article) \(kind) step sends no award; awardFault goes on the steps that send one: "
                + awardSteps.map(\.rawValue).joined(separator: ", "))
        _ = try reader.collecting { () throws(JSONShapeError) in throw error }
        return ["awardFault"]
    }

    /// Reads one entry of `steps`: one step, or one per attempt.
    static func readStep(
        _ reader: JSONReader, number: Int, configuration: inout Scenario.Configuration, catalog: Catalog
    ) throws(JSONShapeError) -> [ScenarioStep] {
        let kind = try stepKind(reader)
        guard let keys = stepKeys[kind], let attemptKeys = attemptKeys[kind] else {
            throw reader.error("unknown step \"\(kind)\"")
        }
        let misplaced = try misplacedAwardFault(reader, kind: kind, keys: keys)
        let object = try reader.object(keys: ["step", "expect", "attempts"] + keys + misplaced)
        var step = ScenarioStep(number: number, attempt: nil, action: .pricePoints, kind: kind)
        // Each key is read on its own, so that one run reports every problem of the step.
        step.country = try JSONReader.collected(object.optional("country"), country)
        step.eventFault = try JSONReader.collected(object.optional("eventFault")) { value throws(JSONShapeError) in
            try choice(value, ScenarioStep.EventFault.self)
        }
        step.awardFault = try JSONReader.collected(misplaced.isEmpty ? object.optional("awardFault") : nil) {
            value throws(JSONShapeError) in try choice(value, ScenarioStep.AwardFault.self)
        }
        switch kind {
        case .initialize:
            let strings: [(key: String, field: WritableKeyPath<Scenario.Configuration, String>)] = [
                ("customerId", \.customerId), ("checkoutPublicKey", \.checkoutPublicKey),
                ("environment", \.environment),
            ]
            for (key, field) in strings {
                let read = try JSONReader.collected(object.optional(key)) { value throws(JSONShapeError) in
                    try value.string()
                }
                if let read { configuration[keyPath: field] = read }
            }
            if let value = try JSONReader.collected(
                object.optional("redirectUrl"), { value throws(JSONShapeError) in try value.string() })
            {
                configuration.redirectUrl = value
            }
            _ = try JSONReader.collected(object.optional("wait")) { value throws(JSONShapeError) in
                step.waits = try value.bool()
                if !step.waits, object.optional("expect") != nil || object.optional("attempts") != nil {
                    throw value.error(
                        "a step that does not wait has no result of its own: its result arrives with the next "
                            + "step's, so expect it there")
                }
            }
            step.action = .initialize(
                ACConfigModel(
                    checkoutPublicKey: configuration.checkoutPublicKey, environment: configuration.environment,
                    redirectUrl: configuration.redirectUrl),
                customerId: configuration.customerId)
        case .pricePoints:
            if let target = configuration.target, target.generation == .g3 {
                throw reader.error(PricePointsRemoved.message(target))
            }
            step.action = .pricePoints
        case .refund:
            let amount = try JSONReader.collected(object.optional("amount")) { value throws(JSONShapeError) in
                try value.int(in: 1...1_000_000_000_000)
            }
            let outcome = try JSONReader.collected(object.optional("outcome")) { value throws(JSONShapeError) in
                try choice(value, ScenarioStep.RefundOutcome.self)
            }
            step.action = .refund(amount: amount, outcome: outcome ?? .refunded)
        case .dispute:
            let outcome = try JSONReader.collected(object.optional("outcome")) { value throws(JSONShapeError) in
                try choice(value, ScenarioStep.DisputeOutcome.self)
            }
            step.action = .dispute(outcome ?? .lost)
        case .resolve, .advance:
            step.action = try clockAction(object, kind: kind)
        case .retryAward:
            step.action = .retryAward
        case .purchase, .cancel:
            let sku =
                try JSONReader.collected(object.required("sku")) { skuReader throws(JSONShapeError) in
                    let sku = try skuReader.nonEmptyString()
                    guard catalog.offer(sku: sku) != nil else {
                        let hint =
                            Suggestion.hint(for: sku, among: catalog.offers.map(\.sku), quoted: .double)
                            ?? ""
                        throw skuReader.error("unknown SKU \"\(sku)\"\(hint)")
                    }
                    return sku
                } ?? ""
            step.action = .checkout(
                ScenarioStep.Checkout(
                    sku: sku, player: .closeCheckout(),
                    orderCustomerId: try JSONReader.collected(object.optional("orderCustomerId")) {
                        value throws(JSONShapeError) in try value.nonEmptyString()
                    },
                    sessionEnvironment: try JSONReader.collected(object.optional("sessionEnvironment")) {
                        value throws(JSONShapeError) in try value.nonEmptyString()
                    },
                    purchaseId: try JSONReader.collected(object.optional("purchaseId")) {
                        value throws(JSONShapeError) in try value.string()
                    },
                    parsedUrl: try JSONReader.collected(object.optional("parsedUrl")) { value throws(JSONShapeError) in
                        try value.string()
                    }))
        }
        try applyEnding(object, of: reader, to: &step, configuration: configuration, catalog: catalog)
        guard let attemptsReader = object.optional("attempts") else { return [step] }
        let attempts = try attemptsReader.array()
        guard !attempts.isEmpty else { throw attemptsReader.error("list at least one attempt, or leave attempts out") }
        if object.optional("expect") != nil {
            throw attemptsReader.error("give expectations per attempt, not beside attempts")
        }
        var expanded: [ScenarioStep] = []
        for (index, attemptReader) in attempts.enumerated() {
            let attemptObject = try attemptReader.object(keys: attemptKeys)
            var attempt = step
            attempt.attempt = index + 1
            attempt.country = index == 0 ? step.country : nil
            try applyEnding(
                attemptObject, of: attemptReader, to: &attempt, configuration: configuration, catalog: catalog)
            expanded.append(attempt)
        }
        return expanded
    }

    /// Applies the keys that decide how a step ends: the player's choices, an error, a
    /// duplicate delivery and the expectation. An attempt's keys override its step's.
    static func applyEnding(
        _ object: JSONObjectReader, of owner: JSONReader, to step: inout ScenarioStep,
        configuration: Scenario.Configuration, catalog: Catalog
    ) throws(JSONShapeError) {
        let failureStep = step.failureStep
        if let code = try JSONReader.collected(
            object.optional("error"),
            { value throws(JSONShapeError) in try statusCode(value, at: failureStep, catalog: catalog) })
        {
            step.error = code
        }
        if let twice = try JSONReader.collected(object.optional("delivery"), deliversTwice) {
            step.deliverTwice = twice
        }
        if case .checkout(var checkout) = step.action {
            let kind = step.kind
            let player = try owner.collecting { () throws(JSONShapeError) in
                try playerAction(
                    object, kind: kind, current: checkout.player, paymentMethod: configuration.paymentMethod)
            }
            if let player { checkout.player = player }
            step.action = .checkout(checkout)
        }
        step.expectation =
            try JSONReader.collected(object.optional("expect")) { reader throws(JSONShapeError) in
                try expectation(
                    reader, failureStep: failureStep, target: configuration.target ?? .standard, catalog: catalog)
            } ?? step.expectation
    }

    /// `"once"` or `"twice"`, in any case: whether the result arrives twice.
    static func deliversTwice(_ reader: JSONReader) throws(JSONShapeError) -> Bool {
        let text = try reader.string()
        guard ["once", "twice"].contains(text.lowercased()) else {
            throw reader.error("expected \"once\" or \"twice\", got \"\(text)\"")
        }
        return text.lowercased() == "twice"
    }

    /// What the player does at a purchase (how they pay and how the charge ends) or a
    /// cancel (how they leave), starting from what the step or its attempt had already.
    static func playerAction(
        _ object: JSONObjectReader, kind: StepKind, current: PlayerAction, paymentMethod: String
    ) throws(JSONShapeError) -> PlayerAction {
        if kind == .purchase {
            var method = paymentMethod
            var outcome = ChargeOutcome.succeeded
            if case .pay(let currentMethod, let currentOutcome) = current {
                (method, outcome) = (currentMethod, currentOutcome)
            }
            if let reader = object.optional("paymentMethod") { method = try reader.nonEmptyString() }
            if let reader = object.optional("outcome") { outcome = try choice(reader, ChargeOutcome.self) }
            return .pay(paymentMethodName: method, outcome: outcome)
        }
        var action = current
        let choices = [object.optional("via"), object.optional("beforeOrder"), object.optional("leaveOpen")]
        if choices.compactMap({ $0 }).count > 1, let second = choices.compactMap({ $0 }).last {
            throw second.error("give only one of via, beforeOrder and leaveOpen: the player ends the checkout once")
        }
        if let reader = object.optional("via") { action = .closeCheckout(via: try choice(reader, CloseMethod.self)) }
        if let reader = object.optional("beforeOrder"), try reader.bool() { action = .closeBeforeOrder }
        if let reader = object.optional("leaveOpen"), try reader.bool() { action = .leaveOpen }
        return action
    }
}
