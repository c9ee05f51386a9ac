/// systemd-oomd's memory-pressure rule (`ManagedOOMMemoryPressure=kill`, systemd 252,
/// src/oom/oomd-manager.c `monitor_memory_pressure_contexts_handler()`): every ``intervalSeconds``
/// oomd reads the monitored cgroup's PSI `full avg10`; once it has stayed above ``limitPercent``
/// for ``durationSeconds`` (`oomd_pressure_above()`), and the cgroup reclaimed in the last
/// ``reclaimWithinSeconds``, it SIGKILLs the descendant with the highest pgscan rate, the one
/// using the most memory among equals (`oomd_kill_by_pgscan_rate()`,
/// `compare_pgscan_rate_and_memory_usage()`), then waits ``postKillDelaySeconds`` before it acts
/// again. The stall and its running average are the simulator's (docs/compression.md, "systemd-oomd's
/// memory-pressure rule"); the policy's bands and levels still drive its other kills.
public struct MemoryPressureLimit: Sendable, Hashable {
    /// `ManagedOOMMemoryPressureLimit=`: the `full avg10` above which the cgroup is under
    /// pressure, in percent (50 in Debian's and Fedora's `user@.service` drop-in; oomd's own
    /// default, `DEFAULT_MEM_PRESSURE_LIMIT_PERCENT`, is 60).
    public var limitPercent: Double
    /// `DefaultMemoryPressureDurationSec=`: how long the average must stay above the limit, in
    /// seconds (20 in the distributions' `10-oomd-defaults.conf`; oomd's own,
    /// `DEFAULT_MEM_PRESSURE_DURATION_USEC`, is 30).
    public var durationSeconds: Double
    /// `MEM_PRESSURE_INTERVAL_USEC`: how often oomd looks, in seconds (1).
    public var intervalSeconds: Double
    /// `RECLAIM_DURATION_USEC`: a cgroup under pressure is acted on only if it reclaimed within
    /// this many seconds (30).
    public var reclaimWithinSeconds: Double
    /// `POST_ACTION_DELAY_USEC`: after a kill, oomd does not act on pressure for this many
    /// seconds, since PSI lags (15).
    public var postKillDelaySeconds: Double

    /// The rule with systemd 252's constants and the distributions' drop-ins (limit 50 %,
    /// duration 20 s), changed where given.
    ///
    /// - Complexity: O(1)
    public init(
        limitPercent: Double = 50, durationSeconds: Double = 20, intervalSeconds: Double = 1,
        reclaimWithinSeconds: Double = 30, postKillDelaySeconds: Double = 15
    ) {
        self.limitPercent = limitPercent
        self.durationSeconds = durationSeconds
        self.intervalSeconds = intervalSeconds
        self.reclaimWithinSeconds = reclaimWithinSeconds
        self.postKillDelaySeconds = postKillDelaySeconds
    }

    /// How the reason of every kill this rule makes begins (oomd's log line: "Killed … due to
    /// memory pressure for … being 63.21% > 50.00% for > 20s with reclaim activity").
    public static let killReasonPrefix = "memory pressure above "

    /// The range of each key of a policy file's `memoryPressureLimit:` section.
    package static let ranges: [String: ClosedRange<Double>] = [
        "limitPercent": 0...100, "durationSeconds": 0...3600, "intervalSeconds": 0.1...60,
        "reclaimWithinSeconds": 0...3600, "postKillDelaySeconds": 0...3600,
    ]

    /// Every problem of the rule, located under `memoryPressureLimit`.
    package var problems: [(path: String, message: String)] {
        let values = [
            ("limitPercent", limitPercent), ("durationSeconds", durationSeconds), ("intervalSeconds", intervalSeconds),
            ("reclaimWithinSeconds", reclaimWithinSeconds), ("postKillDelaySeconds", postKillDelaySeconds),
        ]
        return values.compactMap { key, value in
            let range = Self.ranges[key]!
            return range.contains(value)
                ? nil
                : ("memoryPressureLimit.\(key)", "expected \(range.lowerBound)...\(range.upperBound), found \(value)")
        }
    }
}
