import PaylinksJSON
import PaylinksKit

/// Writes a scenario as the text of a scenario file, which ``ScenarioLoader`` reads back to
/// the same steps: a history kept for a person to read and for `paylinks run` to replay.
///
/// The text is laid out as the files in `Fixtures/scenarios` are: two spaces a level, a step
/// to a line where it fits in ``lineLength`` columns; otherwise its plain keys share lines
/// and each object or list takes lines of its own, laid out the same way. Keys come in the
/// order the format lists them and a ledger's SKUs in their order, so that a scenario is
/// always written as the same bytes.
///
/// Of the configuration, it writes the player and the country; the checkout's key, the
/// environment, the redirect URL and the payment method when they are not the defaults; the
/// platform and SDK version the file named; the seed and the clock when set. The endpoints,
/// the device and the fault rate are left to the command line that runs it. Steps are
/// numbered afresh in the order given, the attempts of one step (one number) written as its
/// `attempts`; a value that a file's step of its kind has no key for is left out.
package enum ScenarioWriter {
    /// The column a line ends by, where it can: the project's own line length.
    package static let lineLength = 120

    /// The text of `scenario`'s file, with `description` when one is given; it ends with a
    /// newline.
    package static func text(of scenario: Scenario, description: String? = nil) -> String {
        var members: [(key: String, value: Node)] = []
        if !scenario.name.isEmpty { members.append(("name", .string(scenario.name))) }
        if let description { members.append(("description", .string(description))) }
        members.append(("configuration", configuration(scenario.configuration)))
        var lines = ["{"]
        for member in members {
            lines += layout(member.value, indent: 2, key: member.key, last: false)
        }
        // One step to a line at least, however short the list.
        lines.append("  \"steps\": [")
        let entries = steps(of: scenario)
        for (index, entry) in entries.enumerated() {
            lines += layout(entry, indent: 4, key: nil, last: index == entries.count - 1)
        }
        lines += ["  ]", "}"]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: What is written

    private static func configuration(_ configuration: Scenario.Configuration) -> Node {
        let defaults = Scenario.Configuration.defaults
        var members: [(key: String, value: Node)] = [("customerId", .string(configuration.customerId))]
        if configuration.checkoutPublicKey != defaults.checkoutPublicKey {
            members.append(("checkoutPublicKey", .string(configuration.checkoutPublicKey)))
        }
        if configuration.environment != defaults.environment {
            members.append(("environment", .string(configuration.environment)))
        }
        if let url = configuration.redirectUrl { members.append(("redirectUrl", .string(url))) }
        if configuration.flow != .sdk { members.append(("flow", .string(configuration.flow.rawValue))) }
        members.append(("country", .string(configuration.country)))
        if configuration.paymentMethod != defaults.paymentMethod {
            members.append(("paymentMethod", .string(configuration.paymentMethod)))
        }
        if let seed = configuration.seed { members.append(("seed", .text(String(seed)))) }
        if let now = configuration.now { members.append(("now", .text(String(now)))) }
        if let platform = configuration.choice.platform { members.append(("platform", .string(platform.rawValue))) }
        if let target = configuration.choice.version {
            members.append(("sdkVersion", .string(target.version.description)))
        }
        return .object(members)
    }

    /// The entries of `steps`: one a step, its attempts together.
    private static func steps(of scenario: Scenario) -> [Node] {
        // What the loader will have read so far, which an initialize changes.
        var configuration = scenario.configuration
        var entries: [Node] = []
        var rest = scenario.steps[...]
        while let first = rest.first {
            let group =
                first.attempt == nil
                ? rest.prefix(1) : rest.prefix { $0.attempt != nil && $0.number == first.number }
            rest = rest.dropFirst(group.count)
            entries.append(entry(Array(group), configuration: &configuration))
        }
        return entries
    }

    /// One entry of `steps`: a step, or a step's attempts, whose ending keys each attempt holds.
    private static func entry(_ group: [ScenarioStep], configuration: inout Scenario.Configuration) -> Node {
        let first = group[0]
        let keys = ScenarioLoader.stepKeys[first.kind] ?? []
        let values = values(of: first, configuration: &configuration)
        var members: [(key: String, value: Node)] = [("step", .string(first.kind.rawValue))]
        guard first.attempt != nil else {
            for key in keys + ["expect"] {
                if let value = values[key] { members.append((key, value)) }
            }
            return .object(members)
        }
        let endings = ScenarioLoader.attemptKeys[first.kind] ?? []
        for key in keys where !endings.contains(key) {
            if let value = values[key] { members.append((key, value)) }
        }
        let attempts = group.map { attempt -> Node in
            var unchanged = configuration
            let values = self.values(of: attempt, configuration: &unchanged)
            return .object(endings.compactMap { key in values[key].map { (key, $0) } })
        }
        members.append(("attempts", .list(attempts)))
        return .object(members)
    }

    /// Every key a step's values give, by name; an initialize's changes to `configuration`
    /// are made to it, as the loader makes them.
    private static func values(of step: ScenarioStep, configuration: inout Scenario.Configuration) -> [String: Node] {
        var values: [String: Node] = [:]
        switch step.action {
        case .initialize(let config, let customerId):
            let strings = [
                ("customerId", customerId, configuration.customerId),
                ("checkoutPublicKey", config.checkoutPublicKey, configuration.checkoutPublicKey),
                ("environment", config.environment, configuration.environment),
            ]
            for (key, value, current) in strings where value != current { values[key] = .string(value) }
            if let url = config.redirectUrl, url != configuration.redirectUrl {
                values["redirectUrl"] = .string(url)
                configuration.redirectUrl = url
            }
            (configuration.customerId, configuration.checkoutPublicKey) = (customerId, config.checkoutPublicKey)
            configuration.environment = config.environment
            if !step.waits { values["wait"] = .text("false") }
        case .pricePoints, .retryAward:
            break
        case .checkout(let checkout):
            values["sku"] = .string(checkout.sku)
            switch checkout.player {
            case .pay(let method, let outcome):
                if method != configuration.paymentMethod { values["paymentMethod"] = .string(method) }
                if outcome != .succeeded { values["outcome"] = .string(outcome.rawValue) }
            case .closeCheckout(let via):
                if via != .checkoutInterface { values["via"] = .string(via.rawValue) }
            case .closeBeforeOrder:
                values["beforeOrder"] = .text("true")
            case .leaveOpen:
                values["leaveOpen"] = .text("true")
            }
            let strings = [
                ("orderCustomerId", checkout.orderCustomerId), ("sessionEnvironment", checkout.sessionEnvironment),
                ("purchaseId", checkout.purchaseId), ("parsedUrl", checkout.parsedUrl),
            ]
            for case (let key, let value?) in strings { values[key] = .string(value) }
        case .refund(let amount, let outcome):
            if let amount { values["amount"] = .text(String(amount)) }
            if outcome != .refunded { values["outcome"] = .string(outcome.rawValue) }
        case .dispute(let outcome):
            values["outcome"] = .string(outcome.rawValue)
        case .resolve(let succeeded, let after):
            let outcome: ScenarioStep.ResolveOutcome = succeeded ? .succeeded : .failed
            values["outcome"] = .string(outcome.rawValue)
            if let after { values["after"] = .string(ClockText.isoDuration(milliseconds: after)) }
        case .advance(let milliseconds):
            values["by"] = .string(ClockText.isoDuration(milliseconds: milliseconds))
        }
        if let country = step.country { values["country"] = .string(country) }
        if let code = step.error { values["error"] = .text(String(code)) }
        if step.deliverTwice { values["delivery"] = .string("twice") }
        if let fault = step.eventFault { values["eventFault"] = .string(fault.rawValue) }
        if let fault = step.awardFault { values["awardFault"] = .string(fault.rawValue) }
        if let expectation = step.expectation, case .object(let members) = expect(expectation), !members.isEmpty {
            values["expect"] = .object(members)
        }
        return values
    }

    /// A step's `expect`, its checks in the order the format lists them.
    private static func expect(_ expectation: StepExpectation) -> Node {
        var members: [(key: String, value: Node)] = []
        if let callback = expectation.callback { members.append(("callback", .string(callback.rawValue))) }
        if let code = expectation.code { members.append(("code", .text(String(code)))) }
        for argument in expectation.arguments { members.append((argument.name, node(argument.value))) }
        if let deliveries = expectation.deliveries { members.append(("deliveries", .text(String(deliveries)))) }
        if let state = expectation.state { members.append(("state", .string(state.rawValue))) }
        if let events = expectation.events { members.append(("events", .list(events.map { .string($0) }))) }
        if let ledger = expectation.ledger {
            let counts = ledger.sorted { $0.key < $1.key }.map { (key: $0.key, value: Node.text(String($0.value))) }
            members.append(("ledger", .object(counts)))
        }
        if let redirect = expectation.redirect { members.append(("redirect", .string(redirect))) }
        return .object(members)
    }

    /// An expected value as the file had it.
    private static func node(_ value: JSONValue) -> Node {
        switch value.kind {
        case .object(let members): .object(members.map { (key: $0.key, value: node($0.value)) })
        case .array(let elements): .list(elements.map(node))
        case .string(let text): .string(text)
        case .number(let text): .text(text)
        case .bool(let flag): .text(flag ? "true" : "false")
        case .null: .text("null")
        }
    }

    // MARK: Layout

    /// A value to lay out: JSON text of its own, or a list or an object of values.
    private indirect enum Node {
        /// A string, a number, a Boolean or null, as JSON text.
        case text(String)
        /// A list.
        case list([Node])
        /// An object's members, in order.
        case object([(key: String, value: Node)])

        /// A string, quoted and escaped.
        static func string(_ value: String) -> Node {
            var text = ""
            JSONWriter.appendQuoted(value, to: &text)
            return .text(text)
        }

        /// Whether it is a list or an object, which takes lines of its own when its object is
        /// broken over lines.
        var isContainer: Bool {
            if case .text = self { false } else { true }
        }
    }

    /// `"key": `.
    private static func label(_ key: String) -> String {
        var text = ""
        JSONWriter.appendQuoted(key, to: &text)
        return text + ": "
    }

    /// The value on one line: `{ "a": 1, "b": [1, 2] }`, `[ { "a": 1 } ]`.
    private static func inline(_ node: Node) -> String {
        switch node {
        case .text(let text):
            return text
        case .list(let elements):
            guard !elements.isEmpty else { return "[]" }
            let inner = elements.map(inline).joined(separator: ", ")
            return elements.contains(where: \.isContainer) ? "[ \(inner) ]" : "[\(inner)]"
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            return "{ " + members.map { label($0.key) + inline($0.value) }.joined(separator: ", ") + " }"
        }
    }

    /// The lines of a value at `indent`, under `key` when it is an object's member, with the
    /// comma that follows it unless it is the `last`.
    private static func layout(_ node: Node, indent: Int, key: String?, last: Bool) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let head = pad + (key.map(label) ?? "")
        let end = last ? "" : ","
        let line = head + inline(node) + end
        guard line.count > lineLength else { return [line] }
        switch node {
        case .text:
            return [line]
        case .list(let elements):
            let inner = elements.enumerated().flatMap { index, element in
                layout(element, indent: indent + 2, key: nil, last: index == elements.count - 1)
            }
            return [head + "["] + inner + [pad + "]" + end]
        case .object(let members):
            var lines = [head + "{"]
            let innerPad = String(repeating: " ", count: indent + 2)
            // Plain members share a line as far as it goes; lists and objects take their own.
            var shared = ""
            for (index, member) in members.enumerated() {
                let isLast = index == members.count - 1
                if member.value.isContainer {
                    if !shared.isEmpty { lines.append(shared) }
                    shared = ""
                    lines += layout(member.value, indent: indent + 2, key: member.key, last: isLast)
                    continue
                }
                let piece = label(member.key) + inline(member.value) + (isLast ? "" : ",")
                if shared.isEmpty {
                    shared = innerPad + piece
                } else if shared.count + 1 + piece.count <= lineLength {
                    shared += " " + piece
                } else {
                    lines.append(shared)
                    shared = innerPad + piece
                }
            }
            if !shared.isEmpty { lines.append(shared) }
            return lines + [pad + "}" + end]
        }
    }
}
