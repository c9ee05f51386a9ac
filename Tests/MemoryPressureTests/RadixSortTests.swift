import MemoryPressure
import Testing
import TestSupport

// Issue 24: the snapshot load orders apps by when they were last frontmost with a radix sort; it
// must give exactly the order of the comparison sort it replaced (stable, −0 equal to +0).

@Suite("RadixSort")
struct RadixSortTests {
    @Test("seeded random times, with many ties, negatives, zeros of both signs and extremes: the stable sort's order")
    func matchesStableSort() {
        withEvery("seed", in: UInt64(0)..<200) { seed in
            var random = SplitMix64(seed: seed)
            let count = Int(random.next() % 2_000)
            let pool: [Double] = [
                0, -0.0, 1, -1, 1e-300, -1e-300, 86_400, -86_400, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            ]
            let times = (0..<count).map { _ -> Double in
                switch random.next() % 4 {
                case 0: return pool[Int(random.next() % UInt64(pool.count))]
                case 1: return Double(random.next() % 50)
                default: return (Double(random.next() % 2_000_000) - 1_000_000) / 7
                }
            }
            let expected = times.indices.sorted { times[$0] < times[$1] || (times[$0] == times[$1] && $0 < $1) }
            let order = RadixSort.order(of: times.map(RadixSort.key)).map(Int.init)
            #expect(order == expected)
        }
    }

    @Test("keys keep the order of the values")
    func keys() {
        // ±2024 × the least subnormal (about 1e-320): subnormals keep their order too.
        let subnormal = Double.leastNonzeroMagnitude * 2024
        let values: [Double] = [-.infinity, -1e308, -2, -1, -subnormal, 0, subnormal, 1, 2, 1e308, .infinity]
        let keys = values.map(RadixSort.key)
        #expect(keys == keys.sorted())
        #expect(Set(keys).count == values.count)
        #expect(RadixSort.key(-0.0) == RadixSort.key(0))
    }
}
