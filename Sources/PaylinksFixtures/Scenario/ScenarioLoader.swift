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
    private static let configurationKeys = [
        "customerId", "checkoutPublicKey", "environment", "redirectUrl", "country", "paymentMethod", "seed", "now",
        "faultRate", "awardUrl", "eventsUrl", "platform", "sdkVersion", "device", "flow",
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
                let steps = try readStep(reader, number: index + 1, configuration: &config, catalog: catalog)
                if configuration.flow == .linkOut, let problem = steps.lazy.compactMap(linkOutProblem).first {
                    throw reader.error(problem)
                }
                return steps
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

    /// Why `step` cannot be a step of a Link Out scenario, whose game has no SDK: an
    /// initialize, price points, a check of its callbacks, or what ``LinkOutLimit`` lists.
    private static func linkOutProblem(_ step: ScenarioStep) -> String? {
        let words = LinkOutLimit.Words.scenario
        switch step.action {
        case .initialize, .pricePoints:
            return "a link-out scenario has no SDK to \(step.kind.rawValue): leave the step out"
        case .checkout(let checkout):
            if step.error != nil { return LinkOutLimit.statusCode.reason(#""error""#, in: words) }
            if case .pay(_, .pending) = checkout.player {
                return LinkOutLimit.pendingOutcome.reason(#""outcome": "pending""#, in: words)
            }
            if checkout.orderCustomerId != nil { return LinkOutLimit.sdkCheck.reason(#""orderCustomerId""#, in: words) }
            if checkout.sessionEnvironment != nil {
                return LinkOutLimit.sdkCheck.reason(#""sessionEnvironment""#, in: words)
            }
            if step.deliverTwice { return LinkOutLimit.duplicateDelivery.reason(#""delivery": "twice""#, in: words) }
        default:
            if step.error != nil { return LinkOutLimit.statusCode.reason(#""error""#, in: words) }
        }
        if let expectation = step.expectation,
            let key = ScenarioLoader.callbackKeys.first(where: { expectation.offsets[$0] != nil })
        {
            return "\"\(key)\" checks the SDK's callbacks, which a link-out game never receives: expect \"redirect\""
        }
        return nil
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
        if let value = object.optional("flow") {
            configuration.flow = try choice(value, PaymentFlow.self)
            if configuration.flow == .linkOut {
                guard let url = configuration.redirectUrl else {
                    throw value.error(
                        "a link-out scenario sends the browser back to the game: add \"redirectUrl\", the game's return URL"
                    )
                }
                if let problem = RedirectURL.problem(url) {
                    throw (object.optional("redirectUrl") ?? value).error("the redirect URL \(problem)")
                }
            }
        }
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

    // MARK: Values

    /// A step's `step`, in any case, with the closest kind for a misspelled one.
    static func stepKind(_ reader: JSONReader) throws(JSONShapeError) -> StepKind {
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
    static func statusCode(_ reader: JSONReader, at step: Step?, catalog: Catalog) throws(JSONShapeError)
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

    /// An ISO 3166-1 alpha-2 country code, in any case, as upper case.
    static func country(_ reader: JSONReader) throws(JSONShapeError) -> String {
        let text = try reader.string()
        let code = text.uppercased()
        guard CountryCodes.contains(code) else {
            let meant = CountryCodes.commonMistakes[code].map { Suggestion.didYouMean($0, quoted: .double) } ?? ""
            throw reader.error("\"\(text)\" is not an ISO 3166-1 alpha-2 country code\(meant)")
        }
        return code
    }

    /// One of `Value`'s names, in any case, with the closest for a misspelled one.
    static func choice<Value: RawRepresentable & CaseIterable>(_ reader: JSONReader, _: Value.Type)
        throws(JSONShapeError) -> Value where Value.RawValue == String
    {
        let text = try reader.string()
        if let value = Value.named(text) { return value }
        let names = Value.allCases.map(\.rawValue)
        let hint = Suggestion.hint(for: text, among: names, quoted: .double) ?? ""
        throw reader.error("expected one of \(names.joined(separator: ", ")), got \"\(text)\"\(hint)")
    }

    /// `retries` for `Fixtures/scenarios/retries.json`.
    /// The name of a scenario without one: its file's name without `.json`.
    public static func baseName(_ path: String) -> String {
        let name = path.split(separator: "/").last ?? Substring(path)
        return String(name.hasSuffix(".json") && name.count > 5 ? name.dropLast(5) : name)
    }
}
