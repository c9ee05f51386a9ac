import MemoryPressure
import MemoryPressureSimulation

/// libFuzzer entry point: any bytes are either a workload or an ``InputError`` (only parsed:
/// generating a trace is bounded by the workload limits, not fuzzed here).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWorkload(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? Workload(yaml: text, file: "fuzz.yaml")
    return 0
}
