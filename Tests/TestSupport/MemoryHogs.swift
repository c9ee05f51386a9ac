import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Child processes that each hold a given amount of touched memory, with a given
/// `oom_score_adj`, for tests against the live kernel. They end when ``stop()`` is called, when
/// the value is deinitialised, or when the test process ends (their stdin closes).
///
/// Only one set of hogs exists at a time in a test process: creating one waits until the
/// previous one is stopped, so tests that rank the machine's processes do not see each other's
/// children.
public final class MemoryHogs {
    /// Held from creation to ``stop()``.
    private static let exclusive = DispatchSemaphore(value: 1)
    private var holdsExclusive = false

    /// One child: how much it holds and its adjustment.
    public struct Spec: Sendable {
        /// Mebibytes to hold.
        public var mebibytes: Int
        /// Its `oom_score_adj`.
        public var adjustment: Int

        /// A child holding `mebibytes` with `adjustment`.
        public init(mebibytes: Int, adjustment: Int) {
            self.mebibytes = mebibytes
            self.adjustment = adjustment
        }
    }

    /// The running children with their specs.
    public private(set) var children: [(process: Process, input: Pipe, spec: Spec)] = []

    /// The python3 interpreter, if this machine has one.
    public static var interpreter: String? {
        ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts one child per spec and waits (up to 30 s) until each holds its memory.
    public init(_ specs: [Spec]) throws {
        guard let interpreter = Self.interpreter else {
            throw MemoryHogError("python3 is needed to start children holding memory")
        }
        Self.exclusive.wait()
        holdsExclusive = true
        for spec in specs {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: interpreter)
            // Touch every byte, then hold it until stdin closes.
            process.arguments = ["-c", "import sys; b = b'x' * (\(spec.mebibytes) << 20); sys.stdin.read()"]
            let input = Pipe()
            process.standardInput = input
            try process.run()
            children.append((process, input, spec))
            do {
                try Self.setAdjustment(spec.adjustment, of: process.processIdentifier)
            } catch {
                stop()
                throw error
            }
        }
        let deadline = Date().addingTimeInterval(30)
        while !children.allSatisfy({ Self.residentMebibytes(of: $0.process.processIdentifier) >= $0.spec.mebibytes }) {
            guard Date() < deadline else {
                stop()
                throw MemoryHogError("children did not reach their sizes within 30 s")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    deinit { stop() }

    /// The children's process ids, in spec order.
    public var pids: [Int32] { children.map(\.process.processIdentifier) }

    /// Ends every child and waits for it.
    public func stop() {
        for (process, input, _) in children {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        children = []
        if holdsExclusive {
            holdsExclusive = false
            Self.exclusive.signal()
        }
    }

    /// `VmRSS` of `pid` in MiB, or 0 if unreadable.
    public static func residentMebibytes(of pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kibibytes = Int(
                line.dropFirst("VmRSS:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        else { return 0 }
        return kibibytes >> 10
    }

    /// Whether this process may lower `oom_score_adj` below zero (`CAP_SYS_RESOURCE`, bit 24 of
    /// `CapEff` in `/proc/self/status`).
    public static var hasSystemResourceCapability: Bool {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
            let mask = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << 24) != 0
    }

    /// Writes `/proc/<pid>/oom_score_adj` with `open`/`write` (Foundation's file writers fail on
    /// `/proc` files with `EACCES`).
    public static func setAdjustment(_ adjustment: Int, of pid: Int32) throws {
        let path = "/proc/\(pid)/oom_score_adj"
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw MemoryHogError("open \(path): errno \(errno)") }
        defer { close(descriptor) }
        let text = Array("\(adjustment)\n".utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == text.count else { throw MemoryHogError("write \(adjustment) to \(path): errno \(errno)") }
    }
}

/// Why the memory hogs could not be started.
public struct MemoryHogError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
