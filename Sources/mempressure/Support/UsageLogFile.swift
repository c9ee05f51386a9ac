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
