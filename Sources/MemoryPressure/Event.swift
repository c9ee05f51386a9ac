/// One entry of the event log: everything the engine did, in order, stamped with the caller's time.
public struct Event: Sendable, Hashable {
    /// The time, in seconds, the caller gave for the action that caused this event.
    public var time: Double
    /// What happened.
    public var kind: Kind

    /// An event at `time`.
    ///
    /// - Complexity: O(1)
    public init(time: Double, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// An app-delegate callback was delivered. `level` is set for `didReceiveMemoryWarning`.
        case callback(app: AppID, name: Callback, level: Int?)
        /// A view-controller callback was delivered.
        case viewCallback(app: AppID, view: String, name: ViewCallback)
        /// An app changed state.
        case state(app: AppID, from: AppState, to: AppState)
        /// The pressure level changed; `free` is the free memory that caused it.
        case level(from: PressureLevel, to: PressureLevel, free: Bytes)
        /// Memory was released without killing.
        case purge(app: AppID, what: PurgeKind, freed: Bytes)
        /// An app was killed.
        case kill(app: AppID, state: AppState, reason: String, notice: KillNotice, freed: Bytes)
        /// System notifications that arrived while the app was suspended, delivered on resume;
        /// `count` is how many were coalesced into this one.
        case notification(app: AppID, name: String, count: Int)
        /// Reclaim took part of an idle app's memory (``Policy/compression``): `bytes` were
        /// compressed into `stored` bytes of the compressed pool and `evicted` bytes of clean file
        /// pages were dropped, all leaving its footprint, at a cost of `seconds` of CPU.
        case compress(app: AppID, bytes: Bytes, stored: Bytes, evicted: Bytes, seconds: Double)
        /// An app that runs again got its memory back: `bytes` decompressed (`stored` bytes left
        /// the pool) and `refaulted` bytes of file pages read again; it waited `seconds` for them.
        case decompress(app: AppID, bytes: Bytes, stored: Bytes, refaulted: Bytes, seconds: Double)
        /// The freezer wrote a compressed app's `bytes` (compressed) to storage, giving them back
        /// to memory, in `seconds`.
        case freeze(app: AppID, bytes: Bytes, seconds: Double)
        /// A frozen app that runs again was read back from storage: `bytes` (compressed), for
        /// which it waited `seconds` (its decompression follows).
        case thaw(app: AppID, bytes: Bytes, seconds: Double)
        /// zswap's cache was full and wrote the app's least recently stored pages back to the swap
        /// file (`shrink_worker()` in mm/zswap.c): `bytes` of its swapped memory moved from the
        /// cache to the file and `stored` compressed bytes left memory. Nobody waits for it.
        case writeback(app: AppID, bytes: Bytes, stored: Bytes)
        /// The engine launched an app the user had not opened, into the background, and
        /// suspended it (``Prewarm``): `bytes` is the footprint it launched with. No callback is
        /// delivered; the user's next open of it is a warm resume.
        case prewarm(app: AppID, bytes: Bytes)
        /// The simulated pressure stall crossed a threshold of the policy's (``Policy/psi`` or
        /// ``Policy/memoryPressureLimit``), up or down; logged on crossings only.
        case pressure(PressureCrossing)
    }

    /// The app-delegate callbacks (docs/DESIGN.md).
    public enum Callback: String, Sendable, Hashable, CaseIterable {
        /// A cold launch finished.
        case didFinishLaunching
        /// The app became active.
        case didBecomeActive
        /// The app is about to stop being active.
        case willResignActive
        /// The app moved to the background.
        case didEnterBackground
        /// The app is about to come back to the foreground.
        case willEnterForeground
        /// The app is about to be terminated.
        case willTerminate
        /// A level-1 or level-2 memory warning.
        case didReceiveMemoryWarning
    }

    /// The view-controller callbacks (docs/DESIGN.md).
    public enum ViewCallback: String, Sendable, Hashable, CaseIterable {
        /// A memory warning.
        case didReceiveMemoryWarning
        /// The view was released.
        case viewDidUnload
        /// The view was loaded (again).
        case viewDidLoad
    }

    /// What a purge released.
    public enum PurgeKind: String, Sendable, Hashable, CaseIterable {
        /// The app's loaded offscreen views (after its view controllers' warnings).
        case offscreenViews
        /// The app's registered purgeable caches.
        case purgeableCaches
        /// Memory the app's own warning handlers released beyond the defaults.
        case handlerReleased
        /// A suspended app's loaded offscreen views, dropped by the system with no callback.
        case suspendedOffscreenViews
    }

    /// What a killed app was told.
    public enum KillNotice: String, Sendable, Hashable, CaseIterable {
        /// Nothing: it was suspended (or killed outright).
        case none
        /// `willTerminate`: it was executing.
        case willTerminate
    }
}
