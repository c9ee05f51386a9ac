import MemoryPressure
import MemoryPressureSimulation

/// An SVG chart of a comparison that opens in any browser: grouped bars of cold relaunches, kills
/// and foreground kills per policy (means over seeds), and a timeline of free memory on the first
/// trace for every policy, with the default policy's level thresholds.
struct ComparisonChart {
    let comparison: Comparison

    init(_ comparison: Comparison) {
        self.comparison = comparison
    }

    static let palette = [
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
    ]

    var svg: String {
        let width = 960.0
        let barTop = 60.0
        let barHeight = 260.0
        let lineTop = barTop + barHeight + 110
        let lineHeight = 260.0
        let left = 70.0
        let plotWidth = width - left - 200
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(lineTop + lineHeight + 80))" \
            font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="28" font-size="18" font-weight="bold">\(escape("Policies on workload \(comparison.workload)")) — \(comparison.seeds.count) trace(s)</text>

            """
        // Grouped bars.
        let metrics = MetricDefinition.all.filter { ["coldRelaunches", "kills", "foregroundKills"].contains($0.key) }
        let means = metrics.map { comparison.summaries(of: $0).map(\.mean) }
        let maxValue = max(means.flatMap { $0 }.max() ?? 1, 1)
        let groupWidth = plotWidth / Double(metrics.count)
        let barWidth = min(36, (groupWidth - 30) / Double(max(comparison.policies.count, 1)))
        out += axis(x: left, y: barTop, height: barHeight, width: plotWidth, maxValue: maxValue, label: "count (mean)")
        for (metricIndex, metric) in metrics.enumerated() {
            let groupLeft = left + Double(metricIndex) * groupWidth + 15
            for (policyIndex, value) in means[metricIndex].enumerated() {
                let height = value / maxValue * barHeight
                let x = groupLeft + Double(policyIndex) * barWidth
                out += "<rect x=\"\(f(x))\" y=\"\(f(barTop + barHeight - height))\" width=\"\(f(barWidth - 3))\" "
                out +=
                    "height=\"\(f(height))\" fill=\"\(color(policyIndex))\"><title>\(escape(comparison.policies[policyIndex])): "
                out += "\(escape(metric.name)) \(ComparisonReport.format(value))</title></rect>\n"
            }
            out +=
                "<text x=\"\(f(groupLeft + groupWidth / 2 - 15))\" y=\"\(f(barTop + barHeight + 18))\" text-anchor=\"middle\">\(escape(metric.name))</text>\n"
        }
        // Free-memory timeline (first trace).
        let runs = comparison.runs.map { $0[0] }
        let duration = max(runs.flatMap { $0.freeMemory.map(\.time) }.max() ?? 1, 1)
        let usable = Double(comparison.device.usable.value)
        let mib = 1_048_576.0
        out +=
            "<text x=\"\(left)\" y=\"\(f(lineTop - 20))\" font-size=\"14\" font-weight=\"bold\">Free memory on trace 1 (MiB)</text>\n"
        out += axis(
            x: left, y: lineTop, height: lineHeight, width: plotWidth, maxValue: usable / mib, label: "free MiB")
        if let policy = comparison.policyValues.first {
            for level in [PressureLevel.warning, .urgent, .critical] {
                guard let threshold = policy.thresholds[level] else { continue }
                let free = Double(threshold.enter.resolved(against: comparison.device.usable).value)
                let y = lineTop + lineHeight - free / usable * lineHeight
                out +=
                    "<line x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y))\" stroke=\"#999\" stroke-dasharray=\"4 4\"/>\n"
                out +=
                    "<text x=\"\(f(left + plotWidth + 4))\" y=\"\(f(y + 4))\" fill=\"#666\">\(escape("\(policy.name) \(level.name)"))</text>\n"
            }
        }
        for (index, run) in runs.enumerated() {
            let points = run.freeMemory.map { sample in
                let x = left + sample.time / duration * plotWidth
                let y = lineTop + lineHeight - min(max(Double(sample.free) / usable, 0), 1) * lineHeight
                return "\(f(x)),\(f(y))"
            }
            out +=
                "<polyline fill=\"none\" stroke=\"\(color(index))\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>\n"
        }
        out +=
            "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(lineTop + lineHeight + 30))\" text-anchor=\"middle\">hours</text>\n"
        for hour in stride(from: 0.0, through: duration / 3600, by: max(1, (duration / 3600 / 8).rounded())) {
            let x = left + hour * 3600 / duration * plotWidth
            out +=
                "<text x=\"\(f(x))\" y=\"\(f(lineTop + lineHeight + 15))\" text-anchor=\"middle\">\(Int(hour))</text>\n"
        }
        // Legend.
        for (index, name) in comparison.policies.enumerated() {
            let y = barTop + 10 + Double(index) * 20
            out += "<rect x=\"\(f(width - 120))\" y=\"\(f(y))\" width=\"12\" height=\"12\" fill=\"\(color(index))\"/>"
            out += "<text x=\"\(f(width - 102))\" y=\"\(f(y + 10))\">\(escape(name))</text>\n"
        }
        return out + "</svg>\n"
    }

    private func axis(x: Double, y: Double, height: Double, width: Double, maxValue: Double, label: String) -> String {
        var out = "<line x1=\"\(f(x))\" y1=\"\(f(y))\" x2=\"\(f(x))\" y2=\"\(f(y + height))\" stroke=\"black\"/>\n"
        out +=
            "<line x1=\"\(f(x))\" y1=\"\(f(y + height))\" x2=\"\(f(x + width))\" y2=\"\(f(y + height))\" stroke=\"black\"/>\n"
        for step in 0...4 {
            let value = maxValue * Double(step) / 4
            let tickY = y + height - Double(step) / 4 * height
            out +=
                "<text x=\"\(f(x - 6))\" y=\"\(f(tickY + 4))\" text-anchor=\"end\">\(ComparisonReport.format(value))</text>\n"
        }
        out +=
            "<text x=\"\(f(x - 50))\" y=\"\(f(y + height / 2))\" transform=\"rotate(-90 \(f(x - 50)) \(f(y + height / 2)))\" text-anchor=\"middle\">\(escape(label))</text>\n"
        return out
    }

    private func color(_ index: Int) -> String { Self.palette[index % Self.palette.count] }
    private func f(_ value: Double) -> String { String((value * 10).rounded() / 10) }
    /// Text for XML content or an attribute: markup characters as entities, and characters XML
    /// 1.0 does not allow (most control characters) written as `\u{1B}`.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where !AppID.isPrintable(scalar) || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private func escape(_ text: String) -> String { Self.escape(text) }
}
