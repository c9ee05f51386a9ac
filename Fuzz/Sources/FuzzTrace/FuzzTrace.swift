import FuzzSupport
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// libFuzzer entry point: any bytes are either a trace (JSON Lines) or an ``InputError``; a
/// trace that parses is replayed under ios4 and written back, and must read back equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = fuzzText(data, size)
    guard let trace = try? Trace(jsonLines: text, file: "fuzz.jsonl") else { return 0 }
    guard let again = try? Trace(jsonLines: trace.jsonLines, file: "again.jsonl") else {
        fatalError("a parsed trace does not read back")
    }
    precondition(again.entries.count == trace.entries.count, "a parsed trace reads back different")
    guard trace.entries.count <= 2_000, let policy = try? Policy.shipped("ios4") else { return 0 }
    _ = try? Replay.events(trace, policy: policy, file: "fuzz.jsonl")
    return 0
}

/// The process's entry point (SwiftPM renames `main` to this): libFuzzer's driver.
@_cdecl("FuzzTrace_main")
public func fuzzTraceMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzTrace)
}
