extension Policy {
    /// The built-in default: the iOS 4 behaviour of DESIGN.md. Running apps are warned at level 1
    /// and 2 and release offscreen views and purgeable caches; at level 2 the system also drops
    /// suspended apps' offscreen views; then the heaviest suspended app dies first, then apps
    /// running in the background (with `willTerminate`), and the foreground app only as the last
    /// resort, after it ignored both warnings.
    ///
    /// The thresholds are fractions of usable memory (physical minus the system reserve): level 1
    /// below 15 % free (cleared above 20 %), level 2 below 10 % (cleared above 15 %), critical
    /// below 5 % (cleared above 10 %); kills start at level 2 and restore 15 % free.
    public static let ios4 = Policy(
        name: "ios4",
        summary: "iOS 4: warn running apps at level 1 and 2, purge offscreen views, kill heaviest suspended first",
        thresholds: PressureThresholds(
            warning: LevelThreshold(enter: .percent(15), clear: .percent(20)),
            urgent: LevelThreshold(enter: .percent(10), clear: .percent(15)),
            critical: LevelThreshold(enter: .percent(5), clear: .percent(10))
        ),
        warnings: [.warning: .running, .urgent: .running, .critical: .running],
        purges: [
            .warning: [.offscreenViews, .purgeableCaches],
            .urgent: [.offscreenViews, .purgeableCaches, .suspendedOffscreenViews],
            .critical: [.offscreenViews, .purgeableCaches, .suspendedOffscreenViews],
        ],
        kills: KillRule(startLevel: .urgent, target: .percent(15), foregroundNeedsIgnoredWarnings: true),
        bands: [
            Band(
                name: "suspended", match: AppMatch(states: [.suspended]), order: .largestFirst,
                reason: "heaviest suspended app"),
            Band(
                name: "background", match: AppMatch(states: [.background]), order: .largestFirst,
                reason: "heaviest app running in the background"),
            Band(
                name: "foreground", match: AppMatch(states: [.active, .inactive]), order: .largestFirst,
                reason: "foreground app ignored the level-1 and level-2 warnings"),
        ]
    )
}
