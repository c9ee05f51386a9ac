import MemoryPressure

// The built-in `phone-2024` workload: the per-user model of `phone` (same people, same days) on
// a current Android phone with current app sizes. Which figures are measured and which are
// assumed is said for each; docs/compression.md ("The phone-2024 workload") gathers them.

extension PhoneUser {
    /// The kinds of a 2024 catalogue: the shares, sessions, time-of-day weights and background
    /// use of ``iOS4Kinds`` (the people did not change, the apps did), with current footprints.
    ///
    /// The footprints are **assumptions**, not measurements: medians of 60 MiB (utilities) to
    /// 600 MiB (games) and 99th percentiles up to 2 GiB, the range in which `dumpsys meminfo`
    /// shows popular Android apps' total PSS today; no public per-kind measurement could be checked
    /// on the machine that wrote this model. They are parameters of a workload file (`user.kinds`).
    public static let modernKinds: [AppKind] = iOS4Kinds.map { kind in
        var modern = kind
        let sizes: [String: (median: Double, p99: Double)] = [
            "messaging": (150, 400), "social": (300, 800), "news": (180, 450), "browser": (350, 1_000),
            "game": (600, 2_048), "utility": (60, 200), "media": (300, 800), "music": (200, 500),
            "navigation": (300, 700), "voip": (150, 400),
        ]
        if let size = sizes[kind.name] {
            modern.footprint = LogNormal(median: size.median * 1_048_576, p99: size.p99 * 1_048_576)
        }
        return modern
    }

    /// ``iOS4User`` with ``modernKinds``: the same calibrated habits (installed apps, popularity,
    /// sessions, hours), today's app sizes.
    public static let modernUser: PhoneUser = {
        var user = iOS4User
        user.kinds = modernKinds
        return user
    }()
}

extension LaunchCost {
    /// A current phone's launch cost: 0.5 s + 3 ms per MiB cold (a 300 MiB app in 1.4 s, a 1 GiB
    /// game in 3.6 s), 0.2 s warm. Assumptions, bounded by Android vitals ("App startup time",
    /// developer.android.com/topic/performance/vitals/launch-time), which calls a cold start of
    /// 5 s or more, a warm one of 2 s or more and a hot one of 1.5 s or more excessive.
    public static let modernPhone = LaunchCost(coldFixed: 0.5, coldPerMiB: 0.003, warmFixed: 0.2)
}

extension Workload {
    /// One day of one person (``PhoneUser/modernUser``) on a current Android phone; each seed is
    /// another person.
    ///
    /// - Device: 8 GiB, the memory of a Pixel 8 (Google Store technical specifications: 8 GB
    ///   LPDDR5X). Of it 3 GiB is taken to be held by the system — kernel, GPU and camera
    ///   carve-outs, system_server, SystemUI, the launcher, persistent services — an assumption.
    /// - Views: 1 to 6 view controllers of median 4 MiB (a full-screen bitmap at 1080 × 2400 in
    ///   ARGB is 9.9 MiB), purgeable caches of median 8 MiB, 4 MiB of growth per minute of use:
    ///   assumptions, as in ``phone``.
    /// - Everything else — the catalogue of 2,000 apps, exits, warnings, interruptions,
    ///   background tasks — is ``phone``'s. Launch cost: ``LaunchCost/modernPhone``.
    public static let phone2024: Workload = {
        var workload = Workload.phone
        workload.name = "phone-2024"
        workload.device = Device(memory: .gibibytes(8), reserved: .gibibytes(3))
        workload.footprint = LogNormal(median: 200 * 1_048_576, p99: 1_024 * 1_048_576)
        workload.viewBytes = LogNormal(median: 4 * 1_048_576, p99: 24 * 1_048_576)
        workload.purgeable = LogNormal(median: 8 * 1_048_576, p99: 64 * 1_048_576)
        workload.growthPerMinute = .mebibytes(4)
        workload.user = .modernUser
        workload.launchCost = .modernPhone
        return workload
    }()
}
