import Foundation
import MemoryPressure

/// One person drawn from a ``PhoneUser`` model: what they installed and how they use it.
public struct SimulatedUser: Sendable, Hashable {
    /// The apps they installed, their favourite first.
    public var installed: [AppLaunch]
    /// Index in ``PhoneUser/kinds`` of each installed app's kind.
    public var kinds: [Int]
    /// Their popularity scale τ (rank r is picked with weight e^(−r/τ)).
    public var popularityScale: Double
    /// Their device sessions per day.
    public var deviceSessionsPerDay: Double
    /// When they wake up, in hours after midnight.
    public var wakeHour: Double
    /// When they go to sleep, in hours after midnight (past 24 for after midnight).
    public var sleepHour: Double

    /// Whether the user is awake at `hour` (0..<24).
    ///
    /// - Complexity: O(1)
    public func isAwake(atHour hour: Double) -> Bool {
        (hour >= wakeHour && hour < sleepHour) || (hour + 24 >= wakeHour && hour + 24 < sleepHour)
    }
}

extension WorkloadGenerator {
    /// The person of seed `seed`, or `nil` for a workload without a ``PhoneUser`` (tenants).
    ///
    /// They install apps of the shared catalogue with probability growing with the app's global
    /// popularity (weighted sampling without replacement, Efraimidis–Spirakis keys); the order of
    /// the keys is their personal ranking, so favourites tend to be popular apps but differ
    /// between users.
    ///
    /// - Complexity: O(apps log apps)
    public func user(seed: UInt64) -> SimulatedUser? {
        guard let model = workload.user, !catalogue.isEmpty else { return nil }
        var random = SeededGenerator(seed: seed)
        let drawn = model.installedApps.sample(using: &random).rounded()
        let count = Int(min(max(drawn.isNaN ? 1 : drawn, 1), Double(catalogue.count)))
        // Key u^(1/w) with Zipf weight w = 1/(rank+1)^s: compare log(u) × (rank+1)^s instead.
        var keys: [(key: Double, index: Int)] = []
        keys.reserveCapacity(catalogue.count)
        for index in catalogue.indices {
            let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
            keys.append((log(u) * pow(Double(index + 1), workload.popularity), index))
        }
        keys.sort { ($0.key, $0.index) > ($1.key, $1.index) }
        let chosen = keys.prefix(count).map(\.index)
        let sleep = model.sleep.sample(using: &random)
        let wake = min(model.wake.sample(using: &random), sleep - 4)
        return SimulatedUser(
            installed: chosen.map { catalogue[$0] }, kinds: chosen.map { kindOfApp[$0] },
            popularityScale: max(model.popularityScale.sample(using: &random), 0.5),
            deviceSessionsPerDay: max(model.deviceSessionsPerDay.sample(using: &random), 1),
            wakeHour: wake, sleepHour: sleep)
    }

    /// A day (``Workload/hours`` long, starting at midnight) of `user`.
    ///
    /// Device sessions start at times drawn from the user's hourly activity (low while they sleep);
    /// each unlocks the phone, uses one app or more (picked by the user's ranking and the kinds'
    /// time of day), and ends with a lock, with Home first half of the time. In an app the user
    /// switches views, the app grows, calls interrupt; music, navigation and VoIP apps may start
    /// using their background mode, which then ends after its duration (at most one app plays
    /// audio: starting playback stops the previous player).
    func phoneTrace(of user: SimulatedUser, seed: UInt64) -> Trace {
        let model = workload.user!
        var random = SeededGenerator(seed: seed ^ 0xDA7_0F_11FE)
        var day = DayBuilder()
        let end = workload.hours * 3600
        // Bounded so that a library caller's absurd workload cannot trap (commands refuse it earlier,
        // see ``Workload/estimatedActionsPerSample``).
        let sessions = Int(min((user.deviceSessionsPerDay * workload.hours / 24).rounded(), 10_000_000))
        func activity(at time: Double) -> Double {
            let hour = time / 3600 - 24 * (time / 86_400).rounded(.down)
            let weight = model.hourlyActivity.isEmpty ? 1 : model.hourlyActivity[Int(hour) % model.hourlyActivity.count]
            return max(weight, 0) * (user.isAwake(atHour: hour) ? 1 : model.nightActivity)
        }
        let peak = model.hourlyActivity.max() ?? 1
        var starts: [Double] = []
        if peak > 0 && end > 0 {
            var attempts = 0
            while starts.count < sessions && attempts < sessions * 1_000 {
                attempts += 1
                let time = Double.random(in: 0..<end, using: &random)
                if Double.random(in: 0..<peak, using: &random) < activity(at: time) { starts.append(time) }
            }
        }
        starts.sort()

        day.add(.lock, at: 0)
        var foreground: Int? = nil
        for start in starts {
            var time = max(start, day.now + 1)
            guard time < end else { break }
            day.add(.unlock, at: time)
            let apps = 1 + geometric(mean: model.extraAppsPerSession, using: &random)
            for position in 0..<apps {
                let hour = time / 3600 - 24 * (time / 86_400).rounded(.down)
                var pick = pickApp(of: user, model: model, hour: hour, using: &random)
                if position > 0 && pick == foreground {
                    pick = pickApp(of: user, model: model, hour: hour, using: &random)
                    if pick == foreground { continue }
                }
                if pick != foreground {
                    if let current = foreground { leave(current, of: user, day: &day, using: &random) }
                    day.add(.open(user.installed[pick]), at: time)
                    foreground = pick
                    startBackgroundUse(pick, of: user, model: model, day: &day, using: &random)
                }
                let kind = model.kinds[user.kinds[pick]]
                let length = min(max(model.sessionSeconds.sample(using: &random) * kind.sessionScale, 2), 4 * 3600)
                let answered = useApp(
                    user.installed[pick], for: length, growth: kind.growthPerMinute ?? workload.growthPerMinute,
                    growthMinutes: kind.growthMinutes, day: &day, using: &random)
                time = day.now
                if answered {
                    foreground = nil
                    break
                }
                if time >= end { break }
            }
            time = day.now + 1
            guard time < end else { break }
            if let current = foreground, Double.random(in: 0..<1, using: &random) < model.homeBeforeLockShare {
                leave(current, of: user, day: &day, using: &random)
                day.add(.home, at: time)
                foreground = nil
            }
            day.add(.lock, at: time)
        }
        day.flushStops(through: end)
        day.add(.tick, at: max(end, day.now))
        return Trace(device: workload.device, entries: day.entries)
    }

    /// An installed app, by the user's ranking and the kinds' time of day.
    private func pickApp(
        of user: SimulatedUser, model: PhoneUser, hour: Double, using random: inout SeededGenerator
    ) -> Int {
        var weights: [Double] = []
        weights.reserveCapacity(user.installed.count)
        for (rank, kind) in user.kinds.enumerated() {
            var weight = exp(-Double(rank) / user.popularityScale)
            if (6..<11).contains(hour) { weight *= model.kinds[kind].morning }
            if hour >= 19 { weight *= model.kinds[kind].evening }
            weights.append(weight)
        }
        var pick = Double.random(in: 0..<weights.reduce(0, +), using: &random)
        for (index, weight) in weights.enumerated() {
            if pick < weight { return index }
            pick -= weight
        }
        return weights.count - 1
    }

    /// After an open of app `index`: if its kind has a background mode, the user starts using it
    /// (or not) this session; the engine is told either way, since a cold launch starts with every
    /// declared mode in use. An app that exits on suspend never does: it opted out of background
    /// execution and ends when the user leaves it ("UIApplicationExitsOnSuspend", Information
    /// Property List Key Reference), so a use could only end in an action on an app not running.
    private func startBackgroundUse(
        _ index: Int, of user: SimulatedUser, model: PhoneUser, day: inout DayBuilder,
        using random: inout SeededGenerator
    ) {
        let kind = model.kinds[user.kinds[index]]
        guard let mode = kind.backgroundMode else { return }
        let app = user.installed[index].id
        let continuing = day.stops[app] != nil
        // The draw is made for every app, as before apps that exit on suspend were told apart, so
        // every other user's day is unchanged.
        let drawn = continuing || Double.random(in: 0..<1, using: &random) < kind.backgroundUseShare
        let uses = drawn && !user.installed[index].exitsOnSuspend
        if uses && !continuing {
            if mode == .audio {
                for (other, stop) in day.stops.sorted(by: { $0.key < $1.key }) where stop.mode == .audio && other != app
                {
                    day.stops[other] = nil
                    day.add(.useBackgroundModes(app: other, modes: []), at: day.now)
                }
            }
            // At most six hours: a use longer than that is not one session of playback or navigation.
            day.stops[app] = (mode, day.now + min(kind.backgroundUseSeconds.sample(using: &random), 6 * 3600))
        }
        if !uses { day.stops[app] = nil }
        day.add(.useBackgroundModes(app: app, modes: uses ? BackgroundModes(mode) : []), at: day.now)
    }

    /// The foreground app `index` is about to leave: it may start a background task.
    private func leave(
        _ index: Int, of user: SimulatedUser, day: inout DayBuilder, using random: inout SeededGenerator
    ) {
        if Double.random(in: 0..<1, using: &random) < workload.backgroundTaskShare {
            day.add(
                .beginBackgroundTask(app: user.installed[index].id, seconds: workload.backgroundTaskSeconds),
                at: day.now)
        }
    }

    /// `length` seconds in `app`: view switches, growth (`growth` at each full minute, for at most
    /// `growthMinutes` minutes of the session), interruptions. Returns whether an answered call took
    /// the user away.
    private func useApp(
        _ app: AppLaunch, for length: Double, growth: Bytes, growthMinutes: Double?, day: inout DayBuilder,
        using random: inout SeededGenerator
    ) -> Bool {
        var remaining = length
        var clock = day.now
        var grown: Int64 = 0
        var minutes = 0.0
        var nextView = Exponential.sample(ratePerSecond: workload.viewSwitchesPerMinute / 60, using: &random)
        var nextGrowth = 60.0
        var nextInterruption = Exponential.sample(ratePerSecond: workload.interruptionsPerHour / 3600, using: &random)
        var stalled = 0
        while true {
            let step = min(nextView, nextGrowth, nextInterruption)
            guard step < remaining else { break }
            // Steps too small to shorten the stay repeat forever at an absurd rate: see
            // `stalledStepsLimit`.
            stalled = remaining - step < remaining ? 0 : stalled + 1
            guard stalled < Self.stalledStepsLimit else { break }
            clock += step
            let time = clock
            remaining -= step
            nextView -= step
            nextGrowth -= step
            nextInterruption -= step
            if nextGrowth <= 0 {
                nextGrowth = 60
                minutes += 1
                if growth.value > 0 && minutes <= (growthMinutes ?? .infinity) {
                    day.add(.allocate(app: app.id, bytes: growth, purgeable: false), at: time)
                    grown += growth.value
                }
            } else if nextView <= 0 {
                nextView = Exponential.sample(ratePerSecond: workload.viewSwitchesPerMinute / 60, using: &random)
                if let view = app.views.randomElement(using: &random) {
                    day.add(.showView(app: app.id, view: view.name, bytes: nil), at: time)
                }
            } else {
                nextInterruption = Exponential.sample(
                    ratePerSecond: workload.interruptionsPerHour / 3600, using: &random)
                day.add(.interrupt, at: time)
                let answered = Int.random(in: 0..<3, using: &random) == 0
                clock += 20
                day.add(.interruptEnd(answered: answered), at: clock)
                if answered { return true }
            }
        }
        let time = clock + remaining
        if grown > 0 { day.add(.free(app: app.id, bytes: Bytes(grown / 2), purgeable: false), at: time) }
        day.now = max(day.now, time)
        return false
    }

    /// A count drawn from a geometric distribution with the given mean (0, 1, 2…).
    private func geometric(mean: Double, using random: inout SeededGenerator) -> Int {
        guard mean > 0 else { return 0 }
        let continuing = mean / (1 + mean)
        var count = 0
        while count < 1_000 && Double.random(in: 0..<1, using: &random) < continuing { count += 1 }
        return count
    }
}

/// The entries of a day under construction, with the background uses waiting to end.
struct DayBuilder {
    var entries: [Trace.Entry] = []
    /// The time of the last entry.
    var now = 0.0
    /// Apps using a background mode, and when the use ends.
    var stops: [AppID: (mode: BackgroundMode, end: Double)] = [:]

    /// Adds `action` at `time` (not before the last entry), after every background use that ends first.
    mutating func add(_ action: Action, at time: Double) {
        flushStops(through: time)
        now = max(now, time)
        entries.append(Trace.Entry(time: now, action: action))
    }

    /// Ends, in time order, every background use that ends at or before `time`.
    mutating func flushStops(through time: Double) {
        while let next = stops.filter({ $0.value.end <= time }).min(by: {
            ($0.value.end, $0.key) < ($1.value.end, $1.key)
        }) {
            stops[next.key] = nil
            now = max(now, next.value.end)
            entries.append(Trace.Entry(time: now, action: .useBackgroundModes(app: next.key, modes: [])))
        }
    }
}

extension PhoneUser.Hour {
    /// One sample.
    func sample(using random: inout SeededGenerator) -> Double {
        mean + standardDeviation * StandardNormal.sample(using: &random)
    }
}
