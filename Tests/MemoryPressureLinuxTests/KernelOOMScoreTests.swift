import Foundation
import MemoryPressure
import MemoryPressureLinux
import Testing

/// Our `oom_badness` against the running kernel's `/proc/<pid>/oom_score`, on child processes
/// holding different amounts of memory with different `oom_score_adj`.
@Suite struct KernelOOMScoreTests {
    /// One child: how much it holds and the adjustment it gets.
    struct Child {
        var mebibytes: Int
        var adjustment: Int
    }

    /// Children chosen so that the adjustment reorders them against their sizes. Adjustments
    /// below zero need `CAP_SYS_RESOURCE` (root alone is not enough in some containers), so they
    /// are used only with it.
    static var children: [Child] {
        var children = [
            Child(mebibytes: 300, adjustment: 0), Child(mebibytes: 64, adjustment: 15),
            Child(mebibytes: 32, adjustment: 0), Child(mebibytes: 16, adjustment: 40),
        ]
        if hasSystemResourceCapability {
            children += [Child(mebibytes: 400, adjustment: -12), Child(mebibytes: 64, adjustment: -1000)]
        } else {
            children += [Child(mebibytes: 400, adjustment: 2), Child(mebibytes: 128, adjustment: 1000)]
        }
        return children
    }

    @Test(.timeLimit(.minutes(1)))
    func rankingByOurBadnessMatchesTheKernelsOOMScore() throws {
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let interpreter = try #require(python, "python3 is needed to start children holding memory")
        var running: [(process: Process, input: Pipe, child: Child)] = []
        defer {
            for (process, input, _) in running {
                try? input.fileHandleForWriting.close()
                if process.isRunning { process.terminate() }
                process.waitUntilExit()
            }
        }
        for child in Self.children {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: interpreter)
            // Touch every byte, then hold it until stdin closes (or two minutes pass).
            process.arguments = [
                "-c",
                "import signal, sys; signal.alarm(120); b = b'x' * (\(child.mebibytes) << 20); sys.stdin.read()",
            ]
            let input = Pipe()
            process.standardInput = input
            try process.run()
            running.append((process, input, child))
            try Self.setAdjustment(child.adjustment, of: process.processIdentifier)
        }

        // Wait until every child holds its memory.
        let fileSystem = ProcFileSystem.live
        let deadline = Date().addingTimeInterval(30)
        var processes: [LinuxProcess] = []
        while true {
            processes = running.compactMap {
                try? LinuxProcess.read(ProcessID(rawValue: $0.process.processIdentifier), from: fileSystem)
            }
            let ready =
                processes.count == running.count
                && zip(processes, running).allSatisfy { $0.resident >= .mebibytes(Int64($1.child.mebibytes)) }
            if ready { break }
            try #require(Date() < deadline, "children did not reach their sizes: \(processes)")
            Thread.sleep(forTimeInterval: 0.05)
        }
        // Read again now that they are steady, score and kernel score together.
        processes = try running.map {
            try LinuxProcess.read(ProcessID(rawValue: $0.process.processIdentifier), from: fileSystem)
        }
        let memory = try LinuxMemoryInfo.read(from: fileSystem)
        let totalPages = LinuxOOMBadness.totalPages(of: memory, pageSize: fileSystem.pageSize)

        var comparedPairs = 0
        for (index, first) in processes.enumerated() {
            let firstPoints = LinuxOOMBadness.points(of: first, totalPages: totalPages, pageSize: fileSystem.pageSize)
            let firstKernel = try #require(first.kernelOOMScore)
            // Our score for it agrees with the kernel's up to rounding of a few drifting pages.
            let ours = LinuxOOMBadness.oomScore(points: firstPoints, totalPages: totalPages)
            #expect(abs(ours - firstKernel) <= 1, "\(first): ours \(ours), kernel \(firstKernel)")
            for second in processes[(index + 1)...] {
                let secondKernel = try #require(second.kernelOOMScore)
                guard firstKernel != secondKernel else { continue }  // ties aside
                let secondPoints = LinuxOOMBadness.points(
                    of: second, totalPages: totalPages, pageSize: fileSystem.pageSize)
                let oursOrder = (firstPoints ?? Int.min) > (secondPoints ?? Int.min)
                #expect(oursOrder == (firstKernel > secondKernel), "\(first) vs \(second)")
                comparedPairs += 1
            }
        }
        #expect(comparedPairs >= 8, "too many ties to compare: \(processes)")
    }

    /// Whether this process may lower `oom_score_adj` below zero (`CAP_SYS_RESOURCE`, bit 24 of
    /// `CapEff` in `/proc/self/status`).
    static var hasSystemResourceCapability: Bool {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << 24) != 0
    }

    /// Writes `/proc/<pid>/oom_score_adj` with `open`/`write` (Foundation's file writers fail on
    /// `/proc` files with `EACCES`).
    static func setAdjustment(_ adjustment: Int, of pid: Int32) throws {
        let path = "/proc/\(pid)/oom_score_adj"
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        let openError = errno
        try #require(descriptor >= 0, "open \(path): errno \(openError)")
        defer { close(descriptor) }
        let text = Array("\(adjustment)\n".utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let writeError = errno
        try #require(written == text.count, "write \(adjustment) to \(path): errno \(writeError)")
    }
}
