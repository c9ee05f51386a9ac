import MemoryPressure

/// Imports real app-usage logs in the common form `user, session, timestamp, app, event` with
/// `Opened`/`Closed` events (CSV or TSV, with a header row), mapping each user's day to a trace.
public enum UsageLogImport {
    /// One user's trace, ready to replay.
    public struct UserTrace: Sendable {
        /// The user's id as the log writes it.
        public var user: String
        /// The trace: `open` for each Opened, `home` for a Closed of the foreground app.
        public var trace: Trace
    }

    /// Parses `text` (the separator is detected from the header: tab or comma). Timestamps are
    /// seconds (integers or decimals) or ISO 8601 dates (`2016-05-03T08:15:00Z` or with a space).
    /// Apps get footprints from `catalogue` (by app name) or, for unknown names, a stable size
    /// drawn from `workload`'s footprint distribution, so imports are deterministic.
    ///
    /// - Throws: ``InputError`` naming the file, line and column (field) of the first bad row.
    public static func parse(
        _ text: String, file: String, workload: Workload = .phone
    ) throws(InputError) -> [UserTrace] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let header = lines.first else {
            throw InputError(
                file: file, line: 1, column: 1, path: "",
                message: "expected a header row: user, session, timestamp, app, event")
        }
        let separator: Character = header.contains("\t") ? "\t" : ","
        let columns = header.split(separator: separator, omittingEmptySubsequences: false).map {
            $0.trimmed.lowercased()
        }
        func column(_ names: [String]) throws(InputError) -> Int {
            guard let index = columns.firstIndex(where: { names.contains($0) }) else {
                throw InputError(
                    file: file, line: 1, column: 1, path: "",
                    message:
                        "expected a column named \(names[0]) in the header, found \(columns.joined(separator: ", "))")
            }
            return index
        }
        let userColumn = try column(["user", "user_id", "userid"])
        let timeColumn = try column(["timestamp", "time", "t"])
        let appColumn = try column(["app", "app_name", "package", "application"])
        let eventColumn = try column(["event", "event_type", "action"])

        struct Row { var time: Double; var app: String; var opened: Bool; var line: Int }
        var rowsByUser: [String: [Row]] = [:]
        var userOrder: [String] = []
        for (offset, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let number = offset + 1
            let fields = line.split(separator: separator, omittingEmptySubsequences: false).map { $0.trimmed }
            guard fields.count >= columns.count else {
                throw InputError(
                    file: file, line: number, column: line.count + 1, path: "",
                    message: "expected \(columns.count) fields, found \(fields.count)")
            }
            func columnOffset(_ index: Int) -> Int {
                fields.prefix(index).reduce(1) { $0 + $1.count + 1 }
            }
            guard let time = Self.seconds(fields[timeColumn]) else {
                throw InputError(
                    file: file, line: number, column: columnOffset(timeColumn), path: columns[timeColumn],
                    message: "expected seconds or an ISO 8601 time, found \"\(fields[timeColumn])\"")
            }
            let event = fields[eventColumn].lowercased()
            guard event == "opened" || event == "closed" else {
                throw InputError(
                    file: file, line: number, column: columnOffset(eventColumn), path: columns[eventColumn],
                    message: "expected Opened or Closed, found \"\(fields[eventColumn])\"")
            }
            guard !fields[appColumn].isEmpty else {
                throw InputError(
                    file: file, line: number, column: columnOffset(appColumn), path: columns[appColumn],
                    message: "expected an app name")
            }
            let user = fields[userColumn]
            if rowsByUser[user] == nil { userOrder.append(user) }
            rowsByUser[user, default: []].append(
                Row(time: time, app: fields[appColumn], opened: event == "opened", line: number))
        }

        return userOrder.map { user in
            let rows = rowsByUser[user]!.enumerated().sorted {
                ($0.element.time, $0.offset) < ($1.element.time, $1.offset)
            }.map(\.element)
            let origin = rows.first?.time ?? 0
            var entries: [Trace.Entry] = []
            var foreground: String? = nil
            for row in rows {
                let time = row.time - origin
                if row.opened {
                    guard foreground != row.app else { continue }
                    entries.append(
                        Trace.Entry(time: time, action: .open(launch(for: row.app, workload: workload)), line: row.line)
                    )
                    foreground = row.app
                } else if foreground == row.app {
                    entries.append(Trace.Entry(time: time, action: .home, line: row.line))
                    foreground = nil
                }
            }
            return UserTrace(user: user, trace: Trace(device: workload.device, entries: entries))
        }
    }

    /// A stable launch for an app name: its footprint is drawn from the workload's distribution
    /// with a generator seeded by the name, so the same name always gets the same size.
    static func launch(for name: String, workload: Workload) -> AppLaunch {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        var random = SeededGenerator(seed: hash)
        let views = [ViewSpec(name: "main", bytes: Bytes(Int64(workload.viewBytes.sample(using: &random))))]
        let purgeable = Bytes(Int64(workload.purgeable.sample(using: &random)))
        let base = Bytes(Int64(workload.footprint.sample(using: &random)))
        return AppLaunch(
            id: AppID(name), footprint: base + views[0].bytes + purgeable, views: views, purgeable: purgeable)
    }

    /// Seconds from a number or an ISO 8601 date-time (UTC or with an offset).
    static func seconds(_ text: String) -> Double? {
        if let value = Double(text), value.isFinite { return value }
        // YYYY-MM-DD[T ]HH:MM:SS[.fff][Z|±HH:MM]
        let characters = Array(text)
        guard characters.count >= 19 else { return nil }
        func number(_ start: Int, _ length: Int) -> Int? { Int(String(characters[start..<start + length])) }
        guard let year = number(0, 4), characters[4] == "-", let month = number(5, 2), characters[7] == "-",
            let day = number(8, 2), characters[10] == "T" || characters[10] == " ", let hour = number(11, 2),
            characters[13] == ":", let minute = number(14, 2), characters[16] == ":", let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < characters.count, characters[index] == "." {
            var digits = ""
            index += 1
            while index < characters.count, characters[index].isNumber {
                digits.append(characters[index])
                index += 1
            }
            fraction = Double("0." + digits) ?? 0
        }
        var offset = 0
        if index < characters.count {
            let sign = characters[index]
            if sign == "Z" {
                index += 1
            } else if sign == "+" || sign == "-", characters.count >= index + 6, let h = number(index + 1, 2),
                let m = number(index + 4, 2)
            {
                offset = (h * 3600 + m * 60) * (sign == "+" ? 1 : -1)
                index += 6
            } else {
                return nil
            }
        }
        guard index == characters.count else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm), UTC.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }
}

extension Substring {
    /// The text without surrounding spaces, tabs and quotes.
    fileprivate var trimmed: String {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" || first == "\"" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\"" { slice.removeLast() }
        return String(slice)
    }
}
