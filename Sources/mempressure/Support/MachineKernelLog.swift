import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// This machine's own kernel log, for `kill-order --history --live`: the first source that can be
/// read of `journalctl -k` (run as a child process, its output read as it comes), the syslog files
/// that hold kernel lines, and `/dev/kmsg` (the kernel's ring buffer, read to its current end).
/// When none can be read, the error names each source and why.
enum MachineKernelLog {
    /// Calls `body` with each line of the first readable source and its 1-based number, and
    /// returns the source's name.
    ///
    /// - Throws: `CLIError.notFound` naming every source tried when none can be read; an
    ///   `InputError` of `body` as a malformed-input error.
    static func read(_ body: (Substring, Int) throws(InputError) -> Void) throws -> String {
        var tried: [String] = []
        if let journal = try journal(body, tried: &tried) { return journal }
        for path in ["/var/log/kern.log", "/var/log/messages", "/var/log/syslog"] {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                tried.append("\(path): \(String(cString: strerror(errno)))")
                continue
            }
            defer { close(descriptor) }
            try lines(ByteLineReader(.descriptor(descriptor), file: path), body)
            return path
        }
        if try kmsg(body, tried: &tried) { return "/dev/kmsg" }
        throw CLIError.notFound(
            "cannot read this machine's kernel log: " + tried.joined(separator: "; ")
                + " (reading it needs root, or membership of the adm or systemd-journal group)")
    }

    /// Every line of `reader` to `body`, an `InputError` worded as malformed input.
    private static func lines(_ reader: ByteLineReader, _ body: (Substring, Int) throws(InputError) -> Void) throws {
        do throws(InputError) {
            while let line = try reader.nextLine() { try body(line[...], reader.lineNumber) }
        } catch {
            throw CLIError.malformed(error.description)
        }
    }

    /// `journalctl -k -o short-iso --no-pager -q`, when it runs and has kernel lines.
    private static func journal(_ body: (Substring, Int) throws(InputError) -> Void, tried: inout [String]) throws
        -> String?
    {
        let candidates = ["/usr/bin/journalctl", "/bin/journalctl"].filter {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let executable = candidates.first else {
            tried.append("journalctl: not installed")
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-k", "-o", "short-iso", "--no-pager", "-q"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            tried.append("journalctl: \(error.localizedDescription)")
            return nil
        }
        var count = 0
        var failure: Error?
        do {
            try lines(
                ByteLineReader(.descriptor(output.fileHandleForReading.fileDescriptor), file: "journalctl -k")
            ) { line, number throws(InputError) in
                // journalctl's own notes ("-- No entries --") are no kernel lines.
                if line.hasPrefix("-- ") { return }
                count += 1
                try body(line, number)
            }
        } catch {
            failure = error
        }
        process.waitUntilExit()
        if let failure { throw failure }
        guard process.terminationStatus == 0, count > 0 else {
            tried.append(
                "journalctl -k: "
                    + (process.terminationStatus == 0
                        ? "no kernel lines in the journal"
                        : "exit status \(process.terminationStatus)"))
            return nil
        }
        return "journalctl -k"
    }

    /// `/dev/kmsg` read to its current end: one record a `read(2)`, stopping at `EAGAIN`; the
    /// records' continuation lines (` SUBSYSTEM=…`) are left out.
    private static func kmsg(_ body: (Substring, Int) throws(InputError) -> Void, tried: inout [String]) throws -> Bool
    {
        let descriptor = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            tried.append("/dev/kmsg: \(String(cString: strerror(errno)))")
            return false
        }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var number = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EPIPE { continue }  // records overwritten while reading: go on with the next
                if errno == EAGAIN || errno == EWOULDBLOCK { return true }
                tried.append("/dev/kmsg: \(String(cString: strerror(errno)))")
                return number > 0
            }
            if count == 0 { return true }
            let record = String(decoding: buffer[0..<count], as: UTF8.self)
            for line in record.split(separator: "\n") where !line.hasPrefix(" ") {
                number += 1
                do throws(InputError) {
                    try body(line, number)
                } catch {
                    throw CLIError.malformed(error.description)
                }
            }
        }
    }
}
