import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// Issue 24: `kill-order` builds its engine straight from a JSON snapshot's bytes
// (`PressureEngine.streamingSnapshot`), with no `Snapshot` in between and the bytes given back as
// the decoder passes them. The engine must be the one `PressureEngine(snapshot:policy:)` makes of
// `Snapshot(text:file:)`, for every shipped policy; and whatever that road refuses, this one
// gives up on (so the error is still the strict reader's or the engine's, naming the place).

@Suite("snapshot: the engine streamed from the bytes")
struct SnapshotEngineStreamingTests {
    static let adjs = [0, 100, 200, 225, 500, 900, 950, -1000]
    static let priorities = [0, 30, 40, 100, 120, 160, 220]
    static let states = ["suspended", "suspended", "background", "inactive", "active"]

    /// A seeded JSON snapshot of `count` apps with every optional field now and then.
    static func document(seed: UInt64, count: Int) -> String {
        var random = SplitMix64(seed: seed)
        var apps: [String] = []
        var hasForeground = false
        for index in 0..<count {
            var state = states[Int(random.next() % UInt64(states.count))]
            if state == "active" || state == "inactive" {
                if hasForeground { state = "background" }
                hasForeground = true
            }
            let footprint = (random.next() % 4 == 0 ? 700 : random.next() % 90 + 1) << 20
            var fields = [
                "\"id\": \"app\(random.next() % 1000)-\(index)\"", "\"state\": \"\(state)\"",
                "\"footprint\": \(footprint)",
                "\"lastActive\": \(random.next() % 20)",
            ]
            if random.next() % 3 != 0 {
                fields.append("\"oomScoreAdj\": \(adjs[Int(random.next() % UInt64(adjs.count))])")
            }
            if random.next() % 2 == 0 {
                fields.append("\"priority\": \(priorities[Int(random.next() % UInt64(priorities.count))])")
            }
            if random.next() % 3 == 0 { fields.append("\"swap\": \((random.next() % 3) << 20)") }
            if random.next() % 2 == 0 { fields.append("\"pageTables\": \((random.next() % 64) << 10)") }
            if random.next() % 4 == 0 {
                fields.append("\"purgeable\": \(footprint / 8), \"viewCaches\": \(footprint / 16)")
            }
            if random.next() % 5 == 0 { fields.append("\"backgroundModes\": [\"audio\"]") }
            apps.append("{" + fields.joined(separator: ", ") + "}")
        }
        return
            "{\"device\": {\"memory\": \(8 << 30), \"reserved\": \(1 << 28), \"swap\": \(1 << 30), \"swapFree\": \(1 << 29)},\n"
            + " \"apps\": [\n  " + apps.joined(separator: ",\n  ") + "\n]}\n"
    }

    /// The engine streamed from `text`, with a release that overwrites what it gives back (so
    /// a decoder reading released bytes would read garbage); also returns how often it was called.
    /// `batchSize` apps go to the loading thread at a time (the command's 1,024 by default).
    static func streamed(_ text: String, policy: Policy, batchSize: Int = 1024) -> (
        engine: PressureEngine?, releases: Int
    ) {
        var bytes = Array(text.utf8)
        var releases = 0
        let engine = bytes.withUnsafeMutableBufferPointer { buffer -> PressureEngine? in
            let base = buffer.baseAddress!
            let count = buffer.count
            return PressureEngine.streamingSnapshot(UnsafeBufferPointer(buffer), policy: policy, batchSize: batchSize) {
                offset in
                releases += 1
                base.update(repeating: 0xFF, count: Swift.min(offset, count))
            }
        }
        return (engine, releases)
    }

    /// What `kill-order` prints of an engine: the order, the protected apps, free memory, the level.
    static func summary(_ engine: PressureEngine) -> [String] {
        engine.killOrder(limit: .max).map { "\($0.app.rawValue) \($0.footprint.value)" }
            + engine.protectedApps().map { "protected \($0.app.rawValue)" }
            + ["free \(engine.free.value)", "level \(engine.levelForFreeMemory)"]
    }

    // Batches of 1 to 5 apps go round the loading thread's ring of 4 many times; 1,024 loads
    // these documents on the decoding thread, in one batch.
    @Test(
        "seeded snapshots: the streamed engine is the engine of the parsed snapshot, for every shipped policy and batch size"
    )
    func matchesParsed() throws {
        try withEvery("seed", in: UInt64(0)..<30) { seed in
            let text = Self.document(seed: seed, count: Int(seed * 7 % 150) + 1)
            let snapshot = try Snapshot(text: text, file: "t")
            let batchSize = [1024, 1, 2, 3, 5][Int(seed % 5)]
            for name in Policy.shippedNames {
                let policy = try Policy.shipped(name)
                let engine = try #require(Self.streamed(text, policy: policy, batchSize: batchSize).engine, "\(name)")
                #expect(
                    Self.summary(engine) == Self.summary(try PressureEngine(snapshot: snapshot, policy: policy)),
                    "\(name)")
            }
        }
    }

    @Test(
        "an app the engine refuses far from the end stops the loading thread, and the road gives up",
        arguments: [1, 7, 1024])
    func refusalOnTheLoadingThread(batchSize: Int) throws {
        // 5,000 apps, the 11th a second `app-3`: the engine refuses it on the loading thread.
        func document(eleventh: String) -> String {
            let apps = (0..<5_000).map { index in
                #"{"id": "\#(index == 10 ? eleventh : "app-\(index)")", "state": "suspended", "footprint": \#(index + 1)}"#
            }
            return #"{"device": {"memory": 1099511627776}, "apps": ["# + apps.joined(separator: ", ") + "]}"
        }
        let policy = try Policy.shipped("jetsam")
        #expect(Self.streamed(document(eleventh: "app-3"), policy: policy, batchSize: batchSize).engine == nil)
        // The same document with unique ids streams, to the engine of the parsed snapshot.
        let unique = document(eleventh: "app-x")
        let engine = try #require(Self.streamed(unique, policy: policy, batchSize: batchSize).engine)
        let parsed = try PressureEngine(snapshot: try Snapshot(text: unique, file: "t"), policy: policy)
        #expect(Self.summary(engine) == Self.summary(parsed))
    }

    // android-lmkd: no per-app limits, so no app enters the queue one at a time (each insertion
    // checks the whole heap in the internal-checks build: 60,000 of them would take minutes).
    @Test("a document of several MiB is given back as it is read, and read right")
    func releasesAsItGoes() throws {
        let text = Self.document(seed: 99, count: 60_000)
        #expect(text.utf8.count > 8 << 20)
        let policy = try Policy.shipped("android-lmkd")
        let (engine, releases) = Self.streamed(text, policy: policy)
        #expect(releases >= 2)
        let streamed = try #require(engine)
        #expect(
            Self.summary(streamed)
                == Self.summary(try PressureEngine(snapshot: try Snapshot(text: text, file: "t"), policy: policy)))
    }

    @Test(
        "what the parsed road refuses or cannot stream, the streamed road gives up on",
        arguments: [
            // The apps before the device: the engine needs the device first.
            #"{"apps": [{"id": "a", "state": "active", "footprint": 1}], "device": {"memory": 1024}}"#,
            // Two apps with one id; two foreground apps; a size over the engine's limit.
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "suspended", "footprint": 1}, {"id": "a", "state": "suspended", "footprint": 1}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "active", "footprint": 1}, {"id": "b", "state": "inactive", "footprint": 1}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "active", "footprint": 1, "swap": 2251799813685249}]}"#,
            // The schema's refusals.
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "running", "footprint": 1}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "active", "footprint": 1}]} x"#,
            #"{"device": {"memory": 1024, "reserved": 1024}, "apps": []}"#,
            // YAML is the parsed road's.
            "device: {memory: 1024}\napps: []\n",
        ])
    func givesUp(text: String) throws {
        for batchSize in [1, 1024] {
            #expect(
                Self.streamed(text, policy: try Policy.shipped("jetsam"), batchSize: batchSize).engine == nil,
                "\(batchSize)")
        }
    }

    @Test("bytes that are not UTF-8 in an id are the strict reader's to report, not repaired")
    func invalidUTF8() throws {
        var bytes = Array(
            #"{"device": {"memory": 1024}, "apps": [{"id": "aX", "state": "active", "footprint": 1}]}"#.utf8)
        bytes[bytes.firstIndex(of: UInt8(ascii: "X"))!] = 0xC3
        let engine = bytes.withUnsafeBufferPointer {
            PressureEngine.streamingSnapshot($0, policy: try! Policy.shipped("jetsam"))
        }
        #expect(engine == nil)
    }

    @Test("a byte order mark and leading white space are taken, as the parsed road takes them")
    func byteOrderMark() throws {
        let text =
            "\u{FEFF}\n  "
            + #"{"device": {"memory": 4096}, "apps": [{"id": "é", "state": "suspended", "footprint": 10}]}"#
        let engine = try #require(Self.streamed(text, policy: try Policy.shipped("jetsam")).engine)
        #expect(engine.killOrder(limit: 1).map(\.app.rawValue) == ["é"])
    }
}
