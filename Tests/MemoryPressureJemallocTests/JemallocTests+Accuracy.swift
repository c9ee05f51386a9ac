import MemoryPressure
import MemoryPressureJemalloc
import Testing

extension JemallocTests {
    /// Bytes we expect to free against bytes jemalloc measures as freed (target: within 5 %).
    @Suite struct AccuracyTests {
        /// A mix from 64 KiB to 4 MiB, powers of two and odd sizes.
        static let mix: [Int64] = [
            64 << 10, 100 << 10, 128 << 10, 300 << 10, 512 << 10, 1 << 20, 1_500_000, 2 << 20,
            3 << 20 + 123, 4 << 20,
        ]

        @Test(arguments: [false, true])
        func expectedAndMeasuredFreedBytesAgree(releasingPerLabel: Bool) throws {
            let tenant = try TenantMemory(name: "mix")
            try tenant.allocate(.mebibytes(4))
            for (number, size) in Self.mix.enumerated() {
                try tenant.allocate(
                    Bytes(size), kind: number.isMultiple(of: 2) ? .viewCache : .purgeableCache, label: "v\(number)")
            }
            var releases: [MemoryRelease] = []
            if releasingPerLabel {
                for number in Self.mix.indices { releases.append(try tenant.release(label: "v\(number)")) }
            } else {
                releases.append(try tenant.releaseViewCaches())
                releases.append(try tenant.releasePurgeableCaches())
            }
            let expected = releases.map(\.expected.value).reduce(0, +)
            let measured = releases.map(\.measured.value).reduce(0, +)
            #expect(expected == Self.mix.reduce(0, +))
            let total = MemoryRelease(expected: Bytes(expected), measured: Bytes(measured))
            #expect(total.relativeDifference < 0.05, "\(releases)")
            if !releasingPerLabel {
                for release in releases { #expect(release.relativeDifference < 0.05, "\(release)") }
            }
        }

        @Test func killMeasuresWhatItFrees() throws {
            let tenant = try TenantMemory(name: "victim")
            for size in Self.mix { try tenant.allocate(Bytes(size)) }
            let kill = try tenant.reset()
            #expect(kill.expected.value == Self.mix.reduce(0, +))
            #expect(kill.relativeDifference < 0.05, "\(kill)")
        }
    }
}
