import MemoryPressure

/// A description of how a device is used, from which ``WorkloadGenerator`` makes traces: the
/// device, a catalogue of apps (sizes, background modes, views, caches) and the user's habits.
/// Every field has a default (``Workload/phone``); a workload file overrides any of them.
///
/// Two models of use share this type. With a ``user`` (the `phone` workload) each seed is one
/// person: their installed apps, ranking, waking hours and day are drawn from ``PhoneUser``, and
/// the fields marked "tenant model" are unused. Without one (the `server` workload) the catalogue
/// is a fixed set of tenants and each seed is one day of requests to them.
public struct Workload: Sendable, Hashable {
    /// The workload's name, for reports.
    public var name: String
    /// The device.
    public var device: Device
    /// Apps in the shared catalogue (tenants of a server).
    public var apps: Int
    /// App footprint at launch (tenant model; a ``PhoneUser``'s kinds give their own).
    public var footprint: LogNormal
    /// Share of apps that declare each background mode, 0...1 (tenant model).
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
    /// Zipf exponent of the catalogue's popularity: how often a tenant is requested, or how many
    /// users install an app of the shared catalogue.
    public var popularity: Double
    /// App switches per hour of use (tenant model).
    public var switchesPerHour: Double
    /// Interruptions (calls, alerts) per hour of use; a third are answered.
    public var interruptionsPerHour: Double
    /// Locks (sleep button) per hour of use (tenant model).
    public var locksPerHour: Double
    /// How long the device stays locked (tenant model).
    public var lockSeconds: LogNormal
    /// View switches per minute in the foreground app.
    public var viewSwitchesPerMinute: Double
    /// Memory growth of the foreground app, in bytes per minute.
    public var growthPerMinute: Bytes
    /// Share of app exits that start a background task first.
    public var backgroundTaskShare: Double
    /// Length of a background task.
    public var backgroundTaskSeconds: Double
    /// Apps launched (and sent home) at the start, so the run begins with a full device (tenant model).
    public var preload: Int
    /// Share of sessions that end with Home and an idle pause (about 5 minutes on average)
    /// rather than a switch to the next app (tenant model).
    public var homeShare: Double
    /// The person using the device, or `nil` for the tenant model.
    public var user: PhoneUser?
    /// How launch waits are priced.
    public var launchCost: LaunchCost
    /// The role of each app name of a usage log (an app kind of ``user``, or the home screen):
    /// ``AppKindTable/builtIn``, overridden by a workload file's `appKinds`.
    public var appKinds: AppKindTable

    /// A workload; see each property. ``phone`` has the defaults.
    ///
    /// - Complexity: O(1)
    public init(
        name: String, device: Device, apps: Int, footprint: LogNormal, backgroundModeShares: [BackgroundMode: Double],
        exitsOnSuspendShare: Double, ignoresWarningsShare: Double, viewCount: ClosedRange<Int>, viewBytes: LogNormal,
        purgeable: LogNormal, hours: Double, popularity: Double, switchesPerHour: Double, interruptionsPerHour: Double,
        locksPerHour: Double, lockSeconds: LogNormal, viewSwitchesPerMinute: Double, growthPerMinute: Bytes,
        backgroundTaskShare: Double, backgroundTaskSeconds: Double, preload: Int, homeShare: Double,
        user: PhoneUser? = nil, launchCost: LaunchCost = .phone, appKinds: AppKindTable = .builtIn
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
        self.user = user
        self.launchCost = launchCost
        self.appKinds = appKinds
    }

    /// The built-in default: one day of one person (``PhoneUser/iOS4User``) with an iPhone 4-class
    /// phone; each seed is another person.
    ///
    /// - Device: 512 MiB, of which 325 MiB can be used by apps, 187 MiB held by the system: an app
    ///   on an iPhone 4 was killed at about 325 MB (Stack Overflow, "iOS app maximum memory budget",
    ///   question 5887248: crash points measured with Jan Ilavsky's memory-test tool on each device,
    ///   iPhone 4: 325 of 512 MB). With every other app killed, that is what all apps together can hold.
    /// - Catalogue: 2,000 apps of the kinds in ``PhoneUser/iOS4Kinds``; users install the popular
    ///   ones more often (Zipf-like download popularity, exponent 1.0 assumed; Petsas et al., "Rise
    ///   of the Planet of the Apps", IMC 2013, find app downloads Zipf-like with truncated ends).
    /// - In an app: 1 to 6 view controllers of median 1.5 MiB, purgeable caches of median 2 MiB,
    ///   2 view switches a minute, 2 MiB of growth per minute of use (half given back on leaving),
    ///   1 % of apps opt out of multitasking and 2 % ignore warnings (all assumed); one call or
    ///   alert per hour of use, a third of them answered (assumed); 10 % of app exits start a
    ///   background task of 10 minutes, the iOS 4 limit (`backgroundTimeRemaining`, about 600 s).
    /// - Launch cost: ``LaunchCost/phone``.
    public static let phone = Workload(
        name: "phone", device: Device(memory: .mebibytes(512), reserved: .mebibytes(187)), apps: 2_000,
        footprint: LogNormal(median: 30 * 1_048_576, p99: 160 * 1_048_576),
        backgroundModeShares: [:],
        exitsOnSuspendShare: 0.01, ignoresWarningsShare: 0.02, viewCount: 1...6,
        viewBytes: LogNormal(median: 1.5 * 1_048_576, p99: 8 * 1_048_576),
        purgeable: LogNormal(median: 2 * 1_048_576, p99: 16 * 1_048_576),
        hours: 24, popularity: 1.0, switchesPerHour: 30, interruptionsPerHour: 1, locksPerHour: 3,
        lockSeconds: LogNormal(median: 600, p99: 7_200), viewSwitchesPerMinute: 2,
        growthPerMinute: .mebibytes(2), backgroundTaskShare: 0.1, backgroundTaskSeconds: 600, preload: 0,
        homeShare: 0.2, user: .iOS4User, launchCost: .phone)

    /// A server hosting 10,000 resident tenants on 64 GiB: every tenant is loaded at the start and
    /// requests bring tenants to the front thousands of times an hour (3,600 switches an hour).
    ///
    /// Tenant popularity is Zipf-like with exponent 0.9 and a heavy tail of rarely used tenants, as
    /// Shahrad et al. ("Serverless in the Wild", USENIX ATC 2020, the Azure Functions trace) measure
    /// per-application invocation rates spanning eight orders of magnitude, with most applications
    /// invoked rarely and a few very often; the exponent, the 3 MiB median tenant and the request
    /// rate are assumptions of this model, not figures from that paper. Loading a tenant is priced
    /// by ``LaunchCost/server``.
    public static let server = Workload(
        name: "server", device: Device(memory: .gibibytes(64), reserved: .gibibytes(2)), apps: 10_000,
        footprint: LogNormal(median: 3 * 1_048_576, p99: 32 * 1_048_576),
        backgroundModeShares: [.voip: 0.05], exitsOnSuspendShare: 0, ignoresWarningsShare: 0.01, viewCount: 1...2,
        viewBytes: LogNormal(median: 256 * 1024, p99: 4 * 1_048_576),
        purgeable: LogNormal(median: 1_048_576, p99: 16 * 1_048_576),
        hours: 24, popularity: 0.9, switchesPerHour: 3_600, interruptionsPerHour: 0, locksPerHour: 0,
        lockSeconds: LogNormal(median: 1, p99: 1), viewSwitchesPerMinute: 0,
        growthPerMinute: .mebibytes(8), backgroundTaskShare: 0.2, backgroundTaskSeconds: 30, preload: 10_000,
        homeShare: 0, user: nil, launchCost: .server)
}

extension Workload {
    /// An upper estimate of the actions one generated sample (seed) holds, from the workload's
    /// rates (at the 99th percentile where a rate is drawn per user). Commands refuse workloads
    /// above a limit before generating anything, so a file with `hours: 1e9` is an error, not an
    /// exhausted machine. It takes the generator's own floors: a device session of at least 2 s
    /// in an app, and for tenants a switch rate of at least 0.001 an hour, at least one session and
    /// sessions of at least a second (so `switchesPerHour: 0` with a huge view rate is refused too).
    ///
    /// - Complexity: O(1)
    public var estimatedActionsPerSample: Double {
        let perMinuteInApp = viewSwitchesPerMinute + 1 + interruptionsPerHour / 30
        if let user {
            let maxScale = user.kinds.map(\.sessionScale).max() ?? 1
            let sessionMinutes = max(min(user.sessionSeconds.p99 * maxScale, 4 * 3600), 2) / 60
            let apps = 1 + user.extraAppsPerSession * 3
            let perSession = 4 + apps * (6 + sessionMinutes * perMinuteInApp)
            return hours / 24 * user.deviceSessionsPerDay.p99 * perSession + 1
        }
        let switches = max(switchesPerHour, 0.001)
        let sessions = max(hours * switches, 1)
        let sessionMinutes = max(min(60 / switches, hours * 60), 1.0 / 60)
        let generated = sessions * (4 + sessionMinutes * perMinuteInApp) + hours * 2 * locksPerHour
        return Double(preload) + generated + 1
    }
}
