/// The layout family of an app-usage log (docs/usage-logs.md, "Layouts").
public enum UsageLogFormat: Sendable, Hashable, CustomStringConvertible {
    /// Rows of events with a header naming the columns: the common form (`Opened`/`Closed`),
    /// LSApp's TSV, Android UsageStatsManager events.
    case events
    /// Polled foreground samples: `TIME,PACKAGE` rows, each the app a collector saw in front when
    /// it polled (`2023-12-14 13:46:39.876000,com.snapchat.android`), with no header or with a
    /// header of a time and an app column only.
    case polledSamples
    /// An export of the Android "App Usage" app: `"App name","Date","Time","Duration"`, a row a
    /// session (its start and length) or a row of another kind (screen, notification, device),
    /// dates in the phone's locale, labels in its language. `dateOrder` forces the order of the
    /// day and the month in a date; `nil` decides it from the file's dates.
    case appUsage(dateOrder: DateOrder?)

    /// The order of the day and the month in a date such as `12/5/19`.
    public enum DateOrder: String, Sendable, Hashable, CaseIterable {
        /// `12/5/19` is December 5 (the United States).
        case monthFirst
        /// `12/5/19` is 12 May (most other locales).
        case dayFirst
    }

    /// The names `--usage-log-format` accepts, besides `auto`.
    public static let names = ["events", "polled", "app-usage", "app-usage-month-first", "app-usage-day-first"]

    /// The format `name` (one of ``names``) stands for, or `nil`.
    ///
    /// - Complexity: O(1)
    public init?(name: String) {
        switch name {
        case "events": self = .events
        case "polled": self = .polledSamples
        case "app-usage": self = .appUsage(dateOrder: nil)
        case "app-usage-month-first": self = .appUsage(dateOrder: .monthFirst)
        case "app-usage-day-first": self = .appUsage(dateOrder: .dayFirst)
        default: return nil
        }
    }

    /// The format's name, as ``names`` lists it.
    public var description: String {
        switch self {
        case .events: "events"
        case .polledSamples: "polled"
        case .appUsage(nil): "app-usage"
        case .appUsage(.monthFirst): "app-usage-month-first"
        case .appUsage(.dayFirst): "app-usage-day-first"
        }
    }

    /// The event-column names of the event layouts: a header holding one is an event log.
    static let eventColumnNames = ["event", "event_type", "eventtype", "action", "type"]
    /// The time-column names of the event layouts.
    static let timeColumnNames = [
        "timestamp", "time", "t", "time_stamp", "event_time", "timestamp_ms", "time_ms", "ms", "timestamp(ms)",
        "time_stamp_ms",
    ]
    /// The user-column names of the event layouts.
    static let userColumnNames = ["user", "user_id", "userid", "uid", "participant", "participant_id", "device_id"]
    /// The app-column names of the event layouts.
    static let appColumnNames = ["app", "app_name", "package", "package_name", "packagename", "application"]

    /// The format of a log whose first line is `line`:
    ///
    /// - two comma-separated fields, the first a time (a date and time, or a number) and the
    ///   second not, or a header of a time and an app column only: ``polledSamples``;
    /// - four fields, none of them the name of a column of the event layouts but `time` (`event`,
    ///   `type`, `user`, `app`, `package`, `timestamp`, …): ``appUsage(dateOrder:)``,
    ///   whatever the language of the header (the App Usage app writes `App name, Date, Time,
    ///   Duration`), and a first row that is already a session is read as one;
    /// - anything else (a tab, a header with an event column): ``events``.
    ///
    /// - Complexity: O(length of `line`)
    public static func detect(firstLine line: String) -> UsageLogFormat {
        let text = String(line.unicodeScalars.filter { $0 != "\0" && $0 != "\r" })
        if text.contains("\t") { return .events }
        let raw = splitCSV(text).map { $0.trimmingWhitespaceAndTabs() }
        let fields = raw.map { AppKindTable.key($0) }
        if fields.contains(where: eventColumnNames.contains) { return .events }
        if fields.count == 2 {
            if UsageLogImport.timestamp(raw[0], milliseconds: nil) != nil,
                UsageLogImport.timestamp(raw[1], milliseconds: nil) == nil, Double(raw[1]) == nil
            {
                return .polledSamples
            }
            if timeColumnNames.contains(fields[0]) && appColumnNames.contains(fields[1]) { return .polledSamples }
        }
        // Four fields, unless they name the columns of an event log that lacks its event column
        // (whose reader then says so).
        let eventLogNames = userColumnNames + appColumnNames + timeColumnNames.filter { $0 != "time" && $0 != "t" }
        if fields.count == 4 && !fields.contains(where: eventLogNames.contains) { return .appUsage(dateOrder: nil) }
        return .events
    }

    /// The fields of one CSV line (quotes as RFC 4180: `"a, b"`, `""`), for detection only.
    static func splitCSV(_ line: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var iterator = line.makeIterator()
        var pending: Character? = nil
        while let character = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if character == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { current.append("\"") } else { quoted = false; pending = next }
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(character)
                }
            } else if character == "\"" && current.allSatisfy({ $0 == " " }) {
                current = ""
                quoted = true
            } else if character == "," {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
