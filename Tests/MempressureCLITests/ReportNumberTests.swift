import MemoryPressureSimulation
import Testing

@testable import mempressure

/// How compare's and sweep's tables show a mean and its interval: a resolved difference never
/// reads as `0 [0, 0]`.
@Suite("numbers in compare's and sweep's tables")
struct ReportNumberTests {
    @Test(
        "one decimal, or as many as a small value needs (up to five), trailing zeros dropped",
        arguments: [
            (46.12, 1, "46.1"), (-3.0, 1, "-3"), (-0.04, 1, "0"), (0.05, 1, "0.1"), (1234.5, 1, "1235"),
            (0.0033, 4, "0.0033"), (-0.0007, 4, "-0.0007"), (0.5, 3, "0.5"), (2.25, 1, "2.3"),
            (Double.nan, 1, "–"),
        ])
    func format(value: Double, decimals: Int, expected: String) {
        #expect(ComparisonReport.format(value, decimals: decimals) == expected)
    }

    @Test("an interval takes the decimals its smallest value that is not zero needs")
    func intervals() {
        #expect(ComparisonReport.interval(mean: 46.12, low: 42.3, high: 50.34) == "46.1 [42.3, 50.3]")
        #expect(ComparisonReport.interval(mean: 0.003, low: 0.0007, high: 0.0053) == "0.003 [0.001, 0.005]")
        #expect(ComparisonReport.interval(mean: 0, low: 0, high: 0) == "0 [0, 0]")
        #expect(ComparisonReport.interval(mean: 0.2, low: -0.04, high: 0.44) == "0.2 [-0.04, 0.44]")
        // A value under one in 10^5 still reads 0: the limit is five decimals.
        #expect(ComparisonReport.interval(mean: 0.000001, low: 0, high: 0.000002) == "0 [0, 0]")
    }

    @Test("a difference resolved on a rare event shows an interval that excludes zero")
    func rareEventDifference() {
        // 9 foreground kills in 3,000 samples of the baseline, none under the policy: the mean
        // difference is -0.003, which one decimal showed as "0 [0, 0]" beside "better".
        let baseline = Array(repeating: 1.0, count: 9) + Array(repeating: 0.0, count: 2_991)
        let difference = PairedDifference(Array(repeating: 0, count: 3_000), baseline: baseline)
        #expect(difference.isResolved)
        let shown = ComparisonReport.signedInterval(difference)
        #expect(shown.mean == "-0.003")
        let ends = shown.interval.dropFirst().dropLast().split(separator: ", ").compactMap { Double($0) }
        #expect(ends.count == 2 && ends.allSatisfy { $0 < 0 }, "\(shown.interval)")
    }
}
