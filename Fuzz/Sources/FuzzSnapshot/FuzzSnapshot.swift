import FuzzSupport
import MemoryPressure
import MemoryPressureFormats

/// libFuzzer entry point: any bytes are either a snapshot or an ``InputError``; a snapshot that
/// parses is loaded under every shipped policy and ranked, and the books must balance.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnapshot(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = fuzzText(data, size)
    guard let snapshot = try? Snapshot(text: text, file: "fuzz.yaml") else { return 0 }
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
