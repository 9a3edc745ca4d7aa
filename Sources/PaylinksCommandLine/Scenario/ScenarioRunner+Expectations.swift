import PaylinksFixtures
import PaylinksJSON
import PaylinksKit

extension ScenarioRunner {

    /// Each check of an expectation, in order, with its mismatches: none when it held,
    /// one phrase or more when it did not.
    /// `order` is the state of the order the step acted on and the V2 names of the
    /// events it sent.
    static func check(
        _ expectation: StepExpectation, against results: [Callback], catalog: Catalog,
        order: (state: OrderState?, events: [String]) = (nil, [])
    ) -> [[String]] {
        var checks: [[String]] = []
        if let state = expectation.state {
            let got = order.state?.rawValue ?? "no order"
            checks.append(state == order.state ? [] : ["state: expected \(state.rawValue), got \(got)"])
        }
        if let names = expectation.events {
            let shown = { (names: [String]) in names.isEmpty ? "none" : names.joined(separator: ", ") }
            checks.append(
                names == order.events ? [] : ["events: expected \(shown(names)), got \(shown(order.events))"])
        }
        if let deliveries = expectation.deliveries {
            checks.append(
                deliveries == results.count ? [] : ["deliveries: expected \(deliveries), got \(results.count)"])
        }
        let result = results.last
        if let callback = expectation.callback {
            let got = result?.name.rawValue ?? "no callback"
            checks.append(callback == result?.name ? [] : ["callback: expected \(callback.rawValue), got \(got)"])
        }
        if let code = expectation.code {
            let got =
                result?.error.map { describe(code: $0.code, catalog: catalog) }
                ?? "no error (\(result?.name.rawValue ?? "no callback"))"
            checks.append(
                code == result?.error?.code
                    ? [] : ["code: expected \(describe(code: code, catalog: catalog)), got \(got)"])
        }
        guard !expectation.arguments.isEmpty else { return checks }
        var members: [(key: String, value: JSONValue)] = []
        if let result, case .object(let rendered) = JSONLinesRenderer().value(of: result).kind {
            members = rendered
        }
        for (name, expected) in expectation.arguments {
            guard let actual = members.first(where: { $0.key == name })?.value else {
                let got = result.map { "no \(name) (\($0.name.rawValue))" } ?? "no callback"
                checks.append(["\(name): expected \(JSONValueMatcher.text(of: expected)), got \(got)"])
                continue
            }
            checks.append(JSONValueMatcher.differences(expected: expected, actual: actual, path: name))
        }
        return checks
    }

    private static func describe(code: Int, catalog: Catalog) -> String {
        catalog.statusCode(code).map { "\(code) (\($0.name))" } ?? String(code)
    }
}
