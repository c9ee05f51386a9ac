import MemoryPressure

/// One kill or purge the engine decided, as a ``RealMemoryHost`` carried it out in real memory:
/// the bytes the engine expected to free (scaled) and the bytes jemalloc measured as freed.
public struct MeasuredRelease: Sendable, Hashable {
    /// What released the memory.
    public enum Cause: Sendable, Hashable, CustomStringConvertible {
        /// The engine killed the app; its arena was reset.
        case kill
        /// The engine purged part of the app's memory; the matching allocations were freed.
        case purge(Event.PurgeKind)

        /// `kill`, or the purge kind (`offscreenViews`, `purgeableCaches`…).
        public var description: String {
            switch self {
            case .kill: return "kill"
            case .purge(let what): return what.rawValue
            }
        }
    }

    /// The engine time of the action that caused it.
    public var time: Double
    /// The app whose memory was released.
    public var app: AppID
    /// A kill or a purge.
    public var cause: Cause
    /// The bytes the engine's event says it freed (engine bytes, unscaled).
    public var engineFreed: Bytes
    /// `engineFreed` times the host's scale, rounded to the byte.
    public var expected: Bytes
    /// The drop of the app's arena `resident` bytes across the release (after the purge).
    public var measured: Bytes
    /// What page granularity alone can explain: half a page per allocation released (its scaled
    /// size was rounded to the nearest page) plus one page per large `mallocx` piece of it
    /// (jemalloc's cache-oblivious padding of large extents).
    public var pageAllowance: Bytes

    /// A release; see each property.
    ///
    /// - Complexity: O(1)
    public init(
        time: Double, app: AppID, cause: Cause, engineFreed: Bytes, expected: Bytes, measured: Bytes,
        pageAllowance: Bytes
    ) {
        self.time = time
        self.app = app
        self.cause = cause
        self.engineFreed = engineFreed
        self.expected = expected
        self.measured = measured
        self.pageAllowance = pageAllowance
    }

    /// `|measured − expected| / expected` (0 when both are zero, infinity when only `expected` is).
    ///
    /// - Complexity: O(1)
    public var relativeDifference: Double {
        MemoryRelease(expected: expected, measured: measured).relativeDifference
    }

    /// The relative difference left once page rounding is set aside: the part of
    /// `|measured − expected|` beyond ``pageAllowance``, over `expected` (0 when nothing is left,
    /// infinity when something is left and `expected` is zero).
    ///
    /// - Complexity: O(1)
    public var relativeDifferenceBeyondPageRounding: Double {
        let difference = (measured - expected).value.magnitude
        let beyond = difference > UInt64(pageAllowance.value) ? difference - UInt64(pageAllowance.value) : 0
        if beyond == 0 { return 0 }
        return expected.value == 0 ? .infinity : Double(beyond) / Double(expected.value)
    }
}
