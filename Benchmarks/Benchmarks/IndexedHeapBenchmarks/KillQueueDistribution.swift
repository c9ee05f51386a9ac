import BenchmarkSupport
import MemoryPressure
import MemoryPressureSimulation

/// How the apps of the mixed kill-queue workload spread over bands and sizes.
///
/// Every distribution is stationary: the initial keys, every band change and every relaunched
/// app draw their band from the same weights, so the spread stays the same however long the
/// workload runs. Within a band every distribution orders by footprint (largest first), the order
/// of lmkd's `kill_heaviest_task`, of the kernel's badness (rss-dominated) and of a size-ordered
/// phone band.
enum KillQueueDistribution: String, CaseIterable {
    /// 16 bands, each equally likely; footprints log-uniform from 1 MiB to 2 GiB.
    case uniform
    /// A phone under jetsam: almost every app is suspended in the idle band (94 %), ordered by
    /// size; the rest in the background (4 %), audio/accessory (1 %) and foreground (1 %) bands.
    /// Footprints log-uniform from 1 MiB to 2 GiB.
    case phone
    /// Android under lmkd: bands are `oom_score_adj` slots (adj + 1000, 2,001 slots as lmkd's
    /// `procadjslot_list`). 90 % of the apps are cached, spread the way the activity manager
    /// spreads them (AOSP `services/core/java/com/android/server/am/OomAdjuster.java`,
    /// `assignCachedAdjIfNecessary()`, untiered path: walking the LRU list, cached processes
    /// holding activities take adj 900, 910, …, 990 and empty ones 905, 915, …, 995 — ten slots
    /// each, `mNumSlots = ((CACHED_APP_MAX_ADJ - CACHED_APP_MIN_ADJ + 1) >> 1) /
    /// CACHED_APP_IMPORTANCE_LEVELS` = 10 with the constants of `ProcessList.java` — with
    /// ⌈cached / 10⌉ apps per slot, so each slot holds an equal share; here 60 % of the cached apps
    /// hold activities). The other 10 %: `SERVICE_B_ADJ` 800 (2 %), `PREVIOUS_APP_ADJ` 700 and
    /// `HOME_APP_ADJ` 600 (0.5 % each), `SERVICE_ADJ` 500 (3 %), `PERCEPTIBLE_APP_ADJ` 200 (2 %),
    /// `VISIBLE_APP_ADJ` 100 (1 %) and `FOREGROUND_APP_ADJ` 0 (1 %). Footprints log-uniform from
    /// 1 MiB to 2 GiB.
    case android
    /// A server with one band of tenants (99 %), ordered by badness (rss-dominated: the
    /// footprint), and a band of protected system services (1 %). Footprints log-uniform from
    /// 64 MiB to 16 GiB.
    case server

    /// How many band values the keys use (band lists keep one list per value).
    var bandCount: Int {
        switch self {
        case .uniform: 16
        case .phone: 4
        case .android: 2_001
        case .server: 2
        }
    }

    /// A band drawn from the distribution's weights (a higher band is killed first).
    func randomBand(using rng: inout SeededGenerator) -> Int {
        switch self {
        case .uniform:
            return rng.next(below: 16)
        case .phone:
            let draw = rng.next(below: 100)
            return draw < 94 ? 3 : draw < 98 ? 2 : draw < 99 ? 1 : 0
        case .android:
            let draw = rng.next(below: 1_000)
            let adj: Int
            if draw < 900 {
                // Cached: 60 % hold activities (900, 910, … 990), 40 % are empty (905, … 995).
                let slot = rng.next(below: 10)
                adj = (draw < 540 ? 900 : 905) + 10 * slot
            } else if draw < 920 {
                adj = 800
            } else if draw < 925 {
                adj = 700
            } else if draw < 930 {
                adj = 600
            } else if draw < 960 {
                adj = 500
            } else if draw < 980 {
                adj = 200
            } else if draw < 990 {
                adj = 100
            } else {
                adj = 0
            }
            return adj + 1_000
        case .server:
            return rng.next(below: 100) < 99 ? 1 : 0
        }
    }

    /// A random key (band and footprint) with the app bits left zero.
    func randomKey(using rng: inout SeededGenerator) -> UInt64 {
        let band = randomBand(using: &rng)
        let smallest = self == .server ? 16 : 10  // 2^16 KiB = 64 MiB, 2^10 KiB = 1 MiB
        let exponent = smallest + rng.next(below: 11)  // up to 2^(smallest + 11) KiB
        let footprint = (UInt64(1) << exponent) + rng.next() % (UInt64(1) << exponent)
        return KillKey.make(band: band, footprint: footprint, app: 0)
    }
}
