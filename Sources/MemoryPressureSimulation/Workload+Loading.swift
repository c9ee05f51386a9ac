import MemoryPressure

extension Workload {
    /// The built-in workloads by name.
    public static let builtIn: [String: Workload] = ["phone": .phone, "server": .server]

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
    ///
    /// - Throws: ``InputError`` naming the file, line, column and key path of the first problem.
    public init(yaml text: String, file: String) throws(InputError) {
        let document = try ConfigObject(try ConfigNode.parseYAML(text, file: file), file: file)
        let baseName = try document.optionalString("base") ?? "phone"
        guard var workload = Self.builtIn[baseName] else {
            throw document.error("key \"base\": expected phone or server, found \"\(baseName)\"")
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
        try document.finish()
        self = workload
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
