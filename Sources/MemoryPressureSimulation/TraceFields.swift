import MemoryPressure

/// The fields of one trace line, read with typed accessors that name the line and the field in
/// their errors and remember which fields were used, so unknown ones can be rejected.
struct TraceFields {
    let file: String
    let line: Int
    private var members: [String: JSONValue] = [:]
    private var used: Set<String> = []
    private var order: [String] = []

    init(_ value: JSONValue, file: String, line: Int) throws(TraceError) {
        self.file = file
        self.line = line
        guard case .object(let pairs) = value else {
            throw TraceError(file: file, line: line, message: "expected an object such as {\"t\":0,\"event\":\"home\"}, found \(value.kindDescription)")
        }
        for (key, value) in pairs {
            guard members[key] == nil else { throw TraceError(file: file, line: line, message: "field \"\(key)\" appears twice") }
            members[key] = value
            order.append(key)
        }
    }

    func error(_ message: String) -> TraceError {
        TraceError(file: file, line: line, message: message)
    }

    private mutating func take(_ key: String) -> JSONValue? {
        used.insert(key)
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    private mutating func required(_ key: String, _ expected: String) throws(TraceError) -> JSONValue {
        guard let value = take(key) else { throw error("missing field \"\(key)\": expected \(expected)") }
        return value
    }

    mutating func number(_ key: String) throws(TraceError) -> Double {
        let value = try required(key, "a number")
        guard case .number(let number) = value else {
            throw error("field \"\(key)\": expected a number, found \(value.kindDescription)")
        }
        return number
    }

    mutating func string(_ key: String) throws(TraceError) -> String {
        let value = try required(key, "a string")
        guard case .string(let text) = value else {
            throw error("field \"\(key)\": expected a string, found \(value.kindDescription)")
        }
        return text
    }

    mutating func optionalBool(_ key: String) throws(TraceError) -> Bool? {
        guard let value = take(key) else { return nil }
        guard case .bool(let flag) = value else {
            throw error("field \"\(key)\": expected true or false, found \(value.kindDescription)")
        }
        return flag
    }

    mutating func optionalInt(_ key: String, in range: ClosedRange<Int>) throws(TraceError) -> Int? {
        guard let value = take(key) else { return nil }
        guard case .number(let number) = value, number == number.rounded(), range.contains(Int(exactly: number) ?? .max)
        else {
            throw error("field \"\(key)\": expected an integer in \(range.lowerBound)...\(range.upperBound), found \(value.kindDescription)")
        }
        return Int(number)
    }

    mutating func size(_ key: String) throws(TraceError) -> Bytes {
        let value = try required(key, "a size such as 4096 or \"40MiB\"")
        return try Self.size(value, field: "\"\(key)\"", fields: self)
    }

    mutating func optionalSize(_ key: String) throws(TraceError) -> Bytes? {
        guard let value = take(key) else { return nil }
        return try Self.size(value, field: "\"\(key)\"", fields: self)
    }

    static func size(_ value: JSONValue, field: String, fields: TraceFields) throws(TraceError) -> Bytes {
        switch value {
        case .number(let number) where number >= 0 && number == number.rounded() && number < 9e18:
            return Bytes(Int64(number))
        case .string(let text):
            if let bytes = Bytes(parsing: text) { return bytes }
        default: break
        }
        throw fields.error("field \(field): expected a size such as 4096, \"640KiB\" or \"40MiB\", found \(value.kindDescription)")
    }

    mutating func app() throws(TraceError) -> AppID {
        let id = try string("app")
        guard !id.isEmpty else { throw error("field \"app\": expected a non-empty app id") }
        return AppID(id)
    }

    mutating func rejectUnknown() throws(TraceError) {
        if let unknown = order.first(where: { !used.contains($0) }) {
            throw error("unknown field \"\(unknown)\" for this event")
        }
    }

    /// The action of an `event` name, reading its fields.
    mutating func action(_ event: String) throws(TraceError) -> Action {
        switch event {
        case "launch": return .launch(try launch())
        case "open": return .open(try launch())
        case "home": return .home
        case "interrupt": return .interrupt
        case "interruptEnd": return .interruptEnd(answered: try optionalBool("answered") ?? false)
        case "lock": return .lock
        case "unlock": return .unlock
        case "allocate":
            return .allocate(app: try app(), bytes: try size("bytes"), purgeable: try optionalBool("purgeable") ?? false)
        case "free":
            return .free(app: try app(), bytes: try size("bytes"), purgeable: try optionalBool("purgeable") ?? false)
        case "showView": return .showView(app: try app(), view: try string("view"), bytes: try optionalSize("bytes"))
        case "hideView": return .hideView(app: try app(), view: try string("view"))
        case "beginBackgroundTask":
            let app = try app()
            let seconds = try number("seconds")
            guard seconds >= 0 else { throw error("field \"seconds\": expected a duration ≥ 0, found \(seconds)") }
            return .beginBackgroundTask(app: app, seconds: seconds)
        case "userKill": return .userKill(app: try app())
        case "notify": return .notify(name: try string("name"))
        case "tick": return .tick
        default:
            throw error(
                "field \"event\": unknown event \"\(event)\"; expected device, launch, open, home, interrupt, "
                    + "interruptEnd, lock, unlock, allocate, free, showView, hideView, beginBackgroundTask, userKill, notify or tick")
        }
    }

    private mutating func launch() throws(TraceError) -> AppLaunch {
        let id = try app()
        var launch = AppLaunch(id: id, footprint: try size("footprint"))
        if let modes = take("backgroundModes") {
            guard case .array(let values) = modes else {
                throw error("field \"backgroundModes\": expected an array such as [\"audio\"], found \(modes.kindDescription)")
            }
            for value in values {
                guard case .string(let name) = value, let mode = BackgroundMode(rawValue: name) else {
                    throw error("field \"backgroundModes\": expected audio, location or voip, found \(value.kindDescription)")
                }
                launch.backgroundModes.insert(BackgroundModes(mode))
            }
        }
        launch.exitsOnSuspend = try optionalBool("exitsOnSuspend") ?? false
        launch.ignoresWarnings = try optionalBool("ignoresWarnings") ?? false
        launch.purgeable = try optionalSize("purgeable") ?? .zero
        launch.oomScoreAdj = try optionalInt("oomScoreAdj", in: -1000...1000) ?? 0
        launch.priority = try optionalInt("priority", in: -1_000_000...1_000_000)
        if let views = take("views") {
            guard case .array(let values) = views else {
                throw error("field \"views\": expected an array of {\"name\":…,\"bytes\":…}, found \(views.kindDescription)")
            }
            for (position, value) in values.enumerated() {
                let field = "\"views[\(position)]\""
                guard case .object(let pairs) = value,
                    let nameValue = pairs.first(where: { $0.key == "name" })?.value,
                    case .string(let name) = nameValue,
                    let bytesValue = pairs.first(where: { $0.key == "bytes" })?.value
                else {
                    throw error("field \(field): expected an object with a string \"name\" and a size \"bytes\"")
                }
                if let unknown = pairs.first(where: { $0.key != "name" && $0.key != "bytes" }) {
                    throw error("field \(field): unknown field \"\(unknown.key)\"; expected name and bytes")
                }
                guard !launch.views.contains(where: { $0.name == name }) else {
                    throw error("field \(field): view \"\(name)\" appears twice")
                }
                launch.views.append(ViewSpec(name: name, bytes: try Self.size(bytesValue, field: field + ".bytes", fields: self)))
            }
        }
        let parts = launch.views.reduce(launch.purgeable.value) { $0 + $1.bytes.value }
        guard parts <= launch.footprint.value else {
            throw error("field \"footprint\": expected at least the views and purgeable caches (\(parts) bytes), found \(launch.footprint.value)")
        }
        return launch
    }
}
