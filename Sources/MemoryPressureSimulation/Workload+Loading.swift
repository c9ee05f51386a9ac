import MemoryPressure
import MemoryPressureFormats

extension Workload {
    /// The built-in workloads by name.
    public static let builtIn: [String: Workload] = ["phone": .phone, "phone-2024": .phone2024, "server": .server]

    /// Loads a workload file (YAML or JSON). `base:` names the built-in workload it starts from
    /// (`phone` unless given); every other key overrides one of its fields:
    ///
    ///     base: phone
    ///     name: heavy-user
    ///     device: { memory: 1GiB, reserved: 200MiB }
    ///     apps:
    ///       count: 3000
    ///       footprint: { median: 40MiB, p99: 300MiB }
    ///       backgroundModes: { audio: 3%, location: 1%, voip: 1% }
    ///       exitsOnSuspend: 1%
    ///       ignoresWarnings: 2%
    ///       views: { count: [1, 6], bytes: { median: 1.5MiB, p99: 8MiB } }
    ///       purgeable: { median: 2MiB, p99: 16MiB }
    ///       preload: 0
    ///     usage:
    ///       hours: 24
    ///       popularity: 1.1            # Zipf exponent
    ///       switchesPerHour: 30
    ///       interruptionsPerHour: 1
    ///       locksPerHour: 3
    ///       lockSeconds: { median: 600, p99: 7200 }
    ///       viewSwitchesPerMinute: 2
    ///       growthPerMinute: 2MiB
    ///       backgroundTaskShare: 10%
    ///       backgroundTaskSeconds: 600
    ///       homeShare: 20%             # sessions that end with Home and an idle pause
    ///     user:                        # the phone user model (not for base: server)
    ///       installedApps: { median: 40, p99: 110 }
    ///       popularityScale: { median: 2.4, p99: 7 }
    ///       deviceSessionsPerDay: { median: 30, p99: 150 }
    ///       extraAppsPerSession: 0.6
    ///       sessionSeconds: { median: 22, p99: 450 }
    ///       wake: { mean: 7, sd: 1 }   # hours after midnight
    ///       sleep: { mean: 23, sd: 1 }
    ///       nightActivity: 4%
    ///       homeBeforeLock: 50%
    ///       kinds:                     # replaces the whole list
    ///         - { name: game, share: 25%, footprint: { median: 60MiB, p99: 220MiB }, sessionScale: 3,
    ///             growthPerMinute: 8MiB, growthMinutes: 5 }   # the kind's own growth, for 5 minutes of a session
    ///         - { name: music, share: 6%, footprint: { median: 22MiB, p99: 60MiB }, backgroundMode: audio,
    ///             backgroundUse: 50%, backgroundSeconds: { median: 1500, p99: 10800 } }
    ///     launchCost: { coldFixed: 0.8, coldPerMiB: 0.025, warmFixed: 0.3 }   # seconds
    ///     appKinds:                    # a usage log's app names: a kind of user.kinds, or home
    ///       com.example.mygame: game
    ///       "*.bank.*": utility        # `*` is any run of characters
    ///       com.example.launcher: home
    ///
    /// `appKinds` entries are looked up before the built-in table (``AppKindTable/builtIn``),
    /// exact names before patterns; a kind must be one of the user's kinds (or, without a user,
    /// of the built-in kinds), or `home`.
    ///
    /// - Throws: `InputError` naming the file, line, column and key path of the first problem.
    /// - Complexity: O(length of `text`)
    public init(yaml text: String, file: String) throws(InputError) {
        let document = try ConfigObject(try ConfigNode.parseYAML(text, file: file), file: file)
        let baseName = try document.optionalString("base") ?? "phone"
        guard var workload = Self.base(named: baseName) else {
            throw document.error(
                "key \"base\": expected \(Self.builtIn.keys.sorted().joined(separator: ", ")), found \"\(baseName)\"")
        }
        workload.name = try document.optionalString("name") ?? baseName
        if let device = try document.optionalObject("device") {
            workload.device = Device(
                memory: try device.size("memory"), reserved: try device.optionalSize("reserved") ?? .zero,
                swap: try device.optionalSize("swap") ?? .zero)
            guard workload.device.reserved < workload.device.memory else {
                throw device.error("expected \"reserved\" below \"memory\"")
            }
            try device.finish()
        }
        if let apps = try document.optionalObject("apps") {
            try Self.readApps(apps, into: &workload)
        }
        if let usage = try document.optionalObject("usage") {
            try Self.readUsage(usage, into: &workload)
        }
        if let user = try document.optionalObject("user") {
            guard var model = workload.user else {
                throw user.error("expected no \"user\" for base \(baseName): it models tenants, not a person")
            }
            try Self.readUser(user, into: &model)
            workload.user = model
        }
        if let cost = try document.optionalObject("launchCost") {
            func seconds(_ key: String, _ current: Double) throws(InputError) -> Double {
                guard let value = try cost.optionalNumber(key) else { return current }
                guard value >= 0 && value <= 3600 else {
                    throw cost.error("key \"\(key)\": expected seconds from 0 to 3600, found \(value)")
                }
                return value
            }
            workload.launchCost = LaunchCost(
                coldFixed: try seconds("coldFixed", workload.launchCost.coldFixed),
                coldPerMiB: try seconds("coldPerMiB", workload.launchCost.coldPerMiB),
                warmFixed: try seconds("warmFixed", workload.launchCost.warmFixed))
            try cost.finish()
        }
        if let kinds = try document.optionalObject("appKinds") {
            let known = workload.user?.kinds.map(\.name) ?? AppKindTable.builtInKinds
            var entries: [AppKindTable.Entry] = []
            for key in kinds.keys {
                let role = try kinds.string(key)
                guard role == "home" || known.contains(role) else {
                    throw kinds.error(
                        at: kinds.optional(key)!, key: key,
                        "expected home or a kind of the workload (\(known.joined(separator: ", "))), found \"\(role)\"")
                }
                guard !key.trimmingWhitespaceAndTabs().isEmpty else {
                    throw kinds.error(at: kinds.optional(key)!, key: key, "expected an app name or pattern, found \"\"")
                }
                entries.append(AppKindTable.Entry(key, AppRole(role)))
            }
            try kinds.finish()
            workload.appKinds = workload.appKinds.overridden(by: entries)
        }
        try document.finish()
        self = workload
    }

    /// The built-in workload a file's `base:` names. Those defined in code are taken directly, not
    /// through ``builtIn``, so that a shipped workload file (`phone-2024.yaml`, `base: phone`) can be
    /// loaded while ``builtIn`` is being made.
    private static func base(named name: String) -> Workload? {
        switch name {
        case "phone": .phone
        case "server": .server
        default: builtIn[name]
        }
    }

    private static func readApps(_ apps: ConfigObject, into workload: inout Workload) throws(InputError) {
        if let count = try apps.optionalInt("count", in: 1...1_000_000) { workload.apps = count }
        if let footprint = try apps.optionalObject("footprint") {
            workload.footprint = try distribution(footprint, sizes: true)
        }
        if let modes = try apps.optionalObject("backgroundModes") {
            for mode in BackgroundMode.allCases {
                if let share = try share(modes, mode.rawValue) { workload.backgroundModeShares[mode] = share }
            }
            try modes.finish()
        }
        if let value = try share(apps, "exitsOnSuspend") { workload.exitsOnSuspendShare = value }
        if let value = try share(apps, "ignoresWarnings") { workload.ignoresWarningsShare = value }
        if let views = try apps.optionalObject("views") {
            if let node = views.optional("count") {
                guard case .array(let bounds) = node.value, bounds.count == 2 else {
                    throw views.error(at: node, key: "count", "expected [min, max], found \(node.kindDescription)")
                }
                let low = try ConfigObject.int(bounds[0], in: 0...64, object: views, key: "count")
                let high = try ConfigObject.int(bounds[1], in: low...64, object: views, key: "count")
                workload.viewCount = low...high
            }
            if let bytes = try views.optionalObject("bytes") {
                workload.viewBytes = try distribution(bytes, sizes: true)
            }
            try views.finish()
        }
        if let purgeable = try apps.optionalObject("purgeable") {
            workload.purgeable = try distribution(purgeable, sizes: true)
        }
        if let preload = try apps.optionalInt("preload", in: 0...1_000_000) { workload.preload = preload }
        try apps.finish()
    }

    private static func readUsage(_ usage: ConfigObject, into workload: inout Workload) throws(InputError) {
        func positive(_ key: String) throws(InputError) -> Double? {
            guard let value = try usage.optionalNumber(key) else { return nil }
            guard value >= 0 else { throw usage.error("key \"\(key)\": expected a number ≥ 0, found \(value)") }
            return value
        }
        if let value = try positive("hours") { workload.hours = value }
        if let value = try positive("popularity") { workload.popularity = value }
        if let value = try positive("switchesPerHour") { workload.switchesPerHour = value }
        if let value = try positive("interruptionsPerHour") { workload.interruptionsPerHour = value }
        if let value = try positive("locksPerHour") { workload.locksPerHour = value }
        if let lock = try usage.optionalObject("lockSeconds") {
            workload.lockSeconds = try distribution(lock, sizes: false)
        }
        if let value = try positive("viewSwitchesPerMinute") { workload.viewSwitchesPerMinute = value }
        if let value = try usage.optionalSize("growthPerMinute") { workload.growthPerMinute = value }
        if let value = try share(usage, "backgroundTaskShare") { workload.backgroundTaskShare = value }
        if let value = try positive("backgroundTaskSeconds") { workload.backgroundTaskSeconds = value }
        if let value = try share(usage, "homeShare") { workload.homeShare = value }
        try usage.finish()
    }

    private static func readUser(_ object: ConfigObject, into user: inout PhoneUser) throws(InputError) {
        if let node = try object.optionalObject("installedApps") {
            user.installedApps = try distribution(node, sizes: false)
        }
        if let node = try object.optionalObject("popularityScale") {
            user.popularityScale = try distribution(node, sizes: false)
        }
        if let node = try object.optionalObject("deviceSessionsPerDay") {
            user.deviceSessionsPerDay = try distribution(node, sizes: false)
        }
        if let value = try object.optionalNumber("extraAppsPerSession") {
            guard (0...20).contains(value) else {
                throw object.error("key \"extraAppsPerSession\": expected 0...20, found \(value)")
            }
            user.extraAppsPerSession = value
        }
        if let node = try object.optionalObject("sessionSeconds") {
            user.sessionSeconds = try distribution(node, sizes: false)
        }
        for key in ["wake", "sleep"] {
            guard let hour = try object.optionalObject(key) else { continue }
            let mean = try hour.optionalNumber("mean") ?? (key == "wake" ? user.wake.mean : user.sleep.mean)
            let sd = try hour.optionalNumber("sd") ?? 0
            guard (0...30).contains(mean), (0...6).contains(sd) else {
                throw hour.error("expected mean in 0...30 hours and sd in 0...6, found \(mean) and \(sd)")
            }
            try hour.finish()
            if key == "wake" {
                user.wake = .init(mean: mean, standardDeviation: sd)
            } else {
                user.sleep = .init(mean: mean, standardDeviation: sd)
            }
        }
        if let value = try share(object, "nightActivity") { user.nightActivity = value }
        if let value = try share(object, "homeBeforeLock") { user.homeBeforeLockShare = value }
        if let list = try object.optionalList("kinds") {
            guard !list.isEmpty else { throw object.error("key \"kinds\": expected at least one kind") }
            var kinds: [PhoneUser.AppKind] = []
            for (path, node) in list {
                let kind = try ConfigObject(node, file: object.file, path: path)
                let name = try kind.string("name")
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                    throw kind.error("key \"name\": expected letters, digits or -, found \"\(name)\"")
                }
                guard let share = try share(kind, "share"), share > 0 else {
                    throw kind.error("key \"share\": expected a share above 0 such as 10%")
                }
                guard let footprint = try kind.optionalObject("footprint") else {
                    throw kind.error("missing key \"footprint\": expected { median, p99 }")
                }
                var parsed = PhoneUser.AppKind(
                    name: name, share: share, footprint: try distribution(footprint, sizes: true))
                if let mode = try kind.optionalString("backgroundMode") {
                    guard let value = BackgroundMode(rawValue: mode) else {
                        throw kind.error("key \"backgroundMode\": expected audio, location or voip, found \"\(mode)\"")
                    }
                    parsed.backgroundMode = value
                }
                if let value = try Self.share(kind, "backgroundUse") { parsed.backgroundUseShare = value }
                if let value = try kind.optionalSize("growthPerMinute") { parsed.growthPerMinute = value }
                if let value = try kind.optionalNumber("growthMinutes") {
                    guard (0...1_440).contains(value) else {
                        throw kind.error("key \"growthMinutes\": expected minutes 0...1440, found \(value)")
                    }
                    parsed.growthMinutes = value
                }
                if let node = try kind.optionalObject("backgroundSeconds") {
                    parsed.backgroundUseSeconds = try distribution(node, sizes: false)
                }
                for key in ["sessionScale", "morning", "evening"] {
                    guard let value = try kind.optionalNumber(key) else { continue }
                    guard (0...100).contains(value) else {
                        throw kind.error("key \"\(key)\": expected a factor 0...100, found \(value)")
                    }
                    switch key {
                    case "sessionScale": parsed.sessionScale = value
                    case "morning": parsed.morning = value
                    default: parsed.evening = value
                    }
                }
                try kind.finish()
                kinds.append(parsed)
            }
            user.kinds = kinds
        }
        try object.finish()
    }

    /// A `{ median, p99 }` mapping; sizes accept units.
    private static func distribution(_ object: ConfigObject, sizes: Bool) throws(InputError) -> LogNormal {
        let median: Double
        let p99: Double
        if sizes {
            median = Double(try object.size("median").value)
            p99 = Double(try object.size("p99").value)
        } else {
            guard let m = try object.optionalNumber("median"), let p = try object.optionalNumber("p99") else {
                throw object.error("expected numbers \"median\" and \"p99\"")
            }
            median = m
            p99 = p
        }
        guard median > 0, p99 >= median else {
            throw object.error("expected 0 < median ≤ p99, found median \(median) and p99 \(p99)")
        }
        try object.finish()
        return LogNormal(median: median, p99: p99)
    }

    /// A share: `"2%"` or a fraction such as `0.02`.
    private static func share(_ object: ConfigObject, _ key: String) throws(InputError) -> Double? {
        guard let node = object.optional(key) else { return nil }
        switch node.value {
        case .number(let value, _) where (0...1).contains(value): return value
        case .string(let text):
            if text.hasSuffix("%"), let value = Double(text.dropLast()), (0...100).contains(value) {
                return value / 100
            }
        default: break
        }
        throw object.error(at: node, key: key, "expected a share such as 2% or 0.02, found \(node.kindDescription)")
    }
}
