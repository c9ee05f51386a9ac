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

extension PressureEngine {
    /// The engine for the JSON snapshot in `bytes` (UTF-8, a byte order mark allowed), built in
    /// one pass straight from the bytes — the engine `PressureEngine(snapshot:policy:)` makes of
    /// `Snapshot(text:file:)` — or `nil` when that pass cannot: the document is not JSON, gives
    /// its apps before its device, or holds anything the strict reader or the engine would
    /// refuse. The caller then reads it through ``Snapshot``, whose errors name the place.
    ///
    /// A document of more than 1,024 apps is loaded into the engine on a second thread while
    /// this one decodes on; the call returns when both are done.
    ///
    /// - Parameters:
    ///   - bytes: the snapshot document, JSON.
    ///   - policy: the policy the engine follows.
    ///   - release: called now and then with an offset the decoder will not read before again,
    ///     so that a caller holding the bytes can give that memory back.
    /// - Complexity: O(length of `bytes`) plus the engine's load.
    public static func streamingSnapshot(
        _ bytes: UnsafeBufferPointer<UInt8>, policy: Policy, release: @escaping (Int) -> Void = { _ in }
    ) -> PressureEngine? {
        streamingSnapshot(bytes, policy: policy, batchSize: 1024, release: release)
    }

    /// ``streamingSnapshot(_:policy:release:)``, handing the apps to the loading thread
    /// `batchSize` at a time (tests use small batches to go round the ring).
    package static func streamingSnapshot(
        _ bytes: UnsafeBufferPointer<UInt8>, policy: Policy, batchSize: Int, release: @escaping (Int) -> Void = { _ in }
    ) -> PressureEngine? {
        let start = Snapshot.documentStart(bytes).first
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        var sink = SnapshotEnginePipelineSink(policy: policy, batchSize: batchSize)
        let decoded = SnapshotJSONDecoder.decode(bytes, from: start, into: &sink, release: release)
        guard let engine = sink.finish(accepted: decoded) else { return nil }
        engine.finishSnapshotLoad()
        return engine
    }
}
