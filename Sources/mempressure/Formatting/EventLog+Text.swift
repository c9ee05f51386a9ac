import MemoryPressure
import MemoryPressureFormats

/// The `text` form of the event log: one aligned line per event (time, event type, app,
/// details), for people: ``header(_:)``, then ``append(_:widths:to:)``.
enum EventLogText {
    /// The widths of the time and app columns: the widest of every event of the log, so a log
    /// printed as it is produced (``header(_:)``, then ``append(_:widths:to:)`` batch by batch)
    /// needs them from a first pass over the same events.
    struct Widths {
        /// The time column (at least 4).
        var time = 4
        /// The app column (at least 3).
        var app = 3

        /// Widens the columns for `events`.
        ///
        /// - Complexity: O(events)
        mutating func measure(_ events: [Event]) {
            for event in events {
                // Control characters in ids and names are escaped (`\u{1B}`): a line stays one line.
                app = max(app, EventLogText.app(of: event)?.escaped.count ?? 1)
                time = max(time, Event.json(event.time).count + 1)
            }
        }
    }

    /// The header line of a log with `widths`.
    static func header(_ widths: Widths) -> String {
        pad("t", widths.time, right: true) + "  " + pad("event", 12) + "  " + pad("app", widths.app) + "  details\n"
    }

    /// Appends one aligned line per event of `events` to `out`.
    ///
    /// - Complexity: O(events)
    static func append(_ events: [Event], widths: Widths, to out: inout String) {
        for event in events {
            out += pad(Event.json(event.time) + "s", widths.time, right: true) + "  "
            out += pad(type(of: event), 12) + "  "
            out += pad(app(of: event)?.escaped ?? "-", widths.app) + "  "
            out += details(of: event).escapingControlCharacters() + "\n"
        }
    }

    /// A percentage with two decimals, as `watch` and `/proc/pressure/memory` print PSI: `7.00%`.
    static func percent(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let decimals = hundredths % 100
        return "\(hundredths / 100).\(decimals < 10 ? "0" : "")\(decimals)%"
    }

    /// Running averages as a line of `/proc/pressure/memory` prints them, without the total:
    /// `avg10=12.50 avg60=3.41 avg300=0.72`.
    static func psi(_ averages: PressureStallAverages) -> String {
        let two = { (value: Double) -> String in String(percent(value).dropLast()) }
        return "avg10=\(two(averages.avg10)) avg60=\(two(averages.avg60)) avg300=\(two(averages.avg300))"
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }

    private static func type(of event: Event) -> String {
        switch event.kind {
        case .callback: "callback"
        case .viewCallback: "viewCallback"
        case .state: "state"
        case .level: "level"
        case .purge: "purge"
        case .kill: "kill"
        case .notification: "notification"
        case .compress: "compress"
        case .decompress: "decompress"
        case .freeze: "freeze"
        case .thaw: "thaw"
        case .writeback: "writeback"
        case .prewarm: "prewarm"
        case .pressure: "pressure"
        }
    }

    private static func app(of event: Event) -> AppID? {
        switch event.kind {
        case .callback(let app, _, _), .viewCallback(let app, _, _), .state(let app, _, _), .purge(let app, _, _),
            .kill(let app, _, _, _, _), .notification(let app, _, _), .compress(let app, _, _, _, _),
            .decompress(let app, _, _, _, _), .freeze(let app, _, _), .thaw(let app, _, _), .prewarm(let app, _),
            .writeback(let app, _, _):
            app
        case .level, .pressure: nil
        }
    }

    private static func details(of event: Event) -> String {
        switch event.kind {
        case .callback(_, let name, let level):
            return name.rawValue + (level.map { " (level \($0))" } ?? "")
        case .viewCallback(_, let view, let name):
            return "\(view): \(name.rawValue)"
        case .state(_, let from, let to):
            return "\(from.rawValue) → \(to.rawValue)"
        case .level(let from, let to, let free):
            return "\(from.name) → \(to.name), free \(free.formatted)"
        case .purge(_, let what, let freed):
            return "\(what.rawValue) freed \(freed.formatted)"
        case .kill(_, let state, let reason, let notice, let freed):
            return "killed while \(state.rawValue): \(reason); notice \(notice.rawValue); freed \(freed.formatted)"
        case .notification(_, let name, let count):
            return name + (count > 1 ? " (×\(count), coalesced)" : "")
        case .compress(_, let bytes, let stored, let evicted, let seconds):
            let files = evicted.value > 0 ? ", dropped \(evicted.formatted) of files" : ""
            return "compressed \(bytes.formatted) into \(stored.formatted)\(files); \(Event.number(seconds))s of CPU"
        case .decompress(_, let bytes, let stored, let refaulted, let seconds):
            let files = refaulted.value > 0 ? ", read \(refaulted.formatted) of files again" : ""
            return "decompressed \(bytes.formatted) from \(stored.formatted)\(files); waited \(Event.number(seconds))s"
        case .freeze(_, let bytes, let seconds):
            return "froze: wrote \(bytes.formatted) to storage in \(Event.number(seconds))s"
        case .thaw(_, let bytes, let seconds):
            return "thawed: read \(bytes.formatted) back; waited \(Event.number(seconds))s"
        case .writeback(_, let bytes, let stored):
            return
                "written back: \(bytes.formatted) moved from zswap's cache to the swap file, freeing \(stored.formatted)"
        case .prewarm(_, let bytes):
            return "prewarmed: launched in the background with \(bytes.formatted) and suspended"
        case .pressure(let crossing):
            return "\(crossing.resource) \(crossing.stall.rawValue) \(crossing.window) "
                + "\(percent(crossing.percent)) \(crossing.direction == .up ? "↑ up through" : "↓ down through") "
                + "\(percent(crossing.threshold)); total \(Event.number((crossing.total * 1e6).rounded() / 1e6))s"
                + [("some", crossing.someAverages), ("full", crossing.fullAverages)].compactMap { name, averages in
                    averages.map { "; \(name) \(psi($0))" }
                }.joined()
        }
    }
}
