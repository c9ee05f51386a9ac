import Foundation
import MemoryPressure
import MemoryPressureFormats
import TestSupport
import Testing

/// The streaming snapshot decoders against the strict reader: a document the streaming pass
/// accepts is the snapshot the strict reader makes of it, and everything the strict reader
/// refuses, the streaming pass refuses too (so the error is always the strict reader's).
@Suite("Snapshots: the streaming decoders agree with the strict reader")
struct SnapshotStreamingTests {
    static let json = """
        {"device": {"memory": 1073741824, "reserved": "200MiB", "swap": "1GiB", "swapFree": 1048576},
         "apps": [
          {"id": "com.example.mail", "state": "active", "footprint": "40MiB", "viewCaches": 4096,
           "purgeable": 1024, "lastActive": 0, "backgroundModes": ["audio", "voip"]},
          {"id": "com.example.game", "state": "suspended", "footprint": 1.5e8, "lastActive": 12.5,
           "oomScoreAdj": -17, "swap": 0, "pageTables": 8192, "priority": 10, "backgroundModes": null},
          {"id": "com.example.news", "state": "background", "footprint": 31457280, "viewCaches": null,
           "lastActive": 1e3}
         ]}
        """

    static let yaml = """
        # a phone
        device: {memory: 1GiB, reserved: 200MiB, swap: 1GiB, swapFree: 1048576}
        apps:
          - id: com.example.mail
            state: active
            footprint: 40MiB
            viewCaches: 4096
            purgeable: 1_024
            lastActive: 0
            backgroundModes: [audio, voip]
          - {id: "com.example.game", state: suspended, footprint: 1.5e8, lastActive: 12.5, oomScoreAdj: -17,
             swap: 0, pageTables: 8192, priority: 10, backgroundModes: ~}
          - id: 'com.example.news'
            state: background
            footprint: 31457280
            viewCaches:
            lastActive: 1e3
        """

    @Test("valid documents take the streaming road and give the strict reader's snapshot", arguments: [json, yaml])
    func validDocuments(text: String) throws {
        let streamed = try #require(Snapshot.streamed(text))
        #expect(streamed == (try Snapshot.strict(text: text, file: "t")))
        #expect(streamed.apps.count == 3)
        #expect(streamed.apps[0].backgroundModes == [BackgroundModes(.audio), BackgroundModes(.voip)])
        #expect(streamed.apps[1].footprint == Bytes(150_000_000))
        #expect(streamed.apps[1].oomScoreAdj == -17)
        #expect(streamed.device.swapFree == Bytes(1_048_576))
    }

    @Test("the shipped examples take the streaming road", arguments: ["server.json", "phone.yaml"])
    func examples(name: String) throws {
        let text = try String(contentsOfFile: PackagePaths.path("Examples/snapshots/\(name)"), encoding: .utf8)
        let streamed = try #require(Snapshot.streamed(text))
        #expect(streamed == (try Snapshot.strict(text: text, file: name)))
    }

    @Test(
        "whatever the strict reader refuses, the streaming pass refuses",
        arguments: [
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "active", "footprint": 1, "x": 1}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "id": "b", "state": "active", "footprint": 1}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "active", "footprint": -1}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "active", "footprint": 1.5}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "running", "footprint": 1}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "", "state": "active", "footprint": 1}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a\u0007", "state": "active", "footprint": 1}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "active", "footprint": 1}, {"id": "a", "state": "suspended", "footprint": 1}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "active", "footprint": 1}, {"id": "b", "state": "inactive", "footprint": 1}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "active", "footprint": 10, "purgeable": 6, "viewCaches": 5}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "active", "footprint": 1, "oomScoreAdj": 1001}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "active", "footprint": 1, "lastActive": -1}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "active", "footprint": 1, "backgroundModes": ["fm"]}]}"#,
            #"{"device": {"memory": 1024}, "apps": [{"state": "active", "footprint": 1}]}"#,
            #"{"device": {"memory": 1024, "reserved": 1024}, "apps": []}"#,
            #"{"device": {"memory": 1024, "swap": 1, "swapFree": 2}, "apps": []}"#,
            #"{"device": {"memory": "2PiB"}, "apps": []}"#,
            #"{"device": {"memory": 1024}, "apps": [], "extra": 1}"#,
            #"{"device": {"memory": 1024}, "apps": []} x"#,
            #"{"device": {"memory": 1024}, "apps": [],}"#,
            #"{"device": {"memory": 1024}, "apps": [{"id": "a", "state": "active", "footprint": 1e999}]}"#,
            #"{"apps": []}"#,
            "device: {memory: 1024}\napps:\n  - &x {id: a, state: active, footprint: 1}\n  - *x\n",
            "device: {memory: 1024}\napps:\n  - {id: a, state: active, footprint: .inf}\n",
            "device: {memory: 1024}\napps: []\n---\ndevice: {memory: 1024}\n",
            "device: {memory: 1024}\napps:\n  - {id: a, state: active, footprint: 1, footprint: 2}\n",
            "device: {memory: 1024}\napps:\n\t- {id: a}\n",
        ])
    func refusals(text: String) {
        #expect(throws: InputError.self) { try Snapshot.strict(text: text, file: "t") }
        #expect(Snapshot.streamed(text) == nil)
    }

    /// Seeded mutations of valid documents: deleting, duplicating or replacing single bytes.
    /// Whatever the streaming pass accepts, the strict reader must accept with the same result.
    @Test("mutated documents: the streaming pass never accepts more, nor reads differently", arguments: [json, yaml])
    func mutations(text: String) {
        var rng = SplitMix64(seed: 20_261_123)
        let bytes = Array(text.utf8)
        let alphabet = Array(#"{}[]:,"-.0123456789eE aitn#&*!~\"#.utf8) + [0x0A, 0x09, 0xC3]
        var accepted = 0
        for _ in 0..<3_000 {
            var mutated = bytes
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let index = Int(rng.next() % UInt64(mutated.count))
                switch rng.next() % 3 {
                case 0: mutated.remove(at: index)
                case 1: mutated.insert(mutated[index], at: index)
                default: mutated[index] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                }
            }
            let mutatedText = String(decoding: mutated, as: UTF8.self)
            guard let streamed = Snapshot.streamed(mutatedText) else { continue }
            accepted += 1
            #expect(
                streamed == (try? Snapshot.strict(text: mutatedText, file: "t")),
                "the streaming pass accepted what the strict reader reads otherwise:\n\(mutatedText)")
        }
        // Some mutations keep the document valid (a digit for a digit, a space for a space).
        #expect(accepted > 0)
    }
}
