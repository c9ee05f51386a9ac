import BenchmarkSupport
import MemoryPressure
import MemoryPressureSimulation

/// The packed `UInt64` key of the kill-queue workload: the higher the key, the sooner the app is killed.
///
///     bit 63 ........ 52 | 51 .............. 20 | 19 ........ 0
///            band        |    footprint (KiB)   |  app index
///
/// The band comes first (a higher band is killed first, like a higher `oom_score_adj`: the
/// Android distribution stores adj + 1000 here, lmkd's `ADJTOSLOT`), then the footprint (heaviest
/// first), then the app index, which makes every key unique so that every competitor must pick
/// exactly the same victim.
enum KillKey {
    static let appBits = 20
    static let footprintBits = 32
    static let bandBits = 12

    static let appMask: UInt64 = (1 << appBits) - 1
    static let footprintShift = UInt64(appBits)
    static let footprintMask: UInt64 = ((1 << footprintBits) - 1) << footprintShift
    static let bandShift = UInt64(appBits + footprintBits)
    static let bandMask: UInt64 = ((1 << bandBits) - 1) << bandShift

    /// The smallest and largest footprint the workload generates: 1 MiB and 4 TiB - 1 KiB.
    static let minFootprint: UInt64 = 1 << 10
    static let maxFootprint: UInt64 = (1 << footprintBits) - 1

    @inline(__always)
    static func make(band: Int, footprint: UInt64, app: Int) -> UInt64 {
        UInt64(band) << bandShift | footprint << footprintShift | UInt64(app)
    }

    @inline(__always)
    static func app(_ key: UInt64) -> Int { Int(truncatingIfNeeded: key & appMask) }

    @inline(__always)
    static func band(_ key: UInt64) -> Int { Int(truncatingIfNeeded: key >> bandShift) }

    @inline(__always)
    static func footprint(_ key: UInt64) -> UInt64 { (key & footprintMask) >> footprintShift }

    @inline(__always)
    static func withFootprint(_ key: UInt64, _ footprint: UInt64) -> UInt64 {
        key & ~footprintMask | footprint << footprintShift
    }

    @inline(__always)
    static func withBand(_ key: UInt64, _ band: Int) -> UInt64 {
        key & ~bandMask | UInt64(band) << bandShift
    }
}
