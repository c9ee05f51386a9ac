import MemoryPressure
import MemoryPressureFormats
import MemoryPressureJemalloc

/// `simulate --real-memory`'s report: expected against measured bytes for kills and purges, as a
/// table or JSON.
struct RealMemoryReportFormat {
    let report: RealMemoryReport
    /// The scale's denominator (`--scale N` allocates 1/N of every byte).
    let scaleDivisor: Int
    /// Arenas created (one per app that launched).
    let arenas: Int
    /// Actions the engine refused (they addressed apps the policy killed).
    let refused: Int
    /// The tolerance the verdict uses.
    static let tolerance = 0.05

    /// The rows of the table: kills, purges and both together.
    private var summaries: [(name: String, summary: ReleaseSummary)] {
        [("kills", report.kills), ("purges", report.purges), ("all", report.all)]
    }

    /// Whether kills and purges agree within 5 %, page rounding aside.
    var isWithinTolerance: Bool { report.all.isWithin(Self.tolerance) }

    /// A percentage with two decimals: `0.43 %`.
    static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "inf" }
        let hundredths = Int64((fraction * 10_000).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = hundredths.magnitude
        let decimals = magnitude % 100
        return "\(sign)\(magnitude / 100).\(decimals < 10 ? "0" : "")\(decimals) %"
    }

    /// Signed relative difference of totals: `+0.43 %`.
    static func signedPercent(expected: Bytes, measured: Bytes) -> String {
        guard expected.value != 0 else { return measured.value == 0 ? "0.00 %" : "inf" }
        let fraction = Double((measured - expected).value) / Double(expected.value)
        return (fraction >= 0 ? "+" : "") + percent(fraction)
    }

    /// The table, its legend and the verdict.
    var table: String {
        let plural = arenas == 1 ? "" : "s"
        var out = "\nreal memory: every simulated byte allocated in its app's own jemalloc arena "
        out += "at 1/\(scaleDivisor) scale (\(arenas) arena\(plural), page \(report.pageSize) bytes"
        out += refused > 0 ? ", \(refused) refused action\(refused == 1 ? "" : "s") skipped)\n\n" : ")\n\n"
        var rows = [
            ["RELEASED BY", "COUNT", "EXPECTED", "MEASURED", "TOTAL DIFF", "WORST", "WORST BEYOND PAGES", "WITHIN 5 %"]
        ]
        for (name, summary) in summaries {
            rows.append([
                name, String(summary.count), summary.expected.formatted, summary.measured.formatted,
                Self.signedPercent(expected: summary.expected, measured: summary.measured),
                Self.percent(summary.worstRelativeDifference), Self.percent(summary.worstBeyondPageRounding),
                summary.isWithin(Self.tolerance) ? "yes" : "no",
            ])
        }
        out += TextTable.render(rows, rightAligned: Set(1...6))
        let legend = [
            "expected: the bytes the engine's kill or purge freed, times 1/\(scaleDivisor).",
            "measured: the drop of the arena's resident bytes (stats.arenas.<i>.resident) across the release,",
            "  after arena.<i>.purge or arena.<i>.reset.",
            "worst: the largest difference of a single release; beyond pages: what is left of it after half a",
            "  page per allocation (scaled sizes are rounded to pages) and one page per large mallocx piece",
            "  (jemalloc's cache-oblivious padding).",
            "footprints: \(report.footprintSamples) arena readings after actions; the largest drift from the engine's",
            "  figure was \(report.largestFootprintDrift.formatted) (arena metadata and padding, not in the engine's books).",
        ]
        out += "\n" + legend.joined(separator: "\n") + "\n"
        out +=
            isWithinTolerance
            ? "verdict: expected and measured bytes agree within 5 % for every kill and purge (page rounding aside).\n"
            : "verdict: expected and measured bytes differ by more than 5 % (page rounding aside); see WORST BEYOND PAGES.\n"
        return out
    }

    /// `{"scale":…,"scaleDivisor":…,"pageSize":…,"arenas":…,"refusedActions":…,"withinTolerance":bool,`
    /// `"kills":{…},"purges":{…},"all":{…},"footprints":{"samples":…,"largestDrift":…}}`.
    var json: String {
        func summary(_ summary: ReleaseSummary) -> String {
            "{\"count\":\(summary.count),\"expected\":\(summary.expected.value),\"measured\":\(summary.measured.value),"
                + "\"pageAllowance\":\(summary.pageAllowance.value),"
                + "\"totalRelativeDifference\":\(ComparisonReport.number(summary.totalRelativeDifference)),"
                + "\"totalBeyondPageRounding\":\(ComparisonReport.number(summary.totalBeyondPageRounding)),"
                + "\"worstRelativeDifference\":\(ComparisonReport.number(summary.worstRelativeDifference)),"
                + "\"worstBeyondPageRounding\":\(ComparisonReport.number(summary.worstBeyondPageRounding)),"
                + "\"withinTolerance\":\(summary.isWithin(Self.tolerance))}"
        }
        var out = "{\"scale\":\(report.scale),\"scaleDivisor\":\(scaleDivisor),"
        out += "\"pageSize\":\(report.pageSize),\"arenas\":\(arenas),\"refusedActions\":\(refused),"
        out += "\"withinTolerance\":\(isWithinTolerance)"
        for (name, value) in summaries { out += ",\"\(name)\":" + summary(value) }
        out +=
            ",\"footprints\":{\"samples\":\(report.footprintSamples),\"largestDrift\":\(report.largestFootprintDrift.value)}}"
        return out
    }
}
