import MemoryPressure

/// Turns a ``Workload`` and a seed into a trace. The same workload and seed always give the same
/// trace (all randomness comes from ``SeededGenerator``).
///
/// The user opens apps chosen by popularity (Zipf), uses each for an exponentially distributed
/// session (so switches per hour match the workload), switches views, lets the app grow, gets
/// interrupted, locks the phone, sometimes starts a background task before leaving, and goes
/// Home now and then. Actions address the app the user is in; under a policy that killed it, the
/// replay skips them (see ``SimulationRun``), as a user cannot touch an app that is gone.
public struct WorkloadGenerator {
    /// The workload.
    public let workload: Workload
    /// The app catalogue, most popular first.
    public let catalogue: [AppLaunch]

    /// A generator for `workload`; the catalogue is drawn from `seed` (the same for every trace
    /// of this generator, so traces of different seeds share the apps).
    ///
    /// - Complexity: O(apps)
    public init(workload: Workload, seed: UInt64) {
        self.workload = workload
        var random = SeededGenerator(seed: seed ^ 0xC0FFEE)
        var catalogue: [AppLaunch] = []
        catalogue.reserveCapacity(workload.apps)
        let width = String(max(workload.apps - 1, 0)).count
        for index in 0..<workload.apps {
            let digits = String(index)
            let id = AppID("app" + String(repeating: "0", count: max(0, width - digits.count)) + digits)
            var modes: BackgroundModes = []
            for mode in BackgroundMode.allCases
            where Double.random(in: 0..<1, using: &random) < (workload.backgroundModeShares[mode] ?? 0) {
                modes.insert(BackgroundModes(mode))
            }
            let viewCount = Int.random(in: workload.viewCount, using: &random)
            let views = (0..<viewCount).map { position in
                ViewSpec(
                    name: position == 0 ? "main" : "view\(position)",
                    bytes: Bytes(Int64(workload.viewBytes.sample(using: &random))))
            }
            let purgeable = Bytes(Int64(workload.purgeable.sample(using: &random)))
            let base = Bytes(Int64(workload.footprint.sample(using: &random)))
            catalogue.append(
                AppLaunch(
                    id: id, footprint: base + views.reduce(purgeable) { $0 + $1.bytes }, backgroundModes: modes,
                    exitsOnSuspend: Double.random(in: 0..<1, using: &random) < workload.exitsOnSuspendShare,
                    views: views, purgeable: purgeable,
                    ignoresWarnings: Double.random(in: 0..<1, using: &random) < workload.ignoresWarningsShare))
        }
        self.catalogue = catalogue
    }

    /// The trace of seed `seed`.
    ///
    /// - Complexity: O(actions generated)
    public func trace(seed: UInt64) -> Trace {
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
            while true {
                let step = min(nextView, nextGrowth, nextInterruption, nextLock)
                guard step < remaining else { break }
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
