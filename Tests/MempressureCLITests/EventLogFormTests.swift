import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

@testable import mempressure

/// Both forms of the event log (docs/DESIGN.md, "Event log") for one event of every kind: the
/// JSON line of the contract and the aligned text line. The example traces' golden logs hold
/// only the kinds a policy without compression or prewarming makes; these hold the rest.
@Suite("the event log's forms, every kind")
struct EventLogFormTests {
    static let mebibyte: Int64 = 1_048_576

    /// One event of every kind, with an app id that needs escaping in the last.
    static let events: [Event] = [
        Event(time: 0, kind: .callback(app: "A", name: .didFinishLaunching, level: nil)),
        Event(time: 9, kind: .callback(app: "B", name: .didReceiveMemoryWarning, level: 1)),
        Event(time: 9, kind: .viewCallback(app: "B", view: "settings", name: .viewDidUnload)),
        Event(time: 5, kind: .state(app: "A", from: .inactive, to: .background)),
        Event(time: 9, kind: .level(from: .normal, to: .warning, free: Bytes(12_345_678))),
        Event(time: 9, kind: .purge(app: "B", what: .offscreenViews, freed: Bytes(3 * mebibyte))),
        Event(
            time: 9,
            kind: .kill(
                app: "C", state: .suspended, reason: "heaviest suspended app", notice: .none,
                freed: Bytes(40 * mebibyte))),
        Event(time: 10, kind: .notification(app: "D", name: "com.example.refresh", count: 3)),
        Event(
            time: 11.5,
            kind: .compress(
                app: "D", bytes: Bytes(50 * mebibyte), stored: Bytes(25 * mebibyte), evicted: Bytes(10 * mebibyte),
                seconds: 0.1)),
        Event(
            time: 12,
            kind: .decompress(
                app: "D", bytes: Bytes(50 * mebibyte), stored: Bytes(25 * mebibyte), refaulted: Bytes(10 * mebibyte),
                seconds: 0.05)),
        Event(time: 13, kind: .freeze(app: "E", bytes: Bytes(8 * mebibyte), seconds: 0.02)),
        Event(time: 14, kind: .thaw(app: "E", bytes: Bytes(8 * mebibyte), seconds: 0.01)),
        Event(time: 15, kind: .writeback(app: "F", bytes: Bytes(20 * mebibyte), stored: Bytes(10 * mebibyte))),
        Event(
            time: 16,
            kind: .pressure(
                PressureCrossing(
                    stall: .some, window: "1s", percent: 8.4, threshold: 7, direction: .up, total: 12.345678,
                    someAverages: PressureStallAverages(avg10: 12.5, avg60: 3.41, avg300: 0.72),
                    fullAverages: PressureStallAverages(avg10: 4.06, avg60: 0.9, avg300: 0.19)))),
        Event(
            time: 16,
            kind: .pressure(
                PressureCrossing(
                    stall: .full, window: "avg10", percent: 49.87, threshold: 50, direction: .down, total: 30.5,
                    fullAverages: PressureStallAverages(avg10: 49.87, avg60: 31.02, avg300: 8.5)))),
        Event(time: 16.25, kind: .prewarm(app: "tab\there \"quoted\"", bytes: Bytes(30 * mebibyte))),
    ]

    @Test("every kind's JSON line: the contract's keys in order, and valid JSON")
    func jsonLines() throws {
        let lines = Self.events.map(\.jsonLine)
        let mismatch = goldenMismatch(lines.joined(separator: "\n") + "\n", "replay/every-event-kind.jsonl")
        #expect(mismatch == nil, "\(mismatch ?? "")")
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["t"] is NSNumber && object["type"] is String, "\(line)")
        }
        let last = try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any]
        #expect(last?["app"] as? String == "tab\there \"quoted\"")
    }

    @Test("every kind's text line, aligned; a control character in an id is escaped, so a line stays one line")
    func textLines() {
        var widths = EventLogText.Widths()
        widths.measure(Self.events)
        var text = EventLogText.header(widths)
        EventLogText.append(Self.events, widths: widths, to: &text)
        let mismatch = goldenMismatch(text, "replay/every-event-kind.text")
        #expect(mismatch == nil, "\(mismatch ?? "")")
        #expect(text.split(separator: "\n").count == Self.events.count + 1)
    }
}
