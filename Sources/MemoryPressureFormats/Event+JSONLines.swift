import MemoryPressure

// The event log's JSON Lines form (docs/DESIGN.md, "Event log"): fixed key order, integer bytes, so the
// same log always serialises to the same bytes.

extension Event {
    /// This event as one line of JSON (without the newline), in the contract's key order.
    ///
    /// - Complexity: O(length of the line)
    public var jsonLine: String {
        var line = "{\"t\":" + Self.json(time)
        switch kind {
        case .callback(let app, let name, let level):
            line += ",\"type\":\"callback\",\"app\":" + Self.json(app.rawValue) + ",\"name\":\"\(name.rawValue)\""
            if let level { line += ",\"level\":\(level)" }
        case .viewCallback(let app, let view, let name):
            line += ",\"type\":\"viewCallback\",\"app\":" + Self.json(app.rawValue) + ",\"view\":" + Self.json(view)
            line += ",\"name\":\"\(name.rawValue)\""
        case .state(let app, let from, let to):
            line += ",\"type\":\"state\",\"app\":" + Self.json(app.rawValue)
            line += ",\"from\":\"\(from.rawValue)\",\"to\":\"\(to.rawValue)\""
        case .level(let from, let to, let free):
            line += ",\"type\":\"level\",\"from\":\"\(from.name)\",\"to\":\"\(to.name)\",\"free\":\(free.value)"
        case .purge(let app, let what, let freed):
            line += ",\"type\":\"purge\",\"app\":" + Self.json(app.rawValue)
            line += ",\"what\":\"\(what.rawValue)\",\"freed\":\(freed.value)"
        case .kill(let app, let state, let reason, let notice, let freed):
            line += ",\"type\":\"kill\",\"app\":" + Self.json(app.rawValue) + ",\"state\":\"\(state.rawValue)\""
            line += ",\"reason\":" + Self.json(reason) + ",\"notice\":\"\(notice.rawValue)\",\"freed\":\(freed.value)"
        case .notification(let app, let name, let count):
            line += ",\"type\":\"notification\",\"app\":" + Self.json(app.rawValue) + ",\"name\":" + Self.json(name)
            line += ",\"count\":\(count)"
        case .compress(let app, let bytes, let stored, let evicted, let seconds):
            line += ",\"type\":\"compress\",\"app\":" + Self.json(app.rawValue) + ",\"bytes\":\(bytes.value)"
            line += ",\"stored\":\(stored.value),\"evicted\":\(evicted.value),\"seconds\":" + Self.json(seconds)
        case .decompress(let app, let bytes, let stored, let refaulted, let seconds):
            line += ",\"type\":\"decompress\",\"app\":" + Self.json(app.rawValue) + ",\"bytes\":\(bytes.value)"
            line += ",\"stored\":\(stored.value),\"refaulted\":\(refaulted.value),\"seconds\":" + Self.json(seconds)
        case .freeze(let app, let bytes, let seconds):
            line += ",\"type\":\"freeze\",\"app\":" + Self.json(app.rawValue) + ",\"bytes\":\(bytes.value)"
            line += ",\"seconds\":" + Self.json(seconds)
        case .thaw(let app, let bytes, let seconds):
            line += ",\"type\":\"thaw\",\"app\":" + Self.json(app.rawValue) + ",\"bytes\":\(bytes.value)"
            line += ",\"seconds\":" + Self.json(seconds)
        case .writeback(let app, let bytes, let stored):
            line += ",\"type\":\"writeback\",\"app\":" + Self.json(app.rawValue) + ",\"bytes\":\(bytes.value)"
            line += ",\"stored\":\(stored.value)"
        case .prewarm(let app, let bytes):
            line += ",\"type\":\"prewarm\",\"app\":" + Self.json(app.rawValue) + ",\"bytes\":\(bytes.value)"
        case .pressure(let crossing):
            line += ",\"type\":\"pressure\",\"resource\":" + Self.json(crossing.resource)
            line += ",\"stall\":\"\(crossing.stall.rawValue)\",\"window\":" + Self.json(crossing.window)
            line += ",\"percent\":" + Self.json(Self.hundredths(crossing.percent))
            line += ",\"threshold\":" + Self.json(Self.hundredths(crossing.threshold))
            line +=
                ",\"direction\":\"\(crossing.direction.rawValue)\",\"total\":" + Self.json(Self.micro(crossing.total))
            if let some = crossing.someAverages { line += ",\"some\":" + Self.json(some) }
            if let full = crossing.fullAverages { line += ",\"full\":" + Self.json(full) }
        }
        return line + "}"
    }

    /// PSI's running averages as a JSON object, `/proc/pressure/memory`'s names and two decimals:
    /// `{"avg10":12.5,"avg60":3.41,"avg300":0.72}`.
    ///
    /// - Complexity: O(1)
    public static func json(_ averages: PressureStallAverages) -> String {
        "{\"avg10\":" + json(hundredths(averages.avg10)) + ",\"avg60\":" + json(hundredths(averages.avg60))
            + ",\"avg300\":" + json(hundredths(averages.avg300)) + "}"
    }

    /// A percentage rounded to two decimals, as `/proc/pressure/memory` prints its averages.
    static func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    /// Seconds rounded to the microsecond, PSI's `total` unit.
    static func micro(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }

    /// A number as JSON: an integer when whole (`5`), otherwise the shortest decimal (`2.5`).
    ///
    /// - Complexity: O(1)
    public static func json(_ time: Double) -> String { number(time) }

    /// A JSON string literal with the required escapes.
    ///
    /// - Complexity: O(length of `string`)
    public static func json(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _
            where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
                || scalar == "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
