import FuzzSupport
import MemoryPressure
import MemoryPressureFormats

/// libFuzzer entry point: any bytes are either a policy or an ``PolicyErrors``, never a trap or
/// a hang; a policy that loads is used to classify a few ids (its name patterns run).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPolicy(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = fuzzText(data, size)
    guard let policy = try? Policy(yaml: text, file: "fuzz.yaml") else { return 0 }
    let apps = ["com.example.mail", String(repeating: "a", count: 200) + "!", "chrome[123]", ""].enumerated().map {
        ResidentApp(
            id: AppID($0.element.isEmpty ? "x" : $0.element), state: $0.offset == 0 ? .active : .suspended,
            footprint: .mebibytes(Int64(10 + $0.offset)))
    }
    if let engine = try? PressureEngine(
        snapshot: Snapshot(device: Device(memory: .gibibytes(1), reserved: .mebibytes(100)), apps: apps),
        policy: policy)
    {
        _ = engine.killOrder(limit: 10)
        _ = try? engine.refreshPressure(at: 1)
    }
    return 0
}

/// The process's entry point (SwiftPM renames `main` to this): libFuzzer's driver.
@_cdecl("FuzzPolicy_main")
public func fuzzPolicyMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzPolicy)
}
