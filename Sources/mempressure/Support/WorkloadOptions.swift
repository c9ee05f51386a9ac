import ArgumentParser
import Foundation
import MemoryPressure
import MemoryPressureSimulation

#if canImport(Glibc)
    import Glibc
#endif

/// The workload options shared by `simulate` and `compare`.
struct WorkloadOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A workload file (YAML), or a built-in workload: phone (default) or server.", valueName: "file|name"))
    var workload: String = "phone"

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Override the number of apps in the shared catalogue (the tenants of a server): 1...1000000.",
            valueName: "n"))
    var apps: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Override the simulated duration, in hours: above 0, at most 8760.", valueName: "h"))
    var hours: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Refuse a workload whose samples could hold more actions than this: 1...1000000000.", valueName: "n"))
    var maxActions: Int = 5_000_000

    @Option(
        help: ArgumentHelp(
            "Replay a real app-usage log instead (CSV/TSV: user, session, timestamp, app, event Opened/Closed); each user is one sample.",
            valueName: "file"))
    var usageLog: String?

    func validate() throws {
        if let apps, apps < 1 || apps > 1_000_000 { throw ValidationError("--apps must be 1...1000000, got \(apps)") }
        if let hours, !(hours > 0 && hours <= 24 * 365) {
            throw ValidationError("--hours must be above 0 and at most 8760, got \(hours)")
        }
        if maxActions < 1 || maxActions > 1_000_000_000 {
            throw ValidationError("--max-actions must be 1...1000000000, got \(maxActions)")
        }
    }

    /// The workload the options describe.
    func resolve() throws -> Workload {
        var resolved: Workload
        if let builtIn = Workload.builtIn[workload] {
            resolved = builtIn
        } else {
            let text: String
            do {
                text = try InputFile.read(workload)
            } catch let error as CLIError where error.kind == .inputNotFound {
                throw CLIError.notFound(
                    "\(error.message) (built-in workloads: \(Workload.builtIn.keys.sorted().joined(separator: ", ")))")
            }
            do throws(InputError) {
                resolved = try Workload(yaml: text, file: InputFile.displayName(workload))
            } catch {
                throw CLIError.malformed(error.description)
            }
        }
        if let apps {
            resolved.apps = apps
            resolved.preload = min(resolved.preload, apps)
        }
        if let hours { resolved.hours = hours }
        return resolved
    }

    /// Refuses, before any work, a workload whose `samples` generated traces could exceed
    /// `--max-actions` each.
    func checkSize(of workload: Workload, samples: Int = 1) throws {
        let estimate = workload.estimatedActionsPerSample
        guard estimate <= Double(maxActions) else {
            let shown = estimate < 1e15 ? String(Int64(estimate)) : String(format: "%.3g", estimate)
            throw CLIError.usage(
                "workload \(workload.name): a sample could hold about \(shown) actions, above the limit of "
                    + "\(maxActions); lower hours or rates, or raise --max-actions (memory grows about 200 bytes "
                    + "an action)")
        }
    }

    /// The traces of an imported usage log, one per user, read row by row
    /// (``UsageLogImport/parse(_:workload:keeping:)``): memory holds the rows, not the text.
    func importedTraces(workload: Workload) throws -> [UsageLogImport.UserTrace]? {
        guard let usageLog else { return nil }
        let users: [UsageLogImport.UserTrace]
        let lines = try UsageLogFile.lines(usageLog)
        do throws(InputError) {
            users = try UsageLogImport.parse(lines, workload: workload)
        } catch {
            throw CLIError.malformed(error.description)
        }
        guard !users.isEmpty else { throw CLIError.malformed("\(usageLog): no rows after the header") }
        return users
    }
}

/// Opening a usage log to be read row by row.
enum UsageLogFile {
    /// A reader of the lines of the usage log at `path` (`-` reads standard input), kept open as
    /// long as the reader. Whole-file reading dropped three byte order marks (the file's, the
    /// parser's and the CSV reader's); so does this.
    ///
    /// - Throws: ``CLIError`` 66 when it cannot be opened.
    static func lines(_ path: String) throws -> ByteLineReader {
        let file = try InputFile.openRereadable(path)
        return ByteLineReader(
            .file(file.descriptor), file: InputFile.displayName(path), byteOrderMarks: 3, owner: file)
    }

    /// The digest of the text of the file at `path` (``SweepDefinition/digest(_:)`` of what
    /// ``InputFile/read(_:)`` returns: the bytes without one leading byte order mark), read
    /// through 64 KiB.
    ///
    /// - Throws: ``CLIError`` 66 when it cannot be opened or read.
    /// - Complexity: O(length of the file)
    static func digest(_ path: String) throws -> String {
        let file = try InputFile.openRereadable(path)
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        var head: [UInt8] = []
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIError.notFound(
                    "\(InputFile.displayName(path)): cannot be read (\(String(cString: strerror(errno))))")
            }
            if count == 0 { break }
            offset += off_t(count)
            var bytes = chunk[0..<count]
            if head.count < 3 {
                // A byte order mark is dropped only at the very start.
                let needed = min(3 - head.count, bytes.count)
                head += bytes.prefix(needed)
                bytes = bytes.dropFirst(needed)
                guard head.count == 3 else { continue }
                if head != [0xEF, 0xBB, 0xBF] { for byte in head { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 } }
            }
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        }
        if head.count < 3 { for byte in head { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 } }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

