import MemoryPressure

/// How long the user waits when an app comes to the front: a cold launch costs a fixed part plus a
/// part that grows with the memory the app must build up; a warm resume from memory costs a fixed
/// part only. The launch wait metrics add these up per run.
///
/// The model is a deliberately simple one whose parameters a workload file sets (`launchCost:`).
/// The phone defaults are assumptions bounded by published thresholds rather than measurements of
/// one device: Android vitals ("App startup time", developer.android.com/topic/performance/vitals/launch-time)
/// calls a cold start of 5 s or more and a warm start of 2 s or more excessive, and Apple's
/// "Reducing your app's launch time" (developer.apple.com) says the watchdog kills an app that takes
/// more than 20 s to launch and asks for a first frame within 400 ms. With the phone defaults a
/// 30 MiB app launches cold in 1.55 s, a 150 MiB game in 4.55 s (just under Android's "excessive"),
/// and a resume takes 0.3 s.
public struct LaunchCost: Sendable, Hashable {
    /// Seconds every cold launch costs (process creation, linking, the first frame).
    public var coldFixed: Double
    /// Seconds per MiB of the app's footprint at launch (reading and initialising its memory).
    public var coldPerMiB: Double
    /// Seconds a warm resume from memory costs.
    public var warmFixed: Double

    /// A model with these parameters (seconds, seconds per MiB, seconds).
    ///
    /// - Complexity: O(1)
    public init(coldFixed: Double, coldPerMiB: Double, warmFixed: Double) {
        self.coldFixed = coldFixed
        self.coldPerMiB = coldPerMiB
        self.warmFixed = warmFixed
    }

    /// Seconds a cold launch of an app with `footprint` costs.
    ///
    /// - Complexity: O(1)
    public func cold(footprint: Bytes) -> Double {
        coldFixed + coldPerMiB * Double(footprint.value) / 1_048_576
    }

    /// The phone defaults: 0.8 s + 25 ms per MiB cold, 0.3 s warm (see the type's documentation).
    public static let phone = LaunchCost(coldFixed: 0.8, coldPerMiB: 0.025, warmFixed: 0.3)

    /// The server defaults: loading a tenant costs 50 ms plus 5 ms per MiB (about 200 MiB/s from
    /// local storage), serving a resident tenant 1 ms. Assumptions, stated as such.
    public static let server = LaunchCost(coldFixed: 0.05, coldPerMiB: 0.005, warmFixed: 0.001)
}
