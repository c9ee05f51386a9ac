import MemoryPressureFormats

/// `kill-order --history --svg`: the kills over time, a row per process name (the names killed
/// most first, at most 12 rows and the rest as "others"), a mark per kill at its time, colored by
/// killer. Kills whose lines carry no time, or a time of another kind than the log's first, are
/// counted under the chart.
struct KillHistoryChart {
    var history: KillHistory
    var source: String

    /// The chart as a standalone SVG document.
    var svg: String {
        let rowsShown = 12
        let names = history.counts.map(\.name)
        let shown = Array(names.prefix(rowsShown))
        let rows = shown + (names.count > rowsShown ? ["others"] : [])
        let kind = history.entries.compactMap(\.time?.kind).first
        let timed = history.entries.filter { $0.time != nil && $0.time?.kind == kind }
        let keys = timed.compactMap(\.time?.key)
        let low = keys.min() ?? 0, high = keys.max() ?? 1
        let span = max(high - low, 1)
        let left = 180.0, top = 50.0, plotWidth = 640.0, rowHeight = 22.0
        let height = top + Double(max(rows.count, 1)) * rowHeight + 70
        let width = left + plotWidth + 40
        let killers = Array(Set(history.entries.map(\.killer))).sorted()
        func x(_ key: Double) -> Double { left + (key - low) / span * plotWidth }
        func f(_ value: Double) -> String { String((value * 10).rounded() / 10) }
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(width))\" height=\"\(f(height))\" "
        out += "font-family=\"sans-serif\" font-size=\"12\">\n"
        out +=
            "<text x=\"10\" y=\"20\" font-size=\"14\">\(ComparisonChart.escape("kills over time: \(source)"))</text>\n"
        out += "<text x=\"10\" y=\"38\">\(history.entries.count) kills, \(history.counts.count) process names</text>\n"
        for (index, name) in rows.enumerated() {
            let y = top + Double(index) * rowHeight + rowHeight / 2
            out +=
                "<text x=\"\(f(left - 8))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(ComparisonChart.escape(name))</text>\n"
            out +=
                "<line x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y))\" stroke=\"#ddd\"/>\n"
        }
        for entry in timed {
            guard let key = entry.time?.key else { continue }
            let row = shown.firstIndex(of: entry.victim) ?? rows.count - 1
            let y = top + Double(row) * rowHeight + rowHeight / 2
            let color = ComparisonChart.palette[
                (killers.firstIndex(of: entry.killer) ?? 0) % ComparisonChart.palette.count]
            out += "<circle cx=\"\(f(x(key)))\" cy=\"\(f(y))\" r=\"4\" fill=\"\(color)\">"
            out +=
                "<title>\(ComparisonChart.escape("\(entry.time!.text) \(entry.killer): \(entry.victim)"))</title></circle>\n"
        }
        let axisY = top + Double(max(rows.count, 1)) * rowHeight + 8
        out +=
            "<line x1=\"\(f(left))\" y1=\"\(f(axisY))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(axisY))\" stroke=\"#333\"/>\n"
        if let first = timed.first?.time, let last = timed.last?.time {
            out += "<text x=\"\(f(left))\" y=\"\(f(axisY + 16))\">\(ComparisonChart.escape(first.text))</text>\n"
            out += "<text x=\"\(f(left + plotWidth))\" y=\"\(f(axisY + 16))\" text-anchor=\"end\">"
            out += "\(ComparisonChart.escape(last.text))</text>\n"
        }
        var legendX = left
        for (index, killer) in killers.enumerated() {
            let color = ComparisonChart.palette[index % ComparisonChart.palette.count]
            out += "<circle cx=\"\(f(legendX))\" cy=\"\(f(axisY + 36))\" r=\"4\" fill=\"\(color)\"/>"
            out += "<text x=\"\(f(legendX + 8))\" y=\"\(f(axisY + 40))\">\(ComparisonChart.escape(killer))</text>\n"
            legendX += 30 + Double(killer.count) * 7
        }
        let untimed = history.entries.count - timed.count
        if untimed > 0 {
            out +=
                "<text x=\"10\" y=\"\(f(axisY + 58))\">\(untimed) kill(s) without a time of the log's kind are not drawn</text>\n"
        }
        return out + "</svg>\n"
    }
}
