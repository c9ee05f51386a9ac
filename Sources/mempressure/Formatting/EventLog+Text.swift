import MemoryPressure
import MemoryPressureFormats

/// The `text` form of the event log: one aligned line per event, for people.
enum EventLogText {
    /// Formats `events` as aligned lines: time, event type, app, details.
    static func format(_ events: [Event]) -> String {
        // Control characters in ids and names are escaped (`\u{1B}`): a line stays one line.
        let appWidth = max(3, events.map { app(of: $0)?.escaped.count ?? 1 }.max() ?? 3)
        let timeWidth = max(4, events.map { Event.json($0.time).count + 1 }.max() ?? 4)
        var out =
            pad("t", timeWidth, right: true) + "  " + pad("event", 12) + "  " + pad("app", appWidth) + "  details\n"
        for event in events {
            out += pad(Event.json(event.time) + "s", timeWidth, right: true) + "  "
            out += pad(type(of: event), 12) + "  "
            out += pad(app(of: event)?.escaped ?? "-", appWidth) + "  "
            out += details(of: event).escapingControlCharacters() + "\n"
        }
        return out
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
        }
    }

    private static func app(of event: Event) -> AppID? {
        switch event.kind {
        case .callback(let app, _, _), .viewCallback(let app, _, _), .state(let app, _, _), .purge(let app, _, _),
            .kill(let app, _, _, _, _), .notification(let app, _, _):
            app
        case .level: nil
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
        }
    }
}
