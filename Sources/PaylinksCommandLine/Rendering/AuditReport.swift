import PaylinksAppcharge
import PaylinksDelivery
import PaylinksJSON
import PaylinksKit

/// The findings of `paylinks check-award` and `check-events`, as text or JSON lines, with
/// a summary.
enum AuditReport {
    /// The report of `audit`'s `findings` about `url`; `rerun` is the audit's command line
    /// without `--case` (`paylinks check-award URL`), which each finding's "again" extends.
    static func render(
        _ findings: [AuditFinding], of audit: Command, url: String, rerun: String, format: OutputFormat, color: Bool
    ) -> String {
        let counts = (
            pass: findings.filter { $0.verdict == .pass }.count, fail: findings.filter { $0.verdict == .fail }.count,
            warn: findings.filter { $0.verdict == .warn }.count,
            notMeaningful: findings.filter { $0.verdict == .notMeaningful }.count,
            notChecked: findings.filter { $0.verdict == .notChecked }.count
        )
        switch format {
        case .json:
            var lines = findings.map { finding in
                var writer = JSONWriter()
                writer.openObject()
                writer.field("case", finding.name)
                writer.field("verdict", jsonVerdict(finding.verdict))
                writer.field("summary", finding.summary)
                writer.field("sent", finding.sent)
                writer.field("received", finding.received)
                if !finding.why.isEmpty { writer.field("why", finding.why) }
                writer.field("again", again(rerun, finding.name))
                writer.closeObject()
                return writer.line
            }
            var writer = JSONWriter()
            writer.openObject()
            writer.key("summary")
            writer.openObject()
            writer.field("url", url)
            writer.field("cases", findings.count)
            writer.field("pass", counts.pass)
            writer.field("fail", counts.fail)
            writer.field("warn", counts.warn)
            writer.field("notMeaningful", counts.notMeaningful)
            writer.field("notChecked", counts.notChecked)
            writer.closeObject()
            writer.closeObject()
            lines.append(writer.line)
            return lines.joined()
        case .text, .wire:
            let style = color ? TextStyle.ansi : .plain
            let width = findings.map(\.name.count).max() ?? 0
            var text = ""
            for finding in findings {
                let label: String
                switch finding.verdict {
                case .pass: label = style.success("pass")
                case .fail: label = style.failure("FAIL")
                case .warn: label = style.code("warn")
                case .notMeaningful: label = "n/a "
                case .notChecked: label = "----"
                }
                let name = finding.name + String(repeating: " ", count: width - finding.name.count)
                text += "\(label)  \(name)  \(TextRenderer.display(finding.summary))\n"
                guard finding.verdict != .pass && finding.verdict != .notChecked else { continue }
                let indent = String(repeating: " ", count: 8)
                text += "\(indent)sent      \(TextRenderer.display(finding.sent))\n"
                text += "\(indent)received  \(TextRenderer.display(finding.received))\n"
                text += "\(indent)why       \(TextRenderer.display(finding.why))\n"
                text += "\(indent)again     \(again(rerun, finding.name))\n"
            }
            let cases = findings.count == 1 ? "1 case" : "\(findings.count) cases"
            let unmeant = counts.notMeaningful == 0 ? "" : ", \(counts.notMeaningful) not meaningful"
            let unchecked = counts.notChecked == 0 ? "" : ", \(counts.notChecked) not checked"
            text +=
                "\n\(audit.rawValue) \(url): \(cases): \(counts.pass) pass, \(counts.fail) FAIL, \(counts.warn) warn"
                + "\(unmeant)\(unchecked)\n"
            return text
        }
    }

    /// The command that sends one case again.
    static func again(_ rerun: String, _ name: String) -> String {
        "\(rerun) --case \(name)"
    }

    /// A verdict as the JSON lines name it: `pass`, `fail`, `warn`, `not-meaningful`, `not-checked`.
    private static func jsonVerdict(_ verdict: AuditFinding.Verdict) -> String {
        switch verdict {
        case .notMeaningful: "not-meaningful"
        case .notChecked: "not-checked"
        default: verdict.rawValue.lowercased()
        }
    }
}
