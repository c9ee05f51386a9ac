import Foundation
import MemoryPressure
import MemoryPressureSimulation

#if canImport(Glibc)
    import Glibc
#endif

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

    /// Writes to standard error, once per event type, the rows of a usage log that were skipped
    /// because their event does not move an app to or from the foreground.
    static func reportSkipped(_ skipped: [UsageLogReader.SkippedEvent], file: String) {
        for event in skipped {
            StandardError.write(
                "mempressure: \(file): skipped \(event.count) row\(event.count == 1 ? "" : "s") of event type "
                    + "\(event.type.escapingControlCharacters().quotedExcerpt()) (first at line \(event.firstLine)): "
                    + "not a move of an app to or from the foreground\n")
        }
    }

    /// Writes to standard error what reading a usage log found: its layout, the skipped event
    /// types, the rows counted by what happened to them (glitches and rows that are not app
    /// sessions, each with its rule), what was measured about the whole log, the app names read
    /// as the home screen and those no entry of the app-kind table matches.
    static func report(_ log: UsageLogImport.Log, file: String, forced: Bool) {
        let layout: String
        switch log.format {
        case .events: layout = "events with a header"
        case .polledSamples: layout = "polled foreground samples"
        case .appUsage: layout = "an App Usage export"
        }
        if log.format != .events {
            StandardError.write(
                "mempressure: \(file): read as \(layout) (\(forced ? "--usage-log-format" : "detected from its first line"))\n"
            )
        }
        reportSkipped(log.skippedEvents, file: file)
        for count in log.rowCounts {
            StandardError.write(
                "mempressure: \(file): \(count.count) \(count.what.escapingControlCharacters()) (first at line "
                    + "\(count.firstLine)): \(count.rule)\n")
        }
        for note in log.notes { StandardError.write("mempressure: \(file): \(note)\n") }
        if !log.homeApps.isEmpty {
            let shown = log.homeApps.prefix(8).map { $0.escapingControlCharacters().quotedExcerpt() }
            StandardError.write(
                "mempressure: \(file): \(log.homeApps.count) app name\(log.homeApps.count == 1 ? " is" : "s are") the "
                    + "home screen, not apps (the launcher, System UI, the collector): "
                    + shown.joined(separator: ", ") + (log.homeApps.count > 8 ? ", …" : "") + "\n")
        }
        if !log.unmappedApps.isEmpty {
            let rows = log.unmappedApps.reduce(0) { $0 + $1.rows }
            let shown = log.unmappedApps.prefix(10).map {
                "\($0.name.escapingControlCharacters().quotedExcerpt()) (\($0.rows))"
            }
            StandardError.write(
                "mempressure: \(file): \(log.unmappedApps.count) of \(log.distinctApps) app names (\(rows) rows) have no "
                    + "kind in the app-kind table, so they are sized from the workload's footprint distribution; "
                    + "map them with appKinds in a workload file: " + shown.joined(separator: ", ")
                    + (log.unmappedApps.count > 10 ? ", …" : "") + "\n")
        }
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
