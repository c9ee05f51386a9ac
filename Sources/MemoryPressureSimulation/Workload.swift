import MemoryPressure

/// A description of how a device is used, from which ``WorkloadGenerator`` makes traces: the
/// device, a catalogue of apps (sizes, background modes, views, caches) and the user's habits.
/// Every field has a default (``Workload/phone``); a workload file overrides any of them.
public struct Workload: Sendable, Hashable {
    /// The workload's name, for reports.
    public var name: String
    /// The device.
    public var device: Device
    /// How many apps are installed.
    public var apps: Int
    /// App footprint at launch.
    public var footprint: LogNormal
    /// Share of apps that declare each background mode (0...1).
    public var backgroundModeShares: [BackgroundMode: Double]
    /// Share of apps that opt out of multitasking.
    public var exitsOnSuspendShare: Double
    /// Share of apps whose handlers ignore memory warnings.
    public var ignoresWarningsShare: Double
    /// How many view controllers an app has (inclusive range).
    public var viewCount: ClosedRange<Int>
    /// Size of one view.
    public var viewBytes: LogNormal
    /// Purgeable caches at launch.
    public var purgeable: LogNormal
    /// Simulated duration, in hours.
    public var hours: Double
    /// Zipf exponent of app popularity.
    public var popularity: Double
    /// App switches per hour of use.
    public var switchesPerHour: Double
    /// Interruptions (calls, alerts) per hour of use; a third are answered.
    public var interruptionsPerHour: Double
    /// Locks (sleep button) per hour of use.
    public var locksPerHour: Double
    /// How long the device stays locked.
    public var lockSeconds: LogNormal
    /// View switches per minute in the foreground app.
    public var viewSwitchesPerMinute: Double
    /// Memory growth of the foreground app, in bytes per minute.
    public var growthPerMinute: Bytes
    /// Share of app exits that start a background task first.
    public var backgroundTaskShare: Double
    /// Length of a background task.
    public var backgroundTaskSeconds: Double
    /// Apps launched (and sent home) at the start, so the run begins with a full device (servers).
    public var preload: Int
    /// Share of sessions that end with Home and an idle pause (about 5 minutes on average)
    /// rather than a switch to the next app.
    public var homeShare: Double

    /// A workload; see each property. ``phone`` has the defaults.
    public init(
        name: String, device: Device, apps: Int, footprint: LogNormal, backgroundModeShares: [BackgroundMode: Double],
        exitsOnSuspendShare: Double, ignoresWarningsShare: Double, viewCount: ClosedRange<Int>, viewBytes: LogNormal,
        purgeable: LogNormal, hours: Double, popularity: Double, switchesPerHour: Double, interruptionsPerHour: Double,
        locksPerHour: Double, lockSeconds: LogNormal, viewSwitchesPerMinute: Double, growthPerMinute: Bytes,
        backgroundTaskShare: Double, backgroundTaskSeconds: Double, preload: Int, homeShare: Double
    ) {
        self.name = name
        self.device = device
        self.apps = apps
        self.footprint = footprint
        self.backgroundModeShares = backgroundModeShares
        self.exitsOnSuspendShare = exitsOnSuspendShare
        self.ignoresWarningsShare = ignoresWarningsShare
        self.viewCount = viewCount
        self.viewBytes = viewBytes
        self.purgeable = purgeable
        self.hours = hours
        self.popularity = popularity
        self.switchesPerHour = switchesPerHour
        self.interruptionsPerHour = interruptionsPerHour
        self.locksPerHour = locksPerHour
        self.lockSeconds = lockSeconds
        self.viewSwitchesPerMinute = viewSwitchesPerMinute
        self.growthPerMinute = growthPerMinute
        self.backgroundTaskShare = backgroundTaskShare
        self.backgroundTaskSeconds = backgroundTaskSeconds
        self.preload = preload
        self.homeShare = homeShare
    }

    /// The built-in default: a day of a 512 MiB phone (96 MiB reserved) with 5,000 installed apps.
    /// App sizes follow a log-normal with a 30 MiB median and a 160 MiB 99th percentile (iOS 4-era
    /// apps); popularity follows Zipf's law (s = 1.1); about 30 app switches an hour.
    public static let phone = Workload(
        name: "phone", device: .iPhone4, apps: 5_000,
        footprint: LogNormal(median: 30 * 1_048_576, p99: 160 * 1_048_576),
        backgroundModeShares: [.audio: 0.02, .location: 0.01, .voip: 0.01],
        exitsOnSuspendShare: 0.01, ignoresWarningsShare: 0.02, viewCount: 1...6,
        viewBytes: LogNormal(median: 1.5 * 1_048_576, p99: 8 * 1_048_576),
        purgeable: LogNormal(median: 2 * 1_048_576, p99: 16 * 1_048_576),
        hours: 24, popularity: 1.1, switchesPerHour: 30, interruptionsPerHour: 1, locksPerHour: 3,
        lockSeconds: LogNormal(median: 600, p99: 7_200), viewSwitchesPerMinute: 2,
        growthPerMinute: .mebibytes(2), backgroundTaskShare: 0.1, backgroundTaskSeconds: 600, preload: 0,
        homeShare: 0.2)

    /// A server hosting 10,000 resident tenants on 64 GiB: every tenant is loaded at the start and
    /// requests bring tenants to the front thousands of times an hour.
    public static let server = Workload(
        name: "server", device: Device(memory: .gibibytes(64), reserved: .gibibytes(2)), apps: 10_000,
        footprint: LogNormal(median: 3 * 1_048_576, p99: 32 * 1_048_576),
        backgroundModeShares: [.voip: 0.05], exitsOnSuspendShare: 0, ignoresWarningsShare: 0.01, viewCount: 1...2,
        viewBytes: LogNormal(median: 256 * 1024, p99: 4 * 1_048_576),
        purgeable: LogNormal(median: 1_048_576, p99: 16 * 1_048_576),
        hours: 24, popularity: 0.9, switchesPerHour: 3_600, interruptionsPerHour: 0, locksPerHour: 0,
        lockSeconds: LogNormal(median: 1, p99: 1), viewSwitchesPerMinute: 0,
        growthPerMinute: .mebibytes(8), backgroundTaskShare: 0.2, backgroundTaskSeconds: 30, preload: 10_000,
        homeShare: 0)
}
