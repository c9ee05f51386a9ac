import MemoryPressure
import MemoryPressureFormats

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
        guard time >= 0, time <= InputLimits.maximumTime else {
            throw error("t", "expected a time from 0 to 1e12 seconds, found \(Event.json(time))")
        }
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
        try fields.appID("app")
    }

    /// The action of the `event` name, reading its fields.
    /// The action of the `event` name, reading its fields; `launchedBefore` holds the last launch
    /// description of every app the trace launched on earlier lines.
    func action(_ event: String, launchedBefore: [AppID: AppLaunch] = [:]) throws(InputError) -> Action {
        switch event {
        case "launch": return .launch(try launch(launchedBefore))
        case "open": return .open(try launch(launchedBefore))
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
            guard let seconds = try fields.optionalNumber("seconds", in: 0...InputLimits.maximumTime, unit: "seconds")
            else { throw error("seconds", "expected a duration from 0 to 1e12 seconds") }
            return .beginBackgroundTask(app: app, seconds: seconds)
        case "useBackgroundModes":
            return .useBackgroundModes(app: try app(), modes: try modes("modes", required: true))
        case "userKill": return .userKill(app: try app())
        case "notify": return .notify(name: try fields.string("name"))
        case "tick": return .tick
        default:
            throw error(
                "event",
                "unknown event \(event.quotedExcerpt()); expected device, launch, open, home, interrupt, interruptEnd, lock, "
                    + "unlock, allocate, free, showView, hideView, beginBackgroundTask, useBackgroundModes, userKill, "
                    + "notify or tick")
        }
    }

    /// A list of background mode names under `key`.
    private func modes(_ key: String, required: Bool = false) throws(InputError) -> BackgroundModes {
        guard let names = try fields.optionalStringList(key) else {
            if required { throw error(key, "expected a list of background modes: [], [audio], [location], [voip]") }
            return []
        }
        var modes: BackgroundModes = []
        for mode in names {
            guard let parsed = BackgroundMode(rawValue: mode) else {
                throw error(key, "expected audio, location or voip, found \(mode.quotedExcerpt())")
            }
            modes.insert(BackgroundModes(parsed))
        }
        return modes
    }

    private func launch(_ launchedBefore: [AppID: AppLaunch]) throws(InputError) -> AppLaunch {
        let id = try app()
        // Without a footprint, the app's last launch description; for an app the trace has not
        // launched before, reading the footprint reports it missing.
        if fields.optional("footprint") == nil, let known = launchedBefore[id] { return known }
        var launch = AppLaunch(id: id, footprint: try fields.size("footprint"))
        launch.backgroundModes = try modes("backgroundModes")
        launch.exitsOnSuspend = try fields.optionalBool("exitsOnSuspend") ?? false
        launch.ignoresWarnings = try fields.optionalBool("ignoresWarnings") ?? false
        launch.purgeable = try fields.optionalSize("purgeable") ?? .zero
        launch.oomScoreAdj = try fields.optionalInt("oomScoreAdj", in: -1000...1000)
        launch.priority = try fields.optionalInt("priority", in: -1_000_000...1_000_000)
        var viewNames: Set<String> = []
        for (path, node) in try fields.optionalList("views") ?? [] {
            let view = try ConfigObject(node, file: fields.file, path: path)
            let name = try view.string("name")
            let bytes = try view.size("bytes")
            try view.finish()
            guard viewNames.insert(name).inserted else {
                throw error(path, "view \(name.quotedExcerpt()) appears twice")
            }
            launch.views.append(ViewSpec(name: name, bytes: bytes))
        }
        // Each part is at most Bytes.maximum (2^50): the sum cannot overflow before it passes the footprint.
        var parts = launch.purgeable.value
        for view in launch.views where parts <= launch.footprint.value { parts += view.bytes.value }
        guard parts <= launch.footprint.value else {
            throw error(
                "footprint",
                "expected at least the views and purgeable caches (\(parts) bytes), found \(launch.footprint.value)")
        }
        return launch
    }
}
