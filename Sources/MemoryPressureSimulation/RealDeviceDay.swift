import MemoryPressure
import MemoryPressureFormats

/// A day of a real Android device, rebuilt from its logs (`AndroidLogParser`): what the user
/// brought to the front, as a trace to replay, and what the system really killed — the two
/// halves ``KillValidation`` sets against each other.
public struct RealDeviceDay: Sendable {
    /// One real kill.
    public struct Kill: Sendable, Hashable {
        /// Seconds since the day's midnight, on the device's clock.
        public var time: Double
        /// The app: the killed process's package (a process `com.example:remote` is the app
        /// `com.example`).
        public var app: AppID
        /// Who killed it: `lmkd` or `ActivityManager`.
        public var killer: String
        /// Why, as the log says (`empty #17`, lmkd's reason), or empty.
        public var reason: String
        /// The line of the log.
        public var line: Int

        /// A kill of `app` at `time` by `killer`.
        ///
        /// - Complexity: O(1)
        public init(time: Double, app: AppID, killer: String, reason: String, line: Int) {
            self.time = time
            self.app = app
            self.killer = killer
            self.reason = reason
            self.line = line
        }
    }

    /// The date (`2023-11-14`, or `--11-14` when the log gives no year).
    public var date: String
    /// The user's actions: an `open` of each package brought to the front, from midnight.
    public var trace: Trace
    /// The kills of apps the trace had opened before them, in time order. Kills of processes
    /// the user never opened that day (services, system processes) cannot be matched by a
    /// replay and are counted in ``unmatchableKills`` instead.
    public var kills: [Kill]
    /// Kills of processes the trace had not opened before them.
    public var unmatchableKills: Int

    /// A day of `trace` and `kills`.
    ///
    /// - Complexity: O(1)
    public init(date: String, trace: Trace, kills: [Kill], unmatchableKills: Int) {
        self.date = date
        self.trace = trace
        self.kills = kills
        self.unmatchableKills = unmatchableKills
    }

    /// How close (seconds) two kill records of one pid must be to be one kill: lmkd writes both
    /// its kill line and its `killinfo` event for each kill.
    public static let sameKillSeconds = 5.0

    /// The days of `records` (in log order), one per date on the device's clock. Every app gets
    /// the stable footprint the usage-log import gives its name (drawn from `workload`). A
    /// resume of the app already in front is not another open.
    ///
    /// - Complexity: O(records + apps)
    public static func days(_ records: [AndroidLogRecord], workload: Workload = .phone) -> [RealDeviceDay] {
        var byDay: [Int: [AndroidLogRecord]] = [:]
        var order: [Int] = []
        for record in records {
            if byDay[record.time.day] == nil { order.append(record.time.day) }
            byDay[record.time.day, default: []].append(record)
        }
        var launches: [String: AppLaunch] = [:]
        return order.sorted().map { day in
            let records = byDay[day]!.enumerated().sorted {
                ($0.element.time.seconds, $0.offset) < ($1.element.time.seconds, $1.offset)
            }.map(\.element)
            var entries: [Trace.Entry] = []
            var opened: Set<String> = []
            var foreground: String?
            var kills: [Kill] = []
            var unmatchable = 0
            var lastKill: [Int: Double] = [:]
            var names: [Int: String] = [:]
            for record in records {
                let time = record.time.seconds
                func kill(pid: Int, name: String?, killer: String, reason: String) {
                    if let last = lastKill[pid], time - last <= sameKillSeconds { return }
                    lastKill[pid] = time
                    guard let name = name ?? names[pid] else {
                        unmatchable += 1
                        return
                    }
                    let package = String(name.prefix { $0 != ":" })
                    guard opened.contains(package) else {
                        unmatchable += 1
                        return
                    }
                    kills.append(
                        Kill(time: time, app: AppID(package), killer: killer, reason: reason, line: record.line))
                    if foreground == package { foreground = nil }
                }
                switch record.kind {
                case .resumed(let package):
                    guard foreground != package else { continue }
                    let launch =
                        launches[package]
                        ?? {
                            let made = UsageLogImport.launch(for: package, workload: workload)
                            launches[package] = made
                            return made
                        }()
                    entries.append(Trace.Entry(time: time, action: .open(launch), line: record.line))
                    opened.insert(package)
                    foreground = package
                case .processStarted(let pid, let name):
                    names[pid] = name
                case .activityManagerKill(let pid, let name, _, let reason):
                    kill(pid: pid, name: name, killer: "ActivityManager", reason: reason)
                case .lowMemoryKill(let pid, let name, _, _, let reason):
                    kill(pid: pid, name: name, killer: "lmkd", reason: reason ?? "")
                case .processDied:
                    continue
                }
            }
            let date = records.first?.time.date ?? ""
            return RealDeviceDay(
                date: date, trace: Trace(device: workload.device, entries: entries), kills: kills,
                unmatchableKills: unmatchable)
        }
    }
}
