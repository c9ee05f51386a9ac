import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing

// Issue 12, item 1: traces carry the device's swap and free swap, so earlyoom's swap condition
// (main.c lowmem_sig()) can be replayed.

@Suite("traces carry swap")
struct TraceSwapTests {
    @Test("a device line's swap and swapFree are read, written back, and reach the engine")
    func deviceSwapRoundTrip() throws {
        let text = """
            {"t":0,"event":"device","memory":"1000MiB","reserved":0,"swap":"1000MiB","swapFree":"80MiB"}
            {"t":1,"event":"launch","app":"A","footprint":"970MiB"}

            """
        let trace = try Trace(jsonLines: text, file: "swap.jsonl")
        #expect(trace.device.swap == .mebibytes(1000))
        #expect(trace.device.swapFree == .mebibytes(80))
        #expect(try Trace(jsonLines: trace.jsonLines, file: "again") == trace)
        let engine = try PressureEngine(device: trace.device, policy: try Policy.shipped("earlyoom"))
        #expect(engine.swapFree == .mebibytes(80))
        // 3 % available and 8 % free swap: SIGTERM level, not SIGKILL (swap above 5 %).
        try engine.apply(.launch(AppLaunch(id: "A", footprint: .mebibytes(970))), at: 1)
        #expect(engine.level == .urgent || engine.status(of: "A")?.state == .notRunning)
        let kills = engine.takeEvents().compactMap { event -> Event.KillNotice? in
            guard case .kill(_, _, _, let notice, _) = event.kind else { return nil }
            return notice
        }
        #expect(kills == [.willTerminate])
    }

    @Test("a device line with more free swap than swap is malformed")
    func swapFreeAboveSwap() {
        #expect(throws: InputError.self) {
            try Trace(
                jsonLines: #"{"t":0,"event":"device","memory":"1GiB","swap":"1GiB","swapFree":"2GiB"}"# + "\n",
                file: "bad.jsonl")
        }
    }
}
