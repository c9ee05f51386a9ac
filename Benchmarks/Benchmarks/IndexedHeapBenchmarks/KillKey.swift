import BenchmarkSupport
import MemoryPressure
import MemoryPressureSimulation

/// The packed `UInt64` key of the kill-queue workload: the higher the key, the sooner the app is killed.
///
///     bit 63 ... 60 | 59 ........................ 20 | 19 ........ 0
///         band      |        footprint (KiB)         |  app index
///
/// The band comes first (a higher band is killed first, like a higher `oom_score_adj`), then the
/// footprint (heaviest first), then the app index, which makes every key unique so that every
/// competitor must pick exactly the same victim.
enum KillKey {
    static let appBits = 20
    static let footprintBits = 40
    static let bandCount = 16

    static let appMask: UInt64 = (1 << appBits) - 1
    static let footprintShift = UInt64(appBits)
    static let footprintMask: UInt64 = ((1 << footprintBits) - 1) << footprintShift
    static let bandShift = UInt64(appBits + footprintBits)

    /// The smallest and largest footprint the workload generates: 1 MiB and 1 TiB - 1 KiB.
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
        key & ~(UInt64(0xF) << bandShift) | UInt64(band) << bandShift
    }

    /// A random band (uniform over the 16 bands) and footprint (log-uniform from 1 MiB to 2 GiB),
    /// with the app bits left zero.
    static func random(using rng: inout SeededGenerator) -> UInt64 {
        let band = rng.next(below: bandCount)
        let exponent = 10 + rng.next(below: 11)  // 2^10 KiB ... 2^21 KiB
        let footprint = (UInt64(1) << exponent) + rng.next() % (UInt64(1) << exponent)
        return make(band: band, footprint: footprint, app: 0)
    }
}
