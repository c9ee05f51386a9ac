// The policy data of the `predictedReuse` band order: which signals predict the user's next
// opens, and how much each one is trusted. The engine's side is PressureEngine+ReusePrediction.swift.

/// How the `predictedReuse` band order predicts which resident app the user opens next, learnt
/// online from the opens the engine has seen (never from the future).
///
/// Every signal is a count of past opens, decayed with ``halfLife`` (so a short half-life leans on
/// recency, a long one on frequency, as in LRFU: Lee et al., IEEE Trans. Computers 2001):
///
/// - **frequency**: each app's share of all opens, p(a);
/// - **time of day** (``timeOfDay``): each app's share of the opens that fell in the ``hoursAhead``
///   hours of the clock after the current one — on earlier days, since today's are still to come
///   (FALCON: Yan et al., MobiSys 2012; Falaki et al.,
///   MobiSys 2010 measured how strongly use depends on the hour), smoothed towards p(a) with
///   ``prior`` opens: p(a, h) = (n(a, h) + prior · p(a)) / (n(h) + prior);
/// - **transitions** (``transitions``): an order-1 Markov model of the app sequence — how often the
///   app opened last was followed by each app (PREPP: Parate et al., UbiComp 2013, predicts by
///   partial matching on the sequence; order 1 bounds its memory), smoothed the same way:
///   q(a | f) = (n(f → a) + prior · p(a, h)) / (n(f) + prior).
///
/// These give the expected number of opens until the app is opened again: 1 + (1 − q) / p(a, h)
/// (the next open is the app with probability q; after that, opens are drawn from p). The victim is
/// the app with the least expected loss per byte freed, (cold − warm launch seconds, priced by
/// ``Policy/relaunch``) / (expected opens until reuse × bytes): Belady's rule with costs, in
/// expectation. With a ``horizon`` of H opens, the chance that the app is reopened within the next
/// H opens, 1 − (1 − q)(1 − p(a, h))^(H − 1), takes the place of 1 / (expected opens until
/// reuse): the loss per byte is (cold − warm seconds) × that chance / bytes. The chance saturates
/// for apps the user is sure to come back to, so between two favourites the bytes and the cost
/// decide, where the expected opens would keep the more popular one whatever its size.
///
/// The relaunch is priced at the size the app launched with — what a relaunch loads again — and
/// the bytes are its size now, so an app that has grown since its launch (views, caches, leaks) is
/// cheaper to lose per byte. The clock's hour is read from engine time with time 0 at midnight, as
/// in the built-in workloads and usage-log samples.
public struct ReusePrediction: Sendable, Hashable {
    /// The half-life of an open's weight in every count, in seconds.
    public var halfLife: Double
    /// How many opens' worth of trust the broader estimate gets when a narrower one (an hour of
    /// the clock, the app opened last) has few observations.
    public var prior: Double
    /// Whether the hour of the day matters (per-app profiles over 24 hours of the clock).
    public var timeOfDay: Bool
    /// How many hours of the clock, after the current one, the time-of-day profile looks ahead.
    public var hoursAhead: Int
    /// Whether the app opened last predicts the next one (an order-1 Markov model).
    public var transitions: Bool
    /// The horizon, in opens, of the chance of reopening that prices a kill: the loss per byte is
    /// the relaunch cost × the chance the app is reopened within this many opens / bytes. `nil`:
    /// the relaunch cost / (expected opens until reuse × bytes).
    public var horizon: Double?
    /// With compressed memory (``Policy/compression``): the expected opens until reuse above which
    /// reclaim kills an app instead of compressing it — an app the user is unlikely to come back to
    /// soon would only hold pool space and cost compression work, while a kill frees all of it. `nil`:
    /// reclaim compresses every app it may, whatever the prediction.
    public var killInsteadOfCompressingAbove: Double?
    /// Prewarming: after each open, the app likeliest to be opened next is launched in the
    /// background and suspended, if it is not in memory (``Prewarm``). `nil`: no prewarming.
    public var prewarm: Prewarm?

    /// A prediction model; see each property.
    ///
    /// - Complexity: O(1)
    public init(
        halfLife: Double, prior: Double, timeOfDay: Bool, hoursAhead: Int, transitions: Bool,
        horizon: Double? = nil, killInsteadOfCompressingAbove: Double? = nil, prewarm: Prewarm? = nil
    ) {
        self.halfLife = halfLife
        self.prior = prior
        self.timeOfDay = timeOfDay
        self.hoursAhead = hoursAhead
        self.transitions = transitions
        self.horizon = horizon
        self.killInsteadOfCompressingAbove = killInsteadOfCompressingAbove
        self.prewarm = prewarm
    }

    /// The defaults of a `prediction:` section, which are `predictive.yaml`'s but for its horizon
    /// (see its comments for how they were chosen): a 7-day half-life, a prior of 3 opens, the time
    /// of day over the next 3 hours, transitions, and no horizon.
    public static let standard = ReusePrediction(
        halfLife: 604_800, prior: 3, timeOfDay: true, hoursAhead: 3, transitions: true)

    /// The ranges the policy loader accepts, by key.
    public static let halfLifeRange: ClosedRange<Double> = 60...31_536_000
    /// The accepted range of ``prior``.
    public static let priorRange: ClosedRange<Double> = 0...1000
    /// The accepted range of ``hoursAhead``.
    public static let hoursAheadRange: ClosedRange<Int> = 1...24
    /// The accepted range of ``horizon``, in opens.
    public static let horizonRange: ClosedRange<Double> = 1...1000
    /// The accepted range of ``killInsteadOfCompressingAbove``, in opens.
    public static let killInsteadOfCompressingRange: ClosedRange<Double> = 1...1_000_000

    /// The start of the kill reason of an app reclaim killed instead of compressing.
    public static let killInsteadOfCompressingReason = "unlikely to be reopened soon, killed instead of compressed"

    /// λ, per second.
    var decayRate: Double { 0.693_147_180_559_945_3 / halfLife }
}

/// Prewarming: launching an app the user is likely to open next into free memory before they do,
/// so that the open is a warm resume instead of a cold launch (FALCON's prelaunch: Yan et al.,
/// MobiSys 2012; iOS 15's prewarming, "About the app launch sequence", Apple developer
/// documentation; Android's app-launch prediction work, such as Marvin and Acclaim, USENIX ATC
/// 2020, weighs the same trade).
///
/// After each open (an `open` or `launch` action), the engine takes the app not in memory whose
/// chance of being the next open — q(a | f), ``ReusePrediction`` — is the highest, among the apps
/// it has seen launched (it launches a prewarmed app as it last launched: same footprint, views,
/// background modes). It launches that app in the background and suspends it, with no callback
/// and no open counted, when the chance is at least ``chance``, free memory stays at or above
/// ``freeAbove`` after it, and fewer than ``unopened`` prewarmed apps wait unopened. The launch is
/// logged as a `prewarm` event; the app is then a suspended app like any other, which the
/// policy's bands may kill. The memory it takes and the launch work it costs are counted against
/// the warm resumes it brings (`compare`: prewarms, prewarms opened, CPU prewarming).
public struct Prewarm: Sendable, Hashable {
    /// The least chance, from 0 to 1, that the app is the user's next open.
    public var chance: Double
    /// The free memory a prewarm must leave: bytes, or a percentage of usable memory.
    public var freeAbove: MemoryAmount
    /// The most prewarmed apps that may wait unopened at once.
    public var unopened: Int

    /// A prewarming rule; see each property.
    ///
    /// - Complexity: O(1)
    public init(chance: Double, freeAbove: MemoryAmount, unopened: Int) {
        self.chance = chance
        self.freeAbove = freeAbove
        self.unopened = unopened
    }

    /// The accepted range of ``chance``.
    public static let chanceRange: ClosedRange<Double> = 0.001...1
    /// The accepted range of ``unopened``.
    public static let unopenedRange: ClosedRange<Int> = 1...16
}
