import Foundation
import MemoryPressure
import MemoryPressureSimulation
import Testing
import TestSupport

// Issue 16, item 4: a usage-log file read row by row with bounded memory (DelimitedText.Reader
// over a ByteLineReader, UsageLogReader), giving the users, traces and errors of whole-file reading.

@Suite("usage logs read row by row")
struct UsageLogStreamingTests {
    /// A seeded log of `users` users whose rows are interleaved (sorted by time, as a fleet log
    /// is), with quoted fields, CRLF line ends and ISO 8601 times mixed in.
    static func fleetLog(users: Int, rowsPerUser: Int, seed: UInt64) -> String {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var text = "user,session,timestamp,app,event\n"
        for row in 0..<(users * rowsPerUser) {
            let user = "user\(next() % UInt64(users))"
            let app = ["com.example.mail", "com.example.maps", "\"Foo, Inc. \"\"Chat\"\"\"", "com.example.game"][
                Int(next() % 4)]
            let event = next() % 3 == 0 ? "Closed" : "Opened"
            let time =
                row % 5 == 0 ? "2016-05-03T08:\(String(format: "%02d", row / 60 % 60)):00Z" : "\(1_462_263_000 + row)"
            text += "\(user),\(row / 7),\(time),\(app),\(event)" + (row % 3 == 0 ? "\r\n" : "\n")
        }
        return text
    }

    static func streamed(
        _ text: String, capacity: Int, maximumLineBytes: Int = ByteLineReader.defaultMaximumLineBytes,
        keeping: (String) -> Bool = { _ in true }
    ) throws -> (users: [UsageLogImport.UserTrace], peak: Int) {
        let input = try TemporaryInput(text)
        defer { input.close() }
        let lines = ByteLineReader(
            .file(input.descriptor), file: "log.csv", maximumLineBytes: maximumLineBytes, byteOrderMarks: 2,
            initialCapacity: capacity)
        let users = try UsageLogImport.parse(lines, keeping: keeping)
        return (users, lines.peakCapacity)
    }

    /// The error `body` throws, as text.
    static func failure(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    @Test(
        "a log many times the buffer's cap gives whole-file reading's users and traces, the buffer never above the cap")
    func boundedBuffer() throws {
        let text = Self.fleetLog(users: 7, rowsPerUser: 300, seed: 5)
        let whole = try UsageLogImport.parse(text, file: "log.csv")
        let (users, peak) = try Self.streamed(text, capacity: 16, maximumLineBytes: 127)
        #expect(text.utf8.count > 500 * 128)
        #expect(peak <= 128)
        #expect(users.map(\.user) == whole.map(\.user))
        #expect(users.map(\.trace) == whole.map(\.trace))
        #expect(whole.count == 7)
    }

    @Test("keeping some users gives exactly their traces; users() lists every user in order")
    func keepingUsers() throws {
        let text = Self.fleetLog(users: 5, rowsPerUser: 60, seed: 9)
        let whole = try UsageLogImport.parse(text, file: "log.csv")
        let wanted: Set<String> = ["user1", "user3"]
        let (kept, _) = try Self.streamed(text, capacity: 64) { wanted.contains($0) }
        #expect(kept.map(\.user) == whole.map(\.user).filter(wanted.contains))
        #expect(kept.map(\.trace) == whole.filter { wanted.contains($0.user) }.map(\.trace))
        let input = try TemporaryInput(text)
        defer { input.close() }
        #expect(try UsageLogImport.users(ByteLineReader(.file(input.descriptor), file: "log.csv")) == whole.map(\.user))
    }

    @Test(
        "errors are whole-file reading's: line and column, a syntax error before a bad row, a bad byte before both",
        arguments: [
            // A bad row (line 3) and an unterminated quote (line 5): the syntax error is reported.
            "user,session,timestamp,app,event\nu,1,10,a,Opened\nu,1,soon,a,Closed\nu,1,12,a,Closed\nu,1,13,\"a,Opened\n",
            // A bad row alone.
            "user,session,timestamp,app,event\nu,1,10,a,Opened\nu,1,soon,a,Closed\n",
            // A quoted app name across lines (not printable), then text after a closing quote.
            "user\tsession\ttimestamp\tapp\tevent\nu\t1\t10\t\"com.\nexample\"\tOpened\nu\t1\t11\t\"a\"x\tClosed\n",
            // A missing column, then a bad row.
            "user,session,time,event\nu,1,10,Opened\n",
            // Too few fields.
            "user,session,timestamp,app,event\r\nu,1,10\r\n",
            // No header at all.
            "\n\n",
        ])
    func sameErrors(text: String) throws {
        let whole = Self.failure { _ = try UsageLogImport.parse(text, file: "log.csv") }
        #expect(whole != "no error")
        for capacity in [4, 64] {
            #expect(Self.failure { _ = try Self.streamed(text, capacity: capacity) } == whole)
        }
    }

    @Test("an invalid UTF-8 byte after a bad row is what is reported, with its line and offset")
    func invalidByte() throws {
        var bytes = Array("user,session,timestamp,app,event\nu,1,soon,a,Opened\nu,1,11,".utf8)
        let offset = bytes.count
        bytes += [0xC3, 0x28] + Array(",Closed\n".utf8)
        let input = try TemporaryInput(bytes)
        defer { input.close() }
        let message = Self.failure {
            _ = try UsageLogImport.parse(ByteLineReader(.file(input.descriptor), file: "log.csv", initialCapacity: 8))
        }
        #expect(message == "log.csv:3: expected UTF-8 text, found an invalid byte at offset \(offset)")
    }
}
