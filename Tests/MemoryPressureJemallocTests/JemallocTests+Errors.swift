import Glibc
import MemoryPressure
import MemoryPressureJemalloc
import Testing

extension JemallocTests {
    /// Failed controls name the control and the errno.
    @Suite struct ErrorTests {
        @Test func purgingAnArenaThatDoesNotExistNamesTheControl() throws {
            let expected = MallctlError(control: "arena.99999.purge", errno: ENOENT)
            #expect(throws: JemallocError.control(expected)) {
                try JemallocArena.purge(ArenaIndex(rawValue: 99999))
            }
            #expect(expected.description.contains("arena.99999.purge"))
            #expect(expected.description.contains("ENOENT"))
        }

        @Test func readingStatisticsOfAnArenaThatDoesNotExistNamesTheControl() throws {
            let expected = MallctlError(control: "stats.arenas.99999.pactive", errno: ENOENT)
            #expect(throws: JemallocError.control(expected)) {
                try ArenaStatistics.read(arena: ArenaIndex(rawValue: 99999))
            }
        }

        @Test func mergedStatisticsOfAllArenasAreReadable() throws {
            let arena = try JemallocArena()
            let allocation = try arena.allocate(2 << 20)
            let all = try ArenaStatistics.read(arena: .all)
            #expect(all.arena == .all)
            #expect(all.largeAllocated.value >= 2 << 20)
            try arena.deallocate(allocation)
            try JemallocArena.purge(.all)
        }

        @Test func errorsSayWhatWasExpected() {
            let errors: [JemallocError] = [
                .control(MallctlError(control: "epoch", errno: EINVAL)),
                .outOfMemory(bytes: 12, arena: ArenaIndex(rawValue: 3)),
                .invalidSize(bytes: -1), .invalidChunkSize(bytes: 3),
                .arenaDestroyed(ArenaIndex(rawValue: 4)), .unknownAllocation,
            ]
            for error in errors { #expect(error.description.contains("expected"), "\(error)") }
        }
    }
}
