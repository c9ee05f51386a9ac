#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import MemoryPressure

/// A sink that builds the engine as the apps arrive, with no ``Snapshot`` in between: the
/// engine `PressureEngine(snapshot:policy:)` would make, when the document gives its device
/// before its apps and nothing in it is refused (by the schema or by the engine). Anything else
/// makes it give up, and the caller takes the road through ``Snapshot``, whose errors name the
/// place.
///
/// The engine is built on a second thread while the decoder reads on, so the decoding and the
/// engine's load run side by side on two cores; the apps are added in the document's order.
/// The apps go across in batches through a ring of ``depth`` slots under one lock. The engine is
/// made by the decoding thread (`take`), handed to the loading thread with the first batch, and
/// back when ``finish(accepted:)`` has joined that thread: no two threads ever touch it at once.
/// A refusal by the engine is seen by the decoder at its next hand-off, which then gives up.
/// A document that fits in one batch is loaded on the decoding thread, with no thread started.
struct SnapshotEnginePipelineSink: SnapshotSink {
    /// Apps per batch.
    let batchSize: Int
    private let pipeline: SnapshotEnginePipeline
    private var batch: [ResidentApp] = []
    private var started = false
    /// A reservation to send with the next batch.
    private var pendingReserve: Int?

    init(policy: Policy, batchSize: Int) {
        precondition(batchSize > 0, "a batch holds at least one app")
        self.batchSize = batchSize
        pipeline = SnapshotEnginePipeline(policy: policy)
        batch.reserveCapacity(batchSize)
    }

    mutating func take(_ device: Device) -> Bool {
        // The device comes before any app, so the loading thread has not started.
        guard !started, pipeline.engine == nil else { return false }
        do {
            pipeline.engine = try PressureEngine(
                loadingSnapshotOf: device, policy: pipeline.policy, expectedApps: pipeline.expected)
            return true
        } catch {
            return false
        }
    }

    mutating func reserve(_ count: Int) {
        if started {
            pendingReserve = count
        } else {
            pipeline.expected = count
            pipeline.engine?.reserveCapacity(apps: count)
        }
    }

    mutating func add(_ fields: SnapshotAppFields) -> Bool {
        guard let app = fields.app(), started || pipeline.engine != nil else { return false }
        batch.append(app)
        return batch.count < batchSize || handOff()
    }

    /// Sends the batch to the loading thread (starting it the first time); `false` once the
    /// engine has refused an app.
    private mutating func handOff() -> Bool {
        if !started {
            pipeline.start()
            started = true
        }
        let sent = batch
        batch = []
        batch.reserveCapacity(batchSize)
        let accepted = pipeline.send(sent, reserving: pendingReserve)
        pendingReserve = nil
        return accepted
    }

    /// The engine with every app added, or `nil` if the decoder gave up (`accepted` false) or
    /// the engine refused an app. Waits for the loading thread.
    mutating func finish(accepted: Bool) -> PressureEngine? {
        var ok = accepted
        if ok && !batch.isEmpty {
            if started {
                ok = handOff()
            } else {
                // Everything fits in one batch: no thread is worth starting.
                ok = pipeline.load(batch, reserving: pendingReserve)
            }
        }
        if started { ok = pipeline.stop() && ok }
        return ok ? pipeline.engine : nil
    }
}

/// The state shared by the decoding thread and the loading thread of
/// ``SnapshotEnginePipelineSink``: a ring of batches, a lock and two conditions (POSIX threads,
/// which the thread sanitizer follows).
final class SnapshotEnginePipeline: @unchecked Sendable {
    /// Batches in flight at most: the decoder runs at most this far ahead of the engine.
    static let depth = 4

    let policy: Policy
    /// The engine: the decoding thread's until ``start()`` and after ``stop()``, the loading
    /// thread's in between.
    var engine: PressureEngine?
    /// Apps expected, as the decoder last guessed.
    var expected = 0

    private struct Slot {
        var apps: [ResidentApp]
        var reserve: Int?
    }

    // Guarded by `lock`.
    private let slots: UnsafeMutablePointer<Slot?>
    private var sent = 0
    private var taken = 0
    private var ended = false
    private var refused = false

    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let filled = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let drained = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var thread: pthread_t?

    init(policy: Policy) {
        self.policy = policy
        slots = .allocate(capacity: Self.depth)
        slots.initialize(repeating: nil, count: Self.depth)
        pthread_mutex_init(lock, nil)
        pthread_cond_init(filled, nil)
        pthread_cond_init(drained, nil)
    }

    deinit {
        precondition(thread == nil, "the loading thread is joined before the pipeline goes")
        slots.deinitialize(count: Self.depth)
        slots.deallocate()
        pthread_cond_destroy(drained)
        pthread_cond_destroy(filled)
        pthread_mutex_destroy(lock)
        drained.deallocate()
        filled.deallocate()
        lock.deallocate()
    }

    /// Starts the loading thread.
    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Glibc)
            var handle = pthread_t()
        #else
            var handle: pthread_t?
        #endif
        let status = pthread_create(&handle, nil, { runLoadingThread($0) }, context)
        if status != 0 {
            // No second thread to be had: the loading runs here, one batch at a time.
            Unmanaged<SnapshotEnginePipeline>.fromOpaque(context).release()
            return
        }
        thread = handle
    }

    /// Queues `apps` for the engine, waiting while the ring is full; `false` once the engine has
    /// refused an app. Without a loading thread, loads them at once.
    func send(_ apps: [ResidentApp], reserving reserve: Int?) -> Bool {
        guard thread != nil else { return load(apps, reserving: reserve) }
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while sent - taken == Self.depth && !refused { pthread_cond_wait(drained, lock) }
        if refused { return false }
        slots[sent % Self.depth] = Slot(apps: apps, reserve: reserve)
        sent += 1
        pthread_cond_signal(filled)
        return true
    }

    /// Tells the loading thread that no more batches come and waits for it; `false` if the
    /// engine refused an app.
    func stop() -> Bool {
        if let thread {
            pthread_mutex_lock(lock)
            ended = true
            pthread_cond_signal(filled)
            pthread_mutex_unlock(lock)
            pthread_join(thread, nil)
            self.thread = nil
        }
        return !refused
    }

    /// Adds `apps` to the engine (on the calling thread); `false` if it refuses one.
    func load(_ apps: [ResidentApp], reserving reserve: Int?) -> Bool {
        guard let engine else { return false }
        if let reserve { engine.reserveCapacity(apps: reserve) }
        do {
            for app in apps { try engine.addSnapshotApp(app) }
            return true
        } catch {
            return false
        }
    }

    /// The loading thread: takes batches in order until the decoder ends, stops loading at the
    /// first refusal (and wakes a decoder waiting for room, so it gives up).
    fileprivate func run() {
        while true {
            pthread_mutex_lock(lock)
            while sent == taken && !ended { pthread_cond_wait(filled, lock) }
            if sent == taken {
                pthread_mutex_unlock(lock)
                return
            }
            let slot = slots[taken % Self.depth].take()!
            let skip = refused
            pthread_mutex_unlock(lock)
            let accepted = skip || load(slot.apps, reserving: slot.reserve)
            pthread_mutex_lock(lock)
            taken += 1
            if !accepted { refused = true }
            pthread_cond_signal(drained)
            pthread_mutex_unlock(lock)
        }
    }
}

/// The loading thread's body: `context` is a retained ``SnapshotEnginePipeline``.
private func runLoadingThread(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<SnapshotEnginePipeline>.fromOpaque(context!).takeRetainedValue().run()
    return nil
}
