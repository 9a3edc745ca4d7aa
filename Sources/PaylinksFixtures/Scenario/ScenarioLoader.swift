import PaylinksJSON
public import PaylinksKit

/// Reads scenario files, checking every field against the format and the catalog, so
/// that a bad file is refused whole, with its place, before anything runs.
///
/// The format (documented in the README):
///
/// ```json
/// { "name": "retry after a timeout",
///   "configuration": { "customerId": "cust_98765", "country": "US", "seed": 7 },
///   "steps": [
///     { "step": "initialize", "expect": { "callback": "onInitialized" } },
///     { "step": "purchase", "sku": "starter_pack_001",
///       "attempts": [ { "outcome": "pending", "expect": { "code": 3004 } },
///                     { "expect": { "callback": "onPurchaseSuccess" } } ] } ] }
/// ```
public enum ScenarioLoader {
    /// The step kinds and the keys each takes besides `step`, `expect` and `attempts`.
    static let stepKeys: [StepKind: [String]] = [
        .initialize: ["customerId", "checkoutPublicKey", "environment", "redirectUrl", "error", "wait"],
        .pricePoints: ["country", "error"],
        .purchase: [
            "sku", "country", "paymentMethod", "outcome", "orderCustomerId", "sessionEnvironment", "purchaseId",
            "parsedUrl", "error", "delivery", "eventFault",
        ],
        .cancel: [
            "sku", "country", "via", "beforeOrder", "leaveOpen", "orderCustomerId", "sessionEnvironment", "purchaseId",
            "parsedUrl", "error", "delivery", "eventFault",
        ],
        .refund: ["amount", "outcome", "eventFault"],
        .dispute: ["outcome", "eventFault"],
        .resolve: ["outcome", "after", "eventFault"],
        .advance: ["by", "eventFault"],
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

    /// The V2 names of order events, which an expectation's `events` lists.
    static let eventNames = [
        "order.created", "order.payment.resolved", "order.completed", "order.canceled", "order.refunded",
        "order.dispute.opened", "order.dispute.resolved",
    ]

    private static let configurationKeys = [
        "customerId", "checkoutPublicKey", "environment", "redirectUrl", "country", "paymentMethod", "seed", "now",
        "faultRate", "awardUrl", "eventsUrl", "platform", "sdkVersion", "device",
    ]

    /// Reads one scenario file.
    ///
    /// `options` are the platform and SDK version the command line names, for a scenario
    /// whose file names none (``MatrixCell/target(file:options:)``); the scenario's codes
    /// are checked against its generation's table.
    ///
    /// In a `cell` of a `--matrix`, the cell's values replace the configuration's, and the
    /// scenario's name carries them: `retries[country=DE,platform=unity]`.
    public static func load(
        _ source: FixtureSource, catalog: Catalog, options: TargetChoice = TargetChoice(), cell: MatrixCell? = nil
    ) throws(FixtureError) -> Scenario {
        var scenario = try source.read { root throws(JSONShapeError) in
            try read(root, file: source.name, catalog: catalog, options: options, cell: cell)
        }
        // Where each expectation stands, for reports and annotations.
        let lines = LineStarts(source.bytes)
        for index in scenario.steps.indices {
            guard var expectation = scenario.steps[index].expectation else { continue }
            expectation.positions = expectation.offsets.mapValues { lines.position(of: $0) }
            scenario.steps[index].expectation = expectation
        }
        return scenario
    }

    private static func read(
        _ root: JSONReader, file: String, catalog: Catalog, options: TargetChoice, cell: MatrixCell?
    ) throws(JSONShapeError) -> Scenario {
        let object = try root.object(keys: ["name", "description", "configuration", "steps"])
        _ = try object.optional("description")?.string()
        var configuration = Scenario.Configuration()
        if let reader = object.optional("configuration") {
            configuration =
                try reader.collecting { () throws(JSONShapeError) in try readConfiguration(reader) }
                ?? configuration
        }
        let cell = cell ?? MatrixCell(values: [])
        if let country = cell.value(of: .country) { configuration.country = country.uppercased() }
        if let method = cell.value(of: .paymentMethod) { configuration.paymentMethod = method }
        if let environment = cell.value(of: .environment) { configuration.environment = environment }
        do {
            configuration.target = try cell.target(file: configuration.choice, options: options)
        } catch {
            throw root.error("in the matrix's \(cell.label): \(error)")
        }
        let catalog = catalog.forGeneration(configuration.target?.generation ?? .g2)
        let stepsReader = try object.required("steps")
        let stepReaders = try stepsReader.array()
        guard !stepReaders.isEmpty else { throw stepsReader.error("a scenario needs at least one step") }
        var steps: [ScenarioStep] = []
        var config = configuration
        for (index, reader) in stepReaders.enumerated() {
            let read = try reader.collecting { () throws(JSONShapeError) -> [ScenarioStep] in
                try readStep(reader, number: index + 1, configuration: &config, catalog: catalog)
            }
            steps += read ?? []
        }
        let ownName = try object.optional("name")?.nonEmptyString() ?? baseName(file)
        let name = cell.values.isEmpty ? ownName : "\(ownName)[\(cell.label)]"
        var scenario = Scenario(name: name, file: file, configuration: configuration, steps: steps)
        if !cell.values.isEmpty { scenario.combination = cell.label }
        // A version carried to another platform as another number is said, not done silently.
        if let given = configuration.choice.version ?? options.version, let target = configuration.target,
            target.platform != given.platform, target.version != given.version
        {
            scenario.note =
                "\(file): sdkVersion \(given.version) is \(given); on \(target.platform.displayName) it runs as "
                + "\(target), the newest \(target.generation.name) version there"
        }
        return scenario
    }

    /// `now`: what `--now` takes, as a number of Unix seconds or as a string.
    private static func clock(_ reader: JSONReader) throws(JSONShapeError) -> Int {
        let text: String
        switch reader.value.kind {
        case .number(let number): text = number
        case .string(let string): text = string
        default:
            throw reader.error(
                "expected Unix seconds, or an ISO 8601 time or date as a string, got \(reader.value.typeDescription)")
        }
        do { return try ClockText.unixSeconds(text) } catch { throw reader.error(error.reason) }
    }

    /// A scenario's `device`: a preset name or `KEY=VALUE,...`, as `--device` takes it, or an
    /// object of the V2 events' device fields, strings each.
    private static func device(_ reader: JSONReader) throws(JSONShapeError) -> OrderDevice {
        var pairs: [(key: String, value: String)] = []
        if case .string(let text) = reader.value.kind {
            do throws(OrderDevice.Problem) {
                return try OrderDevice.parse(text)
            } catch {
                let meant = error.misspelled.flatMap { Suggestion.closest(to: $0, among: error.candidates) }
                throw reader.error(error.reason + (meant.map { Suggestion.didYouMean($0, quoted: .double) } ?? ""))
            }
        }
        let object = try reader.object(keys: OrderDevice.keys)
        for key in OrderDevice.keys {
            if let value = object.optional(key) { pairs.append((key, try value.nonEmptyString())) }
        }
        // An object of unknown keys only was refused at each key already.
        if pairs.isEmpty, case .object(let members) = reader.value.kind, !members.isEmpty { return OrderDevice() }
        do throws(OrderDevice.Problem) {
            return try OrderDevice(pairs: pairs)
        } catch {
            throw reader.error(error.reason)
        }
    }

    private static func readConfiguration(_ reader: JSONReader) throws(JSONShapeError) -> Scenario.Configuration {
        let object = try reader.object(keys: configurationKeys)
        var configuration = Scenario.Configuration()
        if let value = object.optional("customerId") { configuration.customerId = try value.string() }
        if let value = object.optional("checkoutPublicKey") { configuration.checkoutPublicKey = try value.string() }
        if let value = object.optional("environment") { configuration.environment = try value.string() }
        if let value = object.optional("redirectUrl") { configuration.redirectUrl = try value.string() }
        if let value = object.optional("country") { configuration.country = try country(value) }
        if let value = object.optional("paymentMethod") { configuration.paymentMethod = try value.nonEmptyString() }
        if let value = object.optional("device") { configuration.device = try device(value) }
        if let value = object.optional("seed") { configuration.seed = try value.uint64() }
        if let value = object.optional("now") { configuration.now = try clock(value) }
        if let value = object.optional("faultRate") { configuration.faultRate = try value.double(in: 0...1) }
        let platformReader = object.optional("platform")
        let versionReader = object.optional("sdkVersion")
        if platformReader != nil || versionReader != nil {
            var platform = Platform.ios
            if let platformReader {
                let text = try platformReader.string()
                guard let named = Platform(rawValue: text.lowercased()) else {
                    let names = Platform.allCases.map(\.rawValue)
                    let hint = Suggestion.hint(for: text, among: names, quoted: .double) ?? ""
                    throw platformReader.error(
                        "expected a platform (\(names.joined(separator: ", "))), got \"\(text)\"\(hint)")
                }
                platform = named
            }
            let version = try versionReader?.nonEmptyString()
            do {
                let target = try SDKTarget(platform: platform, version: version)
                configuration.choice = TargetChoice(
                    platform: platformReader == nil ? nil : platform, version: version == nil ? nil : target)
            } catch {
                throw (versionReader ?? platformReader ?? reader).error("\(error)")
            }
        }
        if let value = object.optional("awardUrl") {
            let url = try value.nonEmptyString()
            guard url.lowercased().hasPrefix("http://") else {
                throw value.error("expected an http:// URL of the game's award endpoint, got \"\(url)\"")
            }
            configuration.awardUrl = url
        }
        if let value = object.optional("eventsUrl") {
            let url = try value.nonEmptyString()
            guard url.lowercased().hasPrefix("http://") else {
                throw value.error("expected an http:// URL of the game's events endpoint, got \"\(url)\"")
            }
            configuration.eventsUrl = url
        }
        return configuration
    }

    /// Reads one entry of `steps`: one step, or one per attempt.
    private static func readStep(
        _ reader: JSONReader, number: Int, configuration: inout Scenario.Configuration, catalog: Catalog
    ) throws(JSONShapeError) -> [ScenarioStep] {
        let kind = try stepKind(reader)
        guard let keys = stepKeys[kind], let attemptKeys = attemptKeys[kind] else {
            throw reader.error("unknown step \"\(kind)\"")
        }
        let object = try reader.object(keys: ["step", "expect", "attempts"] + keys)
        var step = ScenarioStep(number: number, attempt: nil, action: .pricePoints, kind: kind)
        // Each key is read on its own, so that one run reports every problem of the step.
        step.country = try JSONReader.collected(object.optional("country"), country)
        step.eventFault = try JSONReader.collected(object.optional("eventFault")) { value throws(JSONShapeError) in
            try choice(value, ScenarioStep.EventFault.self)
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
    private static func applyEnding(
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
    private static func deliversTwice(_ reader: JSONReader) throws(JSONShapeError) -> Bool {
        let text = try reader.string()
        guard ["once", "twice"].contains(text.lowercased()) else {
            throw reader.error("expected \"once\" or \"twice\", got \"\(text)\"")
        }
        return text.lowercased() == "twice"
    }

    private static func playerAction(
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

    private static func expectation(_ reader: JSONReader, failureStep: Step, target: SDKTarget, catalog: Catalog)
        throws(JSONShapeError) -> StepExpectation
    {
        let object = try reader.object(keys: [
            "callback", "code", "error", "order", "pricePoints", "deliveries", "state", "events",
        ])
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
        guard expectation.checkCount > 0 || !object.isEmpty else {
            throw reader.error(
                "an expectation needs at least one of callback, code, error, order, pricePoints, deliveries, state, "
                    + "events")
        }
        return expectation
    }

    // MARK: Values

    private static func stepKind(_ reader: JSONReader) throws(JSONShapeError) -> StepKind {
        let names = StepKind.allCases.map(\.rawValue).sorted()
        guard case .object(let members) = reader.value.kind else {
            throw reader.error("expected an object, got \(reader.value.typeDescription)")
        }
        guard let member = members.first(where: { $0.key == "step" }) else {
            throw reader.error("missing required key \"step\" (one of \(names.joined(separator: ", ")))")
        }
        guard case .string(let spelled) = member.value.kind else {
            throw JSONShapeError(
                offset: member.value.offset, path: reader.path.isEmpty ? "step" : "\(reader.path).step",
                reason: "expected a string, got \(member.value.typeDescription)")
        }
        guard let kind = StepKind(rawValue: spelled.lowercased()) else {
            let hint =
                Suggestion.hint(for: spelled.lowercased(), among: names, quoted: .double)
                ?? " (steps: \(names.joined(separator: ", ")))"
            throw JSONShapeError(
                offset: member.value.offset, path: reader.path.isEmpty ? "step" : "\(reader.path).step",
                reason: "unknown step \"\(spelled)\"\(hint)")
        }
        return kind
    }

    /// A status code given as a number or a name, which must arrive at `step` when one is given.
    private static func statusCode(_ reader: JSONReader, at step: Step?, catalog: Catalog) throws(JSONShapeError)
        -> Int
    {
        let text: String
        switch reader.value.kind {
        case .number: text = String(try reader.int(in: 1...99_999))
        case .string(let name): text = name
        default: throw reader.error("expected a status code or its name, got \(reader.value.typeDescription)")
        }
        guard let code = catalog.statusCode(matching: text) else {
            throw reader.error(catalog.unknownStatusCodeMessage(text))
        }
        if let step, !code.steps.contains(step) {
            throw reader.error(
                "\(code.code) (\(code.name)) arrives at \(code.steps.map(\.rawValue).joined(separator: " or ")), "
                    + "not at this \(step.rawValue) step")
        }
        return code.code
    }

    private static func country(_ reader: JSONReader) throws(JSONShapeError) -> String {
        let text = try reader.string()
        let code = text.uppercased()
        guard CountryCodes.contains(code) else {
            let meant = CountryCodes.commonMistakes[code].map { Suggestion.didYouMean($0, quoted: .double) } ?? ""
            throw reader.error("\"\(text)\" is not an ISO 3166-1 alpha-2 country code\(meant)")
        }
        return code
    }

    static func choice<Value: RawRepresentable & CaseIterable>(_ reader: JSONReader, _: Value.Type)
        throws(JSONShapeError) -> Value where Value.RawValue == String
    {
        let text = try reader.string()
        if let value = Value.named(text) { return value }
        let names = Value.allCases.map(\.rawValue)
        let hint = Suggestion.hint(for: text, among: names, quoted: .double) ?? ""
        throw reader.error("expected one of \(names.joined(separator: ", ")), got \"\(text)\"\(hint)")
    }

    /// The offsets of the keys and elements inside an expected value, by the paths a
    /// mismatch names them with: `order.price`, `order.items[0].name`.
    private static func recordOffsets(of value: JSONValue, at path: String, in offsets: inout [String: Int]) {
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

    /// `retries` for `Fixtures/scenarios/retries.json`.
    /// The name of a scenario without one: its file's name without `.json`.
    public static func baseName(_ path: String) -> String {
        let name = path.split(separator: "/").last ?? Substring(path)
        return String(name.hasSuffix(".json") && name.count > 5 ? name.dropLast(5) : name)
    }
}
