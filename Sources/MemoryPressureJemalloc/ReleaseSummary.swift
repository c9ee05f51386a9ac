import MemoryPressure

/// Totals over a set of ``MeasuredRelease``s (the kills, or the purges, of a run).
public struct ReleaseSummary: Sendable, Hashable {
    /// How many releases.
    public var count: Int
    /// Σ expected bytes (the engine's, scaled).
    public var expected: Bytes
    /// Σ measured bytes (arena `resident` drops).
    public var measured: Bytes
    /// Σ page allowances.
    public var pageAllowance: Bytes
    /// The largest per-release ``MeasuredRelease/relativeDifference`` (0 when there are none).
    public var worstRelativeDifference: Double
    /// The largest per-release ``MeasuredRelease/relativeDifferenceBeyondPageRounding``.
    public var worstBeyondPageRounding: Double

    /// The summary of `releases`.
    ///
    /// - Complexity: O(releases)
    public init<S: Sequence>(_ releases: S) where S.Element == MeasuredRelease {
        count = 0
        expected = .zero
        measured = .zero
        pageAllowance = .zero
        worstRelativeDifference = 0
        worstBeyondPageRounding = 0
        for release in releases {
            count += 1
            expected += release.expected
            measured += release.measured
            pageAllowance += release.pageAllowance
            worstRelativeDifference = max(worstRelativeDifference, release.relativeDifference)
            worstBeyondPageRounding = max(worstBeyondPageRounding, release.relativeDifferenceBeyondPageRounding)
        }
    }

    /// `|Σ measured − Σ expected| / Σ expected`.
    ///
    /// - Complexity: O(1)
    public var totalRelativeDifference: Double {
        MemoryRelease(expected: expected, measured: measured).relativeDifference
    }

    /// The relative difference of the totals left once page rounding is set aside: the part of
    /// `|Σ measured − Σ expected|` beyond Σ page allowances, over Σ expected.
    ///
    /// - Complexity: O(1)
    public var totalBeyondPageRounding: Double {
        MeasuredRelease(
            time: 0, app: "", cause: .kill, engineFreed: .zero, expected: expected, measured: measured,
            pageAllowance: pageAllowance
        ).relativeDifferenceBeyondPageRounding
    }

    /// Whether every release, and the totals, agree within `tolerance` (0.05 for 5 %) once page
    /// rounding is set aside. True when there are no releases.
    ///
    /// - Complexity: O(1)
    public func isWithin(_ tolerance: Double) -> Bool {
        worstBeyondPageRounding <= tolerance && totalBeyondPageRounding <= tolerance
    }
}
