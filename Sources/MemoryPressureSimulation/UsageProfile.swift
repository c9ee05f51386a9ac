import MemoryPressure

/// What a trace's user did, measured from the actions themselves (independent of any policy):
/// the figures the README's table "what the built-in user does" compares with published studies.
public struct UsageProfile: Sendable, Hashable {
    /// `open` actions: the user bringing an app to the front.
    public var opens = 0
    /// Distinct apps opened.
    public var distinctApps = 0
    /// Seconds with an app in the foreground and the device unlocked.
    public var foregroundSeconds = 0.0
    /// Share of the foreground time between 00:00 and 06:00 (the trace starts at midnight).
    public var nightShare = 0.0
    /// The most apps using the audio background mode at the same time (a launch starts using its
    /// declared modes; actions at the same instant count as one step).
    public var maxConcurrentAudio = 0
    /// The median time between successive opens, in seconds (`nil` with fewer than two opens).
    public var medianSecondsBetweenOpens: Double? = nil
    /// Opens of an app that left the front at most 10 minutes before (a reopen the memory policy
    /// can serve warm if it kept the app).
    public var reopensWithin10Minutes = 0
    /// Opens of an app that left the front at most an hour before.
    public var reopensWithinHour = 0
    /// Mean length of an app session: foreground time per open.
    public var meanSessionSeconds: Double { opens == 0 ? 0 : foregroundSeconds / Double(opens) }

    /// The profile of `trace`.
    ///
    /// - Complexity: O(entries)
    public init(_ trace: Trace) {
        var apps: Set<AppID> = []
        var foreground: AppID? = nil
        var locked = false
        var since = 0.0
        var night = 0.0
        var audio: Set<AppID> = []
        func close(at time: Double) {
            guard foreground != nil, !locked, time > since else { return }
            foregroundSeconds += time - since
            night += Self.nightOverlap(from: since, to: time)
        }
        var stepTime = trace.entries.first?.time ?? 0
        var openTimes: [Double] = []
        var leftAt: [AppID: Double] = [:]
        func leave(at time: Double) {
            if let app = foreground { leftAt[app] = time }
        }
        for entry in trace.entries {
            let time = entry.time
            if time > stepTime {
                maxConcurrentAudio = max(maxConcurrentAudio, audio.count)
                stepTime = time
            }
            switch entry.action {
            case .open(let launch), .launch(let launch):
                close(at: time)
                leave(at: time)
                if let left = leftAt[launch.id], launch.id != foreground {
                    if time - left <= 600 { reopensWithin10Minutes += 1 }
                    if time - left <= 3600 { reopensWithinHour += 1 }
                }
                openTimes.append(time)
                opens += 1
                apps.insert(launch.id)
                foreground = launch.id
                since = time
                if launch.backgroundModes.contains(.audio) { audio.insert(launch.id) }
            case .home, .interruptEnd(answered: true):
                close(at: time)
                leave(at: time)
                foreground = nil
            case .lock:
                close(at: time)
                locked = true
            case .unlock:
                locked = false
                since = time
            case .useBackgroundModes(let app, let modes):
                if modes.contains(.audio) { audio.insert(app) } else { audio.remove(app) }
            case .userKill(let app):
                audio.remove(app)
            default:
                break
            }
        }
        maxConcurrentAudio = max(maxConcurrentAudio, audio.count)
        close(at: trace.entries.last?.time ?? 0)
        distinctApps = apps.count
        if openTimes.count >= 2 {
            let gaps = zip(openTimes.dropFirst(), openTimes).map { $0 - $1 }.sorted()
            let middle = gaps.count / 2
            medianSecondsBetweenOpens = gaps.count % 2 == 1 ? gaps[middle] : (gaps[middle - 1] + gaps[middle]) / 2
        }
        nightShare = foregroundSeconds > 0 ? night / foregroundSeconds : 0
    }

    /// Seconds of [from, to) that fall between 00:00 and 06:00 of any day.
    static func nightOverlap(from start: Double, to end: Double) -> Double {
        var total = 0.0
        var day = (start / 86_400).rounded(.down)
        while day * 86_400 < end {
            let nightStart = day * 86_400
            let nightEnd = nightStart + 6 * 3600
            total += max(0, min(end, nightEnd) - max(start, nightStart))
            day += 1
        }
        return total
    }
}
