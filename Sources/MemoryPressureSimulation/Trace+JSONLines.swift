import MemoryPressure
import MemoryPressureFormats

// Reading and writing traces as JSON Lines (docs/DESIGN.md, "Trace").

extension Trace {
    /// The most distinct view names one app may have in a trace (its launch's views and the
    /// views `showView` creates): the engine keeps an app's views in a list.
    public static let maximumViewsPerApp = 1_000

    /// The most distinct notification names (`notify`) in a trace: suspended apps keep their
    /// pending notifications in a list.
    public static let maximumNotificationNames = 1_000

    /// Parses a JSON Lines trace (LF or CRLF line ends, an optional UTF-8 byte order mark). Blank
    /// lines are skipped; every other line is one object with a
    /// number `t` and a string `event`, plus the fields that event takes. Unknown fields, wrong
    /// types, missing fields and times that go backwards are errors naming the line, the column
    /// and the field.
    ///
    /// A `launch` or `open` of an app the trace launched before may give only `app`: the app's
    /// last launch description is used (the engine reads it only when the open is a cold launch).
    ///
    /// - Parameters:
    ///   - text: the trace, one JSON object a line.
    ///   - file: the name used in error messages.
    /// - Complexity: O(length of `text`)
    public init(jsonLines text: String, file: String = "<trace>") throws(InputError) {
        var reader = TraceReader(ByteLineReader(.bytes(Array(text.utf8)), file: file))
        var entries: [Entry] = []
        while let entry = try reader.next() { entries.append(entry) }
        self.init(device: reader.device, entries: entries)
    }

    /// Counts what a trace names, against ``maximumViewsPerApp`` and ``maximumNotificationNames``.
    struct TraceLimits {
        var views: [AppID: Set<String>] = [:]
        var notifications: Set<String> = []

        mutating func check(_ action: Action, reader: TraceLineReader) throws(InputError) {
            switch action {
            case .launch(let launch), .open(let launch):
                try add(launch.views.map(\.name), of: launch.id, reader: reader)
            case .showView(let app, let view, let bytes) where bytes != nil:
                try add([view], of: app, reader: reader)
            case .notify(let name):
                notifications.insert(name)
                guard notifications.count <= Trace.maximumNotificationNames else {
                    throw reader.error(
                        "more than \(Trace.maximumNotificationNames) distinct notification names in one trace")
                }
            default: break
            }
        }

        private mutating func add(_ names: [String], of app: AppID, reader: TraceLineReader) throws(InputError) {
            guard !names.isEmpty else { return }
            views[app, default: []].formUnion(names)
            guard views[app]!.count <= Trace.maximumViewsPerApp else {
                throw reader.error(
                    "more than \(Trace.maximumViewsPerApp) distinct views for \(app.rawValue.quotedExcerpt())")
            }
        }
    }

    /// The trace as JSON Lines: a `device` line, then one line per entry; parsing the result gives
    /// back an equal trace. A `launch` or `open` whose description equals the app's previous one
    /// in the trace is written with its `app` alone.
    ///
    /// - Complexity: O(number of entries)
    public var jsonLines: String {
        var out =
            "{\"t\":0,\"event\":\"device\",\"memory\":\(device.memory.value),\"reserved\":\(device.reserved.value)"
        // Swap only when the trace has some, so traces of phones stay as they were.
        if device.swap.value > 0 { out += ",\"swap\":\(device.swap.value)" }
        if let swapFree = device.swapFree { out += ",\"swapFree\":\(swapFree.value)" }
        out += "}\n"
        var launches: [AppID: AppLaunch] = [:]
        for entry in entries {
            switch entry.action {
            case .launch(let launch), .open(let launch):
                let known = launches[launch.id] == launch
                launches[launch.id] = launch
                out += entry.jsonLine(describingLaunch: !known) + "\n"
            default:
                out += entry.jsonLine + "\n"
            }
        }
        return out
    }
}

extension Trace.Entry {
    /// This entry as one JSON line (without the newline).
    public var jsonLine: String { jsonLine(describingLaunch: true) }

    /// This entry as one JSON line; a launch or open without its description when
    /// `describingLaunch` is false.
    func jsonLine(describingLaunch: Bool) -> String {
        var fields: [(String, String)] = [("t", Event.json(time))]
        func app(_ id: AppID) { fields.append(("app", Event.json(id.rawValue))) }
        func event(_ name: String) { fields.append(("event", "\"\(name)\"")) }
        switch action {
        case .launch(let launch), .open(let launch):
            if case .launch = action { event("launch") } else { event("open") }
            app(launch.id)
            guard describingLaunch else { break }
            fields.append(("footprint", "\(launch.footprint.value)"))
            if !launch.backgroundModes.isEmpty {
                let modes = launch.backgroundModes.modes.map { "\"\($0.rawValue)\"" }
                fields.append(("backgroundModes", "[" + modes.joined(separator: ",") + "]"))
            }
            if launch.exitsOnSuspend { fields.append(("exitsOnSuspend", "true")) }
            if !launch.views.isEmpty {
                let views = launch.views.map { "{\"name\":\(Event.json($0.name)),\"bytes\":\($0.bytes.value)}" }
                fields.append(("views", "[" + views.joined(separator: ",") + "]"))
            }
            if launch.purgeable.value > 0 { fields.append(("purgeable", "\(launch.purgeable.value)")) }
            if launch.ignoresWarnings { fields.append(("ignoresWarnings", "true")) }
            if let adj = launch.oomScoreAdj { fields.append(("oomScoreAdj", "\(adj)")) }
            if let priority = launch.priority { fields.append(("priority", "\(priority)")) }
        case .home: event("home")
        case .interrupt: event("interrupt")
        case .interruptEnd(let answered):
            event("interruptEnd")
            fields.append(("answered", answered ? "true" : "false"))
        case .lock: event("lock")
        case .unlock: event("unlock")
        case .allocate(let id, let bytes, let purgeable), .free(let id, let bytes, let purgeable):
            if case .allocate = action { event("allocate") } else { event("free") }
            app(id)
            fields.append(("bytes", "\(bytes.value)"))
            if purgeable { fields.append(("purgeable", "true")) }
        case .showView(let id, let view, let bytes):
            event("showView")
            app(id)
            fields.append(("view", Event.json(view)))
            if let bytes { fields.append(("bytes", "\(bytes.value)")) }
        case .hideView(let id, let view):
            event("hideView")
            app(id)
            fields.append(("view", Event.json(view)))
        case .beginBackgroundTask(let id, let seconds):
            event("beginBackgroundTask")
            app(id)
            fields.append(("seconds", Event.json(seconds)))
        case .useBackgroundModes(let id, let modes):
            event("useBackgroundModes")
            app(id)
            fields.append(("modes", "[" + modes.modes.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"))
        case .userKill(let id):
            event("userKill")
            app(id)
        case .notify(let name):
            event("notify")
            fields.append(("name", Event.json(name)))
        case .tick: event("tick")
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
