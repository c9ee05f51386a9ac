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
    // A short day under the policy, so its compression and PSI rules run: launches, Home, growth
    // past every threshold, resumes.
    if let engine = try? PressureEngine(device: Device(memory: .gibibytes(1), reserved: .mebibytes(24)), policy: policy)
    {
        var time = 0.0
        func step(_ action: Action) {
            time += 0.4
            _ = try? engine.apply(action, at: time)
        }
        for (index, id) in ["a", "b", "c", "d"].enumerated() {
            step(.open(AppLaunch(id: AppID(id), footprint: .mebibytes(Int64(150 + 40 * index)))))
            step(.home)
        }
        step(.open(AppLaunch(id: "e", footprint: .mebibytes(100))))
        step(.allocate(app: "e", bytes: .mebibytes(400), purgeable: false))
        step(.open(AppLaunch(id: "a", footprint: .mebibytes(150))))
        step(.open(AppLaunch(id: "b", footprint: .mebibytes(190))))
        step(.allocate(app: "b", bytes: .mebibytes(300), purgeable: false))
        precondition(engine._invariantViolation() == nil, "invariant: \(engine._invariantViolation() ?? "")")
    }
    return 0
}

/// The process's entry point (SwiftPM renames `main` to this): libFuzzer's driver.
@_cdecl("FuzzPolicy_main")
public func fuzzPolicyMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzPolicy)
}
