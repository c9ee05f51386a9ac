import FuzzSupport
import MemoryPressure
import MemoryPressureSimulation

/// libFuzzer entry point for what `mempressure sweep` and `merge` read: any bytes are a sweep file
/// (YAML), a `--param`, a `--shard` or a part — merged on its own, as `merge` would — or a clear
/// error. The first byte picks which; the rest is the text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSweep(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let text = fuzzText(data + 1, size - 1)
    switch data[0] % 4 {
    case 0:
        _ = try? SweepFile(yaml: text, file: "fuzz.yaml")
    case 1:
        _ = try? SweepParameter(parsing: text)
    case 2:
        _ = try? SweepShard(parsing: text)
    default:
        if let part = try? SweepPart(parsing: text, name: "fuzz.part") {
            _ = try? SweepResult(merging: [("fuzz.part", part)])
        }
    }
    return 0
}

/// The process's entry point (SwiftPM renames `main` to this): libFuzzer's driver.
@_cdecl("FuzzSweep_main")
public func fuzzSweepMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzSweep)
}
