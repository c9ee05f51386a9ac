import MemoryPressure

/// Where a streaming snapshot decoder puts what it reads: the device, then each app as soon as
/// its object ends. Any `false` makes the decoder give up (the strict reader then judges).
protocol SnapshotSink {
    /// The device (a document may give it before or after its apps).
    mutating func take(_ device: Device) -> Bool
    /// Room for about `count` apps (a guess from the bytes left).
    mutating func reserve(_ count: Int)
    /// The next app.
    mutating func add(_ fields: SnapshotAppFields) -> Bool
}

/// A sink that builds the engine as the apps arrive, with no ``Snapshot`` in between: the
/// engine `PressureEngine(snapshot:policy:)` would make, when the document gives its device
/// before its apps and nothing in it is refused (by the schema or by the engine). Anything else
/// makes it give up, and the caller takes the road through ``Snapshot``, whose errors name the place.
struct SnapshotEngineSink: SnapshotSink {
    let policy: Policy
    private(set) var engine: PressureEngine?
    private var expected = 0

    init(policy: Policy) {
        self.policy = policy
    }

    mutating func take(_ device: Device) -> Bool {
        guard engine == nil else { return false }
        do {
            engine = try PressureEngine(loadingSnapshotOf: device, policy: policy, expectedApps: expected)
            return true
        } catch {
            return false
        }
    }

    mutating func reserve(_ count: Int) {
        expected = count
        engine?.reserveCapacity(apps: count)
    }

    mutating func add(_ fields: SnapshotAppFields) -> Bool {
        guard let engine, let app = fields.app() else { return false }
        do {
            try engine.addSnapshotApp(app)
            return true
        } catch {
            return false
        }
    }
}

extension PressureEngine {
    /// The engine for the JSON snapshot in `bytes` (UTF-8, a byte order mark allowed), built in
    /// one pass straight from the bytes — the engine `PressureEngine(snapshot:policy:)` makes of
    /// `Snapshot(text:file:)` — or `nil` when that pass cannot: the document is not JSON, gives
    /// its apps before its device, or holds anything the strict reader or the engine would
    /// refuse. The caller then reads it through ``Snapshot``, whose errors name the place.
    ///
    /// - Parameter release: called now and then with an offset the decoder will not read
    ///   before again, so that a caller holding the bytes can give that memory back.
    /// - Complexity: O(length of `bytes`) plus the engine's load.
    public static func streamingSnapshot(
        _ bytes: UnsafeBufferPointer<UInt8>, policy: Policy, release: @escaping (Int) -> Void = { _ in }
    ) -> PressureEngine? {
        let start = Snapshot.documentStart(bytes).first
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        var sink = SnapshotEngineSink(policy: policy)
        guard SnapshotJSONDecoder.decode(bytes, from: start, into: &sink, release: release), let engine = sink.engine
        else { return nil }
        engine.finishSnapshotLoad()
        return engine
    }
}
