import CoreMetrics
import MemoryPressure

extension EngineMetrics {
    /// The swift-metrics objects of one attached engine. Every series a policy can produce is made
    /// up front (so a scrape shows it at 0 before it first moves), except kills whose reason
    /// matches no band, which are made when first seen.
    final class Instruments {
        let names: MetricNames
        let factory: any MetricsFactory
        let level: Gauge
        let free: Gauge
        let used: Gauge
        let limit: Gauge
        /// Indexed by `PressureLevel.rawValue`.
        let levelChanges: [Counter]
        /// Indexed by warning level − 1 (levels 1 and 2).
        let warnings: [Counter]
        var kills: [KillCause: Counter]
        let freedByKill: Counter
        let freedByPurge: [Event.PurgeKind: Counter]
        let classifier: KillClassifier

        /// The `by` label of bytes freed by kills (the purges use `Event.PurgeKind`'s raw values).
        static let killFreed = "kill"

        /// Makes every metric of `names` with `factory`, for an engine following `policy`.
        ///
        /// - Complexity: O(bands of the policy)
        init(names: MetricNames, policy: Policy, factory: any MetricsFactory) {
            self.names = names
            self.factory = factory
            level = Gauge(label: names.pressureLevel, factory: factory)
            free = Gauge(label: names.memoryFree, factory: factory)
            used = Gauge(label: names.memoryUsed, factory: factory)
            limit = Gauge(label: names.memoryLimit, factory: factory)
            levelChanges = PressureLevel.allCases.map {
                Counter(label: names.pressureLevelChanges, dimensions: [("to", $0.name)], factory: factory)
            }
            warnings = [1, 2].map {
                Counter(label: names.memoryWarnings, dimensions: [("level", "\($0)")], factory: factory)
            }
            var kills: [KillCause: Counter] = [:]
            var causes = [
                KillCause(reason: KillCause.memoryLimitFatal, band: KillCause.noBand),
                KillCause(reason: KillCause.memoryLimitSoft, band: KillCause.noBand),
            ]
            causes += policy.bands.map { KillCause(reason: KillCause.pressure, band: $0.name) }
            for cause in causes where kills[cause] == nil {
                kills[cause] = Self.killCounter(cause, names: names, factory: factory)
            }
            self.kills = kills
            freedByKill = Counter(label: names.freedBytes, dimensions: [("by", Self.killFreed)], factory: factory)
            var purges: [Event.PurgeKind: Counter] = [:]
            for kind in Event.PurgeKind.allCases {
                purges[kind] = Counter(label: names.freedBytes, dimensions: [("by", kind.rawValue)], factory: factory)
            }
            freedByPurge = purges
            classifier = KillClassifier(policy: policy)
        }

        static func killCounter(_ cause: KillCause, names: MetricNames, factory: any MetricsFactory) -> Counter {
            Counter(label: names.kills, dimensions: [("reason", cause.reason), ("band", cause.band)], factory: factory)
        }

        /// Counts one event.
        ///
        /// - Complexity: O(1), but O(bands × reason length) for a kill.
        func count(_ event: Event) {
            switch event.kind {
            case .callback(_, .didReceiveMemoryWarning, let warningLevel?):
                if (1...2).contains(warningLevel) { warnings[warningLevel - 1].increment() }
            case .level(_, let to, _):
                levelChanges[to.rawValue].increment()
            case .kill(_, _, let reason, _, let freed):
                let cause = classifier.cause(of: reason)
                let counter: Counter
                if let known = kills[cause] {
                    counter = known
                } else {
                    counter = Self.killCounter(cause, names: names, factory: factory)
                    kills[cause] = counter
                }
                counter.increment()
                if freed.value > 0 { freedByKill.increment(by: freed.value) }
            case .purge(_, let kind, let freed):
                if freed.value > 0 { freedByPurge[kind]?.increment(by: freed.value) }
            case .callback, .viewCallback, .state, .notification, .compress, .decompress, .freeze, .thaw, .prewarm,
                .writeback, .pressure:
                break
            }
        }

        /// The values last given to the gauges (level, free, used, limit), so an unchanged one is
        /// not recorded again: most actions move free and used memory, few the level, none the limit.
        var lastGauges: (level: Int, free: Int64, used: Int64, limit: Int64)?

        /// Sets the gauges from `engine`, each only if its value changed.
        ///
        /// - Complexity: O(1)
        func setGauges(from engine: PressureEngine) {
            let accountant = engine.accountant
            let now = (
                level: engine.level.rawValue, free: accountant.free.value,
                used: (accountant.totalFootprint + accountant.unattributed).value, limit: accountant.device.usable.value
            )
            let last = lastGauges
            if now.level != last?.level { level.record(now.level) }
            if now.free != last?.free { free.record(now.free) }
            if now.used != last?.used { used.record(now.used) }
            if now.limit != last?.limit { limit.record(now.limit) }
            lastGauges = now
        }
    }
}
