import MemoryPressure
@testable import MemoryPressureJemalloc
import TestSupport
import Testing

extension JemallocTests {
    /// An app's memory by kind in its own arena, its footprint from the arena's statistics.
    @Suite struct TenantTests {
        let mebibyte = JemallocTests.mebibyte

        @Test func tracksExpectedBytesByKind() throws {
            let tenant = try TenantMemory(name: "com.example.mail")
            try tenant.allocate(.mebibytes(10))
            try tenant.allocate(.mebibytes(3), kind: .viewCache, label: "inbox")
            try tenant.allocate(.kibibytes(1536), kind: .viewCache, label: "settings")
            try tenant.allocate(.mebibytes(2), kind: .purgeableCache)
            #expect(tenant.expectedBytes(of: .base) == .mebibytes(10))
            #expect(tenant.expectedBytes(of: .viewCache) == .kibibytes(4608))
            #expect(tenant.expectedBytes(of: .purgeableCache) == .mebibytes(2))
            #expect(tenant.expectedFootprint == .kibibytes(16 * 1024 + 512))
            #expect(tenant.allocationCount == 4)
            #expect(tenant.allocations.map(\.label) == [nil, "inbox", "settings", nil])
        }

        @Test func footprintComesFromTheArena() throws {
            let tenant = try TenantMemory(name: "tenant")
            let empty = try tenant.footprint()
            try tenant.allocate(.mebibytes(20))
            let footprint = try tenant.footprint()
            #expect(footprint == (try tenant.statistics()).resident)
            let growth = Double((footprint - empty).value)
            #expect(abs(growth - Double(20 * mebibyte)) / Double(20 * mebibyte) < 0.01)
        }

        @Test func releasingViewCachesLeavesBaseAndPurgeableMemory() throws {
            let tenant = try TenantMemory(name: "app")
            try tenant.allocate(.mebibytes(8))
            try tenant.allocate(.mebibytes(6), kind: .viewCache, label: "a")
            try tenant.allocate(.mebibytes(2), kind: .viewCache, label: "b")
            try tenant.allocate(.mebibytes(4), kind: .purgeableCache)
            let release = try tenant.releaseViewCaches()
            #expect(release.expected == .mebibytes(8))
            #expect(release.relativeDifference < 0.05, "\(release)")
            #expect(tenant.expectedBytes(of: .viewCache) == .zero)
            #expect(tenant.expectedBytes(of: .base) == .mebibytes(8))
            #expect(tenant.expectedBytes(of: .purgeableCache) == .mebibytes(4))
            #expect(try tenant.statistics().dirtyPages == 0)

            let purgeable = try tenant.releasePurgeableCaches()
            #expect(purgeable.expected == .mebibytes(4))
            #expect(purgeable.relativeDifference < 0.05, "\(purgeable)")
            #expect(tenant.expectedFootprint == .mebibytes(8))
        }

        @Test func releasingWithoutPurgingKeepsThePagesResident() throws {
            let tenant = try TenantMemory(name: "app")
            try tenant.allocate(.mebibytes(5), kind: .purgeableCache)
            let unpurged = try tenant.releasePurgeableCaches(purging: false)
            #expect(unpurged.expected == .mebibytes(5))
            #expect(unpurged.measured == .zero)
            let purge = try tenant.purge()
            #expect(purge.expected == .mebibytes(5))
            #expect(purge.relativeDifference < 0.05, "\(purge)")
            #expect(try tenant.purge() == MemoryRelease(expected: .zero, measured: .zero))
        }

        @Test func freeingByLabelAndByHandle() throws {
            let tenant = try TenantMemory(name: "app")
            let photo = try tenant.allocate(.mebibytes(1), kind: .viewCache, label: "photos")
            try tenant.allocate(.kibibytes(512), kind: .viewCache, label: "photos")
            try tenant.allocate(.kibibytes(256), kind: .viewCache, label: "map")
            #expect(try tenant.free(photo) == .mebibytes(1))
            #expect(throws: JemallocError.unknownAllocation) { try tenant.free(photo) }
            #expect(try tenant.free(label: "photos") == .kibibytes(512))
            #expect(try tenant.free(label: "photos") == .zero)
            let map = try tenant.release(label: "map")
            #expect(map.expected == .kibibytes(1792), "the purge also returns what was freed before it")
            #expect(map.relativeDifference < 0.05, "\(map)")
            #expect(tenant.allocationCount == 0)
        }

        @Test func resetKillsEverythingAndAllowsAColdRelaunch() throws {
            let tenant = try TenantMemory(name: "app")
            let base = try tenant.allocate(.mebibytes(12))
            try tenant.allocate(.mebibytes(3), kind: .viewCache)
            try tenant.allocate(.mebibytes(1), kind: .purgeableCache)
            let kill = try tenant.reset()
            #expect(kill.expected == .mebibytes(16))
            #expect(kill.relativeDifference < 0.05, "\(kill)")
            #expect(tenant.expectedFootprint == .zero && tenant.allocationCount == 0)
            #expect(throws: JemallocError.unknownAllocation) { try tenant.free(base) }
            let stats = try tenant.statistics()
            #expect(stats.activePages == 0 && stats.dirtyPages == 0)
            try tenant.allocate(.mebibytes(2))
            #expect(try tenant.statistics().activePages >= 2 * mebibyte / JemallocTests.page)
        }

        @Test func destroyEndsTheTenant() throws {
            let tenant = try TenantMemory(name: "app")
            try tenant.allocate(.mebibytes(2))
            try tenant.destroy()
            #expect(tenant.arena.isDestroyed)
            #expect(throws: JemallocError.arenaDestroyed(tenant.arena.index)) { try tenant.allocate(.kibibytes(1)) }
        }

        @Test func zeroAndInvalidSizes() throws {
            let tenant = try TenantMemory(name: "app")
            let nothing = try tenant.allocate(.zero)
            #expect(nothing.size == .zero)
            #expect(try tenant.statistics().activePages == 0)
            #expect(try tenant.free(nothing) == .zero)
            #expect(throws: JemallocError.invalidSize(bytes: -1)) { try tenant.allocate(Bytes(-1)) }
            for chunk: Int64 in [0, 1000, 8 << 10, 3 << 20, 8 << 20] {
                #expect(throws: JemallocError.invalidChunkSize(bytes: chunk)) {
                    try TenantMemory(name: "x", chunkSize: Bytes(chunk))
                }
            }
        }

        @Test func allocationsAreSplitIntoExactSizeClasses() {
            var generator = SplitMix64(seed: 0x5eed)
            for trial in 0..<2_000 {
                let size = Int(generator.next() % UInt64(40 << 20))
                let pieces = TenantMemory.pieceSizes(for: size, chunkSize: mebibyte)
                #expect(pieces.reduce(0, +) == size, "trial \(trial), size \(size)")
                #expect(pieces.allSatisfy { $0 > 0 && $0 <= mebibyte }, "trial \(trial), size \(size)")
                // Every piece except a final one below 16 KiB is already a jemalloc size class.
                for piece in pieces where piece >= 16 << 10 {
                    #expect(Jemalloc.sizeClass(of: piece) == piece, "trial \(trial), size \(size), piece \(piece)")
                }
                #expect(pieces.filter { $0 < 16 << 10 }.count <= 1)
            }
        }
    }
}
