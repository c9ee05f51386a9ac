import FuzzSupport
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// libFuzzer entry point: any bytes are either a usage log (and an Android device log) or an
/// ``InputError``; every trace an
/// import makes, by user and by day, must be written and read back (finite times, valid ids), a
/// day's trace must stay within its day, and the samples a sweep lists first must be the ones the
/// read gives.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUsageLog(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = fuzzText(data, size)
    // The same bytes as an Android device's log: its days' traces read back and stay in their day.
    if let records = try? AndroidLogParser.records(in: text, file: "fuzz.log") {
        for day in RealDeviceDay.days(records) {
            guard (try? Trace(jsonLines: day.trace.jsonLines, file: "again.jsonl")) != nil else {
                fatalError("a device day's trace does not read back")
            }
            if !day.trace.entries.allSatisfy({ $0.time >= 0 && $0.time < 86_401 }) {
                fatalError("a device day leaves its day")
            }
            _ = try? KillValidation.measure([day], policy: .ios4)
        }
    }
    guard (try? UsageLogImport.parse(text, file: "fuzz.csv")) != nil else { return 0 }
    for sampling in UsageLogImport.Sampling.allCases {
        let lines = { ByteLineReader(.bytes(Array(text.utf8)), file: "fuzz.csv", byteOrderMarks: 2) }
        guard let log = try? UsageLogImport.read(lines(), sampling: sampling),
            let listed = try? UsageLogImport.samples(lines(), sampling: sampling)
        else { fatalError("a log read once is refused the second time") }
        guard listed.map(\.label) == log.samples.map(\.label) else { fatalError("the listed samples differ") }
        for sample in log.samples {
            guard (try? Trace(jsonLines: sample.trace.jsonLines, file: "again.jsonl")) != nil else {
                fatalError("an imported trace does not read back")
            }
            if sample.day != nil, !sample.trace.entries.allSatisfy({ $0.time >= 0 && $0.time < 86_400 }) {
                fatalError("a day's trace leaves its day")
            }
        }
    }
    return 0
}

/// The process's entry point (SwiftPM renames `main` to this): libFuzzer's driver.
@_cdecl("FuzzUsageLog_main")
public func fuzzUsageLogMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzUsageLog)
}
