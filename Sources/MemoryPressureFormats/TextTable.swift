/// Aligned plain-text tables: the kill-order report's table form and every table the CLI prints.
package enum TextTable {
    /// Renders `rows` (the first is the header) with two spaces between columns; columns listed
    /// in `rightAligned` are aligned to the right. Trailing spaces are trimmed.
    /// Control characters in cells (a live process's name can hold any) are escaped as
    /// `\u{1B}`, so a cell can neither break the table nor drive the terminal.
    ///
    /// - Complexity: O(total length of the cells)
    package static func render(_ rawRows: [[String]], rightAligned: Set<Int>) -> String {
        let rows = rawRows.map { $0.map { $0.escapingControlCharacters() } }
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        var out = ""
        for row in rows {
            var line = ""
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column > 0 { line += "  " }
                line += rightAligned.contains(column) ? padding + cell : cell + padding
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}
