import PaylinksHTTP
import PaylinksJSON
import PaylinksKit

/// The findings of `paylinks check-award`, as text or JSON lines, with a summary.
enum AuditReport {
    static func render(_ findings: [AuditFinding], url: String, format: OutputFormat, color: Bool) -> String {
        let counts = (
            pass: findings.filter { $0.verdict == .pass }.count, fail: findings.filter { $0.verdict == .fail }.count,
            warn: findings.filter { $0.verdict == .warn }.count,
            notMeaningful: findings.filter { $0.verdict == .notMeaningful }.count
        )
        switch format {
        case .json:
            var lines = findings.map { finding in
                var writer = JSONWriter()
                writer.openObject()
                writer.field("case", finding.name)
                writer.field(
                    "verdict",
                    finding.verdict == .notMeaningful ? "not-meaningful" : finding.verdict.rawValue.lowercased())
                writer.field("summary", finding.summary)
                writer.field("sent", finding.sent)
                writer.field("received", finding.received)
                if !finding.why.isEmpty { writer.field("why", finding.why) }
                writer.field("again", again(url, finding.name))
                writer.closeObject()
                return writer.output + "\n"
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
            writer.closeObject()
            writer.closeObject()
            lines.append(writer.output + "\n")
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
                }
                let name = finding.name + String(repeating: " ", count: width - finding.name.count)
                text += "\(label)  \(name)  \(TextRenderer.display(finding.summary))\n"
                guard finding.verdict != .pass else { continue }
                let indent = String(repeating: " ", count: 8)
                text += "\(indent)sent      \(TextRenderer.display(finding.sent))\n"
                text += "\(indent)received  \(TextRenderer.display(finding.received))\n"
                text += "\(indent)why       \(TextRenderer.display(finding.why))\n"
                text += "\(indent)again     \(again(url, finding.name))\n"
            }
            let cases = findings.count == 1 ? "1 case" : "\(findings.count) cases"
            let unmeant = counts.notMeaningful == 0 ? "" : ", \(counts.notMeaningful) not meaningful"
            text +=
                "\ncheck-award \(url): \(cases): \(counts.pass) pass, \(counts.fail) FAIL, \(counts.warn) warn\(unmeant)\n"
            return text
        }
    }

    /// The command that sends one case again.
    static func again(_ url: String, _ name: String) -> String {
        "paylinks check-award \(url) --case \(name)"
    }
}
