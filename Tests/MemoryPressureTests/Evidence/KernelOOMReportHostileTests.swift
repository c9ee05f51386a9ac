import MemoryPressure
import MemoryPressureFormats
import Testing

/// The kernel report reader on input built to make it work without end: each case costs time
/// linear in its length and memory bounded by one line.
@Suite("Kernel OOM reports: hostile input at a bounded cost")
struct KernelOOMReportHostileTests {
    @Test("a quoted-printable mark then nothing but soft breaks holds at most 16 KiB, not the input")
    func softBreaksAreBounded() throws {
        var parser = KernelOOMReportParser(file: "mail.txt")
        _ = try parser.consume("a =3D b"[...], lineNumber: 1)
        var largest = 0
        for number in 2...100_000 {
            _ = try parser.consume("x="[...], lineNumber: number)
            largest = max(largest, parser.heldLineBytes)
        }
        // The joined line used to grow by a byte a line, to 100 KB here, copied whole each time.
        #expect(largest > 8 << 10)
        #expect(largest <= 16 << 10)
    }

    @Test("a kill line of a name of 200,000 closing parentheses is read in linear time")
    func manyParentheses() throws {
        // Each `)` used to look at the whole rest of the line for the word after it: 200,000²/2
        // steps here. The name runs to the last `)`, as for any name holding parentheses.
        let line = "Out of memory: Killed process 1 (" + String(repeating: ")", count: 200_000)
        let reports = try KernelOOMReportParser.reports(in: line, file: "p.log")
        #expect(reports.count == 1)
        #expect(reports.first?.victim?.pid == 1)
        #expect(reports.first?.victim?.name.utf8.count == 199_999)
    }
}
