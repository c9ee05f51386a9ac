import MemoryPressure
import MemoryPressureFormats

extension FleetCachedApps {
    /// A killer and a memory set-up the experiment is replayed under, and the measured series it
    /// is set beside.
    public struct Configuration: Sendable, Hashable {
        /// The column's key in JSON and CSV (`linux_oom`).
        public var key: String
        /// The column's label in the table (`linux-oom`).
        public var label: String
        /// The policy.
        public var policy: Policy
        /// The key of the measured series it is compared with (`android_no_swap`,
        /// `android_swap_file`).
        public var measuredKey: String
        /// What the column answers, in a line.
        public var role: String
    }

    /// The measured series by key: `android_no_swap`, `android_swap_file`.
    ///
    /// - Complexity: O(1)
    public static func measured(_ key: String) -> [Int]? {
        switch key {
        case "android_no_swap": measuredNoSwap
        case "android_swap_file": measuredSwapFile
        default: nil
        }
    }

    /// The four configurations, in the table's order:
    /// - `linux_oom`: the kernel's OOM killer, with Android's `oom_score_adj` — what ran in
    ///   Fleet's "Android" runs, whose lmkd could not kill (docs/phone-2024-sources.md §5b); the
    ///   column to hold against the measured no-swap series.
    /// - `android_lmkd_pixel3`: stock Android 10's lmkd as the Pixel 3 configured it — a
    ///   counterfactual (what lmkd would have done had it been on).
    /// - `android_lmkd_psi`: today's lmkd in PSI mode, without swap — today's rules on the same phone.
    /// - `linux_oom_swap_file`: the kernel's OOM killer over a 2 GiB swap file on flash — what ran in
    ///   the measured "w/ swap" series.
    ///
    /// - Throws: `PolicyErrors` if a shipped policy does not load (the tests load them all).
    /// - Complexity: O(length of the shipped policies' text)
    public static func configurations() throws -> [Configuration] {
        [
            Configuration(
                key: "linux_oom", label: "linux-oom", policy: try linuxOOM(), measuredKey: "android_no_swap",
                role: "what ran: the kernel's OOM killer (lmkd could not kill), no swap"),
            Configuration(
                key: "android_lmkd_pixel3", label: "lmkd Pixel 3", policy: try androidLMKDPixel3(),
                measuredKey: "android_no_swap",
                role: "counterfactual: stock Android 10 lmkd, minfree 72/90/108/126/216/315 MiB, heaviest first"),
            Configuration(
                key: "android_lmkd_psi", label: "lmkd-psi", policy: try androidLMKDPSI(),
                measuredKey: "android_no_swap", role: "today's lmkd (PSI mode), no swap"),
            Configuration(
                key: "linux_oom_swap_file", label: "linux-oom + swap file", policy: try linuxOOMSwapFile(),
                measuredKey: "android_swap_file", role: "what ran: the kernel's OOM killer over a 2 GiB swap file"),
        ]
    }

    /// The shipped `linux-oom` with the `oom_score_adj` Android's ActivityManager gives an app by
    /// state (the shipped `android-lmkd`'s `oomScoreAdjByState`: foreground 0, cached 900): the
    /// kernel's killer weighs each task by `oom_score_adj × totalpages / 1000` on top of its size
    /// (mm/oom_kill.c `oom_badness()`), so a cached app dies before the foreground one.
    ///
    /// - Throws: `PolicyErrors` if a shipped policy does not load.
    /// - Complexity: O(length of the shipped policies' text)
    public static func linuxOOM() throws -> Policy {
        var policy = try Policy.shipped("linux-oom")
        let android = try Policy.shipped("android-lmkd")
        policy.oomScoreAdjByState = android.oomScoreAdjByState
        policy.oomScoreAdjByBackgroundMode = android.oomScoreAdjByBackgroundMode
        policy.summary = "linux-oom with Android's oom_score_adj by state (foreground 0, cached 900)"
        return policy
    }

    /// ``linuxOOM()`` over the swap Fleet configured for its "w/ swap" runs: a 2 GiB swap file on
    /// flash with zram off (`configure-flash-swap.sh`: `swapoff /dev/block/zram0`, a 2 GiB
    /// `/data/swapfile`, `swapon`).
    ///
    /// Cached (suspended) apps are swapped out whole by reclaim (`compressible` 1: the modelled
    /// footprint is anonymous memory only, every page of which can go to swap; how much of it
    /// would stay resident as hot pages is not measured). Reclaim starts at 2 % free and stops at
    /// 3 %, above linux-oom's 1 % kill level, as the shipped example `linux-oom-zram` does, so
    /// that a kill means the swap file is full or nothing idle is left. Writing costs 0.5 ms of CPU
    /// per MiB and reading back 10 ms per MiB (the example `earlyoom-swap`'s assumptions); file
    /// pages are outside the model (`fileBacked` 0).
    ///
    /// - Throws: `PolicyErrors` if a shipped policy does not load.
    /// - Complexity: O(length of the shipped policies' text)
    public static func linuxOOMSwapFile() throws -> Policy {
        var policy = try linuxOOM()
        policy.compression = MemoryCompression(
            mechanism: .swap, matches: [AppMatch(states: [.suspended])], capacity: .bytes(.gibibytes(2)), ratio: 1,
            compressible: 1, startBelow: .fixed(.percent(2)), stopAt: .fixed(.percent(3)),
            compressSecondsPerMiB: 0.0005, decompressSecondsPerMiB: 0.01)
        policy.summary = "linux-oom with Android's oom_score_adj, over a 2 GiB swap file on flash"
        return policy
    }

    /// The shipped `android-lmkd` as Android 10 ran it on the Pixel 3
    /// (docs/phone-2024-sources.md §5a): `ro.lmk.kill_heaviest_task=true` (device/google/crosshatch
    /// `device-common.mk`), so the heaviest process of every adj slot dies first, and the 64-bit
    /// minfree levels of `ProcessList.updateOomLevels()` on a 4 GB device — 72/90/108/126 MiB as
    /// shipped, and 216 and 315 MiB for the two cached levels (147,456 KB × 3/2 and 184,320 KB ×
    /// 7/4).
    ///
    /// Not modelled: lmkd's file-cache condition (a level applies only when the file cache is
    /// below it too; the modelled free memory holds what the file cache would, so the two are
    /// read as one), and the spread of cached apps over adj 900–906 by recency (every cached app
    /// has 900 here, so the 216 MiB level is the one that applies to them).
    ///
    /// - Throws: `PolicyErrors` if a shipped policy does not load.
    /// - Complexity: O(length of the shipped policy's text)
    public static func androidLMKDPixel3() throws -> Policy {
        var policy = try Policy.shipped("android-lmkd")
        for index in policy.bands.indices {
            policy.bands[index].order = .largestFirst
            policy.bands[index].ties = .newestInBand
            switch policy.bands[index].name {
            case "cached-lmk-first": policy.bands[index].killBelow = .fixed(.bytes(.mebibytes(315)))
            case "cached": policy.bands[index].killBelow = .fixed(.bytes(.mebibytes(216)))
            default: break
            }
        }
        policy.summary = "android-lmkd as the Pixel 3 ran it on Android 10: heaviest first, 64-bit minfree levels"
        return policy
    }

    /// The shipped `android-lmkd-psi` (today's lmkd) without its zram: the measured runs had no
    /// swap.
    ///
    /// - Throws: `PolicyErrors` if a shipped policy does not load.
    /// - Complexity: O(length of the shipped policy's text)
    public static func androidLMKDPSI() throws -> Policy {
        var policy = try Policy.shipped("android-lmkd-psi")
        policy.compression = nil
        policy.summary = "android-lmkd-psi without zram"
        return policy
    }
}
