import MemoryPressure

/// One record of an Android log that says what the user did or what the system killed:
/// what ``AndroidLogParser`` keeps of `logcat -b events` and `logcat -b main` lines.
public struct AndroidLogRecord: Sendable, Hashable {
    /// When, as the log writes it.
    public struct Time: Sendable, Hashable, Comparable {
        /// The year, when the log gives one (`logcat -v year`); `nil` for logcat's default
        /// `MM-DD` formats.
        public var year: Int?
        /// Day number of the date (days since 1970-01-01 of the date in `year`, or of 2000
        /// when the log gives no year), on the device's clock.
        public var day: Int
        /// Seconds since that day's midnight, on the device's clock.
        public var seconds: Double

        /// Seconds since 1970-01-01 00:00 on the device's clock (year 2000 when none is given).
        public var clock: Double { Double(day) * 86_400 + seconds }

        /// The date as `YYYY-MM-DD`, or `--MM-DD` (ISO 8601's date without a year) when the log
        /// gives no year.
        public var date: String {
            let civil = CivilDate(day: day)
            return year == nil ? "-" + civil.text.drop { $0 != "-" } : civil.text
        }

        /// Whether `a` is earlier than `b` on the device's clock.
        ///
        /// - Complexity: O(1)
        public static func < (a: Time, b: Time) -> Bool { a.clock < b.clock }
    }

    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// An activity of `package` came to the front (`wm_set_resumed_activity`,
        /// `am_set_resumed_activity`, `am_focused_activity`, `wm_resume_activity`,
        /// `am_resume_activity`, `am_restart_activity`).
        case resumed(package: String)
        /// A process started (`am_proc_start`).
        case processStarted(pid: Int, name: String)
        /// ActivityManager killed a process (`am_kill`), with its oom_adj and reason.
        case activityManagerKill(pid: Int, name: String, oomAdj: Int?, reason: String)
        /// lmkd killed a process (its `Kill '…'` line, the older `Killing '…'` line, the kernel
        /// lowmemorykiller's, or the `killinfo` event), with its oom_score_adj, resident KiB and
        /// reason where given; `name` is `nil` when only a pid is known (a `killinfo` event of a
        /// version without the task name, before the process's `am_proc_start`).
        case lowMemoryKill(pid: Int, name: String?, oomScoreAdj: Int?, residentKiB: Int64?, reason: String?)
        /// A process died, for any reason (`am_proc_died`).
        case processDied(pid: Int, name: String)
    }

    /// When.
    public var time: Time
    /// What.
    public var kind: Kind
    /// The 1-based line.
    public var line: Int
}

/// A civil date from a day number (Howard Hinnant's algorithm), and back.
package struct CivilDate: Sendable, Hashable {
    package var year: Int, month: Int, day: Int

    /// The date of day `days` since 1970-01-01.
    package init(day days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 of `year`-`month`-`day`.
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `YYYY-MM-DD` (a year before 1 with its sign).
    package var text: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(abs(value))
            return (value < 0 ? "-" : "") + String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// Days in `month` of `year`.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
