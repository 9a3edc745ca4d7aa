import PaylinksFixtures

/// Plain-text tables: rows under a header, each column as wide as its widest cell and
/// two spaces from the next. Control characters in a cell are escaped, so a row stays
/// on its line whatever a fixture holds.
enum TextTable {
    /// The table's lines, each indented by `indent` spaces and ending in a newline.
    static func render(header: [String], rows: [[String]], indent: Int) -> String {
        let rows = rows.map { $0.map(MessageText.oneLine) }
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], cell.count)
            }
        }
        var text = ""
        for row in [header] + rows {
            var line = String(repeating: " ", count: indent)
            for (column, cell) in row.enumerated() {
                let isLast = column == row.count - 1
                line += isLast ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            text += line + "\n"
        }
        return text
    }
}
