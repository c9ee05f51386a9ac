import MemoryPressure

// Reading and writing traces as JSON Lines (DESIGN.md, "Trace").

extension Trace {
    /// Parses a JSON Lines trace. Blank lines are skipped; every other line is one object with a
    /// number `t` and a string `event`, plus the fields that event takes. Unknown fields, wrong
    /// types, missing fields and times that go backwards are errors naming the line.
    ///
    /// - Parameter file: the name used in error messages.
    /// - Complexity: O(length of `text`)
    public init(jsonLines text: String, file: String = "<trace>") throws(TraceError) {
        self.init()
        var lastTime = -Double.infinity
        var lineNumber = 0
        var sawAction = false
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let value: JSONValue
            do {
                value = try JSONParser.parse(line)
            } catch {
                throw TraceError(file: file, line: lineNumber, column: error.column, message: error.message)
            }
            var fields = try TraceFields(value, file: file, line: lineNumber)
            let time = try fields.number("t")
            guard time >= 0 else { throw fields.error("field \"t\": expected a time ≥ 0 in seconds, found \(time)") }
            guard time >= lastTime else {
                throw fields.error("field \"t\": time \(Event.json(time)) is before the previous line's \(Event.json(lastTime))")
            }
            lastTime = time
            let event = try fields.string("event")
            if event == "device" {
                guard !sawAction else { throw fields.error("a \"device\" line must come before every other event") }
                device = Device(memory: try fields.size("memory"), reserved: try fields.optionalSize("reserved") ?? .zero)
                guard device.reserved < device.memory else {
                    throw fields.error("field \"reserved\": expected less than \"memory\"")
                }
                try fields.rejectUnknown()
                continue
            }
            let action = try fields.action(event)
            try fields.rejectUnknown()
            sawAction = true
            entries.append(Entry(time: time, action: action, line: lineNumber))
        }
    }

    /// The trace as JSON Lines: a `device` line, then one line per entry; parsing the result gives
    /// back an equal trace.
    ///
    /// - Complexity: O(number of entries)
    public var jsonLines: String {
        var out = "{\"t\":0,\"event\":\"device\",\"memory\":\(device.memory.value),\"reserved\":\(device.reserved.value)}\n"
        for entry in entries {
            out += entry.jsonLine + "\n"
        }
        return out
    }
}

extension Trace.Entry {
    /// This entry as one JSON line (without the newline).
    public var jsonLine: String {
        var fields: [(String, String)] = [("t", Event.json(time))]
        func app(_ id: AppID) { fields.append(("app", Event.json(id.rawValue))) }
        switch action {
        case .launch(let launch), .open(let launch):
            if case .launch = action { fields.append(("event", "\"launch\"")) } else { fields.append(("event", "\"open\"")) }
            app(launch.id)
            fields.append(("footprint", "\(launch.footprint.value)"))
            if !launch.backgroundModes.isEmpty {
                fields.append(("backgroundModes", "[" + launch.backgroundModes.modes.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"))
            }
            if launch.exitsOnSuspend { fields.append(("exitsOnSuspend", "true")) }
            if !launch.views.isEmpty {
                let views = launch.views.map { "{\"name\":\(Event.json($0.name)),\"bytes\":\($0.bytes.value)}" }
                fields.append(("views", "[" + views.joined(separator: ",") + "]"))
            }
            if launch.purgeable.value > 0 { fields.append(("purgeable", "\(launch.purgeable.value)")) }
            if launch.ignoresWarnings { fields.append(("ignoresWarnings", "true")) }
            if launch.oomScoreAdj != 0 { fields.append(("oomScoreAdj", "\(launch.oomScoreAdj)")) }
            if let priority = launch.priority { fields.append(("priority", "\(priority)")) }
        case .home: fields.append(("event", "\"home\""))
        case .interrupt: fields.append(("event", "\"interrupt\""))
        case .interruptEnd(let answered):
            fields.append(("event", "\"interruptEnd\""))
            fields.append(("answered", answered ? "true" : "false"))
        case .lock: fields.append(("event", "\"lock\""))
        case .unlock: fields.append(("event", "\"unlock\""))
        case .allocate(let id, let bytes, let purgeable), .free(let id, let bytes, let purgeable):
            if case .allocate = action { fields.append(("event", "\"allocate\"")) } else { fields.append(("event", "\"free\"")) }
            app(id)
            fields.append(("bytes", "\(bytes.value)"))
            if purgeable { fields.append(("purgeable", "true")) }
        case .showView(let id, let view, let bytes):
            fields.append(("event", "\"showView\""))
            app(id)
            fields.append(("view", Event.json(view)))
            if let bytes { fields.append(("bytes", "\(bytes.value)")) }
        case .hideView(let id, let view):
            fields.append(("event", "\"hideView\""))
            app(id)
            fields.append(("view", Event.json(view)))
        case .beginBackgroundTask(let id, let seconds):
            fields.append(("event", "\"beginBackgroundTask\""))
            app(id)
            fields.append(("seconds", Event.json(seconds)))
        case .userKill(let id):
            fields.append(("event", "\"userKill\""))
            app(id)
        case .notify(let name):
            fields.append(("event", "\"notify\""))
            fields.append(("name", Event.json(name)))
        case .tick: fields.append(("event", "\"tick\""))
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
