import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import PropertyBased
import Testing

// Property-based tests of the simulation's parsers: traces and usage logs take any bytes and
// either parse them or refuse them with one short InputError; what they accept reads back.

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

private let structuralBytes = Array("{}[]:,-\"\n\r\t 0123456789.eE+ZT".utf8)
private let controlBytes: [UInt8] = [0x00, 0x1B, 0x7F, 0xC2, 0x9B, 0xFF]
private let interestingByte = Gen.int(in: 0...65_535).map { (code: Int) -> UInt8 in
    switch code % 9 {
    case 0..<4: UInt8(code % 256)
    case 4..<8: structuralBytes[code % structuralBytes.count]
    default: controlBytes[code % controlBytes.count]
    }
}

private func mutate(_ seed: String, at position: Int, inserting insertion: [UInt8], deleting deleted: Int) -> String {
    var bytes = Array(seed.utf8)
    let at = position % (bytes.count + 1)
    bytes.removeSubrange(at..<min(bytes.count, at + deleted))
    bytes.insert(contentsOf: insertion, at: at)
    return text(bytes)
}

private func expectShort(_ anyError: any Error, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let error = anyError as? InputError else {
        Issue.record("unexpected error \(type(of: anyError)): \(anyError)", sourceLocation: sourceLocation)
        return
    }
    #expect(error.description.utf8.count < 1024, sourceLocation: sourceLocation)
    #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
}

private let traceSeed = """
    {"t":0,"event":"device","memory":"512MiB","reserved":"96MiB"}
    {"t":0,"event":"launch","app":"A","footprint":"40MiB","views":[{"name":"v","bytes":1024}]}
    {"t":1.5,"event":"allocate","app":"A","bytes":"2MiB","purgeable":true}
    {"t":2,"event":"home"}

    """

private let usageSeed = """
    user,session,timestamp,app,event
    u1,1,2016-05-03T08:00:00Z,"Foo, Inc.",Opened
    u1,1,2016-05-03T08:02:30+01:00,"Foo, Inc.",Closed
    u2,2,1462262700.25,com.example.maps,Opened

    """

private let polledSeed = """
    2023-12-14 13:46:39.876000,com.snapchat.android
    2023-12-14 13:47:02.110000,com.example.nextapp
    1970-01-01 01:00:00.000000,com.google.android.inputmethod.latin
    2023-12-14 13:47:02.110000,com.example.nextapp
    2023-12-14 13:46:50.000000,com.whatsapp

    """

private let appUsageSeed = """
    "App name","Date","Time","Duration"
    "Notifications envoyées (Gmail)","01/03/2024","14:47:24","0:00:00"
    "Gmail","01/03/2024","14:47:17","0:00:04"
    "Écran allumé (déverrouillé)","29/02/2024","14:46:53","0:00:00"
    "App Usage","29/02/2024","14:46:59","0:00:17"

    """

@Suite("Properties of the trace and usage-log parsers")
struct ParserPropertyTests {
    @Test("any edit of a trace is a trace that reads back equal, or an InputError")
    func traceMutations() async {
        await propertyCheck(
            count: 500, input: Gen.int(in: 0...10_000), interestingByte.array(of: 0...12), Gen.int(in: 0...6)
        ) { position, insertion, deleted in
            let edited = mutate(traceSeed, at: position, inserting: insertion, deleting: deleted)
            do {
                let trace = try Trace(jsonLines: edited, file: "t.jsonl")
                let again = try Trace(jsonLines: trace.jsonLines, file: "again.jsonl")
                #expect(again.entries.map(\.action) == trace.entries.map(\.action))
                #expect(again.device == trace.device)
            } catch {
                expectShort(error)
            }
        }
    }

    @Test("any edit of a usage log imports traces that read back, or is an InputError")
    func usageLogMutations() async {
        await propertyCheck(
            count: 500, input: Gen.int(in: 0...10_000), interestingByte.array(of: 0...12), Gen.int(in: 0...6)
        ) { position, insertion, deleted in
            let edited = mutate(usageSeed, at: position, inserting: insertion, deleting: deleted)
            do {
                for user in try UsageLogImport.parse(edited, file: "log.csv") {
                    #expect(user.trace.entries.allSatisfy { $0.time.isFinite && $0.time >= 0 })
                    _ = try Trace(jsonLines: user.trace.jsonLines, file: "again.jsonl")
                }
            } catch {
                expectShort(error)
            }
        }
    }

    @Test("any edit of polled samples or an App Usage export imports traces within their days, or is an InputError")
    func realLayoutMutations() async {
        await propertyCheck(
            count: 500, input: Gen.int(in: 0...10_000), interestingByte.array(of: 0...12), Gen.int(in: 0...6),
            Gen.int(in: 0...1)
        ) { position, insertion, deleted, which in
            let edited = mutate(
                which == 0 ? polledSeed : appUsageSeed, at: position, inserting: insertion, deleting: deleted)
            do {
                let lines = { ByteLineReader(.bytes(Array(edited.utf8)), file: "log.csv", byteOrderMarks: 2) }
                let log = try UsageLogImport.read(lines(), sampling: .day)
                #expect(try UsageLogImport.samples(lines(), sampling: .day).map(\.label) == log.samples.map(\.label))
                for sample in log.samples {
                    #expect(sample.trace.entries.allSatisfy { $0.time >= 0 && $0.time < 86_400 })
                    _ = try Trace(jsonLines: sample.trace.jsonLines, file: "again.jsonl")
                }
                #expect(log.rowCounts.allSatisfy { $0.count > 0 && $0.firstLine > 0 })
            } catch {
                expectShort(error)
            }
        }
    }

    @Test("any bytes are a trace, a usage log or an InputError")
    func anyBytes() async {
        await propertyCheck(count: 400, input: interestingByte.array(of: 0...300)) { bytes in
            do { _ = try Trace(jsonLines: text(bytes), file: "t.jsonl") } catch { expectShort(error) }
            do { _ = try UsageLogImport.parse(text(bytes), file: "log.csv") } catch { expectShort(error) }
        }
    }
}
