import FuzzSupport
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// libFuzzer entry point: any bytes are either a usage log or an ``InputError``; every trace an
/// import makes must be written and read back (finite times, valid ids).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUsageLog(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = fuzzText(data, size)
    guard let users = try? UsageLogImport.parse(text, file: "fuzz.csv") else { return 0 }
    for user in users {
        guard (try? Trace(jsonLines: user.trace.jsonLines, file: "again.jsonl")) != nil else {
            fatalError("an imported trace does not read back")
        }
    }
    return 0
}

/// The process's entry point (SwiftPM renames `main` to this): libFuzzer's driver.
@_cdecl("FuzzUsageLog_main")
public func fuzzUsageLogMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzUsageLog)
}
