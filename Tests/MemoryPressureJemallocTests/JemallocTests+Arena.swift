import MemoryPressure
import MemoryPressureJemalloc
import Testing

extension JemallocTests {
    /// A single arena: allocation, free, purge, reset and destroy against its real statistics.
    @Suite struct ArenaTests {
        let page = JemallocTests.page
        let mebibyte = JemallocTests.mebibyte

        @Test func jemalloc53WithStatisticsIsLinked() throws {
            #expect(try Jemalloc.hasStatistics())
            #expect(try Jemalloc.version().hasPrefix("5."))
            #expect(page >= 4096 && page & (page - 1) == 0)
        }

        @Test func freshArenaHoldsNoPages() throws {
            let arena = try JemallocArena()
            let stats = try arena.statistics()
            #expect(stats.arena == arena.index)
            #expect(stats.activePages == 0 && stats.dirtyPages == 0 && stats.muzzyPages == 0)
            #expect(stats.allocated == .zero)
            #expect(stats.resident.value > 0, "the arena's own metadata is resident")
        }

        @Test(arguments: [1, 3, 16])
        func allocatingGrowsActiveAndResidentPages(mebibytes: Int) throws {
            let arena = try JemallocArena()
            let before = try arena.statistics()
            let allocations = try (0..<mebibytes).map { _ in try arena.allocate(mebibyte, touchingPages: true) }
            let after = try arena.statistics()
            let requestedPages = mebibytes * mebibyte / page
            // Each large allocation carries at most one page of cache-oblivious padding.
            let activeGrowth = after.activePages - before.activePages
            #expect(activeGrowth >= requestedPages && activeGrowth <= requestedPages + mebibytes)
            #expect(after.largeAllocated.value == Int64(mebibytes * mebibyte))
            let residentGrowth = Int((after.resident - before.resident).value)
            #expect(residentGrowth >= mebibytes * mebibyte && residentGrowth <= (requestedPages + mebibytes + 4) * page)
            for allocation in allocations { try arena.deallocate(allocation) }
        }

        @Test func freedPagesStayDirtyUntilPurge() throws {
            let arena = try JemallocArena()
            let allocations = try (0..<4).map { _ in try arena.allocate(2 * mebibyte, touchingPages: true) }
            let full = try arena.statistics()
            for allocation in allocations { try arena.deallocate(allocation) }
            let freed = try arena.statistics()
            #expect(freed.activePages == 0)
            #expect(freed.dirtyPages == full.activePages, "explicit-purge arenas keep freed pages dirty")
            #expect(freed.resident == full.resident)

            try arena.purge()
            let purged = try arena.statistics()
            #expect(purged.dirtyPages == 0 && purged.muzzyPages == 0)
            let returned = Int((full.resident - purged.resident).value)
            #expect(returned >= 8 * mebibyte && returned <= 8 * mebibyte + 4 * page + 64 << 10)
        }

        @Test func evenHugeFreesStayDirtyInAnExplicitArena() throws {
            // opt.oversize_threshold (8 MiB) routes huge requests of automatic arenas to a huge
            // arena that returns them at once; with MALLOCX_ARENA they stay in our arena.
            let arena = try JemallocArena()
            let huge = try arena.allocate(12 * mebibyte, touchingPages: true)
            try arena.deallocate(huge)
            #expect(try arena.statistics().dirtyPages >= 12 * mebibyte / page)
            try arena.purge()
            #expect(try arena.statistics().dirtyPages == 0)
        }

        @Test func smallAllocationsReturnTheirSlabsWhenAllAreFreed() throws {
            let arena = try JemallocArena()
            let small = try (0..<200).map { _ in try arena.allocate(1000) }
            let stats = try arena.statistics()
            #expect(stats.smallAllocated.value == Int64(200 * Jemalloc.sizeClass(of: 1000)))
            #expect(stats.largeAllocated == .zero)
            for allocation in small { try arena.deallocate(allocation) }
            try arena.purge()
            let purged = try arena.statistics()
            #expect(purged.activePages == 0 && purged.dirtyPages == 0 && purged.smallAllocated == .zero)
        }

        @Test func decayZeroPurgesOnFree() throws {
            let arena = try JemallocArena(decay: .decay(milliseconds: 0))
            let allocation = try arena.allocate(4 * mebibyte, touchingPages: true)
            let full = try arena.statistics()
            try arena.deallocate(allocation)
            let freed = try arena.statistics()
            #expect(freed.dirtyPages == 0 && freed.muzzyPages == 0)
            #expect(full.resident - freed.resident >= Bytes(4 * mebibyte))
        }

        @Test func resetDiscardsEveryAllocationAndKeepsTheArenaUsable() throws {
            let arena = try JemallocArena()
            let empty = try arena.statistics()
            let allocations = try [64 << 10, mebibyte, 3 * mebibyte, 5000].map {
                try arena.allocate($0, touchingPages: true)
            }
            #expect(try arena.statistics().activePages > 0)
            try arena.reset()
            let reset = try arena.statistics()
            #expect(reset.activePages == 0 && reset.dirtyPages == 0 && reset.allocated == .zero)
            #expect(reset.resident.value <= empty.resident.value + Int64(4 * page))
            for allocation in allocations {
                #expect(throws: JemallocError.unknownAllocation) { try arena.deallocate(allocation) }
            }
            let again = try arena.allocate(mebibyte)
            #expect(try arena.statistics().activePages > 0)
            try arena.deallocate(again)
        }

        @Test func destroyDiscardsTheArena() throws {
            let arena = try JemallocArena()
            _ = try arena.allocate(4 * mebibyte, touchingPages: true)
            let index = arena.index
            try arena.destroy()
            #expect(arena.isDestroyed)
            #expect(throws: JemallocError.arenaDestroyed(index)) { try arena.statistics() }
            #expect(throws: JemallocError.arenaDestroyed(index)) { try arena.allocate(16) }
            #expect(throws: JemallocError.arenaDestroyed(index)) { try arena.destroy() }
            // jemalloc forgets the arena: its statistics no longer exist.
            #expect(throws: JemallocError.control(MallctlError(control: "stats.arenas.\(index).pactive", errno: 2))) {
                try ArenaStatistics.read(arena: index)
            }
        }

        @Test func destroyedIndicesAreReused() throws {
            let first = try JemallocArena()
            let index = first.index
            try first.destroy()
            let second = try JemallocArena()
            #expect(second.index == index)
        }

        @Test func twoArenasAreIndependent() throws {
            let one = try JemallocArena()
            let two = try JemallocArena()
            #expect(one.index != two.index)
            let twoBefore = try two.statistics()
            let allocation = try one.allocate(6 * mebibyte, touchingPages: true)
            #expect(try two.statistics() == twoBefore)
            let kept = try two.allocate(mebibyte)
            try one.deallocate(allocation)
            let twoWithOneDirty = try two.statistics()
            try one.purge()
            #expect(try one.statistics().dirtyPages == 0)
            #expect(try two.statistics() == twoWithOneDirty, "purging one arena leaves the other alone")
            try two.deallocate(kept)
            #expect(try two.statistics().dirtyPages > 0)
            try one.reset()
            #expect(try two.statistics().dirtyPages > 0, "resetting one arena leaves the other alone")
        }

        @Test func allocationsBelongToTheirArena() throws {
            let one = try JemallocArena()
            let two = try JemallocArena()
            let allocation = try one.allocate(100)
            #expect(throws: JemallocError.unknownAllocation) { try two.deallocate(allocation) }
            try one.deallocate(allocation)
            #expect(throws: JemallocError.invalidSize(bytes: 0)) { try one.allocate(0) }
            #expect(throws: JemallocError.invalidSize(bytes: -5)) { try one.allocate(-5) }
        }
    }
}
