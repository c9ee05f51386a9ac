// A whole log in memory read the way `kill-order` reads a file: through the block scan.

import MemoryPressure

extension KillHistoryReader {
    /// Reads every line of the log `bytes` as `kill-order --history FILE` reads a file: in blocks
    /// of `blockBytes`, decoding only the lines near a report marker or inside a report
    /// (`LogLineScanner`); lines end with LF or CRLF, and a UTF-8 byte order mark at the start is
    /// skipped. Call ``finish()`` afterwards.
    ///
    /// - Throws: `InputError` naming `file` and the line, for a line longer than 16 MiB or a byte
    ///   that is not UTF-8 (with its offset).
    /// - Complexity: O(n) for the n bytes; memory O(`blockBytes`) besides the reader's own.
    public mutating func consume(logBytes bytes: [UInt8], file: String, blockBytes: Int = 1 << 20)
        throws(InputError)
    {
        try LogLineScanner(.bytes(bytes), file: file, blockBytes: blockBytes).run(&self)
    }
}

extension EvidenceLogReader {
    /// Reads every line of the log `bytes` as `kill-order FILE` reads a file of this reader's
    /// format: in blocks of `blockBytes`, decoding only the lines near a report marker or inside a
    /// report (`LogLineScanner`). Call ``finish()`` afterwards.
    ///
    /// - Throws: `InputError` naming `file` and the line, for a line longer than 16 MiB, a byte
    ///   that is not UTF-8, or a report the format's parser refuses.
    /// - Complexity: O(n) for the n bytes; memory O(`blockBytes`) besides the reader's own.
    public mutating func consume(logBytes bytes: [UInt8], file: String, blockBytes: Int = 1 << 20)
        throws(InputError)
    {
        try LogLineScanner(.bytes(bytes), file: file, blockBytes: blockBytes).run(&self)
    }
}
