/// What the simulated pressure stall amounted to over a stretch of a run, under a policy that
/// acts on it (``Policy/psi`` or ``Policy/memoryPressureLimit``): seconds of stall, and per
/// threshold of the policy's, the time spent at or above it, its crossings and the peak figure; and
/// the highest running averages (PSI's `avg10`, `avg60`, `avg300`) of each stall.
public struct PressureStallFigures: Sendable, Hashable {
    /// One threshold of the policy's and how the stall stood against it.
    public struct Threshold: Sendable, Hashable {
        /// The stall it applies to.
        public var stall: PressureCrossing.Stall
        /// The window of its figure (``PressureCrossing/window``: `1s` for lmkd, `avg10` for oomd).
        public var window: String
        /// The threshold, in percent of the window.
        public var threshold: Double
        /// Seconds the figure was at or above the threshold (lmkd: from the trigger to its
        /// window's end; oomd: from the check that found the average above to the one that found
        /// it back at or below).
        public var secondsAbove: Double
        /// Up-crossings.
        public var crossings: Int
        /// The highest figure reached, in percent of the window.
        public var peak: Double

        /// A threshold's figures from their parts.
        ///
        /// - Complexity: O(1)
        public init(
            stall: PressureCrossing.Stall, window: String, threshold: Double, secondsAbove: Double, crossings: Int,
            peak: Double
        ) {
            self.stall = stall
            self.window = window
            self.threshold = threshold
            self.secondsAbove = secondsAbove
            self.crossings = crossings
            self.peak = peak
        }
    }

    /// Seconds of "some" stall; `nil` where the policy's model has none (oomd's counts "full" only).
    public var someSeconds: Double?
    /// Seconds of "full" stall.
    public var fullSeconds: Double
    /// The policy's thresholds, in the order lmkd's (some, full) or oomd's (full) are stated.
    public var thresholds: [Threshold]
    /// The highest value each running average of the "some" stall reached (each on its own: the
    /// peaks need not be at the same moment); `nil` where the model has no "some" stall.
    public var someAveragePeaks: PressureStallAverages?
    /// The highest value each running average of the "full" stall reached.
    public var fullAveragePeaks: PressureStallAverages?

    /// Figures from their parts.
    ///
    /// - Complexity: O(1)
    public init(
        someSeconds: Double?, fullSeconds: Double, thresholds: [Threshold],
        someAveragePeaks: PressureStallAverages? = nil, fullAveragePeaks: PressureStallAverages? = nil
    ) {
        self.someSeconds = someSeconds
        self.fullSeconds = fullSeconds
        self.thresholds = thresholds
        self.someAveragePeaks = someAveragePeaks
        self.fullAveragePeaks = fullAveragePeaks
    }

    /// These figures from `start` on: seconds and crossings less `start`'s (peaks, of the
    /// thresholds' figures and of the averages, are kept: the engine restarts them where counting
    /// starts, see `PressureEngine.restartPressureStallPeaks()`).
    ///
    /// - Complexity: O(thresholds)
    public func since(_ start: PressureStallFigures) -> PressureStallFigures {
        var out = self
        if let some = someSeconds, let before = start.someSeconds { out.someSeconds = some - before }
        out.fullSeconds = fullSeconds - start.fullSeconds
        for index in out.thresholds.indices where index < start.thresholds.count {
            out.thresholds[index].secondsAbove -= start.thresholds[index].secondsAbove
            out.thresholds[index].crossings -= start.thresholds[index].crossings
        }
        return out
    }
}
