import MemoryPressure

extension Snapshot {
    /// Parses a snapshot from YAML or JSON text (a document starting with `{` is JSON). Every
    /// field is checked: unknown keys, wrong types, unknown states or background modes, duplicate
    /// ids, caches larger than the footprint, a reserve not below the memory — each an
    /// `InputError` naming the file, line, column and field path.
    ///
    /// A document is first read in one streaming pass straight into its apps, with no document
    /// tree (`SnapshotJSONDecoder`, `SnapshotYAMLDecoder`); only when that pass meets
    /// something it does not accept is the document read again by the strict reader, which
    /// builds a tree and words the error. Both apply the same rules (SnapshotFields.swift), so
    /// the result does not depend on which one read the document.
    ///
    /// - Complexity: O(length of `text`)
    public init(text: String, file: String) throws(InputError) {
        if let decoded = Self.streamed(text) {
            self = decoded
            return
        }
        self = try Self.strict(text: text, file: file)
    }

    /// The snapshot the streaming decoders read from `text`, or `nil` if the strict reader must judge.
    ///
    /// - Complexity: O(length of `text`)
    package static func streamed(_ text: String) -> Snapshot? {
        var text = text
        return text.withUTF8 { (bytes) -> Snapshot? in
            let (start, first) = documentStart(bytes)
            guard first < bytes.count else { return nil }
            // The strict reader looks past every kind of white space for the `{`; a document
            // starting with anything but ASCII is left to it.
            switch bytes[first] {
            case UInt8(ascii: "{"): return SnapshotJSONDecoder.decode(bytes, from: first)
            case 0x21...0x7E: return SnapshotYAMLDecoder.decode(UnsafeBufferPointer(rebasing: bytes[start...]))
            default: return nil
            }
        }
    }

    /// Where the document in `bytes` starts: after a UTF-8 byte order mark (`text`), and at its
    /// first byte that is not JSON white space (`first`, `bytes.count` if none).
    ///
    /// - Complexity: O(leading white space)
    static func documentStart(_ bytes: UnsafeBufferPointer<UInt8>) -> (text: Int, first: Int) {
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var first = text
        while first < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[first]) { first += 1 }
        return (text, first)
    }

    /// The strict reader: a document tree (``ConfigNode``), then every field read through
    /// ``ConfigObject``, whose errors name the line, column and key path.
    ///
    /// - Complexity: O(length of `text`)
    package static func strict(text: String, file: String) throws(InputError) -> Snapshot {
        let root: ConfigNode
        let text = InputText.droppingByteOrderMark(text)
        if text.first(where: { !$0.isWhitespace }) == "{" {
            do {
                root = try JSONParser.parse(text)
            } catch {
                throw InputError(file: file, line: error.line, column: error.column, path: "", message: error.message)
            }
        } else {
            root = try ConfigNode.parseYAML(String(text), file: file)
        }
        let document = try ConfigObject(root, file: file)
        let deviceObject = try document.object("device")
        let device = Device(
            memory: try deviceObject.size("memory"), reserved: try deviceObject.optionalSize("reserved") ?? .zero,
            swap: try deviceObject.optionalSize("swap") ?? .zero, swapFree: try deviceObject.optionalSize("swapFree"))
        guard device.reserved < device.memory else {
            throw deviceObject.error(
                "expected \"reserved\" (\(device.reserved.value)) below \"memory\" (\(device.memory.value))")
        }
        if let swapFree = device.swapFree, swapFree > device.swap {
            throw deviceObject.error(
                "expected \"swapFree\" (\(swapFree.value)) at most \"swap\" (\(device.swap.value))")
        }
        try deviceObject.finish()
        var apps: [ResidentApp] = []
        var seen: Set<AppID> = []
        var foreground: (id: AppID, line: Int)? = nil
        for (path, node) in try document.optionalList("apps") ?? [] {
            let object = try ConfigObject(node, file: file, path: path)
            let app = try Self.app(object)
            guard seen.insert(app.id).inserted else {
                throw object.error("app id \"\(app.id.escaped)\" appears twice; ids must be unique")
            }
            if app.state.isForeground {
                if let first = foreground {
                    throw object.error(
                        "a second foreground app (\(app.state.rawValue)): \"\(first.id.escaped)\" on line "
                            + "\(first.line) is already active or inactive, and a device has one foreground app")
                }
                foreground = (app.id, node.line)
            }
            apps.append(app)
        }
        try document.finish()
        return Snapshot(device: device, apps: apps)
    }

    private static func app(_ object: ConfigObject) throws(InputError) -> ResidentApp {
        let id = try object.appID("id")
        let stateNode = try object.required("state", expected: "notRunning, inactive, active, background or suspended")
        let state = try ConfigObject.enumValue(stateNode, AppState.self, object: object, key: "state")
        var app = ResidentApp(id: id, state: state, footprint: try object.size("footprint"))
        app.viewCaches = try object.optionalSize("viewCaches") ?? .zero
        app.purgeable = try object.optionalSize("purgeable") ?? .zero
        if let lastActive = try object.optionalNumber("lastActive", in: 0...InputLimits.maximumTime, unit: "seconds") {
            app.lastActive = lastActive
        }
        for mode in try object.optionalStringList("backgroundModes") ?? [] {
            guard let parsed = BackgroundMode(rawValue: mode) else {
                throw object.error(
                    "key \"backgroundModes\": expected audio, location or voip, found \(mode.quotedExcerpt())")
            }
            app.backgroundModes.insert(BackgroundModes(parsed))
        }
        app.oomScoreAdj = try object.optionalInt("oomScoreAdj", in: -1000...1000)
        app.swap = try object.optionalSize("swap") ?? .zero
        app.pageTables = try object.optionalSize("pageTables") ?? .zero
        app.priority = try object.optionalInt("priority", in: -1_000_000...1_000_000)
        try object.finish()
        guard app.viewCaches.value + app.purgeable.value <= app.footprint.value else {
            throw object.error(
                "expected \"footprint\" (\(app.footprint.value)) to include \"viewCaches\" and \"purgeable\" "
                    + "(\(app.viewCaches.value + app.purgeable.value) together)")
        }
        return app
    }
}
