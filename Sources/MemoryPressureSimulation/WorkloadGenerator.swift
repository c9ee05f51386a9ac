import MemoryPressure

/// Turns a ``Workload`` and a seed into a trace. The same workload and seed always give the same
/// trace (all randomness comes from ``SeededGenerator``), so `simulate --seed S` and run S of
/// `compare` replay the very same day.
///
/// With a ``PhoneUser`` (the `phone` workload) a seed is one person: see
/// ``user(seed:)`` and the extension that generates their day. Without one (the tenant model) the
/// user opens apps chosen by popularity (Zipf), uses each for an exponentially distributed
/// session (so switches per hour match the workload), switches views, lets the app grow, gets
/// interrupted, locks the phone, sometimes starts a background task before leaving, and goes
/// Home now and then. Actions address the app the user is in; under a policy that killed it, the
/// replay skips them (see ``TracePlayer``), as a user cannot touch an app that is gone.
public struct WorkloadGenerator: Sendable {
    /// The workload.
    public let workload: Workload
    /// The shared app catalogue, most popular first (a server's tenants).
    public let catalogue: [AppLaunch]
    /// For a phone user's catalogue, the index in ``PhoneUser/kinds`` of each app's kind.
    let kindOfApp: [Int]

    /// The seed of the shared catalogue: the same for every trace, so every user picks from the
    /// same apps of the same sizes.
    static let catalogueSeed: UInt64 = 0xC0FFEE

    /// How many steps in a row may leave a session's remaining time unchanged before the session
    /// ends: 64. Timers due at the same moment give a few in a row; only a rate so high that its
    /// waits vanish against the session's length (`viewSwitchesPerMinute: 1e300`) gives more,
    /// and would otherwise repeat forever.
    static let stalledStepsLimit = 64

    /// A generator for `workload`; its catalogue is drawn once, from a fixed seed.
    ///
    /// - Complexity: O(apps)
    public init(workload: Workload) {
        self.workload = workload
        var random = SeededGenerator(seed: Self.catalogueSeed)
        var catalogue: [AppLaunch] = []
        var kinds: [Int] = []
        catalogue.reserveCapacity(workload.apps)
        let width = String(max(workload.apps - 1, 0)).count
        let kindWeights = workload.user?.kinds.map(\.share) ?? []
        let kindTotal = kindWeights.reduce(0, +)
        for index in 0..<workload.apps {
            let digits = String(index)
            let number = String(repeating: "0", count: max(0, width - digits.count)) + digits
            var modes: BackgroundModes = []
            let footprint: LogNormal
            let id: AppID
            if let user = workload.user, kindTotal > 0 {
                var pick = Double.random(in: 0..<kindTotal, using: &random)
                var kind = 0
                while kind < kindWeights.count - 1 && pick >= kindWeights[kind] {
                    pick -= kindWeights[kind]
                    kind += 1
                }
                kinds.append(kind)
                if let mode = user.kinds[kind].backgroundMode { modes.insert(BackgroundModes(mode)) }
                footprint = user.kinds[kind].footprint
                id = AppID(user.kinds[kind].name + number)
            } else {
                for mode in BackgroundMode.allCases
                where Double.random(in: 0..<1, using: &random) < (workload.backgroundModeShares[mode] ?? 0) {
                    modes.insert(BackgroundModes(mode))
                }
                footprint = workload.footprint
                id = AppID("app" + number)
            }
            let viewCount = Int.random(in: workload.viewCount, using: &random)
            let views = (0..<viewCount).map { position in
                ViewSpec(
                    name: position == 0 ? "main" : "view\(position)",
                    bytes: Bytes(Int64(workload.viewBytes.sample(using: &random))))
            }
            let purgeable = Bytes(Int64(workload.purgeable.sample(using: &random)))
            let base = Bytes(Int64(footprint.sample(using: &random)))
            catalogue.append(
                AppLaunch(
                    id: id, footprint: base + views.reduce(purgeable) { $0 + $1.bytes }, backgroundModes: modes,
                    exitsOnSuspend: Double.random(in: 0..<1, using: &random) < workload.exitsOnSuspendShare,
                    views: views, purgeable: purgeable,
                    ignoresWarnings: Double.random(in: 0..<1, using: &random) < workload.ignoresWarningsShare))
        }
        self.catalogue = catalogue
        self.kindOfApp = kinds
    }

    /// The trace of seed `seed`: a day of the user of that seed, or a day of requests to the tenants.
    ///
    /// - Complexity: for a phone user, O(apps log apps) to draw them, then O(sessions log sessions +
    ///   apps opened × apps installed + actions generated) for their day (each pick weighs every
    ///   installed app); for tenants, O(apps + sessions × log apps + actions generated).
    public func trace(seed: UInt64) -> Trace {
        if let user = user(seed: seed) { return phoneTrace(of: user, seed: seed) }
        return tenantTrace(seed: seed)
    }

    /// A day of requests to the tenants (the tenant model), from `seed`.
    func tenantTrace(seed: UInt64) -> Trace {
        var random = SeededGenerator(seed: seed)
        var entries: [Trace.Entry] = []
        var time = 0.0
        let end = workload.hours * 3600
        let zipf = Zipf(count: catalogue.count, exponent: workload.popularity)
        func add(_ action: Action) { entries.append(Trace.Entry(time: time, action: action)) }

        for index in 0..<min(workload.preload, catalogue.count) {
            add(.open(catalogue[index]))
            time += 0.001
        }
        if workload.preload > 0 { add(.home) }

        var current: Int? = nil
        let meanSession = 3600 / max(workload.switchesPerHour, 0.001)
        while time < end, !catalogue.isEmpty {
            var next = zipf.sample(using: &random)
            if next == current { next = (next + 1) % catalogue.count }
            current = next
            let app = catalogue[next]
            add(.open(app))
            var remaining = min(
                max(1, Exponential.sample(ratePerSecond: 1 / meanSession, using: &random)), max(end - time, 1))
            var grown: Int64 = 0
            // Within the session, the next view switch, growth step, interruption and lock.
            var nextView = Exponential.sample(ratePerSecond: workload.viewSwitchesPerMinute / 60, using: &random)
            var nextGrowth = 60.0
            var nextInterruption = Exponential.sample(
                ratePerSecond: workload.interruptionsPerHour / 3600, using: &random)
            var nextLock = Exponential.sample(ratePerSecond: workload.locksPerHour / 3600, using: &random)
            var endedByAnswer = false
            var stalled = 0
            while true {
                let step = min(nextView, nextGrowth, nextInterruption, nextLock)
                guard step < remaining else { break }
                // Steps too small to shorten the session (a rate near the largest number) would
                // repeat forever; an ordinary session sees at most a few in a row (timers due at
                // the same moment), so 64 in a row end it.
                stalled = remaining - step < remaining ? 0 : stalled + 1
                guard stalled < Self.stalledStepsLimit else { break }
                time += step
                remaining -= step
                nextView -= step
                nextGrowth -= step
                nextInterruption -= step
                nextLock -= step
                if nextGrowth <= 0 {
                    nextGrowth = 60
                    if workload.growthPerMinute.value > 0 {
                        add(.allocate(app: app.id, bytes: workload.growthPerMinute, purgeable: false))
                        grown += workload.growthPerMinute.value
                    }
                } else if nextView <= 0 {
                    nextView = Exponential.sample(ratePerSecond: workload.viewSwitchesPerMinute / 60, using: &random)
                    if let view = app.views.randomElement(using: &random) {
                        add(.showView(app: app.id, view: view.name, bytes: nil))
                    }
                } else if nextInterruption <= 0 {
                    nextInterruption = Exponential.sample(
                        ratePerSecond: workload.interruptionsPerHour / 3600, using: &random)
                    add(.interrupt)
                    time += 20
                    let answered = Int.random(in: 0..<3, using: &random) == 0
                    add(.interruptEnd(answered: answered))
                    if answered {
                        endedByAnswer = true
                        break
                    }
                } else {
                    nextLock = Exponential.sample(ratePerSecond: workload.locksPerHour / 3600, using: &random)
                    add(.lock)
                    time += max(1, workload.lockSeconds.sample(using: &random))
                    add(.unlock)
                }
            }
            if !endedByAnswer {
                // Before it leaves the foreground, the app gives back half of what it grew and may
                // start a background task. (An answered call takes it away before it can.)
                time += remaining
                if grown > 0 {
                    add(.free(app: app.id, bytes: Bytes(grown / 2), purgeable: false))
                }
                if Double.random(in: 0..<1, using: &random) < workload.backgroundTaskShare {
                    add(.beginBackgroundTask(app: app.id, seconds: workload.backgroundTaskSeconds))
                }
            }
            if !endedByAnswer && Double.random(in: 0..<1, using: &random) < workload.homeShare {
                add(.home)
                current = nil
                time += Exponential.sample(ratePerSecond: 1 / 300, using: &random)
            }
        }
        add(.tick)
        return Trace(device: workload.device, entries: entries)
    }
}
