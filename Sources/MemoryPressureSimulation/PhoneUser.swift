import MemoryPressure

/// A person using a phone for a day: the model behind the built-in `phone` workload. Each seed is
/// one user, with their own installed apps (drawn from a shared catalogue of app kinds), their own
/// popularity ranking, their own waking hours and their own activity level, all drawn from the
/// distributions below. Every parameter names its source; where no public measurement exists the
/// comment says "assumed".
///
/// Sources:
/// - Böhmer, Hecht, Schöning, Krüger, Bauer: "Falling Asleep with Angry Birds, Facebook and
///   Kindle – A Large Scale Study on Mobile Application Usage", MobileHCI 2011 (4,125 Android
///   users): 59.23 minutes a day in apps, an app session lasts 71.56 s on average, short
///   single-app sessions dominate, news is used in the morning and games at night.
/// - Falaki, Mahajan, Kandula, Lymberopoulos, Govindan, Estrin: "Diversity in Smartphone Usage",
///   MobiSys 2010 (255 users): interactions per day vary from 10 to 200 between users; the relative
///   popularity of a user's apps follows an exponential distribution with per-user parameters;
///   half of the users ran more than 40 apps over the study.
/// - Nielsen, "State of the Appnation" 2011/2012: 32, then 41, downloaded apps per US smartphone.
/// - App Annie, "Spotlight on Consumer App Usage" 2017: about 9 apps used a day and 30 a month;
///   up to about 110 installed apps including preinstalled ones.
public struct PhoneUser: Sendable, Hashable {
    /// A kind of app in the shared catalogue: how big its apps are, how long they are used, and
    /// whether they keep running in the background.
    public struct AppKind: Sendable, Hashable {
        /// The kind's name (also the prefix of its apps' ids).
        public var name: String
        /// Share of the catalogue's apps of this kind (the shares are normalised).
        public var share: Double
        /// Footprint of an app of this kind at launch.
        public var footprint: LogNormal
        /// The background mode its apps declare, if any.
        public var backgroundMode: BackgroundMode?
        /// Share of sessions that start using that mode (music playing, navigating, a call).
        public var backgroundUseShare: Double
        /// How long the use lasts once started (the app stays executing in the background meanwhile).
        public var backgroundUseSeconds: LogNormal
        /// Multiplier of the user's session length for apps of this kind.
        public var sessionScale: Double
        /// Multiplier of the kind's chance to be picked between 06:00 and 11:00.
        public var morning: Double
        /// Multiplier of the kind's chance to be picked between 19:00 and 24:00.
        public var evening: Double
        /// Memory growth of an app of this kind in the foreground, per minute of a session; `nil`
        /// for the workload's (``Workload/growthPerMinute``).
        public var growthPerMinute: Bytes?
        /// Minutes of a session after which an app of this kind stops growing; `nil` for no limit.
        public var growthMinutes: Double?

        /// A kind; see each property.
        ///
        /// - Complexity: O(1)
        public init(
            name: String, share: Double, footprint: LogNormal, backgroundMode: BackgroundMode? = nil,
            backgroundUseShare: Double = 0, backgroundUseSeconds: LogNormal = LogNormal(median: 600, p99: 3_600),
            sessionScale: Double = 1, morning: Double = 1, evening: Double = 1, growthPerMinute: Bytes? = nil,
            growthMinutes: Double? = nil
        ) {
            self.name = name
            self.share = share
            self.footprint = footprint
            self.backgroundMode = backgroundMode
            self.backgroundUseShare = backgroundUseShare
            self.backgroundUseSeconds = backgroundUseSeconds
            self.sessionScale = sessionScale
            self.morning = morning
            self.evening = evening
            self.growthPerMinute = growthPerMinute
            self.growthMinutes = growthMinutes
        }
    }

    /// A normally distributed hour of the day (may pass 24 for after midnight).
    public struct Hour: Sendable, Hashable {
        /// The mean, in hours after midnight.
        public var mean: Double
        /// The standard deviation, in hours.
        public var standardDeviation: Double

        /// An hour with that mean and spread.
        ///
        /// - Complexity: O(1)
        public init(mean: Double, standardDeviation: Double) {
            self.mean = mean
            self.standardDeviation = standardDeviation
        }
    }

    /// The kinds of apps in the shared catalogue.
    public var kinds: [AppKind]
    /// Apps a user has installed (downloaded and preinstalled apps they could open).
    public var installedApps: LogNormal
    /// The user's popularity scale τ: the app at rank r (0 = favourite) is picked with weight
    /// e^(−r/τ) (Falaki 2010's exponential law, with a per-user parameter).
    public var popularityScale: LogNormal
    /// Device sessions (unlock, use one or more apps, lock) per day.
    public var deviceSessionsPerDay: LogNormal
    /// Mean number of further apps used in one device session after the first (geometric).
    public var extraAppsPerSession: Double
    /// Length of one app session (one app in the foreground), before the kind's scale.
    public var sessionSeconds: LogNormal
    /// When the user wakes up.
    public var wake: Hour
    /// When the user goes to sleep.
    public var sleep: Hour
    /// Activity while asleep, as a share of the activity while awake at the same hour.
    public var nightActivity: Double
    /// Relative activity for each hour of the day (0…23) while awake.
    public var hourlyActivity: [Double]
    /// Share of device sessions that end with Home before the lock (otherwise the app stays in front,
    /// inactive, while the device is locked).
    public var homeBeforeLockShare: Double

    /// A user model; see each property.
    ///
    /// - Complexity: O(1)
    public init(
        kinds: [AppKind], installedApps: LogNormal, popularityScale: LogNormal, deviceSessionsPerDay: LogNormal,
        extraAppsPerSession: Double, sessionSeconds: LogNormal, wake: Hour, sleep: Hour, nightActivity: Double,
        hourlyActivity: [Double], homeBeforeLockShare: Double
    ) {
        self.kinds = kinds
        self.installedApps = installedApps
        self.popularityScale = popularityScale
        self.deviceSessionsPerDay = deviceSessionsPerDay
        self.extraAppsPerSession = extraAppsPerSession
        self.sessionSeconds = sessionSeconds
        self.wake = wake
        self.sleep = sleep
        self.nightActivity = nightActivity
        self.hourlyActivity = hourlyActivity
        self.homeBeforeLockShare = homeBeforeLockShare
    }

    /// The kinds of an iOS 4-era catalogue. Kind shares and footprints are assumed: there is no
    /// public per-kind measurement of iOS 4 app footprints; they are bounded by the measured limit
    /// of about 325 MB one app could reach on an iPhone 4 (see ``Workload/phone``), and games are
    /// the largest (Böhmer 2011 reports them as the longest sessions, at night). Background use
    /// durations are assumed too.
    public static let iOS4Kinds: [AppKind] = [
        AppKind(name: "messaging", share: 0.10, footprint: LogNormal(median: 18 * mib, p99: 45 * mib)),
        AppKind(name: "social", share: 0.08, footprint: LogNormal(median: 35 * mib, p99: 90 * mib), evening: 1.3),
        AppKind(
            name: "news", share: 0.10, footprint: LogNormal(median: 30 * mib, p99: 80 * mib), morning: 2,
            evening: 0.8),
        AppKind(name: "browser", share: 0.04, footprint: LogNormal(median: 40 * mib, p99: 110 * mib)),
        AppKind(
            name: "game", share: 0.25, footprint: LogNormal(median: 60 * mib, p99: 220 * mib), sessionScale: 3,
            morning: 0.6, evening: 1.8),
        AppKind(
            name: "utility", share: 0.20, footprint: LogNormal(median: 10 * mib, p99: 35 * mib), sessionScale: 0.5),
        AppKind(name: "media", share: 0.10, footprint: LogNormal(median: 45 * mib, p99: 140 * mib), evening: 1.3),
        AppKind(
            name: "music", share: 0.06, footprint: LogNormal(median: 22 * mib, p99: 60 * mib), backgroundMode: .audio,
            backgroundUseShare: 0.5, backgroundUseSeconds: LogNormal(median: 1_500, p99: 10_800)),
        AppKind(
            name: "navigation", share: 0.04, footprint: LogNormal(median: 50 * mib, p99: 120 * mib),
            backgroundMode: .location, backgroundUseShare: 0.3,
            backgroundUseSeconds: LogNormal(median: 1_200, p99: 5_400)),
        AppKind(
            name: "voip", share: 0.03, footprint: LogNormal(median: 25 * mib, p99: 60 * mib), backgroundMode: .voip,
            backgroundUseShare: 0.25, backgroundUseSeconds: LogNormal(median: 300, p99: 3_600)),
    ]

    /// The built-in user, calibrated to the studies in the type's documentation:
    /// - installed apps: median 40, 99th percentile 110 (Nielsen 2011/2012: 32–41 downloaded;
    ///   App Annie 2017: up to about 110 with preinstalled ones; Falaki 2010: half ran over 40);
    /// - popularity scale τ: median 2.4 apps, p99 7 (Falaki 2010: exponential, per user; the median
    ///   calibrated so that about 9 distinct apps are used a day, App Annie 2017);
    /// - device sessions: median 30 a day, p99 150 (Falaki 2010: 10 to 200 interactions a day; the
    ///   median calibrated to Böhmer 2011's hour a day in 72 s sessions, about 50 opens);
    /// - 0.6 further apps per device session on average (Böhmer 2011: single-app sessions dominate);
    /// - app session: median 22 s, p99 450 s before the kind's scale, calibrated so that the mean
    ///   over kinds is Böhmer 2011's 71.56 s; with the usage above, about an hour a day in apps
    ///   (Böhmer 2011: 59.23 minutes);
    /// - waking hours 07:00 ± 1 h to 23:00 ± 1 h, activity at night 4 % of the day's, and an hourly
    ///   profile rising through the day to an evening peak (Böhmer 2011, usage by hour of day);
    ///   the exact hourly weights are read approximately off that description, not digitised;
    /// - half of the device sessions end with Home before the lock (assumed).
    public static let iOS4User = PhoneUser(
        kinds: iOS4Kinds,
        installedApps: LogNormal(median: 40, p99: 110),
        popularityScale: LogNormal(median: 2.4, p99: 7),
        deviceSessionsPerDay: LogNormal(median: 30, p99: 150),
        extraAppsPerSession: 0.6,
        sessionSeconds: LogNormal(median: 22, p99: 450),
        wake: Hour(mean: 7, standardDeviation: 1),
        sleep: Hour(mean: 23, standardDeviation: 1),
        nightActivity: 0.04,
        hourlyActivity: [
            0.6, 0.5, 0.4, 0.4, 0.4, 0.5, 0.7, 0.85, 0.9, 0.9, 0.95, 1.0,
            1.0, 0.95, 0.95, 0.95, 1.0, 1.05, 1.1, 1.15, 1.2, 1.2, 1.1, 0.9,
        ],
        homeBeforeLockShare: 0.5)

    private static let mib = 1_048_576.0
}
