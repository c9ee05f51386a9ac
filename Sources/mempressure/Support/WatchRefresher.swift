import ServiceLifecycle

/// A value handed across tasks that the caller guarantees is used by one task at a time: the
/// watch's engine, touched only by ``WatchRefresher/run()``.
struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// `watch`'s refresh loop as a service: refresh `n` runs at `start + n × interval` on the
/// continuous clock, so its cadence is `--interval` whatever else the process is doing (a slow
/// refresh delays only itself; the next one keeps the schedule, or runs at once if it is late).
/// It returns after `count` refreshes, and stops at a graceful shutdown.
struct WatchRefresher: Service {
    /// Seconds between refreshes.
    var interval: Double
    /// How many refreshes, or `nil` for as many as it takes.
    var count: Int?
    /// One refresh, given the seconds since the first.
    var refresh: UncheckedSendableBox<(Double) throws -> Void>

    func run() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let step = Duration.nanoseconds(Int64((interval * 1e9).rounded()))
        var done = 0
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let elapsed = start.duration(to: clock.now)
            try refresh.value(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            done += 1
            if let count, done >= count { return }
            let next = start + step * done
            do {
                try await cancelWhenGracefulShutdown {
                    try await Task.sleep(until: next, clock: clock)
                }
            } catch is CancellationError {
                return
            }
        }
    }
}
