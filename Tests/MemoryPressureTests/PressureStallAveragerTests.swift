import Foundation
import MemoryPressure
import Testing
import TestSupport

/// kernel/sched/psi.c's running averages as the engine computes them (`PressureStallAverager`):
/// `calc_avgs()` every `PSI_FREQ` (2 s), avg = avg × e + pct × (`FIXED_1` − e) / `FIXED_1` in the
/// kernel's fixed point (`calc_load()`, include/linux/sched/loadavg.h), `EXP_10s` 1677, `EXP_60s`
/// 1981, `EXP_300s` 2034, and missed periods folded by `calc_load_n()` with `fixed_power_int()`
/// (kernel/sched/loadavg.c); printed as `/proc/pressure/memory` prints them (`LOAD_INT`.`LOAD_FRAC`).
@Suite("PSI's running averages: calc_avgs() in the kernel's fixed point")
struct PressureStallAveragerTests {
    static let exps: [UInt64] = [1677, 1981, 2034]

    static func values(_ averager: PressureStallAverager) -> [UInt64] {
        [averager.avg10, averager.avg60, averager.avg300]
    }

    @Test("a few steps computed by hand: 100 %, 50 %, three missed periods then 0 %, 7 %")
    func handComputedSteps() {
        var averager = PressureStallAverager()
        // 100 % = 204800: 100 × (2048 − e), no fraction to round up.
        averager.calcAvgs(percent: 100)
        #expect(Self.values(averager) == [37_100, 6_700, 1_400])
        #expect(averager.printed == PressureStallAverages(avg10: 18.11, avg60: 3.27, avg300: 0.68))
        // 50 %: (37100 × 1677 + 102400 × 371 + 2047) / 2048 = 48930, rounded up while rising.
        averager.calcAvgs(percent: 50)
        #expect(Self.values(averager) == [48_930, 9_831, 2_091])
        #expect(averager.printed == PressureStallAverages(avg10: 23.89, avg60: 4.80, avg300: 1.02))
        // fixed_power_int(1677, 11, 3): 1677 → 1677² rounded = 1373 → 1677 × 1373 rounded = 1124.
        #expect(PressureStallAverager.fixedPowerInt(1677, 3) == 1124)
        #expect(PressureStallAverager.fixedPowerInt(1981, 3) == 1853)
        #expect(PressureStallAverager.fixedPowerInt(2034, 3) == 2006)
        #expect(PressureStallAverager.fixedPowerInt(1677, 0) == 2048)
        // Three missed periods: 48930 × 1124 / 2048 = 26854; then the period's 0 %: 26854 × 1677 / 2048.
        averager.calcAvgs(missedPeriods: 3, percent: 0)
        #expect(Self.values(averager) == [21_989, 8_603, 2_034])
        averager.calcAvgs(percent: 7)
        #expect(Self.values(averager) == [20_602, 8_791, 2_119])
        #expect(averager.printed == PressureStallAverages(avg10: 10.05, avg60: 4.29, avg300: 1.03))
    }

    @Test("a seeded random stall sequence: within the fixed point's rounding of the formula in floating point")
    func againstFloatingPoint() {
        withEvery("seed", in: 0..<200) { seed in
            var random = SplitMix64(seed: UInt64(seed))
            var averager = PressureStallAverager()
            var reference = [0.0, 0.0, 0.0]
            var worst = [0.0, 0.0, 0.0]
            for _ in 0..<500 {
                // Runs of calm and of stall, as memory pressure comes and goes.
                let percent: UInt64 =
                    switch random.next() % 4 {
                    case 0: 0
                    case 1: 100
                    default: random.next() % 101
                    }
                averager.calcAvgs(percent: percent)
                let printed = averager.printed
                for (index, exp) in Self.exps.enumerated() {
                    let e = Double(exp) / 2048
                    reference[index] = reference[index] * e + Double(percent) * (1 - e)
                    let value = [printed.avg10, printed.avg60, printed.avg300][index]
                    worst[index] = max(worst[index], abs(value - reference[index]))
                }
            }
            // Each update truncates less than one unit of 1/2048 %, or rounds up by less than one;
            // the errors decay as the average does: at most 1 / (1 − e) units. Printing floors to 0.01.
            for (index, exp) in Self.exps.enumerated() {
                let bound = 1 / Double(2048 - exp) + 0.01
                #expect(worst[index] <= bound, "\(["avg10", "avg60", "avg300"][index]): \(worst[index]) > \(bound)")
            }
        }
    }

    @Test("missed periods: calc_load_n() decays as e^n does, within fixed_power_int()'s rounding")
    func missedPeriodsAgainstFloatingPoint() {
        withEvery("seed", in: 0..<200) { seed in
            var random = SplitMix64(seed: UInt64(seed))
            let load = random.next() % (100 * 2048 + 1)
            let periods = Int(random.next() % 400) + 1
            for exp in Self.exps {
                let decayed = PressureStallAverager.calcLoadN(load, exp: exp, active: 0, periods: periods)
                let exact = Double(load) * pow(Double(exp) / 2048, Double(periods))
                // Each of fixed_power_int()'s at most 2 log2(n) + 1 products rounds by half a unit of
                // 1/2048; the error of e^n is at most that many half units, times the load.
                let steps = Double(2 * (Int.bitWidth - periods.leadingZeroBitCount) + 1)
                let bound = steps * 0.5 / 2048 * Double(load) + 1
                #expect(abs(Double(decayed) - exact) <= bound, "exp \(exp), load \(load), n \(periods)")
                #expect(decayed <= load)
            }
        }
    }

    @Test("a stretch of alike periods, each average updated until it settles, equals one update per period")
    func alikePeriodsEqualEachPeriod() {
        withEvery("seed", in: 0..<100) { seed in
            var random = SplitMix64(seed: UInt64(seed))
            var start = PressureStallAverager()
            for _ in 0..<Int(random.next() % 50) { start.calcAvgs(percent: random.next() % 101) }
            let percent: UInt64 = random.next() % 2 == 0 ? 0 : 100
            let periods = Int(random.next() % 2_000)
            var stepped = start
            for _ in 0..<periods { stepped.calcAvgs(percent: percent) }
            var stretched = start
            stretched.calcAvgs(alikePeriods: periods, percent: percent)
            #expect(stretched == stepped, "\(percent) % for \(periods) periods")
        }
    }

    @Test("a stall that never ends settles at 100.00 %, and one that ends decays to 0")
    func settles() {
        var averager = PressureStallAverager()
        averager.calcAvgs(alikePeriods: 10_000, percent: 100)
        #expect(averager.printed == PressureStallAverages(avg10: 100, avg60: 100, avg300: 100))
        averager.calcAvgs(alikePeriods: 10_000, percent: 0)
        #expect(averager == PressureStallAverager())
    }
}
