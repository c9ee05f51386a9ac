import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureLinux
import Testing
import TestSupport

/// The engine ranking this machine's processes, against the kernel's own scores and against
/// earlyoom's choice, on child processes started for the test.
@Suite(.serialized, .tags(.machine), .machineDependent) struct LiveKillOrderTests {
    @Test("linux-oom ranks live processes in the kernel's oom_score order (ties aside)")
    func linuxOOMMatchesKernelOrder() throws {
        var specs = [
            MemoryHogs.Spec(mebibytes: 300, adjustment: 0), MemoryHogs.Spec(mebibytes: 64, adjustment: 15),
            MemoryHogs.Spec(mebibytes: 32, adjustment: 0), MemoryHogs.Spec(mebibytes: 16, adjustment: 40),
            MemoryHogs.Spec(mebibytes: 200, adjustment: 8),
        ]
        if MemoryHogs.hasSystemResourceCapability { specs.append(MemoryHogs.Spec(mebibytes: 64, adjustment: -1000)) }
        let hogs = try MemoryHogs(specs)
        defer { hogs.stop() }

        let ranking = try LiveKillOrder(policy: try Policy.shipped("linux-oom"))
        let order = ranking.engine.killOrder(limit: Int.max)
        let children = Set(hogs.pids)
        let ranked = order.filter { children.contains(Self.pid(of: $0.app)) }
        let kernelScore = Dictionary(
            uniqueKeysWithValues: ranking.snapshot.processes.processes.map {
                ($0.pid.rawValue, $0.kernelOOMScore ?? -1)
            })
        #expect(ranked.count == specs.filter { $0.adjustment != -1000 }.count)
        var compared = 0
        for (position, earlier) in ranked.enumerated() {
            for later in ranked[(position + 1)...] {
                let (a, b) = (kernelScore[Self.pid(of: earlier.app)]!, kernelScore[Self.pid(of: later.app)]!)
                guard a != b else { continue }
                #expect(a > b, "\(earlier.app) (kernel \(a)) ranked before \(later.app) (kernel \(b))")
                compared += 1
            }
        }
        #expect(compared >= 6, "too many ties to compare")
        if MemoryHogs.hasSystemResourceCapability {
            #expect(ranking.engine.protectedApps().contains { Self.pid(of: $0.app) == hogs.pids.last })
        }
    }

    @Test(
        "earlyoom names the same victim as `earlyoom --dryrun`, ties going to the larger RSS",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/earlyoom"), "earlyoom is not installed"))
    func earlyoomMatchesDryRun() throws {
        // oom_score_adj 1000 puts both children on top. With RSS between 1 and 3 thousandths of
        // the memory, (1000 + points × 1000 / totalpages) × 2 / 3 rounds both to the same
        // oom_score: the tie goes to the larger RSS.
        let memory = try LinuxMemoryInfo.read(from: .live)
        let thousandth = Int(((memory.total.value + memory.swapTotal.value) / 1000) >> 20)
        let hogs = try MemoryHogs([
            MemoryHogs.Spec(mebibytes: thousandth * 5 / 4, adjustment: 1000),
            MemoryHogs.Spec(mebibytes: thousandth * 5 / 2, adjustment: 1000),
        ])
        defer { hogs.stop() }
        let earlyoomVictim = try Self.earlyoomDryRunVictim()
        let ranking = try LiveKillOrder(policy: try Policy.shipped("earlyoom"))
        let top = try #require(ranking.engine.killOrder(limit: 1).first)
        Swift.print("earlyoom --dryrun: \(earlyoomVictim); ours: \(top.app) — \(top.reason)")
        #expect(Self.pid(of: top.app) == earlyoomVictim)
        #expect(earlyoomVictim == hogs.pids[1])
        #expect(top.reason.contains("largest RSS among ties"))
    }

    @Test("a refresh follows the machine: an exited process is forgotten, the order is kept valid")
    func refreshFollowsExits() throws {
        let hogs = try MemoryHogs([MemoryHogs.Spec(mebibytes: 50, adjustment: 900)])
        let ranking = try LiveKillOrder(policy: try Policy.shipped("linux-oom"))
        let pid = hogs.pids[0]
        #expect(ranking.engine.killOrder(limit: Int.max).contains { Self.pid(of: $0.app) == pid })
        hogs.stop()
        try ranking.refresh(at: 1)
        #expect(!ranking.engine.killOrder(limit: Int.max).contains { Self.pid(of: $0.app) == pid })
        #expect(ranking.engine._invariantViolation() == nil)
        // Free memory is the kernel's MemAvailable (up to RSS double counting of shared pages).
        let available = ranking.snapshot.memory.available.value
        #expect(ranking.engine.free.value <= available)
    }

    /// The pid in a live app id `name[pid]`.
    static func pid(of app: AppID) -> Int32 {
        let text = app.rawValue
        guard let open = text.lastIndex(of: "["), text.hasSuffix("]") else { return -1 }
        return Int32(text[text.index(after: open)..<text.index(before: text.endIndex)]) ?? -1
    }

    /// Runs `earlyoom --dryrun` with limits that make it act at once and returns the pid it
    /// would signal first. Its output goes to a file (line-buffered), which is polled; earlyoom
    /// is then killed (SIGKILL: a child may inherit a signal mask that blocks SIGTERM).
    static func earlyoomDryRunVictim() throws -> Int32 {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "earlyoom-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).log")
        #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        process.arguments = ["-oL", "-eL", "/usr/bin/earlyoom", "--dryrun", "-m", "99,99", "-s", "99,99", "-r", "0"]
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            // "sending SIGKILL to process 20832 uid 0 "swift-package": badness 670, VmRSS 143 MiB"
            if let line = text.split(separator: "\n").first(where: { $0.contains("to process ") }),
                let range = line.range(of: "to process "),
                let pid = Int32(line[range.upperBound...].prefix { $0.isNumber })
            {
                return pid
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw MemoryHogError(
            "earlyoom named no victim within 20 s: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }
}
