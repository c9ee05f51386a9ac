import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

/// The `phone-2024` workload (Workload+Phone2024.swift): the people of `phone` on an 8 GiB phone
/// with today's app sizes.
@Suite("The phone-2024 workload")
struct Phone2024Tests {
    @Test("the same people as phone: every habit and share kept, only sizes, device and launch cost change")
    func samePeople() throws {
        let modern = try #require(Workload.phone2024.user)
        let old = try #require(Workload.phone.user)
        #expect(modern.kinds.map(\.name) == old.kinds.map(\.name))
        #expect(modern.kinds.map(\.share) == old.kinds.map(\.share))
        #expect(modern.kinds.map(\.backgroundMode) == old.kinds.map(\.backgroundMode))
        #expect(modern.deviceSessionsPerDay == old.deviceSessionsPerDay)
        #expect(modern.installedApps == old.installedApps)
        for (new, was) in zip(modern.kinds, old.kinds) { #expect(new.footprint.median > 3 * was.footprint.median) }
        #expect(Workload.phone2024.device == Device(memory: .gibibytes(8), reserved: .gibibytes(3)))
        #expect(Workload.phone2024.launchCost == .modernPhone)
        #expect(Workload.builtIn["phone-2024"]?.name == "phone-2024")
    }

    @Test("a workload file can start from it")
    func base() throws {
        let workload = try Workload(
            yaml: "base: phone-2024\ndevice: { memory: 6GiB, reserved: 2GiB }\n", file: "w.yaml")
        #expect(workload.device.memory == .gibibytes(6))
        #expect(workload.user?.kinds == PhoneUser.modernKinds)
        #expect(throws: InputError.self) { try Workload(yaml: "base: phone-2023\n", file: "w.yaml") }
    }

    @Test("its days replay under every shipped policy; reclaim happens, and the same seed gives the same metrics")
    func replays() throws {
        let generator = WorkloadGenerator(workload: .phone2024)
        var compressed: Int64 = 0
        for seed in UInt64(1)...12 {
            let trace = generator.trace(seed: seed)
            for name in Policy.shippedNames {
                let policy = try Policy.shipped(name)
                let run = try SimulationRun.run(trace, policy: policy, launchCost: .modernPhone)
                let again = try SimulationRun.run(trace, policy: policy, launchCost: .modernPhone)
                #expect(run.metrics.deterministic == again.metrics.deterministic, "\(name) seed \(seed)")
                #expect(run.metrics.launchWait > 0)
            }
        }
        // Memory is rarely short on 8 GiB: over 60 users, some days still need zram.
        let zram = try Policy.shipped("android-lmkd-zram")
        for seed in UInt64(1)...60 {
            compressed += try SimulationRun.run(generator.trace(seed: seed), policy: zram).metrics.bytesCompressed
        }
        #expect(compressed > 0)
    }
}
