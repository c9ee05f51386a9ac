import FuzzSupport
import MemoryPressure
import MemoryPressureFormats

/// libFuzzer entry point: any bytes are either a snapshot or an ``InputError``; a snapshot that
/// parses is loaded under every shipped policy and ranked, and the books must balance. The engine
/// `kill-order` streams from the raw bytes must be that snapshot's engine, or not be made at all.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnapshot(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = fuzzText(data, size)
    let jetsam = try! Policy.shipped("jetsam")
    let streamed = data.flatMap {
        PressureEngine.streamingSnapshot(UnsafeBufferPointer(start: $0, count: size), policy: jetsam)
    }
    guard let snapshot = try? Snapshot(text: text, file: "fuzz.yaml") else {
        if streamed != nil { fatalError("streamed an engine from a document the parsed road refuses") }
        return 0
    }
    if let streamed {
        guard let parsed = try? PressureEngine(snapshot: snapshot, policy: jetsam) else {
            fatalError("streamed an engine the parsed road refuses to build")
        }
        let order = { (engine: PressureEngine) in
            engine.killOrder(limit: .max).map { "\($0.app.rawValue) \($0.footprint.value)" }
        }
        if order(streamed) != order(parsed) || streamed.free != parsed.free {
            fatalError("the streamed engine differs")
        }
    }
    for name in Policy.shippedNames {
        guard let policy = try? Policy.shipped(name),
            let engine = try? PressureEngine(snapshot: snapshot, policy: policy)
        else { continue }
        _ = engine.killOrder(limit: 20)
        _ = try? engine.refreshPressure(at: 1)
        if let problem = engine._invariantViolation() { fatalError("invariant broken: \(problem)") }
    }
    return 0
}

/// The process's entry point (SwiftPM renames `main` to this): libFuzzer's driver.
@_cdecl("FuzzSnapshot_main")
public func fuzzSnapshotMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzSnapshot)
}
