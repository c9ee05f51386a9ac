import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

/// XNU's compressor thrashing kill (`compute_swapout_target_age()` and `compressor_needs_to_swap()`
/// in osfmk/vm/vm_compressor.c, `memorystatus_kill_on_VM_compressor_thrashing()` in
/// bsd/kern/kern_memorystatus.c), rule by rule, on the compression scenario's 400 MiB device.
@Suite("Compressor thrashing: the sample, its rates, the working set, the older memory, one kill")
struct CompressorThrashingTests {
    /// The compression scenario's policy, reclaiming only back to 100 MiB free (so one app is
    /// compressed at a time), with a thrashing rule in 1 MiB pages: a verdict needs 10 MiB a second
    /// compressed and decompressed, and more than `threshold` × 100 MiB a second decompressed.
    static func policy(threshold: Double = 0.2, sampleMaxMs: Double = 10_000) throws -> Policy {
        var policy = try CompressionTests.policy()
        policy.compression?.stopAt = .fixed(.bytes(.mebibytes(100)))
        policy.compression?.thrashing = MemoryCompression.Thrashing(
            pageSize: .mebibytes(1), sampleMinMs: 500, sampleMaxMs: sampleMaxMs, minimumPer10ms: 0.1,
            thresholdPer10ms: threshold)
        return policy
    }

    /// A compressed at 30 s and B at 40 s; B is brought back at 40.2 s, which makes reclaim
    /// compress C; C is brought back at `last`. Returns the events of that last step.
    static func churn(_ engine: PressureEngine, last: Double = 40.8) throws -> [String] {
        try churnEvents(engine, last: last).map(\.compact)
    }

    /// ``churn(_:last:)``'s events in full.
    static func churnEvents(_ engine: PressureEngine, last: Double = 40.8) throws -> [Event] {
        try CompressionTests.threeApps(engine)
        #expect(
            try engine.step(30, .allocate(app: "C", bytes: .mebibytes(5), purgeable: false))
                == ["A compress 50MiB into 10MiB"])
        #expect(
            try engine.step(40, .allocate(app: "C", bytes: .mebibytes(40), purgeable: false))
                == ["B compress 50MiB into 10MiB"])
        let resumeB = try engine.step(40.2, .open(AppLaunch(id: "B", footprint: .mebibytes(100))))
        #expect(
            resumeB.contains("B decompress 50MiB from 10MiB") && resumeB.contains("C compress 76021760B into 15204352B")
        )
        #expect(!resumeB.contains { $0.contains(" kill ") })
        try engine.apply(.open(AppLaunch(id: "C", footprint: .mebibytes(100))), at: last)
        return engine.takeEvents()
    }

    @Test(
        "memory decompressed fast, soon after it was compressed, with older memory in the pool: one kill, in band order"
    )
    func kills() throws {
        let engine = CompressionTests.engine(try Self.policy())
        let log = try Self.churnEvents(engine)
        let events = log.map(\.compact)
        // Since 40 s (the sample restarted at 10 s): 122.5 MiB compressed and decompressed in
        // 0.8 s, above 20 MiB per 100 ms; ages 0.2 and 0.6 s, a working set of 67 MiB under the
        // pool's 122.5; A, compressed at 30 s, predates both. Reclaim has just compressed B again,
        // so A and B are 50 MiB resident each: A, the first of the band's order (ties by id), is
        // killed, freeing its 50 MiB and its 10 MiB in the pool; C, in front, is not a candidate.
        #expect(events.contains("C decompress 76021760B from 15204352B"))
        let kills = events.filter { $0.contains(" kill ") }
        #expect(kills == ["A kill suspended none 60MiB"])
        let reasons = log.compactMap { event -> String? in
            guard case .kill(_, _, let reason, _, _) = event.kind else { return nil }
            return reason
        }
        #expect(reasons == ["compressor thrashing: heaviest suspended app"])
        #expect(engine._invariantViolation() == nil)
    }

    @Test("below the decompression threshold, or in a sample too short to judge, nothing is killed")
    func rates() throws {
        let slow = CompressionTests.engine(try Self.policy(threshold: 2))
        #expect(!(try Self.churn(slow)).contains { $0.contains(" kill ") })
        // C back at 40.4 s: the sample is 0.4 s old, below its 500 ms minimum.
        let short = CompressionTests.engine(try Self.policy())
        #expect(!(try Self.churn(short, last: 40.4)).contains { $0.contains(" kill ") })
    }

    @Test("with no memory in the pool older than what came back there is nothing to swap out: no kill")
    func olderMemory() throws {
        // As in the kill, but A and B are compressed together at 40 s: A is no older than B.
        let engine = CompressionTests.engine(try Self.policy())
        try CompressionTests.threeApps(engine)
        #expect(
            try engine.step(40, .allocate(app: "C", bytes: .mebibytes(45), purgeable: false))
                == ["A compress 50MiB into 10MiB", "B compress 50MiB into 10MiB"])
        let resumeB = try engine.step(40.2, .open(AppLaunch(id: "B", footprint: .mebibytes(100))))
        #expect(resumeB.contains("C compress 76021760B into 15204352B"))
        let events = try engine.step(40.8, .open(AppLaunch(id: "C", footprint: .mebibytes(100))))
        #expect(events.contains("C decompress 76021760B from 15204352B"))
        #expect(!events.contains { $0.contains(" kill ") })
        #expect(engine._invariantViolation() == nil)
    }

    @Test("a working set larger than the pool (memory decompressed long after it was compressed) is not thrashing")
    func workingSet() throws {
        // Four apps of 70 MiB: reclaim compresses D at 100 s and A at 190 s (35 MiB each, into 7).
        let engine = CompressionTests.engine(try Self.policy())
        for (time, id) in [(0.0, "D"), (10, "A"), (20, "B"), (30, "C")] {
            if time > 0 { try engine.step(time - 1, .home) }
            try engine.step(time, .launch(AppLaunch(id: AppID(id), footprint: .mebibytes(70))))
        }
        #expect(
            try engine.step(100, .allocate(app: "C", bytes: .mebibytes(25), purgeable: false)) == [
                "D compress 35MiB into 7MiB"
            ])
        #expect(
            try engine.step(190, .allocate(app: "C", bytes: .mebibytes(30), purgeable: false)) == [
                "A compress 35MiB into 7MiB"
            ])
        // A sample from 205 s: B is compressed; A comes back 15.5 s after it was compressed, which
        // compresses C; C comes back a second later. The rates pass (110 MiB each way in 1.5 s)
        // and D is older than anything decompressed, but the working set, (1 × 75 + 15 × 35)
        // MiB·s over 1.5 s = 400 MiB, is larger than the 145 MiB pool: swapping would not help.
        #expect(
            try engine.step(205, .allocate(app: "C", bytes: .mebibytes(25), purgeable: false)) == [
                "B compress 35MiB into 7MiB"
            ])
        let resumeA = try engine.step(205.5, .open(AppLaunch(id: "A", footprint: .mebibytes(70))))
        #expect(resumeA.contains("C compress 75MiB into 15MiB"), "\(resumeA)")
        let events = try engine.step(206.5, .open(AppLaunch(id: "C", footprint: .mebibytes(70))))
        #expect(events.contains("C decompress 75MiB from 15MiB"), "\(events)")
        #expect(!events.contains { $0.contains(" kill ") }, "\(events)")
        #expect(engine._invariantViolation() == nil)
    }

    @Test("the rule is read and written back, and a bad one is refused with its key")
    func loading() throws {
        let shown = try PolicyYAML.render(Self.policy())
        #expect(shown.contains("thrashing: { pageSize: 1048576, sampleMinMs: 500, sampleMaxMs: 10000"))
        #expect(try Policy(yaml: shown, file: "shown.yaml").compression == Self.policy().compression)
        let shipped = try #require(try Policy.shipped("jetsam-compressor").compression?.thrashing)
        #expect(
            shipped
                == MemoryCompression.Thrashing(
                    pageSize: .kibibytes(16), sampleMinMs: 500, sampleMaxMs: 10_000, minimumPer10ms: 20,
                    thresholdPer10ms: 50))
        for (old, new, expected) in [
            ("sampleMinMs: 500", "sampleMinMs: 20000", "sampleMinMs (20000.0) ≤ sampleMaxMs"),
            ("pageSize: 1048576", "pageSize: 100", "expected 4KiB...1MiB"),
            ("thresholdPer10ms: 0.2", "thresholdPer10ms: -1", "thresholdPer10ms"),
            ("pageSize: 1048576, ", "", "missing key \"pageSize\""),
        ] {
            let text = shown.replacingOccurrences(of: old, with: new)
            #expect(text != shown, "\(old)")
            do {
                _ = try Policy(yaml: text, file: "x.yaml")
                Issue.record("accepted: \(new)")
            } catch {
                let problem = try #require(error.problems.first)
                #expect(problem.file == "x.yaml" && problem.path.hasPrefix("compression"), "\(problem)")
                #expect(problem.description.contains(expected), "\(problem)")
            }
        }
    }
}
