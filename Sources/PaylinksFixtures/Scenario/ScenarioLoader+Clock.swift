import PaylinksJSON

extension ScenarioLoader {
    /// The action of a step on the scenario's clock: `resolve` takes an `outcome` and,
    /// optionally, how long `after` this step the payment resolves; `advance` takes how far
    /// the clock moves, `by`. Durations are ISO 8601 (`PT5M`), more than nothing.
    static func clockAction(_ object: JSONObjectReader, kind: StepKind)
        throws(JSONShapeError) -> ScenarioStep.Action
    {
        if kind == .advance {
            let milliseconds = try JSONReader.collected(object.required("by"), duration)
            return .advance(milliseconds: milliseconds ?? 0)
        }
        let outcome = try JSONReader.collected(object.required("outcome")) { value throws(JSONShapeError) in
            try choice(value, ScenarioStep.ResolveOutcome.self)
        }
        let after = try JSONReader.collected(object.optional("after"), duration)
        return .resolve(succeeded: outcome == .succeeded, after: after)
    }

    /// A duration as the sandbox's control API takes it, in milliseconds: `PT15M`.
    private static func duration(_ reader: JSONReader) throws(JSONShapeError) -> Int {
        let text = try reader.string()
        do { return try ClockText.durationMilliseconds(text) } catch { throw reader.error(error.reason) }
    }
}
