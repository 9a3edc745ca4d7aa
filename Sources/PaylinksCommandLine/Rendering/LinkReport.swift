import PaylinksAppcharge
import PaylinksJSON
import PaylinksKit

/// The findings of `paylinks check-links`, as text (one line each, then a summary) or
/// JSON lines (one object each, then the summary's).
enum LinkReport {
    /// The report of the files `checked`.
    static func render(_ checked: [CheckLinksCommand.Checked], format: OutputFormat, color: Bool) -> String {
        let all = checked.flatMap { file in file.findings.map { (file.source, $0) } }
        let problems = all.filter { $0.1.severity == .problem }.count
        let notes = all.count - problems
        switch format {
        case .json:
            var lines = all.map { source, finding in
                var writer = JSONWriter()
                writer.openObject()
                writer.field("file", source)
                writer.field("path", finding.path)
                writer.field("rule", finding.rule)
                writer.field("severity", finding.severity.rawValue)
                writer.field("what", finding.what)
                writer.field("fix", finding.fix)
                writer.closeObject()
                return writer.line
            }
            var writer = JSONWriter()
            writer.openObject()
            writer.key("summary")
            writer.openObject()
            writer.field("files", checked.count)
            writer.field("problems", problems)
            writer.field("notes", notes)
            writer.closeObject()
            writer.closeObject()
            lines.append(writer.line)
            return lines.joined()
        case .text, .wire:
            let style = color ? TextStyle.ansi : .plain
            var text = ""
            for (source, finding) in all {
                let label = finding.severity == .problem ? style.failure("FAIL") : style.code("note")
                text +=
                    "\(label)  "
                    + TextRenderer.display(
                        "\(source)  \(finding.path)  \(finding.rule): \(finding.what); fix: \(finding.fix)") + "\n"
            }
            let files = checked.count == 1 ? "1 file" : "\(checked.count) files"
            let problemCount = problems == 1 ? "1 problem" : "\(problems) problems"
            let noteCount = notes == 0 ? "" : notes == 1 ? ", 1 note" : ", \(notes) notes"
            return text + "check-links: \(files): \(problemCount)\(noteCount)\n"
        }
    }
}
