import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

/// The `phone-2024` workload (the shipped file Workloads/phone-2024.yaml): the people of `phone` on
/// an 8 GiB phone with today's app sizes, each parameter citing its source.
@Suite("The phone-2024 workload")
struct Phone2024Tests {
    /// Ariadne's Table 1 as stored in evidence/papers/ariadne-table1.csv: anonymous MB of each app
    /// 10 s and 5 min after launch, by the phone-2024 kind it stands for.
    static func ariadneTable1() throws -> [String: (app: String, launch: Double, fiveMinutes: Double)] {
        let text = try String(contentsOfFile: PackagePaths.path("evidence/papers/ariadne-table1.csv"), encoding: .utf8)
        var values: [String: [String: Double]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > 4, fields[0] == "anonymous_memory", let value = Double(fields[3]) else { continue }
            values[fields[1], default: [:]][fields[2]] = value
        }
        let kinds = [
            "YouTube": "media", "Twitter": "social", "Firefox": "browser", "Google Earth": "navigation",
            "BangDream": "game",
        ]
        var table: [String: (app: String, launch: Double, fiveMinutes: Double)] = [:]
        for (app, kind) in kinds {
            let launch = try #require(values[app]?["10 s after launch"], "\(app)")
            let fiveMinutes = try #require(values[app]?["5 min after launch"], "\(app)")
            table[kind] = (app, launch, fiveMinutes)
        }
        return table
    }

    @Test("the shipped file is the one compiled in, and it loads as the built-in workload")
    func shippedFile() throws {
        let path = PackagePaths.path("Sources/MemoryPressureSimulation/Workloads/phone-2024.yaml")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(Workload.shippedSource("phone-2024") == text, "run scripts/generate-shipped-workloads.py")
        #expect(try Workload(yaml: text, file: "phone-2024.yaml") == Workload.phone2024)
        #expect(Workload.shippedSource("phone") == nil)
    }

    @Test("every parameter line of the file names its source or says it is an assumption")
    func everyParameterCited() throws {
        let text = try #require(Workload.shippedSource("phone-2024"))
        let tags = ["[Ariadne]", "[Fleet]", "[vitals]", "[Pixel 8]"]
        for tag in tags { #expect(text.contains("# " + tag), "the header defines \(tag)") }
        var parameters = 0
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingCharacters(in: .whitespaces)
            // Comments, blank lines, block keys (`device:`) and names are not parameters.
            if code.isEmpty || code.hasSuffix(":") { continue }
            let key = code.hasPrefix("- ") ? String(code.dropFirst(2)) : code
            if key.hasPrefix("name:") || key.hasPrefix("base:") { continue }
            parameters += 1
            let comment = line.contains("#") ? String(line[line.firstIndex(of: "#")!...]) : ""
            let cited =
                comment.contains("assumption") || comment.contains("phone's")
                || tags.contains { comment.contains($0) }
            #expect(cited, "line \(number + 1): \(line)")
        }
        #expect(parameters > 40)
    }

    @Test("footprints and growth of the measured kinds are Ariadne's Table 1, anonymous memory / 0.6")
    func footprintsFromAriadne() throws {
        let table = try Self.ariadneTable1()
        let kinds = try #require(Workload.phone2024.user?.kinds)
        let mib = 1_048_576.0
        // The rule "anonymous = 0.6 × base" holds only while every shipped compression policy
        // compresses 60 % of an app's base memory.
        for name in Policy.shippedNames {
            if let compression = try Policy.shipped(name).compression {
                #expect(compression.compressible == 0.6, "\(name)")
            }
        }
        for (kindName, measured) in table {
            let kind = try #require(kinds.first { $0.name == kindName })
            let growth = try #require(kind.growthPerMinute, "\(kindName)")
            let minutes = try #require(kind.growthMinutes, "\(kindName)")
            let launch = 0.6 * kind.footprint.median / mib
            let fiveMinutes = launch + 0.6 * Double(growth.value) / mib * minutes
            #expect(abs(launch - measured.launch) < 0.1, "\(kindName): \(launch) against \(measured)")
            #expect(abs(fiveMinutes - measured.fiveMinutes) < 0.5, "\(kindName): \(fiveMinutes) against \(measured)")
            #expect(minutes == 5)
            // Per minute: between the 10 s → 5 min slope over 5 minutes and over 4 min 50 s.
            let delta = measured.fiveMinutes - measured.launch
            let perMinute = 0.6 * Double(growth.value) / mib
            #expect(perMinute >= delta / 5 - 0.1 && perMinute <= delta / (290.0 / 60), "\(kindName): \(perMinute)")
            #expect(perMinute >= 18 && perMinute <= 103)
        }
        // The generated catalogue: each measured kind's median app holds, as anonymous memory,
        // between Ariadne's 10 s and 5 min values (the median of a sample, so with 15 % below).
        let generator = WorkloadGenerator(workload: .phone2024)
        for (kindName, measured) in table {
            var bases: [Double] = []
            for app in generator.catalogue where app.id.rawValue.hasPrefix(kindName) {
                let views = app.views.reduce(Int64(0)) { $0 + $1.bytes.value }
                bases.append(Double(app.footprint.value - views - app.purgeable.value))
            }
            bases.sort()
            #expect(bases.count > 50, "\(kindName)")
            let median = 0.6 * bases[bases.count / 2] / mib
            #expect(
                median >= 0.85 * measured.launch && median <= measured.fiveMinutes,
                "\(kindName): median \(median) MiB anonymous against \(measured)")
        }
    }

    @Test("launch times: hot resume is Fleet's median hot launch, cold launches stay under Android vitals' bound")
    func launchTimes() throws {
        let text = try String(
            contentsOfFile: PackagePaths.path("evidence/papers/fleet-hot-launch.csv"), encoding: .utf8)
        let header = text.split(separator: "\n")[0].split(separator: ",").map(String.init)
        let system = try #require(header.firstIndex(of: "system"))
        let medianColumn = try #require(header.firstIndex(of: "median_ms"))
        var medians: [Double] = []
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if fields[system] == "android", let value = Double(fields[medianColumn]) { medians.append(value) }
        }
        medians.sort()
        #expect(medians.count == 18)
        let medianOfMedians = (medians[8] + medians[9]) / 2
        let cost = Workload.phone2024.launchCost
        #expect(abs(cost.warmFixed * 1000 - medianOfMedians) < 0.01)
        #expect(cost.warmFixed * 1000 >= medians[0] && cost.warmFixed * 1000 <= medians[17])
        #expect(cost.warmFixed < 1.5, "Android vitals: a hot start of 1.5 s or more is excessive")
        for kind in try #require(Workload.phone2024.user?.kinds) {
            let cold = cost.cold(footprint: Bytes(Int64(kind.footprint.median)))
            #expect(cold < 5, "\(kind.name): a median cold launch of \(cold) s; vitals call 5 s excessive")
        }
    }

    @Test("the same people as phone: every habit and share kept, only sizes, device and launch cost change")
    func samePeople() throws {
        let modern = try #require(Workload.phone2024.user)
        let old = try #require(Workload.phone.user)
        #expect(modern.kinds.map(\.name) == old.kinds.map(\.name))
        #expect(modern.kinds.map(\.share) == old.kinds.map(\.share))
        #expect(modern.kinds.map(\.backgroundMode) == old.kinds.map(\.backgroundMode))
        #expect(modern.kinds.map(\.backgroundUseShare) == old.kinds.map(\.backgroundUseShare))
        #expect(modern.kinds.map(\.backgroundUseSeconds) == old.kinds.map(\.backgroundUseSeconds))
        #expect(modern.kinds.map(\.sessionScale) == old.kinds.map(\.sessionScale))
        #expect(modern.kinds.map(\.morning) == old.kinds.map(\.morning))
        #expect(modern.kinds.map(\.evening) == old.kinds.map(\.evening))
        var sameHabits = old
        sameHabits.kinds = modern.kinds
        #expect(modern == sameHabits)
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

    @Test(
        "its days replay under every shipped policy; reclaim happens, and the same seed gives the same metrics",
        .singleThreadedLongRun)
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
