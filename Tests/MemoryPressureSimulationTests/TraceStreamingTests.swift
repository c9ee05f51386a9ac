import Foundation
import MemoryPressure
import MemoryPressureSimulation
import Testing
import TestSupport

// Issue 14: traces read line by line with bounded memory (ByteLineReader, TraceReader), giving
// what reading the whole file gave: the same entries, the same events, the same errors.

/// A temporary file holding `bytes`, open for reading; removed and closed by `close()`.
struct TemporaryInput {
    let path: String
    let descriptor: Int32

    init(_ bytes: [UInt8]) throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("mempressure-stream-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        descriptor = open(path, O_RDONLY)
    }

    init(_ text: String) throws { try self.init(Array(text.utf8)) }

    func close() {
        _ = Foundation.close(descriptor)
        try? FileManager.default.removeItem(atPath: path)
    }
}

@Suite("traces read line by line")
struct TraceStreamingTests {
    /// Every example trace shipped in Examples/traces.
    static let examples: [String] = {
        let directory = PackagePaths.path("Examples/traces")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { directory + "/" + $0 }
    }()

    /// The entries a reader over `text` in a file gives, through a buffer of `capacity` bytes.
    static func streamed(_ text: String, capacity: Int, file: String = "t.jsonl") throws -> Trace {
        let input = try TemporaryInput(text)
        defer { input.close() }
        var reader = TraceReader(ByteLineReader(.file(input.descriptor), file: file, initialCapacity: capacity))
        var entries: [Trace.Entry] = []
        while let entry = try reader.next() { entries.append(entry) }
        return Trace(device: reader.device, entries: entries)
    }

    @Test("every example trace reads the same streamed (through a 7-byte and a 64 KiB buffer) as whole")
    func examplesStreamAsWhole() throws {
        #expect(Self.examples.count >= 14)
        for path in Self.examples {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let whole = try Trace(jsonLines: text, file: "t.jsonl")
            for capacity in [7, ByteLineReader.initialCapacity] {
                #expect(try Self.streamed(text, capacity: capacity) == whole, "\(path)")
            }
        }
    }

    @Test("a streamed replay gives the in-memory replay's events and skipped count")
    func replayStreamedEqualsWhole() throws {
        for path in Self.examples {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let whole = try Trace(jsonLines: text, file: "t.jsonl")
            var expected: [Event] = []
            let wholeOutcome = try Replay.run(whole, policy: .ios4) { expected += $0 }
            let input = try TemporaryInput(text)
            defer { input.close() }
            var reader = TraceReader(ByteLineReader(.file(input.descriptor), file: "t.jsonl", initialCapacity: 16))
            var events: [Event] = []
            let outcome = try Replay.run(&reader, policy: .ios4, openTimes: nil) { events += $0 }
            #expect(events == expected, "\(path)")
            #expect(outcome.skipped == wholeOutcome.skipped)
        }
    }

    @Test("a streamed simulation run (with the oracle's opens from a summary pass) equals the in-memory one")
    func simulationStreamedEqualsWhole() throws {
        var workload = Workload.phone
        workload.hours = 6
        let trace = WorkloadGenerator(workload: workload).trace(seed: 3)
        let input = try TemporaryInput(trace.jsonLines)
        defer { input.close() }
        for policy in [Policy.ios4, Oracle.policy] {
            let expected = try SimulationRun.run(trace, policy: policy, launchCost: workload.launchCost)
            var first = TraceReader(ByteLineReader(.file(input.descriptor), file: "t.jsonl"))
            let summary = try TraceSummary(reading: &first, keepingOpens: Oracle.isClairvoyant(policy))
            #expect(summary.actions == trace.entries.count)
            #expect(summary.lastTime == trace.entries.last?.time)
            var reader = TraceReader(ByteLineReader(.file(input.descriptor), file: "t.jsonl"))
            let run = try SimulationRun.run(&reader, summary: summary, policy: policy, launchCost: workload.launchCost)
            #expect(run.metrics.deterministic == expected.metrics.deterministic)
            #expect(run.freeMemory.map(\.time) == expected.freeMemory.map(\.time))
            #expect(run.freeMemory.map(\.free) == expected.freeMemory.map(\.free))
        }
    }

    @Test("a trace many times the buffer's cap is read with the buffer never above the cap")
    func bufferStaysBounded() throws {
        // Lines of 80 to 90 bytes: longer than the first 64-byte buffer, shorter than the cap.
        let app = "com.example.application"
        var text = "{\"t\":0,\"event\":\"launch\",\"app\":\"\(app)\",\"footprint\":\"40MiB\"}\n"
        for index in 0..<5_000 {
            text +=
                "{\"t\":\(index + 1),\"event\":\"\(index % 2 == 0 ? "allocate" : "free")\",\"app\":\"\(app)\",\"bytes\":4096}\n"
        }
        let input = try TemporaryInput(text)
        defer { input.close() }
        let lines = ByteLineReader(
            .file(input.descriptor), file: "big.jsonl", maximumLineBytes: 255, initialCapacity: 64)
        var reader = TraceReader(lines)
        var count = 0
        while try reader.next() != nil { count += 1 }
        #expect(count == 5_001)
        #expect(text.utf8.count > 1_000 * 256)
        #expect(lines.peakCapacity <= 256)
        #expect(lines.peakCapacity > 64)  // grew once for lines longer than 64 bytes
        #expect(lines.reads > text.utf8.count / 256)  // read in many small pieces, not at once
    }

    @Test("a line longer than the limit is an error naming its line")
    func lineTooLong() throws {
        let text =
            "{\"t\":0,\"event\":\"home\"}\n{\"t\":1,\"event\":\"notify\",\"name\":\""
            + String(repeating: "x", count: 300)
            + "\"}\n"
        let input = try TemporaryInput(text)
        defer { input.close() }
        var reader = TraceReader(
            ByteLineReader(.file(input.descriptor), file: "long.jsonl", maximumLineBytes: 200, initialCapacity: 32))
        #expect(try reader.next() != nil)
        #expect(throws: InputError.self) { try reader.next() }
        do {
            var again = TraceReader(
                ByteLineReader(.file(input.descriptor), file: "long.jsonl", maximumLineBytes: 200, initialCapacity: 32))
            while try again.next() != nil {}
        } catch {
            #expect(error.description == "long.jsonl:2: a line longer than the limit of 200 bytes")
        }
    }

    @Test("CRLF, a lone CR before CRLF, blank lines and byte order marks read as the whole-file parser reads them")
    func lineEnds() throws {
        let text =
            "\u{FEFF}{\"t\":0,\"event\":\"launch\",\"app\":\"A\",\"footprint\":\"40MiB\"}\r\n\r\r\n  \t\n{\"t\":1,\"event\":\"home\"}\r"
        let whole = try Trace(jsonLines: text, file: "t.jsonl")
        #expect(whole.entries.count == 2)
        #expect(whole.entries.map(\.line) == [1, 4])
        for capacity in [3, 5, 64] {
            #expect(try Self.streamed(text, capacity: capacity) == whole)
        }
    }

    @Test("an invalid UTF-8 byte is reported with its line and file offset, before a malformed line before it")
    func invalidUTF8() throws {
        // Line 2 is malformed JSON; line 3 holds an invalid byte: reading the whole file decoded
        // it first, so the byte is what is reported.
        var bytes = Array("{\"t\":0,\"event\":\"home\"}\n{oops}\n{\"t\":1,\"event\":\"notify\",\"name\":\"".utf8)
        let offset = bytes.count
        bytes += [0xFF] + Array("\"}\n".utf8)
        let input = try TemporaryInput(bytes)
        defer { input.close() }
        var reader = TraceReader(ByteLineReader(.file(input.descriptor), file: "bad.jsonl", initialCapacity: 8))
        var caught: (any Error)?
        do {
            _ = try Replay.run(&reader, policy: .ios4, openTimes: nil) { _ in }
        } catch {
            caught = error
        }
        #expect(
            String(describing: caught!) == "bad.jsonl:3: expected UTF-8 text, found an invalid byte at offset \(offset)"
        )
    }

    @Test("a malformed line after an action the engine refuses is reported, as reading the whole file first did")
    func parseErrorWinsOverEngineError() throws {
        let text = """
            {"t":0,"event":"launch","app":"A","footprint":"40MiB"}
            {"t":1,"event":"launch","app":"A","footprint":"40MiB"}
            {"t":2,"event":"home"}
            {"t":3,"event":"home","colour":1}

            """
        let input = try TemporaryInput(text)
        defer { input.close() }
        var reader = TraceReader(ByteLineReader(.file(input.descriptor), file: "t.jsonl"))
        var caught: (any Error)?
        do {
            _ = try Replay.run(&reader, policy: .ios4, openTimes: nil) { _ in }
        } catch {
            caught = error
        }
        #expect(caught is InputError)
        #expect(String(describing: caught!).hasPrefix("t.jsonl:4:"))
        // Without the malformed line, the refused action is what is reported.
        let valid = try TemporaryInput(text.replacingOccurrences(of: ",\"colour\":1", with: ""))
        defer { valid.close() }
        var second = TraceReader(ByteLineReader(.file(valid.descriptor), file: "t.jsonl"))
        do {
            _ = try Replay.run(&second, policy: .ios4, openTimes: nil) { _ in }
            Issue.record("expected the second launch to be refused")
        } catch let error as ReplayError {
            #expect(error.line == 2)
        }
    }

    @Test("a refused action of a trace held in memory is named by its time, not by a line 0")
    func refusedActionInMemory() throws {
        let launch = AppLaunch(id: "com.a", footprint: .mebibytes(10))
        let trace = Trace(
            device: Device(memory: .mebibytes(512)),
            entries: [
                Trace.Entry(time: 0, action: .launch(launch)), Trace.Entry(time: 12.5, action: .launch(launch)),
            ])
        do {
            _ = try SimulationRun.run(trace, policy: .ios4, file: "2956")
            Issue.record("expected the second launch to be refused")
        } catch {
            #expect(error.line == 0 && error.time == 12.5)
            #expect(error.description.hasPrefix("2956: the action at t = 12.5 s: "), "\(error)")
        }
    }

    @Test("several readers read one descriptor at once, each from the start")
    func readersShareADescriptor() throws {
        let text = try String(contentsOfFile: Self.examples[12], encoding: .utf8)
        let input = try TemporaryInput(text)
        defer { input.close() }
        var first = TraceReader(ByteLineReader(.file(input.descriptor), file: "t", initialCapacity: 16))
        var second = TraceReader(ByteLineReader(.file(input.descriptor), file: "t", initialCapacity: 16))
        var a: [Trace.Entry] = []
        var b: [Trace.Entry] = []
        while true {
            let x = try first.next()
            let y = try second.next()
            if let x { a.append(x) }
            if let y { b.append(y) }
            if x == nil && y == nil { break }
        }
        #expect(a == b)
        #expect(a == (try Trace(jsonLines: text, file: "t")).entries)
    }
}
