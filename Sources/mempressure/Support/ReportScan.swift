import Foundation
import MemoryPressureFormats

/// Finds the first line of a known report anywhere in a file, however far down, in one pass over its
/// bytes: the file is read in 1 MiB blocks with `pread`, each block searched for the few byte
/// strings that can open a report, and only the line around a hit is decoded and judged by
/// ``EvidenceFormat/detect(_:)``. Memory stays at one block, whatever the file's length.
enum ReportScan {
    /// The byte strings a line of some report holds; a hit is only a candidate.
    static let markers = ByteMarkers([
        " invoked oom-killer:", "Out of memory", "Killed process ", "Tasks state (memory values",
        "earlyoom", "sending SIG", "mem avail:", "lowmemorykiller", "am_kill", "killinfo", "am_low_memory",
        "ActivityManager", "lmkd", "Process LRU list", "bug_type", "memoryStatus", "rpages", "Largest process:",
        "by OOM adjustment:",
    ])

    /// The format of the first report line in `file`, or `nil` when none is found.
    ///
    /// - Complexity: O(size of the file × markers), one block in memory.
    static func firstFormat(in file: InputFile.Rereadable) -> EvidenceFormat? {
        let block = 1 << 20
        let overlap = 4096  // a line cut by a block's end is read again whole with the next block
        var buffer = [UInt8](repeating: 0, count: block + overlap)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes {
                pread(file.descriptor, $0.baseAddress, block + overlap, offset)
            }
            guard count > 0 else { return nil }
            var from = 0
            while let hit = earliestMarker(in: buffer, from: from, to: count) {
                // The whole line around the hit (a line longer than the overlap is judged in part).
                var start = hit
                while start > 0, buffer[start - 1] != 0x0A { start -= 1 }
                var end = hit
                while end < count, buffer[end] != 0x0A { end += 1 }
                if start >= block { break }  // the next block reads this line from its start
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                if let format = EvidenceFormat.detect([line]) { return format }
                from = end
            }
            guard count > block else { return nil }
            offset += off_t(block)
        }
    }

    /// The offset of the earliest marker in `buffer[from..<to]`.
    private static func earliestMarker(in buffer: [UInt8], from: Int, to: Int) -> Int? {
        guard from < to else { return nil }
        return buffer.withUnsafeBufferPointer { bytes in
            markers.firstMatch(in: UnsafeBufferPointer(rebasing: bytes[from..<to])).map { $0 + from }
        }
    }
}
