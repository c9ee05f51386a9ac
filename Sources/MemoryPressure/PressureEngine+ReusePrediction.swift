// The `predictedReuse` band order (Policy.prediction, ReusePrediction): the engine counts every
// open it sees — by app, by hour of the clock, by the app opened before — and, before each victim
// is chosen, scores the apps of such bands by their expected loss per byte.

import IndexedHeapModule

/// The engine's books for ``BandOrder/predictedReuse``. Every count is decayed with the model's
/// half-life and kept as a logarithm referred to time 0 (an open at time t adds e^(λt)), so an
/// open updates O(1) numbers and no count is touched as time passes; a count read at time t is
/// e^(log − λt).
struct ReuseBooks {
    let model: ReusePrediction
    /// How a relaunch is priced (the policy's `relaunch:` costs).
    let cost: RelaunchModel
    /// log of each app's count of opens, by slot (−∞: none).
    var opens: [Double] = []
    /// log of the count of every open.
    var allOpens = -Double.infinity
    /// log of each app's count of opens in each hour of the clock, 24 per slot (time of day only).
    var hourly: [Double] = []
    /// log of the count of every open in each hour of the clock.
    var allHourly = [Double](repeating: -.infinity, count: 24)
    /// log of how often the app of the outer key was followed by the app of the inner key: at most
    /// ``maximumSuccessors`` apps per row (the least frequent is dropped for a new one).
    var transitions: [Int32: [Int32: Double]] = [:]
    /// log of how often the app of the key was followed by any app (dropped successors included).
    var transitionTotals: [Int32: Double] = [:]
    /// The rows that hold an entry for the app of the key, so forgetting it is O(its entries).
    var predecessors: [Int32: Set<Int32>] = [:]
    /// The app opened last, or −1.
    var lastOpened: Int32 = -1
    /// Each app's log expected loss per byte at the last scoring, by slot.
    var scores: [Double] = []
    /// Each app's footprint at its last cold launch, by slot (0: unknown, as for a snapshot's apps):
    /// what a relaunch would load again, whatever the app has grown to since.
    var launchBytes: [Int64] = []
    /// Each app's last cold launch, by slot, kept only when the model prewarms: what a prewarm
    /// launches again.
    var launches: [Int32: AppLaunch] = [:]

    /// The most successors a row of ``transitions`` keeps: memory stays O(apps), whatever the
    /// sequence (a phone user follows an app with a handful of others).
    static let maximumSuccessors = 32

    init(model: ReusePrediction, cost: RelaunchModel) {
        self.model = model
        self.cost = cost
    }

    /// The hour of the clock (0..<24) at engine time `time`, time 0 being midnight.
    @inline(__always)
    static func hour(at time: Double) -> Int {
        let seconds = time - 86_400 * (time / 86_400).rounded(.down)
        return Swift.min(Swift.max(Int(seconds / 3600), 0), 23)
    }

    /// Makes room for slot `index`.
    mutating func grow(to index: Int) {
        guard index >= opens.count else { return }
        let count = index + 1 - opens.count
        opens.append(contentsOf: repeatElement(-.infinity, count: count))
        scores.append(contentsOf: repeatElement(0, count: count))
        launchBytes.append(contentsOf: repeatElement(0, count: count))
        if model.timeOfDay { hourly.append(contentsOf: repeatElement(-.infinity, count: count * 24)) }
    }

    /// Counts an open of app `index` at `time`, after the app opened last.
    ///
    /// - Complexity: O(1) amortized.
    mutating func noteOpen(_ index: Int, at time: Double) {
        grow(to: index)
        let weight = model.decayRate * time
        opens[index] = Math.logAdd(opens[index], weight)
        allOpens = Math.logAdd(allOpens, weight)
        if model.timeOfDay {
            let hour = Self.hour(at: time)
            hourly[index * 24 + hour] = Math.logAdd(hourly[index * 24 + hour], weight)
            allHourly[hour] = Math.logAdd(allHourly[hour], weight)
        }
        let slot = Int32(truncatingIfNeeded: index)
        if model.transitions && lastOpened >= 0 { noteTransition(from: lastOpened, to: slot, weight: weight) }
        lastOpened = slot
    }

    /// Counts `from` followed by `to`, with weight e^`weight`; a full row first drops its least
    /// frequent successor.
    ///
    /// - Complexity: O(``maximumSuccessors``) when the row is full, O(1) otherwise.
    private mutating func noteTransition(from: Int32, to: Int32, weight: Double) {
        var row = transitions.removeValue(forKey: from) ?? [:]
        if row[to] == nil && row.count >= Self.maximumSuccessors,
            let least = row.min(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key
        {
            row[least] = nil
            predecessors[least]?.remove(from)
        }
        row[to] = Math.logAdd(row[to] ?? -.infinity, weight)
        transitions[from] = row
        predecessors[to, default: []].insert(from)
        transitionTotals[from] = Math.logAdd(transitionTotals[from] ?? -.infinity, weight)
    }

    /// Notes how app `index` launched: its footprint, and the whole launch when the model prewarms.
    mutating func noteLaunch(_ index: Int, _ launch: AppLaunch) {
        grow(to: index)
        launchBytes[index] = launch.footprint.value
        if model.prewarm != nil { launches[Int32(truncatingIfNeeded: index)] = launch }
    }

    /// Forgets app `index` (its slot is about to be reused by another app): its own counts, and
    /// the transitions from and to it. The totals keep its past opens, which happened.
    ///
    /// - Complexity: O(its transitions)
    mutating func forget(_ index: Int) {
        guard index < opens.count else { return }
        opens[index] = -.infinity
        scores[index] = 0
        launchBytes[index] = 0
        launches[Int32(truncatingIfNeeded: index)] = nil
        if model.timeOfDay {
            for hour in 0..<24 { hourly[index * 24 + hour] = -.infinity }
        }
        let slot = Int32(truncatingIfNeeded: index)
        if let row = transitions.removeValue(forKey: slot) {
            for successor in row.keys { predecessors[successor]?.remove(slot) }
        }
        transitionTotals[slot] = nil
        for predecessor in predecessors.removeValue(forKey: slot) ?? [] { transitions[predecessor]?[slot] = nil }
        if lastOpened == slot { lastOpened = -1 }
    }

    /// What one scoring round shares between apps: the time, the opens in the hours ahead, the
    /// row of the app opened last.
    struct Round {
        /// λ·t.
        var now: Double
        /// The current hour of the clock (the profile reads the hours after it).
        var hour: Int
        /// Every open in those hours (decayed count).
        var allAhead: Double
        /// Every open (decayed count).
        var all: Double
        /// The transitions from the app opened last, and their total (decayed count).
        var row: [Int32: Double]?
        var rowTotal: Double
    }

    /// The shared part of a scoring round at `time`.
    func round(at time: Double) -> Round {
        let now = model.decayRate * time
        let hour = Self.hour(at: time)
        var ahead = 0.0
        if model.timeOfDay {
            for step in 1...model.hoursAhead { ahead += Math.exp(allHourly[(hour + step) % 24] - now) }
        }
        let row = model.transitions && lastOpened >= 0 ? transitions[lastOpened] : nil
        let rowTotal = row == nil ? 0 : Math.exp((transitionTotals[lastOpened] ?? -.infinity) - now)
        return Round(now: now, hour: hour, allAhead: ahead, all: Math.exp(allOpens - now), row: row, rowTotal: rowTotal)
    }

    /// The prediction for app `index`: p(a), p(a, h), q(a | f) and the expected opens until it is
    /// opened again.
    func prediction(of index: Int, in round: Round) -> (share: Double, hourShare: Double, next: Double, opens: Double) {
        let own = index < opens.count ? Math.exp(opens[index] - round.now) : 0
        // An app never seen opened (loaded from a snapshot) counts half an open.
        let share = round.all > 0 ? Swift.max(own, 0.5) / (round.all + 0.5) : 1
        var hourShare = share
        if model.timeOfDay {
            var ownAhead = 0.0
            if index < opens.count {
                for step in 1...model.hoursAhead {
                    ownAhead += Math.exp(hourly[index * 24 + (round.hour + step) % 24] - round.now)
                }
            }
            let denominator = round.allAhead + model.prior
            if denominator > 0 { hourShare = (ownAhead + model.prior * share) / denominator }
        }
        hourShare = Swift.max(hourShare, 1e-9)
        guard model.transitions else { return (share, hourShare, hourShare, 1 / hourShare) }
        var next = hourShare
        if let row = round.row {
            let followed = Math.exp((row[Int32(truncatingIfNeeded: index)] ?? -.infinity) - round.now)
            let denominator = round.rowTotal + model.prior
            if denominator > 0 { next = (followed + model.prior * hourShare) / denominator }
        }
        next = Swift.min(Swift.max(next, 0), 1)
        return (share, hourShare, next, 1 + (1 - next) / hourShare)
    }

    /// log of the expected loss per byte of killing app `index`, now of `footprint` bytes: the
    /// relaunch is priced at the size it launched with (what it would load again), the bytes freed
    /// are today's (what it has grown to), and the chance it is needed is 1 / (expected opens
    /// until reuse) or, with a horizon, ``reuseChance(_:within:)``.
    func logLoss(of index: Int, footprint: Int64, in round: Round) -> Double {
        let guess = prediction(of: index, in: round)
        let perByte =
            Math.log(Swift.max(relaunchSeconds(of: index, footprint: footprint), 1e-9))
            - Math.log(Double(Swift.max(footprint, 1)))
        guard let horizon = model.horizon else { return perByte - Math.log(guess.opens) }
        return perByte + Math.log(Swift.max(Self.reuseChance(guess, within: horizon), 1e-300))
    }

    /// The chance that an app is reopened within the next `horizon` opens: the next open is the
    /// app with probability q (`guess.next`), and each later one with p(a, h) (`guess.hourShare`),
    /// so 1 − (1 − q)(1 − p)^(horizon − 1).
    static func reuseChance(
        _ guess: (share: Double, hourShare: Double, next: Double, opens: Double), within horizon: Double
    ) -> Double {
        let missLater = Math.exp((horizon - 1) * Math.log(Swift.max(1 - guess.hourShare, 1e-300)))
        return 1 - (1 - guess.next) * missLater
    }

    /// What relaunching app `index` (now of `footprint` bytes) would cost beyond a warm resume: a
    /// cold launch at the size it last launched with (its size now when that is unknown).
    func relaunchSeconds(of index: Int, footprint: Int64) -> Double {
        let launched = index < launchBytes.count && launchBytes[index] > 0 ? launchBytes[index] : footprint
        return cost.relaunchSeconds(footprint: launched)
    }
}

extension PressureEngine {
    /// Counts an open of app `index` for the `predictedReuse` order.
    @inline(__always)
    func notePredictedOpen(_ index: Int) {
        guard reuse != nil else { return }
        reuse!.noteOpen(index, at: now)
    }

    /// Re-scores every queued app of a band ordered by ``BandOrder/predictedReuse`` or
    /// ``BandOrder/externalScore`` and re-keys it: done before each victim is chosen, since their
    /// keys depend on the clock (and, for the prediction, on the app opened last).
    ///
    /// - Complexity: O(n log n) for n queued apps.
    func rescoreDynamicBands() {
        let round = reuse?.round(at: now)
        if hasExternalBands { externalScoreRounds += 1 }
        for handleIndex in appByKillSlot.indices {
            let index = Int(appByKillSlot[handleIndex])
            guard index >= 0, let handle = apps[index].killHandle, handle.index == handleIndex else { continue }
            let band = apps[index].bands[apps[index].state]
            switch bandInfo[Int(band)].order {
            case .externalScore:
                externalScores[index] = externalScore?(apps[cold: index].id, Bytes(apps[index].footprint), now) ?? 0
            case .predictedReuse:
                reuse!.grow(to: index)
                reuse!.scores[index] = reuse!.logLoss(of: index, footprint: apps[index].footprint, in: round!)
            default:
                continue
            }
            killQueue.update(handle, to: killKey(of: index, band: band))
        }
    }

    /// The next victim, with the bands whose keys depend on the clock re-scored first.
    func chooseVictim() -> (index: Int, handle: IndexedHeapHandle)? {
        if hasDynamicBands { rescoreDynamicBands() }
        return nextVictim()
    }

    /// What is wrong with the prediction's books, if anything: a row above its bound, or the
    /// reverse index out of step with the rows (for ``_invariantViolation()``).
    ///
    /// - Complexity: O(transitions)
    func reuseInvariantViolation() -> String? {
        guard let books = reuse else { return nil }
        var entries = 0
        for (from, row) in books.transitions {
            if row.count > ReuseBooks.maximumSuccessors { return "reuse: row \(from) holds \(row.count) successors" }
            for to in row.keys where books.predecessors[to]?.contains(from) != true {
                return "reuse: \(from) → \(to) missing from the predecessors"
            }
            entries += row.count
        }
        let indexed = books.predecessors.values.reduce(0) { $0 + $1.count }
        if indexed != entries { return "reuse: \(indexed) predecessor entries for \(entries) transitions" }
        return nil
    }

    /// The prediction behind app `index`'s place in a `predictedReuse` band, for its kill reason.
    func predictionReason(of index: Int) -> String {
        guard let books = reuse else { return "" }
        let round = books.round(at: now)
        let guess = books.prediction(of: index, in: round)
        let seconds = books.relaunchSeconds(of: index, footprint: apps[index].footprint)
        func rounded(_ value: Double) -> String { Event.number((value * 100).rounded() / 100) }
        let within = books.model.horizon.map {
            "reopened within \(Event.number($0)) opens \(rounded(ReuseBooks.reuseChance(guess, within: $0) * 100)) %, "
        }
        return " (next open \(rounded(guess.next * 100)) %, \(within ?? "")opens until reuse \(rounded(guess.opens)), "
            + "relaunch costs \(rounded(seconds)) s)"
    }
}
