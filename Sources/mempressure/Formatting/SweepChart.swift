import Foundation
import MemoryPressure
import MemoryPressureSimulation

/// An SVG line chart of a sweep: one metric's mean against one swept parameter, one line per
/// policy, its 95 % interval as a translucent band. Other parameters are held at their first
/// value (the subtitle says which).
struct SweepChart {
    let result: SweepResult
    /// The metric drawn (a recorded metric's key).
    let metric: String
    /// The parameter on the horizontal axis (an index into the parameters).
    let parameter: Int

    var definition: SweepDefinition { result.definition }

    /// The cells along the parameter, the others at their first value.
    private var cells: [Int] {
        let counts = definition.parameters.map(\.values.count)
        var stride = 1
        for position in (parameter + 1)..<counts.count { stride *= counts[position] }
        return (0..<counts[parameter]).map { $0 * stride }
    }

    var svg: String {
        let width = 860.0
        let height = 520.0
        let left = 80.0
        let top = 80.0
        let plotWidth = 560.0
        let plotHeight = 340.0
        let swept = definition.parameters[parameter]
        let metricIndex = definition.metrics.firstIndex(of: metric)!
        let metricName = MetricDefinition.named(metric)!.name.trimmingCharacters(in: .whitespaces)
        let xs = swept.values.map { SweepParameter.numeric(name: swept.name, $0) ?? 0 }
        let xMin = xs.min() ?? 0
        let xMax = xs.max() ?? 1
        func xFor(_ value: Double) -> Double {
            xMax > xMin ? left + (value - xMin) / (xMax - xMin) * plotWidth : left + plotWidth / 2
        }
        let series = definition.policies.indices.map { policy in
            cells.map { result.cell($0).intervals(ofMetric: metricIndex)[policy] }
        }
        let top95 = series.flatMap { $0.map(\.high) }.max() ?? 1
        let axis = ComparisonChart.niceAxis(upTo: max(top95, 1e-9))
        func yFor(_ value: Double) -> Double { top + plotHeight - max(value, 0) / axis.maximum * plotHeight }
        let held = definition.parameters.indices.filter { $0 != parameter }
            .map { "\(definition.parameters[$0].name)=\(definition.parameters[$0].values[0])" }
        var subtitle = "mean per sample over \(definition.samples.count) sample(s); bands: 95 % confidence interval"
        if !held.isEmpty { subtitle += "; " + held.joined(separator: ", ") }
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(f(left))" y="28" font-size="18" font-weight="bold">\(e(metricName)) against \(e(swept.name)) — workload \(e(definition.workload))</text>
            <text x="\(f(left))" y="48" fill="#555">\(e(subtitle))</text>

            """
        let bottom = top + plotHeight
        out += "<line x1=\"\(f(left))\" y1=\"\(f(top))\" x2=\"\(f(left))\" y2=\"\(f(bottom))\" stroke=\"black\"/>\n"
        out +=
            "<line x1=\"\(f(left))\" y1=\"\(f(bottom))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(bottom))\" stroke=\"black\"/>\n"
        for tick in axis.ticks {
            out +=
                "<line x1=\"\(f(left))\" y1=\"\(f(yFor(tick)))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(yFor(tick)))\" "
            out += "stroke=\"#eee\"/><text x=\"\(f(left - 6))\" y=\"\(f(yFor(tick) + 4))\" text-anchor=\"end\">"
            out += "\(ComparisonReport.format(tick))</text>\n"
        }
        for (value, label) in zip(xs, swept.values) {
            out +=
                "<line x1=\"\(f(xFor(value)))\" y1=\"\(f(bottom))\" x2=\"\(f(xFor(value)))\" y2=\"\(f(bottom + 5))\" "
            out += "stroke=\"black\"/><text x=\"\(f(xFor(value)))\" y=\"\(f(bottom + 18))\" text-anchor=\"middle\">"
            out += "\(e(label))</text>\n"
        }
        out +=
            "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(bottom + 40))\" text-anchor=\"middle\">\(e(swept.name))</text>\n"
        out += "<text transform=\"translate(\(f(left - 50)),\(f(top + plotHeight / 2))) rotate(-90)\" "
        out += "text-anchor=\"middle\">\(e(metricName))</text>\n"
        for (policy, points) in series.enumerated() {
            let color = ComparisonChart.palette[policy % ComparisonChart.palette.count]
            let upper = zip(xs, points).map { "\(f(xFor($0))),\(f(yFor($1.high)))" }
            let lower = zip(xs, points).reversed().map { "\(f(xFor($0))),\(f(yFor($1.low)))" }
            out +=
                "<polygon points=\"\((upper + lower).joined(separator: " "))\" fill=\"\(color)\" fill-opacity=\"0.1\" "
            out += "stroke=\"none\"/>\n"
            let line = zip(xs, points).map { "\(f(xFor($0))),\(f(yFor($1.mean)))" }
            out +=
                "<polyline points=\"\(line.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"/>\n"
            for ((value, point), label) in zip(zip(xs, points), swept.values) {
                out += "<circle cx=\"\(f(xFor(value)))\" cy=\"\(f(yFor(point.mean)))\" r=\"3.5\" fill=\"\(color)\">"
                out += "<title>\(e(definition.policies[policy])) at \(e(swept.name))=\(e(label)): "
                out += "\(ComparisonReport.interval(point))</title></circle>\n"
            }
            let legendY = top + 10 + Double(policy) * 20
            out +=
                "<rect x=\"\(f(left + plotWidth + 30))\" y=\"\(f(legendY - 9))\" width=\"14\" height=\"10\" fill=\"\(color)\"/>"
            out +=
                "<text x=\"\(f(left + plotWidth + 50))\" y=\"\(f(legendY))\">\(e(definition.policies[policy]))</text>\n"
        }
        return out + "</svg>\n"
    }

    private func f(_ value: Double) -> String { String((value * 10).rounded() / 10) }
    private func e(_ text: String) -> String { ComparisonChart.escape(text) }
}
