import FuzzSupport
import MemoryPressure
import MemoryPressureSimulation

/// libFuzzer entry point: any bytes are either a workload or an ``InputError`` (only parsed:
/// generating a trace is bounded by the workload limits, not fuzzed here).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWorkload(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = fuzzText(data, size)
    _ = try? Workload(yaml: text, file: "fuzz.yaml")
    return 0
}

/// The process's entry point (SwiftPM renames `main` to this): libFuzzer's driver.
@_cdecl("FuzzWorkload_main")
public func fuzzWorkloadMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzWorkload)
}
