import Foundation
import MemoryPressure
import PropertyBased
import Testing

@testable import MemoryPressureLinux

// Issue 14: the /proc scan parses bytes in place (ProcBytes, into ProcScanner's reused buffer).
// Its parsers must give what the String parsers they replace gave (ReferenceStatusParser, the
// old code verbatim), on generated status and integer files and on edits of a real status file.

/// What a status parser gives: the fields, or the name of the garbled field.
private func outcome(_ parse: () throws(LinuxProcess.Status.GarbledField) -> LinuxProcess.Status) -> String {
    do { return "\(try parse())" } catch { return "garbled \(error.field)" }
}

private func byteOutcome(_ bytes: [UInt8]) -> String {
    bytes.withUnsafeBytes { raw in outcome { () throws(LinuxProcess.Status.GarbledField) in try ProcBytes.status(raw) }
    }
}

private func referenceOutcome(_ bytes: [UInt8]) -> String {
    outcome { () throws(LinuxProcess.Status.GarbledField) in
        try ReferenceStatusParser.status(String(decoding: bytes, as: UTF8.self))
    }
}

/// Keys the parser reads, keys it passes over, and near misses.
private let keys = [
    "Name", "State", "Kthread", "Uid", "VmRSS", "VmSwap", "VmPTE", "Gid", "VmPeak", "Threads", "Name ", " Name",
    "vmrss", "VmRSSx", "", "Uid\t",
]
/// Pieces of values: numbers (signed, huge, padded), units, blanks, names with non-ASCII and
/// invalid UTF-8 bytes, zombie and kernel-thread markers.
private let valuePieces: [[UInt8]] =
    [
        "0", "1", "7", "42", "1000", "204800", "-5", "+12", "-0", "+", "-", "00012", "4294967295", "4294967296",
        "9007199254740992", "9223372036854775807", "99999999999999999999", "kB", "KB", "kb", "mB", " ", "\t", "  ",
        "Z", "Z (zombie)", "S (sleeping)", "x", ":", "mail-daemon", "caf\u{E9}", "\u{1F600}", "\u{4E2D}\u{6587}",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x82], [0x00]]

/// One line from one random number: the key, whether it has a colon, and up to five value
/// pieces, each taken from successive digits of `code` in mixed radices.
private func line(_ code: Int) -> [UInt8] {
    var rest = code
    func take(_ radix: Int) -> Int {
        defer { rest /= radix }
        return rest % radix
    }
    let key = take(keys.count)
    var bytes = Array(keys[key].utf8)
    if take(7) != 0 { bytes.append(0x3A) }  // now and then no colon
    if take(3) != 0 { bytes.append(0x09) }
    for _ in 0..<take(6) { bytes += valuePieces[take(valuePieces.count)] }
    return bytes
}

/// A status file: generated lines joined by newlines, with or without a last one, and with
/// blank lines now and then (`shape`).
private func statusFile(_ codes: [Int], shape: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    for (index, code) in codes.enumerated() {
        if index > 0 { bytes.append(0x0A) }
        if index < shape / 2 { bytes += [0x20, 0x09, 0x0A] }
        bytes += line(code)
    }
    if shape % 2 == 0 { bytes.append(0x0A) }
    return bytes
}

private let realStatus: [UInt8] = Array(
    """
    Name:\tmail-daemon
    Umask:\t0022
    State:\tS (sleeping)
    Uid:\t1000\t1000\t1000\t1000
    Kthread:\t0
    VmRSS:\t  204800 kB
    VmPTE:\t     512 kB
    VmSwap:\t       0 kB
    Threads:\t4

    """.utf8)

/// Bytes inserted by edits: structural ones, digits, signs, letters of the keys and units, and
/// non-ASCII and invalid UTF-8 bytes. No `\r` and no combining marks: there the `String`
/// parsers see graphemes (`\r\n`, a colon fused with a mark), not bytes — see `ProcBytes`.
private let editBytes = Array(":\n\t 0123456789+-kBZNameUidVmRSSwapPTEKthread".utf8) + [0xC3, 0xA9, 0xFF, 0x00]

/// A generator of random numbers seeded with `seed`: every run draws the same cases.
private func seeded(_ seed: UInt64) -> Xoshiro { Xoshiro(seed: (seed, 0x6D65_6D70, 14, 2026)) }

@Suite("The byte parsers of the /proc scan agree with the String parsers they replace")
struct ProcBytesPropertyTests {
    @Test("generated status files: the same fields, or the same garbled field")
    func generatedStatusFiles() {
        var random = seeded(1)
        let lines = Gen.int(in: 0...Int(Int32.max)).array(of: 0...12)
        let shapes = Gen.int(in: 0...7)
        for _ in 0..<3_000 {
            let bytes = statusFile(lines.run(using: &random), shape: shapes.run(using: &random))
            #expect(
                byteOutcome(bytes) == referenceOutcome(bytes),
                "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
    }

    @Test("edits of a real status file: the same fields, or the same garbled field")
    func editedStatusFiles() {
        var random = seeded(2)
        let insertions = Gen.int(in: 0...(editBytes.count - 1)).map { editBytes[$0] }.array(of: 0...8)
        let positions = Gen.int(in: 0...10_000)
        let deletions = Gen.int(in: 0...8)
        for _ in 0..<3_000 {
            let position = positions.run(using: &random)
            let insertion = insertions.run(using: &random)
            let deleted = deletions.run(using: &random)
            var bytes = realStatus
            let at = position % (bytes.count + 1)
            bytes.removeSubrange(at..<min(bytes.count, at + deleted))
            bytes.insert(contentsOf: insertion, at: at)
            #expect(
                byteOutcome(bytes) == referenceOutcome(bytes),
                "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
    }

    @Test("integer files (oom_score_adj, oom_score): the same value or none")
    func integerFiles() {
        var random = seeded(3)
        let blanks = [" ", "\t", "\n", "", "\n\n"].map { Array($0.utf8) }
        let blank = Gen.int(in: 0...(blanks.count - 1))
        let piece = Gen.int(in: 0...(valuePieces.count - 1))
        let pieces = piece.array(of: 0...3)
        for _ in 0..<3_000 {
            let before = blank.run(using: &random)
            let chosen = pieces.run(using: &random)
            let after = blank.run(using: &random)
            let bytes = blanks[before] + chosen.flatMap { valuePieces[$0] } + blanks[after]
            let parsed = bytes.withUnsafeBytes { ProcBytes.trimmedInteger($0) }
            #expect(parsed == ReferenceStatusParser.integer(String(decoding: bytes, as: UTF8.self)))
        }
    }

    @Test("Int64, UInt32 and Int read in place match the standard library on signed decimals")
    func integersMatchTheStandardLibrary() {
        var random = seeded(4)
        let values = Gen.int(in: Int.min...Int.max)
        let forms = Gen.int(in: 0...3)
        for _ in 0..<3_000 {
            let (value, form) = (values.run(using: &random), forms.run(using: &random))
            // Short ones take the in-place path, long or signed ones the standard library's.
            let text =
                form == 0
                ? "+\(value % 1_000)"
                : form == 1 ? "000\(value % 100_000)" : form == 2 ? "\(value % 1_000_000_000)" : "\(value)"
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { raw in
                #expect(ProcBytes.integer(raw, 0, raw.count) as Int64? == Int64(text))
                #expect(ProcBytes.integer(raw, 0, raw.count) as UInt32? == UInt32(text))
                #expect(ProcBytes.integer(raw, 0, raw.count) as Int? == Int(text))
            }
        }
    }

    @Test("every status file of the fixture tree and of this machine parses as before")
    func realStatusFiles() throws {
        var checked = 0
        for root in [Fixture.machine.fileSystem.procRoot, "/proc"] {
            for pid in ProcFileSystem(procRoot: root).processIDs() {
                guard let data = FileManager.default.contents(atPath: "\(root)/\(pid)/status") else { continue }
                let bytes = [UInt8](data)
                #expect(byteOutcome(bytes) == referenceOutcome(bytes), "\(root)/\(pid)/status")
                checked += 1
            }
        }
        #expect(checked > 5)
    }
}
