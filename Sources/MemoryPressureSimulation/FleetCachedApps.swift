import MemoryPressure

// Fleet's cached-app experiment (ASPLOS '24, Figure 11(c)) as a built-in, scripted workload:
// docs/fleet-replay.md gives the side-by-side result, and docs/phone-2024-sources.md §9 the
// experiment as it was run (https://github.com/jiachengh/Fleet at commit
// 32f22f7afa9f5e2c07608b9de00d8fd944df713b, evaluation/exp-cache-app/).

/// Fleet's cached-app experiment replayed: 18 commercial apps launched one after another, twice,
/// on a Pixel 3-like phone with 4 GB (Android 10), counting after every launch how many of the 18
/// still have a live process.
///
/// The experiment (`run-cache-commercial.py` in Fleet's artifact): every app force-stopped, then
/// twice, for each of the 18 apps in ``apps``' order: Home, 2 s, `am start -W`, the count
/// (`dumpsys meminfo`), 30 s of scripted swipes. The count is the number of the 18 test apps with a
/// live process right after the launch, the launched app included: ``replay(under:)`` counts the
/// same thing, after the launch's allocation and every kill it caused.
///
/// Every parameter is either taken from a source or labelled an assumption, here and in ``App``:
/// - Device: 4 GiB (the Pixel 3's 4 GB, from third-party specification pages: Google's own
///   statement was not found). Of it ``defaultReserved`` (1.5 GiB) is taken to be held by the
///   system — kernel and carve-outs, system_server, SystemUI, the launcher, Google services, the
///   file pages the system needs to run — an **assumption**: neither paper nor any source found
///   measures it, and nothing found bounds it. It is the parameter the counts depend on most, so
///   `mempressure experiment fleet-cached-apps --reserved` sets it.
/// - Footprints: each app's **anonymous** memory (what neither reclaim without swap nor a kill of
///   another app can take from it), at launch and its growth over the 30 s of use; file pages are
///   outside the model (reclaim drops them). Three apps were measured by Ariadne (Table 1), the
///   others stand in for a measured app of their kind or are assumptions (``App/source``).
/// - Timing: a step is 34 s — Home, 2 s, the launch and the count (2 s, an assumption: the
///   artifact records no time), then 30 s of use in three 10 s phases, each adding a third of the
///   app's growth over 30 s.
/// - No other apps, no background modes (nothing plays audio in the scripted use: an assumption),
///   no views or purgeable caches (the footprint is anonymous memory only).
public struct FleetCachedApps: Sendable, Hashable {
    /// One of the experiment's 18 apps and its memory.
    public struct App: Sendable, Hashable {
        /// The label of Fleet's figure (`Twitter`, `AmazonShop`).
        public var name: String
        /// The Android package (Fleet's `use_utils.app_list`).
        public var package: String
        /// The app kind it is treated as (the built-in app-kind table's, where it lists the package).
        public var kind: String
        /// Anonymous memory right after launch (Ariadne's figure 10 s after launch).
        public var atLaunch: Bytes
        /// Anonymous memory 5 minutes after launch (Ariadne's second figure); growth is taken as
        /// linear between the two (an assumption: Ariadne gives two points only).
        public var atFiveMinutes: Bytes
        /// Where ``atLaunch`` and ``atFiveMinutes`` come from, or "assumption: …".
        public var source: String

        /// An app; see each property.
        ///
        /// - Complexity: O(1)
        public init(
            name: String, package: String, kind: String, atLaunch: Bytes, atFiveMinutes: Bytes, source: String
        ) {
            self.name = name
            self.package = package
            self.kind = kind
            self.atLaunch = atLaunch
            self.atFiveMinutes = atFiveMinutes
            self.source = source
        }

        /// Growth in one 10 s phase of use: a 29th of the growth from 10 s to 5 min (290 s).
        ///
        /// - Complexity: O(1)
        public var growthPerPhase: Bytes {
            Bytes(Int64((Double(atFiveMinutes.value - atLaunch.value) * 10 / 290).rounded()))
        }
    }

    /// The memory the system holds: ``defaultReserved`` unless set.
    public var reserved: Bytes

    /// An experiment on a 4 GiB phone of which `reserved` is held by the system.
    ///
    /// - Complexity: O(1)
    public init(reserved: Bytes = FleetCachedApps.defaultReserved) {
        self.reserved = reserved
    }

    /// The Pixel 3's memory: 4 GB (third-party specification pages; see the type's summary).
    public static let memory = Bytes.gibibytes(4)

    /// The memory taken to be held by the system: 1.5 GiB, an **assumption** (no measurement found).
    public static let defaultReserved = Bytes.mebibytes(1_536)

    /// The phone: ``memory``, of which ``reserved`` is the system's; no swap device (the kernel's
    /// swap, where a configuration has one, is its policy's `compression`).
    ///
    /// - Complexity: O(1)
    public var device: Device { Device(memory: Self.memory, reserved: reserved) }

    /// How many times the 18 apps are launched in a row (`for i in range(2)`).
    public static let rounds = 2

    /// Seconds from one step's Home to the next: 2 s on the home screen (`sleep 2`), 2 s for the
    /// launch and the count (an assumption), 30 s of use (`USE_DURATION = 30`).
    public static let stepSeconds = 34.0

    /// The 18 apps in Fleet's launch order (`run-cache-commercial.py`, `use_utils.app_list`).
    ///
    /// Ariadne (HPCA 2025, §2.1, Table 1: anonymous memory on a Pixel 7 with Android 14, 10 s and
    /// 5 min after launch; "MB" read as 10^6 bytes) measured Twitter, YouTube and Firefox. An app of
    /// a kind Ariadne measured takes that app's figures (a stand-in: the same kind, not the same
    /// app); messaging, music and shopping apps, of which Ariadne measured none, take phone-2024's
    /// assumed median for the kind (`PhoneUser.modernKinds` as of this change: messaging 150 MiB,
    /// music 200 MiB, utility 60 MiB), growing by Table 1's median ratio of 5 min to 10 s (Google
    /// Earth's 429/273 = 1.57; the others are 1.28, 1.50, 2.02, 2.52). Kinds are those of the
    /// built-in app-kind table (`AppKindTable+BuiltIn.swift`, from Google Play's categories) where it
    /// lists the package; Twitter is filed there under news (Play lists X under News & Magazines)
    /// but stands in here for the social apps, being the one measured social network.
    public static let apps: [App] = [
        measured("Twitter", "com.twitter.android", "social", 182, 273),
        standIn("Facebook", "com.facebook.katana", "social", twitter),
        standIn("Instagram", "com.instagram.android", "social", twitter),
        assumed("Telegram", "org.telegram.messenger", "messaging", 150),
        assumed("Line", "jp.naver.line.android", "messaging", 150),
        measured("YouTube", "com.google.android.youtube", "media", 177, 358),
        standIn(
            "TikTok", "com.ss.android.ugc.aweme", "media", youtube, note: "short videos; not in the app-kind table"),
        assumed("Spotify", "com.spotify.music", "music", 200),
        standIn("Twitch", "tv.twitch.android.app", "media", youtube),
        standIn("Rave", "com.wemesh.android", "media", youtube, note: "shared video; not in the app-kind table"),
        standIn("BigoLive", "sg.bigo.live", "media", youtube, note: "live video; not in the app-kind table"),
        assumed("AmazonShop", "com.amazon.mShop.android.shopping", "utility", 60),
        standIn(
            "GoogleMaps", "com.google.android.apps.maps", "navigation", googleEarth,
            note: "Google Earth is the nearest to a map app Ariadne measured"),
        standIn("Chrome", "com.android.chrome", "browser", firefox),
        measured("Firefox", "org.mozilla.firefox", "browser", 560, 716),
        standIn("LinkedIn", "com.linkedin.android", "social", twitter, note: "Play: Business; a social network"),
        standIn("AngryBirds", "com.rovio.angrybirds", "game", bangDream),
        standIn("CandyCrush", "com.king.candycrushsaga", "game", bangDream),
    ]

    /// An Ariadne Table 1 app: its name and its two figures in MB.
    private typealias Measured = (name: String, atLaunch: Int64, atFiveMinutes: Int64)
    private static let twitter: Measured = ("Twitter", 182, 273)
    private static let youtube: Measured = ("YouTube", 177, 358)
    private static let firefox: Measured = ("Firefox", 560, 716)
    private static let googleEarth: Measured = ("Google Earth", 273, 429)
    private static let bangDream: Measured = ("BangDream", 326, 821)

    private static func megabytes(_ value: Int64) -> Bytes { Bytes(value * 1_000_000) }

    private static func measured(
        _ name: String, _ package: String, _ kind: String, _ atLaunch: Int64, _ atFiveMinutes: Int64
    ) -> App {
        App(
            name: name, package: package, kind: kind, atLaunch: megabytes(atLaunch),
            atFiveMinutes: megabytes(atFiveMinutes),
            source: "measured: Ariadne Table 1, \(name), \(atLaunch) → \(atFiveMinutes) MB (Pixel 7, Android 14)")
    }

    private static func standIn(
        _ name: String, _ package: String, _ kind: String, _ model: Measured, note: String? = nil
    ) -> App {
        let why = note.map { " (\($0))" } ?? ""
        return App(
            name: name, package: package, kind: kind, atLaunch: megabytes(model.atLaunch),
            atFiveMinutes: megabytes(model.atFiveMinutes),
            source: "assumption: as \(model.name), which Ariadne measured for the \(kind) kind, "
                + "\(model.atLaunch) → \(model.atFiveMinutes) MB\(why)")
    }

    private static func assumed(_ name: String, _ package: String, _ kind: String, _ mebibytes: Int64) -> App {
        let atLaunch = Bytes.mebibytes(mebibytes)
        return App(
            name: name, package: package, kind: kind, atLaunch: atLaunch,
            atFiveMinutes: Bytes(Int64((Double(atLaunch.value) * 429 / 273).rounded())),
            source: "assumption: phone-2024's \(kind) median, \(mebibytes) MiB, "
                + "× 429/273 by 5 min (no measurement of a \(kind) app)")
    }

    /// One launch of the experiment: the x axis of Fleet's figure.
    public struct Step: Sendable, Hashable {
        /// 1…36.
        public var number: Int
        /// 1 or 2.
        public var round: Int
        /// The app launched.
        public var app: App
    }

    /// The 36 steps: ``apps`` in order, ``rounds`` times.
    public static let steps: [Step] = (0..<rounds).flatMap { round in
        apps.enumerated().map { index, app in
            Step(number: round * apps.count + index + 1, round: round + 1, app: app)
        }
    }

    /// The scripted trace: for each step, Home (from the second step on: the first starts on the
    /// home screen), the app opened 2 s later (a cold launch if it has no process, a resume
    /// otherwise), and its growth in three 10 s phases of use. One entry per step is an `open`, in
    /// step order.
    ///
    /// - Complexity: O(steps)
    public var trace: Trace {
        var entries: [Trace.Entry] = []
        for (index, step) in Self.steps.enumerated() {
            let start = Double(index) * Self.stepSeconds
            if index > 0 { entries.append(Trace.Entry(time: start, action: .home)) }
            let id = AppID(step.app.package)
            entries.append(
                Trace.Entry(time: start + 2, action: .open(AppLaunch(id: id, footprint: step.app.atLaunch))))
            for phase in 1...3 {
                entries.append(
                    Trace.Entry(
                        time: start + 4 + Double(phase) * 10,
                        action: .allocate(app: id, bytes: step.app.growthPerPhase, purgeable: false)))
            }
        }
        return Trace(device: device, entries: entries)
    }
}
