// BandedHeap: seeded random operation sequences against the reference model and against
// IndexedHeap (the same handles, victims and reports on unique keys), across band sizes that
// cross the unsorted/heap boundary both ways, band ids on several directory pages, and stale
// handles.

import IndexedHeapModule
import TestSupport
import Testing

/// The first way `queue` disagrees with `model`, or `nil` (the checks of `discrepancy` for heaps).
func discrepancy(_ queue: inout BandedHeap, _ model: Model<UInt64>, removed: [Handle] = []) -> String? {
    if let violation = queue._invariantViolation() { return "invariant: \(violation)" }
    if queue.count != model.count { return "count \(queue.count), model has \(model.count)" }
    if queue.isEmpty != model.isEmpty { return "isEmpty \(queue.isEmpty), model has \(model.count) elements" }
    let max = queue.max
    if max?.priority != model.maxPriority {
        return "max \(String(describing: max?.priority)), model max \(String(describing: model.maxPriority))"
    }
    if let max, model[max.handle] != max.priority { return "max handle \(max.handle) is not live with \(max.priority)" }
    if let violation = queue._invariantViolation() { return "invariant after reading max: \(violation)" }
    for handle in model.keys {
        guard queue.contains(handle) else { return "live handle \(handle) not contained" }
        if queue.priority(of: handle) != model[handle] {
            return "handle \(handle) has priority \(queue.priority(of: handle)), model says \(model[handle]!)"
        }
        if queue.handle(forIndex: handle.index) != handle { return "handle(forIndex: \(handle.index)) is not \(handle)" }
    }
    for handle in removed where queue.contains(handle) { return "removed handle \(handle) is still contained" }
    return nil
}

@Suite("BandedHeap")
struct BandedHeapTests {
    /// A seeded key generator: keys in a few bands (a band id in the top 20 bits), one band
    /// favoured so that it outgrows `smallBandLimit`, values from a narrow or a wide range, and
    /// with `unique` a serial number in the low bits (as the kill queue's tie-breaker).
    private struct Keys {
        var rng: SplitMix64
        let bands: [UInt64]
        let favoured: Int
        let range: UInt64
        let unique: Bool
        var serial: UInt64 = 0

        init(seed: UInt64, unique: Bool) {
            rng = SplitMix64(seed: seed)
            // Band ids on several directory pages (pages are the top 8 of the 20 bits).
            let pool: [UInt64] = [0, 1, 63, 64, 900, 4095, 4096, 4097, 70_000, 0x80000, 0xFFFFE, 0xFFFFF]
            let count = [1, 2, 4, 12][Int(rng.next() % 4)]
            var chosen: [UInt64] = []
            while chosen.count < count {
                let id = pool[Int(rng.next() % UInt64(pool.count))]
                if !chosen.contains(id) { chosen.append(id) }
            }
            bands = chosen
            favoured = Int(rng.next() % UInt64(count))
            range = [4, 1000, 1 << 40][Int(rng.next() % 3)]
            self.unique = unique
        }

        mutating func band() -> UInt64 {
            rng.next() % 4 == 0 ? bands[Int(rng.next() % UInt64(bands.count))] : bands[favoured]
        }

        mutating func key(in band: UInt64) -> UInt64 {
            let value = rng.next() % range
            guard unique else { return band << 44 | value }
            serial += 1
            return band << 44 | (value % (1 << 20)) << 24 | serial
        }

        mutating func key() -> UInt64 { key(in: band()) }
    }

    /// Runs one sequence of `steps` operations on a BandedHeap, the model and (with unique keys)
    /// an IndexedHeap side by side; checks everything every `checkEvery` steps. Returns the popped
    /// handles, so a second run can check determinism.
    @discardableResult
    private func run(seed: UInt64, unique: Bool, steps: Int, initial: Int, checkEvery: Int) -> [Handle] {
        var keys = Keys(seed: seed, unique: unique)
        let start = (0..<initial).map { _ in keys.key() }
        var queue = BandedHeap(start)
        var heap = IndexedHeap(start)
        var model = Model<UInt64>()
        for (index, key) in start.enumerated() { model.insert(queue.handle(forIndex: index)!, priority: key) }
        var removed: [Handle] = []
        var popped: [Handle] = []
        if let problem = discrepancy(&queue, model) {
            check(false, "seed \(seed), initial: \(problem)")
            return popped
        }
        // Phases: grow (inserts win), then shrink (removals win), so bands cross the boundary both ways.
        for step in 0..<steps {
            let growing = (step / 600) % 2 == 0
            let draw = Int(keys.rng.next() % 100)
            let victim: Handle? = model.isEmpty ? nil : model.keys[Int(keys.rng.next() % UInt64(model.count))]
            let context = "seed \(seed), step \(step)"
            switch draw {
            case ..<(growing ? 40 : 10):
                let key = keys.key()
                let handle = queue.insert(key)
                let other = unique ? heap.insert(key) : handle
                guard check(!model.contains(handle), "\(context): insert issued live handle \(handle)") else { return popped }
                if unique { guard check(handle == other, "\(context): insert gave \(handle), IndexedHeap \(other)") else { return popped } }
                model.insert(handle, priority: key)
            case ..<55:
                // A change inside the band: small drifts (which rarely move a heap node) and jumps.
                guard let victim else { continue }
                let old = model[victim]!
                let band = old >> 44
                let key: UInt64
                if keys.rng.next() % 2 == 0, !unique {
                    let value = old & ((1 << 44) - 1)
                    key = band << 44 | (keys.rng.next() % 2 == 0 ? value + 1 : (value == 0 ? 0 : value - 1))
                } else {
                    key = keys.key(in: band)
                }
                queue.update(victim, to: key)
                if unique { heap.update(victim, to: key) }
                model.remove(victim)
                model.insert(victim, priority: key)
            case ..<65:
                guard let victim else { continue }
                let key = keys.key()
                queue.update(victim, to: key)
                if unique { heap.update(victim, to: key) }
                model.remove(victim)
                model.insert(victim, priority: key)
            case ..<(growing ? 75 : 85):
                guard let victim else { continue }
                let key = queue.remove(victim)
                if unique { heap.remove(victim) }
                guard check(key == model.remove(victim), "\(context): remove(\(victim)) gave \(key)") else { return popped }
                removed.append(victim)
            case ..<96:
                let expected = model.maxPriority
                let top = queue.popMax()
                let other = unique ? heap.popMax() : nil
                guard check(top?.priority == expected, "\(context): popMax gave \(String(describing: top)), model max \(String(describing: expected))")
                else { return popped }
                if unique { guard check(top?.handle == other?.handle, "\(context): popMax \(String(describing: top)), IndexedHeap \(String(describing: other))") else { return popped } }
                if let top {
                    model.remove(top.handle)
                    removed.append(top.handle)
                    popped.append(top.handle)
                }
            default:
                let k = Int(keys.rng.next() % 40)
                let reported = queue.top(k)
                let expected = model.topPriorities(k)
                guard check(reported.map(\.priority) == expected, "\(context): top(\(k)) \(reported.map(\.priority)), model \(expected)")
                else { return popped }
                for (handle, priority) in reported where model[handle] != priority {
                    check(false, "\(context): top reported \(handle) with \(priority), model \(String(describing: model[handle]))")
                    return popped
                }
                if unique {
                    let others = heap.top(k)
                    guard check(reported.map(\.handle) == others.map(\.handle), "\(context): top(\(k)) handles differ from IndexedHeap's")
                    else { return popped }
                }
            }
            if step % checkEvery == 0 || step == steps - 1, let problem = discrepancy(&queue, model, removed: removed) {
                check(false, "\(context): \(problem)")
                return popped
            }
        }
        return popped
    }

    @Test("small sequences agree with the model, checked after every step", arguments: 0..<60)
    func smallSequences(seed: UInt64) {
        run(seed: 0xBA9D_0000 &+ seed, unique: seed % 2 == 0, steps: 150, initial: Int(seed % 30), checkEvery: 1)
    }

    @Test("bands grow into heaps and shrink back, against the model and IndexedHeap", arguments: 0..<8)
    func boundaryCrossings(seed: UInt64) {
        run(seed: 0xBA9D_0000 &+ 1000 &+ seed, unique: seed % 2 == 0, steps: 4800, initial: 300 + Int(seed) * 100, checkEvery: 97)
    }

    @Test("the same seed gives the same pops")
    func determinism() {
        let first = run(seed: 0xBA9D_0000 &+ 77, unique: false, steps: 1200, initial: 700, checkEvery: 400)
        let second = run(seed: 0xBA9D_0000 &+ 77, unique: false, steps: 1200, initial: 700, checkEvery: 400)
        #expect(first == second)
        #expect(!first.isEmpty)
    }

    @Test("one band becomes a heap past smallBandLimit and unsorted again at half of it; pops stay in order")
    func boundaryBothWays() {
        var rng = SplitMix64(seed: 0xBA9D_B0B0)
        var queue = BandedHeap()
        var model = Model<UInt64>()
        let limit = BandedHeap.smallBandLimit
        for _ in 0..<(limit + 88) {
            let key = 7 << 44 | rng.next() % 5000
            model.insert(queue.insert(key), priority: key)
        }
        #expect(discrepancy(&queue, model) == nil)
        var previous = UInt64.max
        while queue.count > limit / 4 {
            guard let top = queue.popMax() else { break }
            #expect(top.priority <= previous)
            #expect(model.remove(top.handle) == top.priority)
            previous = top.priority
            if queue.count % 50 == 0, let problem = discrepancy(&queue, model) {
                Issue.record(Comment(rawValue: "at \(queue.count): \(problem)"))
                return
            }
        }
        #expect(discrepancy(&queue, model) == nil)
    }

    @Test("a band id is the key's top 20 bits; higher bands win whatever their keys")
    func bandsOutrankKeys() {
        var queue = BandedHeap()
        let low = queue.insert(0x0_0001 << 44 | (1 << 44 - 1))
        let high = queue.insert(0x0_1000 << 44)
        let top = queue.insert(0xF_FFFF << 44)
        #expect(queue.max?.handle == top)
        #expect(queue.top(3).map(\.handle) == [top, high, low])
        queue.update(top, to: 0)
        #expect(queue.top(3).map(\.handle) == [high, low, top])
        #expect(queue.popMax()?.handle == high)
        #expect(queue.popMax()?.handle == low)
        #expect(queue.popMax()?.handle == top)
        #expect(queue.popMax() == nil)
        #expect(queue.max == nil)
        #expect(queue._invariantViolation() == nil)
    }

    @Test("stale handles are not contained after their slot is reused")
    func staleHandles() {
        var queue = BandedHeap([5, 6, 7])
        let first = queue.handle(forIndex: 1)!
        #expect(queue.remove(first) == 6)
        #expect(!queue.contains(first))
        #expect(queue.handle(forIndex: 1) == nil)
        let reused = queue.insert(9 << 44)
        #expect(reused.index == 1)
        #expect(reused != first)
        #expect(!queue.contains(first))
        #expect(queue.priority(of: reused) == 9 << 44)
        #expect(queue.slotCapacity == 3)
    }
}
