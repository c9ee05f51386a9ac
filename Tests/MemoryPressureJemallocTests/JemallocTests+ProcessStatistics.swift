import MemoryPressure
import MemoryPressureJemalloc
import Testing

extension JemallocTests {
    /// Process-wide figures: jemalloc is this process's malloc, so an ordinary allocation shows up.
    @Suite struct ProcessStatisticsTests {
        /// 512 MiB: far above what other tests running at the same time allocate, and only
        /// reserved (never touched), so it costs no physical memory.
        static let size = 512 << 20

        @Test func anOrdinaryAllocationIsCountedAndItsFreeIsToo() throws {
            let before = try JemallocProcessStatistics.allocated()
            let block = UnsafeMutableRawPointer.allocate(byteCount: Self.size, alignment: 16)
            let during = try JemallocProcessStatistics.allocated()
            block.deallocate()
            let after = try JemallocProcessStatistics.allocated()
            let tolerance = 64 << 20
            #expect(abs(during - before - Self.size) < tolerance, "before \(before), during \(during)")
            #expect(abs(during - after - Self.size) < tolerance, "during \(during), after \(after)")
        }

        @Test func residentCoversWhatIsAllocatedAndTouched() throws {
            let count = 8 << 20
            let block = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
            block.initializeMemory(as: UInt8.self, repeating: 1, count: count)
            defer { block.deallocate() }
            #expect(try JemallocProcessStatistics.resident() >= count)
        }

        @Test func theThreadPeakSeesAnAllocationThatIsAlreadyFreed() throws {
            try JemallocProcessStatistics.resetThreadPeak()
            let block = UnsafeMutableRawPointer.allocate(byteCount: Self.size, alignment: 16)
            block.deallocate()
            let peak = try JemallocProcessStatistics.threadPeak()
            #expect(peak >= Self.size - (1 << 20), "peak \(peak)")
            try JemallocProcessStatistics.resetThreadPeak()
            #expect(try JemallocProcessStatistics.threadPeak() < Self.size / 2)
        }
    }
}
