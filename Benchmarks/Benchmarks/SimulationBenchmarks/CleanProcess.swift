import Foundation
import MemoryPressureJemalloc

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Memory is measured in a child process: this executable started again without `LD_PRELOAD`.
///
/// The benchmark tool preloads its malloc interposer into every benchmark process to count
/// allocations. The interposer adds a 16-byte header to every allocation, which moves many of them
/// to a larger jemalloc size class, and on Linux it reads the 8 bytes before every pointer it frees,
/// which crashed this executable twice on page-aligned blocks. So the figures of `stats.allocated`
/// and `thread.peak` are taken in a child that the interposer is not preloaded into (it is still
/// linked, after jemalloc, so jemalloc's `malloc` wins), and passed back as `name=value` lines.
enum CleanProcess {
    /// The environment variable that tells a started copy which measurement to make.
    static let variable = "SIMULATION_BENCHMARKS_MEASURE"

    /// Runs this executable again with `task`, without `LD_PRELOAD`, and returns its figures.
    static func measure(_ task: String) -> [String: Int] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath())
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = nil
        environment[variable] = task
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { fatalError("cannot start a measuring process: \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            fatalError("the measuring process for \(task) exited with status \(process.terminationStatus)")
        }
        var figures: [String: Int] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { figures[String(parts[0])] = value }
        }
        return figures
    }

    /// In a started copy: makes the measurement its environment names, prints it and exits.
    /// Returns at once in the benchmark process itself.
    static func runIfChild() {
        guard let task = ProcessInfo.processInfo.environment[variable] else { return }
        guard ProcessInfo.processInfo.environment["LD_PRELOAD"] == nil else {
            fatalError("the measuring process must run without LD_PRELOAD")
        }
        checkJemallocIsMalloc()
        let figures: [(String, Int)]
        let fields = task.split(separator: ":").map(String.init)
        switch fields.first {
        case "engine-memory" where fields.count == 3:
            figures = EngineMemoryMeasurement(apps: Int(fields[1])!, prefix: fields[2]).measure()
        case "simulation-memory" where fields.count == 2:
            figures = SimulationMemoryMeasurement.measure(workload: fields[1])
        default:
            fatalError("unknown measurement \(task)")
        }
        var text = ""
        for (name, value) in figures { text += "\(name)=\(value)\n" }
        FileHandle.standardOutput.write(Data(text.utf8))
        exit(0)
    }

    /// Traps unless an ordinary 64 MiB allocation moves jemalloc's `stats.allocated` by 64 MiB
    /// (so jemalloc really is this process's malloc).
    static func checkJemallocIsMalloc() {
        do {
            let before = try JemallocProcessStatistics.allocated()
            let probe = UnsafeMutableRawPointer.allocate(byteCount: 64 << 20, alignment: 16)
            let during = try JemallocProcessStatistics.allocated()
            probe.deallocate()
            guard during - before >= 64 << 20 else {
                fatalError("jemalloc is not this process's malloc: 64 MiB moved stats.allocated by \(during - before)")
            }
        } catch {
            fatalError("jemalloc statistics are unavailable: \(error)")
        }
    }

    private static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
