import MemoryPressure

extension FleetCachedApps {
    /// What one configuration's replay gave.
    public struct Series: Sendable, Hashable {
        /// The count after each step, steps 1…36: the apps of the 18 with a live process right
        /// after the launch, the launched app included.
        public var counts: [Int]
        /// The kills over the whole run (during launches and during use).
        public var kills: Int
    }

    /// Replays ``trace`` under `policy` and counts, right after each step's launch (its `open`,
    /// with the allocation and every kill it caused), the apps of the 18 that have a live process:
    /// Fleet's definition (`use_utils.check_cached_apps()`). An action aimed at an app the policy
    /// killed during use is skipped, as in every replay (``TracePlayer``).
    ///
    /// - Throws: `EngineError` if the engine refuses the policy or an action for another reason.
    /// - Complexity: O(steps × (apps + the engine's cost per action))
    public func replay(under policy: Policy) throws -> Series {
        let engine = try PressureEngine(device: device, policy: policy)
        var player = TracePlayer(engine: engine)
        let packages = Set(Self.apps.map { AppID($0.package) })
        var counts: [Int] = []
        var kills = 0
        for entry in trace.entries {
            let events = try player.apply(entry) ?? []
            for event in events {
                if case .kill = event.kind { kills += 1 }
            }
            if case .open = entry.action {
                counts.append(engine.allApps.count { $0.state.isResident && packages.contains($0.id) })
            }
        }
        return Series(counts: counts, kills: kills)
    }

    /// Figures of a series of counts, against the measured series it is set beside.
    public struct Summary: Sendable, Hashable {
        /// The smallest and largest count over steps 1…36.
        public var range: ClosedRange<Int>
        /// The mean over steps 1…36.
        public var mean: Double
        /// The mean over the second round (steps 19…36).
        public var meanRound2: Double
        /// The largest count, and the first step it is reached at.
        public var peak: Int
        /// The first step of ``peak``.
        public var peakStep: Int
        /// How many of steps 11…36 have a count within the measured series' range over those
        /// steps (8–14 without swap, 10–14 with the swap file: the ramp of steps 1…10, where the
        /// count is bounded by the apps launched so far, is left out).
        public var withinMeasuredRange: Int
        /// The mean of |count − measured count| over steps 1…36.
        public var meanAbsoluteDifference: Double

        /// The steps ``withinMeasuredRange`` looks at.
        public static let settledSteps = 11...36

        /// The figures of `counts` (steps 1…36) against `measured`.
        ///
        /// - Complexity: O(steps)
        public init(_ counts: [Int], measured: [Int]) {
            range = (counts.min() ?? 0)...(counts.max() ?? 0)
            mean = Double(counts.reduce(0, +)) / Double(max(counts.count, 1))
            let second = counts.dropFirst(FleetCachedApps.apps.count)
            meanRound2 = Double(second.reduce(0, +)) / Double(max(second.count, 1))
            peak = counts.max() ?? 0
            peakStep = (counts.firstIndex(of: peak) ?? 0) + 1
            let settled = Self.settledSteps.map { $0 - 1 }.filter { $0 < measured.count && $0 < counts.count }
            let measuredSettled = settled.map { measured[$0] }
            let bounds = (measuredSettled.min() ?? 0)...(measuredSettled.max() ?? 0)
            withinMeasuredRange = settled.count { bounds.contains(counts[$0]) }
            let differences = zip(counts, measured).map { abs($0 - $1) }
            meanAbsoluteDifference = Double(differences.reduce(0, +)) / Double(max(differences.count, 1))
        }
    }
}
