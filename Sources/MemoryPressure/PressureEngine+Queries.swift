// Read-only views of the engine's state for callers and reports.

/// What the engine knows about one app at a moment.
public struct AppStatus: Sendable, Hashable {
    /// The app.
    public var id: AppID
    /// Its lifecycle state.
    public var state: AppState
    /// Its total resident bytes.
    public var footprint: Bytes
    /// Bytes of loaded offscreen views.
    public var viewCaches: Bytes
    /// Bytes of registered purgeable caches.
    public var purgeable: Bytes
    /// Its declared background modes.
    public var backgroundModes: BackgroundModes
    /// When it was last frontmost (engine time).
    public var lastFrontmost: Double
    /// Its view controllers: name, bytes, loaded, onscreen.
    public var views: [(name: String, bytes: Bytes, isLoaded: Bool, isOnscreen: Bool)]

    /// Compares every field.
    ///
    /// - Complexity: O(length of the id + number of view controllers) (the ``views`` are compared
    ///   one by one).
    public static func == (lhs: AppStatus, rhs: AppStatus) -> Bool {
        lhs.id == rhs.id && lhs.state == rhs.state && lhs.footprint == rhs.footprint
            && lhs.viewCaches == rhs.viewCaches && lhs.purgeable == rhs.purgeable
            && lhs.backgroundModes == rhs.backgroundModes && lhs.lastFrontmost == rhs.lastFrontmost
            && lhs.views.elementsEqual(rhs.views, by: { $0 == $1 })
    }

    /// Hashes the identifying fields.
    ///
    /// - Complexity: O(length of the id)
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(state)
        hasher.combine(footprint)
    }
}

extension PressureEngine {
    /// The status of `app`, or `nil` if the engine has never seen it.
    ///
    /// - Complexity: O(number of its view controllers)
    public func status(of app: AppID) -> AppStatus? {
        guard let index = indexByID[app] else { return nil }
        return status(at: Int(index))
    }

    /// The status of every app the engine tracks, in the order they first appeared (apps whose
    /// records were reclaimed are gone; their slots' new apps appear at the reused position).
    ///
    /// - Complexity: O(n)
    public var allApps: [AppStatus] { apps.indices.lazy.filter(isLive).map { status(at: $0) } }

    /// The foreground app, if any.
    public var foregroundApp: AppID? { foreground.map { apps[cold: $0].id } }

    /// The number of resident apps.
    ///
    /// - Complexity: O(n)
    public var residentCount: Int { apps.lazy.filter { $0.state.isResident }.count }

    /// The level free memory alone would give, without hysteresis (a snapshot has no history).
    ///
    /// - Complexity: O(1)
    public var levelForFreeMemory: PressureLevel { targetLevel(free: accountant.free.value, current: .normal) }

    func status(at index: Int) -> AppStatus {
        let app = apps[index]
        return AppStatus(
            id: apps[cold: index].id, state: app.state, footprint: Bytes(app.footprint),
            viewCaches: Bytes(app.viewCaches),
            purgeable: Bytes(app.purgeable), backgroundModes: app.backgroundModes,
            lastFrontmost: apps[cold: index].lastFrontmost,
            views: extras(index).views.map { ($0.name, Bytes($0.bytes), $0.isLoaded, $0.isOnscreen) })
    }

    /// A description of the first broken accounting invariant, or `nil`: the accountant's total
    /// equals the sum of every app's footprint, no footprint part is negative, non-resident apps
    /// hold nothing, every killable resident app is in the kill queue under its current key, and
    /// at most one app is in the foreground. O(n); tests call it after every step.
    ///
    /// - Complexity: O(n + view controllers of every app), plus the kill queue's own check (O(its
    ///   slots)).
    public func _invariantViolation() -> String? {
        var sum: Int64 = 0
        var foregroundCount = 0
        for (index, app) in apps.enumerated() {
            let id = apps[cold: index].id
            sum += app.footprint
            if app.base < 0 || app.viewCaches < 0 || app.onscreenView < 0 || app.purgeable < 0 {
                return "\(id) has a negative footprint part"
            }
            if !app.state.isResident && app.footprint != 0 { return "\(id) is not running but holds memory" }
            if app.state.isForeground {
                foregroundCount += 1
                if foreground != index { return "\(id) is \(app.state.rawValue) but not the foreground app" }
            }
            let views = extras(index).views
            let loadedOffscreen = views.filter { $0.isLoaded && !$0.isOnscreen }.reduce(0) { $0 + $1.bytes }
            let onscreen = views.filter { $0.isLoaded && $0.isOnscreen }.reduce(0) { $0 + $1.bytes }
            if loadedOffscreen != app.viewCaches || onscreen != app.onscreenView {
                return "\(id): view bytes do not match its views"
            }
            let band = app.state.isResident ? app.bands[app.state] : BandTable.none
            if band == BandTable.none {
                if app.killHandle != nil { return "\(id) is in the kill queue but not killable" }
            } else {
                guard let handle = app.killHandle, killQueue.contains(handle) else {
                    return "\(id) is killable but not in the kill queue"
                }
                if killQueue.priority(of: handle) != killKey(of: index, band: band) {
                    return "\(id) has a stale kill key"
                }
            }
        }
        if let violation = compressionInvariantViolation() { return violation }
        if let violation = reuseInvariantViolation() { return violation }
        if let violation = prewarmInvariantViolation() { return violation }
        if accountant.free != device.usable - Bytes(sum) - accountant.unattributed - accountant.compressedPool {
            return "free memory \(accountant.free.value) does not follow from the footprints"
        }
        if sum != accountant.totalFootprint.value {
            return "accountant total \(accountant.totalFootprint.value) != sum of footprints \(sum)"
        }
        if foregroundCount > 1 { return "\(foregroundCount) apps are in the foreground" }
        if let empty = extras.first(where: { $0.value.isEmpty }) {
            return "app \(empty.key) keeps an empty extras entry"
        }
        return killQueue._invariantViolation()
    }
}
