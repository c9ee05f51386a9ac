import MemoryPressure

/// Reads the fields of one trace line into an action, with errors naming the line and field.
struct TraceLineReader {
    let fields: ConfigObject
    let line: Int

    func error(_ message: String) -> InputError {
        InputError(file: fields.file, line: line, column: 0, path: "", message: message)
    }

    private func error(_ key: String, _ message: String) -> InputError {
        InputError(file: fields.file, line: line, column: 0, path: key, message: message)
    }

    func finish() throws(InputError) {
        try fields.finish()
    }

    /// The line's time `t`, which must not be before `previous`.
    func time(after previous: Double) throws(InputError) -> Double {
        guard let time = try fields.optionalNumber("t") else {
            throw error("missing field \"t\": expected a time in seconds")
        }
        guard time >= 0 else { throw error("t", "expected a time ≥ 0 in seconds, found \(Event.json(time))") }
        guard time >= previous else {
            throw error("t", "time \(Event.json(time)) is before the previous line's \(Event.json(previous))")
        }
        return time
    }

    func device() throws(InputError) -> Device {
        let device = Device(
            memory: try fields.size("memory"), reserved: try fields.optionalSize("reserved") ?? .zero,
            swap: try fields.optionalSize("swap") ?? .zero, swapFree: try fields.optionalSize("swapFree"))
        guard device.reserved < device.memory else { throw error("reserved", "expected less than \"memory\"") }
        if let swapFree = device.swapFree, swapFree > device.swap {
            throw error("swapFree", "expected at most \"swap\"")
        }
        return device
    }

    private func app() throws(InputError) -> AppID {
        let id = try fields.string("app")
        guard !id.isEmpty else { throw error("app", "expected a non-empty app id") }
        return AppID(id)
    }

    /// The action of the `event` name, reading its fields.
    func action(_ event: String) throws(InputError) -> Action {
        switch event {
        case "launch": return .launch(try launch())
        case "open": return .open(try launch())
        case "home": return .home
        case "interrupt": return .interrupt
        case "interruptEnd": return .interruptEnd(answered: try fields.optionalBool("answered") ?? false)
        case "lock": return .lock
        case "unlock": return .unlock
        case "allocate":
            return .allocate(
                app: try app(), bytes: try fields.size("bytes"),
                purgeable: try fields.optionalBool("purgeable") ?? false)
        case "free":
            return .free(
                app: try app(), bytes: try fields.size("bytes"),
                purgeable: try fields.optionalBool("purgeable") ?? false)
        case "showView":
            return .showView(app: try app(), view: try fields.string("view"), bytes: try fields.optionalSize("bytes"))
        case "hideView": return .hideView(app: try app(), view: try fields.string("view"))
        case "beginBackgroundTask":
            let app = try app()
            guard let seconds = try fields.optionalNumber("seconds"), seconds >= 0 else {
                throw error("seconds", "expected a duration ≥ 0 in seconds")
            }
            return .beginBackgroundTask(app: app, seconds: seconds)
        case "userKill": return .userKill(app: try app())
        case "notify": return .notify(name: try fields.string("name"))
        case "tick": return .tick
        default:
            throw error(
                "event",
                "unknown event \"\(event)\"; expected device, launch, open, home, interrupt, interruptEnd, lock, "
                    + "unlock, allocate, free, showView, hideView, beginBackgroundTask, userKill, notify or tick")
        }
    }

    private func launch() throws(InputError) -> AppLaunch {
        var launch = AppLaunch(id: try app(), footprint: try fields.size("footprint"))
        for mode in try fields.optionalStringList("backgroundModes") ?? [] {
            guard let parsed = BackgroundMode(rawValue: mode) else {
                throw error("backgroundModes", "expected audio, location or voip, found \"\(mode)\"")
            }
            launch.backgroundModes.insert(BackgroundModes(parsed))
        }
        launch.exitsOnSuspend = try fields.optionalBool("exitsOnSuspend") ?? false
        launch.ignoresWarnings = try fields.optionalBool("ignoresWarnings") ?? false
        launch.purgeable = try fields.optionalSize("purgeable") ?? .zero
        launch.oomScoreAdj = try fields.optionalInt("oomScoreAdj", in: -1000...1000)
        launch.priority = try fields.optionalInt("priority", in: -1_000_000...1_000_000)
        for (path, node) in try fields.optionalList("views") ?? [] {
            let view = try ConfigObject(node, file: fields.file, path: path)
            let name = try view.string("name")
            let bytes = try view.size("bytes")
            try view.finish()
            guard !launch.views.contains(where: { $0.name == name }) else {
                throw error(path, "view \"\(name)\" appears twice")
            }
            launch.views.append(ViewSpec(name: name, bytes: bytes))
        }
        let parts = launch.views.reduce(launch.purgeable.value) { $0 + $1.bytes.value }
        guard parts <= launch.footprint.value else {
            throw error(
                "footprint",
                "expected at least the views and purgeable caches (\(parts) bytes), found \(launch.footprint.value)")
        }
        return launch
    }
}
