import Foundation
import MemoryPressure
import MemoryPressureSimulation

/// An SVG chart of a comparison that opens in any browser and shows what the numbers say:
/// the key metrics per policy as bars with their 95 % intervals, a forest plot of every policy's
/// paired difference from the baseline (zero line, intervals, resolved ones filled), and free
/// memory over the first sample for every policy. Axes have round ticks.
struct ComparisonChart {
    let report: ComparisonReport
    var comparison: Comparison { report.comparison }

    init(_ report: ComparisonReport) {
        self.report = report
    }

    static let palette = [
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
    ]

    /// The metrics drawn as bars.
    static let barKeys = ["launchWait", "coldRelaunches", "kills", "foregroundKills"]
    /// Drawn as bars too when some policy compresses memory.
    static let compressionKeys = ["decompressionWait", "mibCompressed"]
    /// The metrics drawn as paired differences.
    static let forestKeys = ["launchWait", "coldRelaunches"]

    var svg: String {
        let width = 1000.0
        let left = 70.0
        let panelTop = 70.0
        let panelHeight = 200.0
        let forestTop = panelTop + panelHeight + 110
        let rowHeight = 22.0
        let forestHeight = Double(max(comparison.policies.count - 1, 1)) * rowHeight + 20
        let lineTop = forestTop + forestHeight + 110
        let lineHeight = 220.0
        let plotWidth = width - left - 190
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(lineTop + lineHeight + 70))" \
            font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="28" font-size="18" font-weight="bold">\(escape("Policies on workload \(comparison.workload)")) — \(comparison.samples.count) sample(s)</text>
            <text x="\(left)" y="48" fill="#555">bars: mean per sample; whiskers: 95 % confidence interval</text>

            """
        // Bar panels, one per metric, each with its own round axis.
        let compresses = comparison.runs.contains { $0.contains { $0.metrics.bytesCompressed > 0 } }
        let metrics = (Self.barKeys + (compresses ? Self.compressionKeys : [])).compactMap(MetricDefinition.named)
        let panelWidth = plotWidth / Double(metrics.count)
        for (position, metric) in metrics.enumerated() {
            let x0 = left + Double(position) * panelWidth
            let intervals = comparison.intervals(of: metric)
            let top = max(intervals.map(\.high).max() ?? 1, 1e-9)
            let axis = Self.niceAxis(upTo: top)
            let inner = panelWidth - 45
            out += verticalAxis(x: x0, y: panelTop, height: panelHeight, width: inner, axis: axis)
            let barWidth = min(28, inner / Double(max(intervals.count, 1)))
            for (index, interval) in intervals.enumerated() {
                let x = x0 + 6 + Double(index) * barWidth
                let height = interval.mean / axis.maximum * panelHeight
                let y = panelTop + panelHeight - height
                out += "<rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(barWidth - 4))\" height=\"\(f(max(height, 0)))\" "
                out += "fill=\"\(color(index))\"><title>\(escape(comparison.policies[index])): \(escape(metric.name)) "
                out += "\(ComparisonReport.interval(interval))</title></rect>\n"
                let center = x + (barWidth - 4) / 2
                let yLow = panelTop + panelHeight - interval.low / axis.maximum * panelHeight
                let yHigh = panelTop + panelHeight - interval.high / axis.maximum * panelHeight
                out +=
                    "<line x1=\"\(f(center))\" y1=\"\(f(yLow))\" x2=\"\(f(center))\" y2=\"\(f(yHigh))\" stroke=\"black\"/>"
                out +=
                    "<line x1=\"\(f(center - 4))\" y1=\"\(f(yLow))\" x2=\"\(f(center + 4))\" y2=\"\(f(yLow))\" stroke=\"black\"/>"
                out +=
                    "<line x1=\"\(f(center - 4))\" y1=\"\(f(yHigh))\" x2=\"\(f(center + 4))\" y2=\"\(f(yHigh))\" stroke=\"black\"/>\n"
            }
            out += "<text x=\"\(f(x0 + inner / 2))\" y=\"\(f(panelTop + panelHeight + 18))\" text-anchor=\"middle\">"
            out += "\(escape(metric.name.trimmingCharacters(in: .whitespaces)))</text>\n"
        }
        // Forest plots of the paired differences against the baseline.
        let baselineName = comparison.policies[report.baseline]
        out += "<text x=\"\(left)\" y=\"\(f(forestTop - 40))\" font-size=\"14\" font-weight=\"bold\">"
        out +=
            "Paired difference from \(escape(baselineName)) (policy − \(escape(baselineName)), 95 % interval)</text>\n"
        out += "<text x=\"\(left)\" y=\"\(f(forestTop - 22))\" fill=\"#555\">filled: resolved (interval excludes 0, "
        out += "Holm-adjusted p &lt; 0.05); hollow: not resolved</text>\n"
        let forestMetrics = Self.forestKeys.compactMap(MetricDefinition.named)
        let forestWidth = (plotWidth - 60) / Double(forestMetrics.count)
        for (position, metric) in forestMetrics.enumerated() {
            let x0 = left + 60 + Double(position) * (forestWidth + 30)
            let differences = comparison.pairedDifferences(of: metric, baseline: report.baseline)
            let extent = differences.compactMap { $0 }.flatMap { [abs($0.low), abs($0.high)] }.max() ?? 1
            let axis = Self.niceAxis(upTo: max(extent, 1e-9))
            func xFor(_ value: Double) -> Double { x0 + (value + axis.maximum) / (2 * axis.maximum) * forestWidth }
            out += "<text x=\"\(f(x0 + forestWidth / 2))\" y=\"\(f(forestTop - 4))\" text-anchor=\"middle\" "
            out += "font-weight=\"bold\">\(escape(metric.name.trimmingCharacters(in: .whitespaces)))</text>\n"
            out += "<line x1=\"\(f(xFor(0)))\" y1=\"\(f(forestTop))\" x2=\"\(f(xFor(0)))\" "
            out += "y2=\"\(f(forestTop + forestHeight))\" stroke=\"#999\" stroke-dasharray=\"4 4\"/>\n"
            let bottom = forestTop + forestHeight
            out +=
                "<line x1=\"\(f(x0))\" y1=\"\(f(bottom))\" x2=\"\(f(x0 + forestWidth))\" y2=\"\(f(bottom))\" stroke=\"black\"/>\n"
            for tick in axis.ticks + axis.ticks.dropFirst().map({ -$0 }) {
                out += "<text x=\"\(f(xFor(tick)))\" y=\"\(f(bottom + 15))\" text-anchor=\"middle\">"
                out += "\(ComparisonReport.signed(tick))</text>\n"
            }
            var row = 0
            for (index, difference) in differences.enumerated() {
                guard let difference else { continue }
                let y = forestTop + 12 + Double(row) * rowHeight
                row += 1
                if position == 0 {
                    out += "<text x=\"\(f(x0 - 8))\" y=\"\(f(y + 4))\" text-anchor=\"end\">"
                    out += "\(escape(comparison.policies[index]))</text>\n"
                }
                out += "<line x1=\"\(f(xFor(difference.low)))\" y1=\"\(f(y))\" x2=\"\(f(xFor(difference.high)))\" "
                out += "y2=\"\(f(y))\" stroke=\"\(color(index))\" stroke-width=\"2\"/>"
                let fill = difference.isResolved ? color(index) : "white"
                out += "<circle cx=\"\(f(xFor(difference.mean)))\" cy=\"\(f(y))\" r=\"5\" fill=\"\(fill)\" "
                out += "stroke=\"\(color(index))\" stroke-width=\"2\"><title>\(escape(comparison.policies[index])): "
                let shown = ComparisonReport.signedInterval(difference)
                out += "\(shown.mean) \(shown.interval), adjusted p \(ComparisonReport.pValue(difference.adjustedP))"
                out += "</title></circle>\n"
            }
        }
        // Free-memory timeline (first sample).
        let runs = comparison.runs.map { $0[0] }
        let duration = max(runs.flatMap { $0.freeMemory.map(\.time) }.max() ?? 1, 1)
        let usable = Double(comparison.device.usable.value)
        let mib = 1_048_576.0
        let freeAxis = Self.niceAxis(upTo: max(usable / mib, 1))
        out += "<text x=\"\(left)\" y=\"\(f(lineTop - 20))\" font-size=\"14\" font-weight=\"bold\">"
        out += "Free memory on sample \(escape(comparison.samples.first ?? "1")) (MiB)</text>\n"
        out += verticalAxis(x: left, y: lineTop, height: lineHeight, width: plotWidth, axis: freeAxis)
        if let policy = comparison.policyValues.first {
            for level in [PressureLevel.warning, .urgent, .critical] {
                guard let threshold = policy.thresholds[level] else { continue }
                let free = Double(threshold.enter.resolved(against: comparison.device.usable).value) / mib
                let y = lineTop + lineHeight - free / freeAxis.maximum * lineHeight
                out += "<line x1=\"\(f(left))\" y1=\"\(f(y))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(y))\" "
                out += "stroke=\"#999\" stroke-dasharray=\"4 4\"/>\n"
                out += "<text x=\"\(f(left + plotWidth + 4))\" y=\"\(f(y + 4))\" fill=\"#666\">"
                out += "\(escape("\(policy.name) \(level.name)"))</text>\n"
            }
        }
        for (index, run) in runs.enumerated() {
            let points = run.freeMemory.map { sample in
                let x = left + sample.time / duration * plotWidth
                let y = lineTop + lineHeight - min(max(Double(sample.free) / mib / freeAxis.maximum, 0), 1) * lineHeight
                return "\(f(x)),\(f(y))"
            }
            out += "<polyline fill=\"none\" stroke=\"\(color(index))\" stroke-width=\"1.5\" "
            out += "points=\"\(points.joined(separator: " "))\"/>\n"
        }
        out +=
            "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(lineTop + lineHeight + 32))\" text-anchor=\"middle\">hours</text>\n"
        let hours = Self.niceAxis(upTo: duration / 3600, ticks: 8)
        for hour in hours.ticks where hour <= duration / 3600 {
            let x = left + hour * 3600 / duration * plotWidth
            out += "<text x=\"\(f(x))\" y=\"\(f(lineTop + lineHeight + 15))\" text-anchor=\"middle\">"
            out += "\(ComparisonReport.format(hour))</text>\n"
        }
        // Legend.
        for (index, name) in comparison.policies.enumerated() {
            let y = panelTop + Double(index) * 20
            out += "<rect x=\"\(f(width - 110))\" y=\"\(f(y))\" width=\"12\" height=\"12\" fill=\"\(color(index))\"/>"
            out += "<text x=\"\(f(width - 92))\" y=\"\(f(y + 10))\">\(escape(name))</text>\n"
        }
        return out + "</svg>\n"
    }

    /// An axis from 0 to a round maximum with round ticks (steps of 1, 2 or 5 × 10^k).
    struct Axis {
        var maximum: Double
        var ticks: [Double]
    }

    /// The round axis covering 0…`value` with about `ticks` intervals.
    static func niceAxis(upTo value: Double, ticks: Int = 5) -> Axis {
        let raw = max(value, 1e-12) / Double(max(ticks, 1))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        let count = Int((value / step).rounded(.up))
        let maximum = Double(max(count, 1)) * step
        return Axis(maximum: maximum, ticks: (0...max(count, 1)).map { Double($0) * step })
    }

    private func verticalAxis(x: Double, y: Double, height: Double, width: Double, axis: Axis) -> String {
        var out = "<line x1=\"\(f(x))\" y1=\"\(f(y))\" x2=\"\(f(x))\" y2=\"\(f(y + height))\" stroke=\"black\"/>\n"
        out +=
            "<line x1=\"\(f(x))\" y1=\"\(f(y + height))\" x2=\"\(f(x + width))\" y2=\"\(f(y + height))\" stroke=\"black\"/>\n"
        for tick in axis.ticks {
            let tickY = y + height - tick / axis.maximum * height
            out += "<line x1=\"\(f(x - 3))\" y1=\"\(f(tickY))\" x2=\"\(f(x))\" y2=\"\(f(tickY))\" stroke=\"black\"/>"
            out +=
                "<text x=\"\(f(x - 6))\" y=\"\(f(tickY + 4))\" text-anchor=\"end\">\(ComparisonReport.format(tick))</text>\n"
        }
        return out
    }

    private func color(_ index: Int) -> String { Self.palette[index % Self.palette.count] }
    private func f(_ value: Double) -> String { String((value * 10).rounded() / 10) }

    /// `text` escaped for SVG text and attributes; characters XML forbids are written out.
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
