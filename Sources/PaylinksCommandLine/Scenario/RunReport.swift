package import PaylinksFixtures
import PaylinksJSON
import PaylinksKit

/// The reports of a scenario run, for CI: JUnit XML for the test tab (a test suite per
/// file, a test case per scenario, a failure per expectation that did not hold, with its
/// file and line), and the same results as one JSON document for scripts
/// (`Schemas/run-report.schema.json`). Both are pure functions of the results, so that
/// a run gives the same bytes however its scenarios were scheduled.
package enum RunReport {
    /// One scenario's place in a report: its result, skipped, or a file that did not load.
    package struct Entry: Sendable {
        /// What the scenario came to; for a skipped one, its name and file only; for a file
        /// that did not load, its problems as the mismatches, each with its place.
        package var result: ScenarioRunner.ScenarioResult
        /// Whether it ran.
        package var status: Status

        /// Whether it ran, was left out, or could not be read.
        package enum Status: Equatable, Sendable {
            /// It ran: `result` says how.
            case ran
            /// It was left out: by `--filter` or `--fail-fast` (no reason), or because it
            /// does not apply in a combination of `--matrix` (the reason).
            case skipped(String?)
            /// Its file did not load: `result.mismatches` are the problems.
            case broken
        }

        /// Creates an entry.
        package init(result: ScenarioRunner.ScenarioResult, status: Status) {
            self.result = result
            self.status = status
        }

        /// Whether it ran.
        package var ran: Bool { status == .ran }

        /// Whether it was left out.
        package var skipped: Bool {
            if case .skipped = status { return true }
            return false
        }

        /// The entry of a file that did not load: every problem, with its place.
        package init(broken error: FixtureError) {
            var result = ScenarioRunner.ScenarioResult(name: ScenarioLoader.baseName(error.file), file: error.file)
            result.mismatches = error.problems.map { problem in
                let path = problem.path.map { "\($0): " } ?? ""
                return ScenarioRunner.ScenarioResult.Mismatch(
                    step: "", kind: "load", message: path + problem.reason, position: problem.position)
            }
            self.init(result: result, status: .broken)
        }
    }

    /// The formats, as `--report FORMAT=FILE` names them.
    package enum Format: String, CaseIterable, Sendable {
        /// JUnit XML.
        case junit
        /// JSON.
        case json
    }

    /// The entries of a run: every scenario loaded, in order, with its result when it ran.
    package static func entries(of scenarios: [Scenario], ran results: [ScenarioRunner.ScenarioResult], filter: String?)
        -> [Entry]
    {
        var results = results[...]
        return scenarios.map { scenario in
            if let reason = scenario.doesNotApply {
                return Entry(result: .init(name: scenario.name, file: scenario.file), status: .skipped(reason))
            }
            if filter.map({ Glob.matches($0, scenario.name) }) ?? true, let result = results.first {
                results = results.dropFirst()
                return Entry(result: result, status: .ran)
            }
            return Entry(result: .init(name: scenario.name, file: scenario.file), status: .skipped(nil))
        }
    }

    /// The report in `format`.
    package static func render(_ entries: [Entry], as format: Format) -> String {
        switch format {
        case .junit: junit(entries)
        case .json: json(entries)
        }
    }

    /// The closing line of a run, without the seed:
    /// "1 passed, 1 failed, 2 skipped; 6 steps, 7 attempts; expectations: 8 met, 1 failed".
    package static func closingLine(_ entries: [Entry]) -> String {
        var (ran, passed, skipped, steps, attempts, met, failed) = (0, 0, 0, 0, 0, 0, 0)
        // One pass, reading each entry in place: a run may hold many thousands.
        for entry in entries {
            if entry.skipped { skipped += 1 }
            guard entry.ran else { continue }
            ran += 1
            if entry.result.passed { passed += 1 }
            steps += entry.result.steps
            attempts += entry.result.attempts
            met += entry.result.met
            failed += entry.result.mismatches.count
        }
        return "\(passed) passed, \(ran - passed) failed" + (skipped == 0 ? "" : ", \(skipped) skipped")
            + "; \(ScenarioRunner.Summary.count(steps, "step")), \(ScenarioRunner.Summary.count(attempts, "attempt")); "
            + "expectations: \(met) met, \(failed) failed"
    }

    /// The entries of a JSON report, as ``json(_:)`` wrote them; nil for anything else.
    static func entries(fromJSON value: JSONValue) -> [Entry]? {
        guard case .object(let members) = value.kind,
            case .array(let scenarios)? = members.first(where: { $0.key == "scenarios" })?.value.kind
        else { return nil }
        var entries: [Entry] = []
        for scenario in scenarios {
            guard case .object(let fields) = scenario.kind else { return nil }
            func string(_ key: String, in fields: [(key: String, value: JSONValue)]) -> String? {
                if case .string(let text)? = fields.first(where: { $0.key == key })?.value.kind { return text }
                return nil
            }
            func int(_ key: String, in fields: [(key: String, value: JSONValue)]) -> Int? {
                if case .number(let text)? = fields.first(where: { $0.key == key })?.value.kind { return Int(text) }
                return nil
            }
            guard let name = string("name", in: fields), let file = string("file", in: fields),
                let status = string("status", in: fields)
            else { return nil }
            var result = ScenarioRunner.ScenarioResult(name: name, file: file)
            result.combination = string("combination", in: fields)
            guard status != "skipped" else {
                entries.append(Entry(result: result, status: .skipped(string("reason", in: fields))))
                continue
            }
            result.steps = int("steps", in: fields) ?? 0
            result.attempts = int("attempts", in: fields) ?? 0
            result.met = int("met", in: fields) ?? 0
            result.milliseconds = int("milliseconds", in: fields) ?? 0
            result.wallMilliseconds = int("wallMilliseconds", in: fields) ?? 0
            if case .array(let failures)? = fields.first(where: { $0.key == "failures" })?.value.kind {
                for failure in failures {
                    guard case .object(let parts) = failure.kind, let kind = string("kind", in: parts),
                        let message = string("message", in: parts)
                    else { return nil }
                    let step = string("step", in: parts) ?? ""
                    let position = int("line", in: parts).flatMap { line in
                        int("column", in: parts).map { TextPosition(line: line, column: $0) }
                    }
                    result.mismatches.append(.init(step: step, kind: kind, message: message, position: position))
                }
            }
            entries.append(Entry(result: result, status: status == "error" ? .broken : .ran))
        }
        return entries
    }

    // MARK: GitHub Actions

    /// A GitHub Actions workflow command that annotates the expectation in the scenario
    /// file: `::error file=F,line=L,col=C::step 3 (purchase): ...`, escaped as the runner
    /// reads it. Under `--matrix`, the message starts with its `combination`,
    /// `[platform=ios] step 3 (purchase): ...`, as one line of the file fails in several.
    package static func annotation(
        _ mismatch: ScenarioRunner.ScenarioResult.Mismatch, file: String, combination: String? = nil
    ) -> String {
        func property(_ text: String) -> String {
            message(text).replacingEvery(":", with: "%3A").replacingEvery(",", with: "%2C")
        }
        func message(_ text: String) -> String {
            text.replacingEvery("%", with: "%25").replacingEvery("\r", with: "%0D").replacingEvery("\n", with: "%0A")
        }
        var properties = "file=\(property(file))"
        if let position = mismatch.position { properties += ",line=\(position.line),col=\(position.column)" }
        // Line breaks are the runner's %0A; every other control is escaped as the log's are.
        let summary = (combination.map { "[\($0)] " } ?? "") + mismatch.summary
        return MessageText.oneLine("::error \(properties)::\(message(summary))")
    }

    // MARK: JUnit

    static func junit(_ entries: [Entry]) -> String {
        var files: [String] = []
        for entry in entries where !files.contains(entry.result.file) { files.append(entry.result.file) }
        func counts(_ cases: [Entry]) -> String {
            let failures = cases.filter { $0.ran && !$0.result.passed }.count
            let errors = cases.filter { $0.status == .broken }.count
            let skipped = cases.filter(\.skipped).count
            return "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" "
                + "time=\"\(seconds(cases.reduce(0) { $0 + $1.result.wallMilliseconds }))\""
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"paylinks run\" \(counts(entries))>\n"
        for file in files {
            let cases = entries.filter { $0.result.file == file }
            xml += "  <testsuite name=\"\(escaped(file))\" \(counts(cases))>\n"
            for entry in cases {
                let result = entry.result
                xml +=
                    "    <testcase name=\"\(escaped(result.name))\" classname=\"\(escaped(file))\" "
                    + "file=\"\(escaped(file))\" time=\"\(seconds(result.wallMilliseconds))\""
                if case .skipped(let reason) = entry.status {
                    let message = reason.map { " message=\"\(escaped($0))\"" } ?? ""
                    xml += ">\n      <skipped\(message)/>\n    </testcase>\n"
                    continue
                }
                guard !result.passed else {
                    xml += "/>\n"
                    continue
                }
                xml += ">\n"
                func place(_ mismatch: ScenarioRunner.ScenarioResult.Mismatch) -> String {
                    mismatch.position.map { "\(file):\($0.line):\($0.column): " } ?? "\(file): "
                }
                // A file that did not load is an error of its case, one element whatever the
                // problems (a case holds one error), each problem a line of it with its place;
                // an expectation that did not hold, a failure of its case.
                if entry.status == .broken, let first = result.mismatches.first {
                    let more = result.mismatches.count > 1 ? " (and \(result.mismatches.count - 1) more)" : ""
                    let text = result.mismatches.map { place($0) + $0.summary }.joined(separator: "\n")
                    xml +=
                        "      <error message=\"\(escaped(first.message + more))\" type=\"load\">"
                        + "\(escaped(text))</error>\n"
                } else {
                    for mismatch in result.mismatches {
                        let short =
                            mismatch.step.isEmpty ? mismatch.message : "step \(mismatch.step): \(mismatch.message)"
                        xml +=
                            "      <failure message=\"\(escaped(short))\" "
                            + "type=\"expectation\">\(escaped(place(mismatch) + mismatch.summary))</failure>\n"
                    }
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// `1.250`: milliseconds as JUnit's seconds.
    private static func seconds(_ milliseconds: Int) -> String {
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// `text` for XML 1.0 text and attributes: the five special characters as entities,
    /// and the control characters XML cannot hold as `\u{..}`.
    static let escaped = TextEscaping(
        ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;", "\n": "&#10;", "\t": "&#9;"]
    ) { "\\u{\(String($0, radix: 16, uppercase: true))}" }

    // MARK: JSON

    /// The JSON report; `handedBack` adds what a copy of `run --jobs` hands back beside it:
    /// each scenario's wall-clock time, for the JUnit report, and its `--matrix` combination,
    /// for the annotations (the JSON report's bytes stay the same however the run was
    /// shared out).
    static func json(_ entries: [Entry], handedBack: Bool = false) -> String {
        var writer = JSONWriter()
        writer.openObject()
        var (ran, passed, broken) = (0, 0, 0)
        for entry in entries {
            if entry.ran { ran += 1 }
            if entry.ran && entry.result.passed { passed += 1 }
            if entry.status == .broken { broken += 1 }
        }
        writer.field("passed", passed)
        writer.field("failed", ran - passed)
        writer.field("skipped", entries.count - ran - broken)
        if broken > 0 { writer.field("errors", broken) }
        writer.key("scenarios")
        writer.openArray()
        for entry in entries {
            let result = entry.result
            writer.openObject()
            writer.field("name", result.name)
            writer.field("file", result.file)
            if handedBack, let combination = result.combination { writer.field("combination", combination) }
            switch entry.status {
            case .ran: writer.field("status", result.passed ? "passed" : "failed")
            case .skipped(let reason):
                writer.field("status", "skipped")
                if let reason { writer.field("reason", reason) }
            case .broken: writer.field("status", "error")
            }
            if entry.status == .ran {
                writer.field("steps", result.steps)
                writer.field("attempts", result.attempts)
                writer.field("met", result.met)
                writer.field("milliseconds", result.milliseconds)
                if handedBack { writer.field("wallMilliseconds", result.wallMilliseconds) }
            }
            // What did not hold, or what is wrong with a file that did not load.
            if !entry.skipped {
                writer.key("failures")
                writer.openArray()
                for mismatch in result.mismatches {
                    writer.openObject()
                    if !mismatch.step.isEmpty { writer.field("step", mismatch.step) }
                    writer.field("kind", mismatch.kind)
                    writer.field("message", mismatch.message)
                    if let position = mismatch.position {
                        writer.field("line", position.line)
                        writer.field("column", position.column)
                    }
                    writer.closeObject()
                }
                writer.closeArray()
            }
            writer.closeObject()
        }
        writer.closeArray()
        writer.closeObject()
        return writer.line
    }
}
