import MemoryPressure
import MemoryPressureLinux
import Testing

/// Parsing machine-wide files from text: every error names the file, the line and what was expected.
@Suite struct ParsingTests {
    let meminfo = """
        MemTotal:        1000 kB
        MemFree:          100 kB
        MemAvailable:     500 kB
        HugePages_Total:    0
        SwapTotal:          0 kB
        SwapFree:           0 kB

        """

    @Test func meminfoNeedsItsFiveFields() throws {
        let memory = try LinuxMemoryInfo(parsing: meminfo, path: "m")
        #expect(memory.total == .kibibytes(1000) && memory.available == .kibibytes(500) && memory.swapTotal == .zero)
        let withoutAvailable = meminfo.replacingOccurrences(of: "MemAvailable:     500 kB\n", with: "")
        #expect(
            throws: LinuxReadError.missingField(
                path: "m", field: "MemAvailable", expected: "a line \"MemAvailable: <integer> kB\"")
        ) {
            try LinuxMemoryInfo(parsing: withoutAvailable, path: "m")
        }
    }

    @Test func meminfoRejectsLinesWithoutAColonOrNumber() {
        #expect(
            throws: LinuxReadError.malformedLine(
                path: "m", line: 2, text: "garbage", expected: "\"Key: <integer> kB\"")
        ) {
            try LinuxMemoryInfo(parsing: "MemTotal: 1 kB\ngarbage\n", path: "m")
        }
        #expect(
            throws: LinuxReadError.malformedLine(
                path: "m", line: 1, text: "Cached: x kB", expected: "\"Cached: <integer> [kB]\"")
        ) {
            try LinuxMemoryInfo(parsing: "Cached: x kB\n", path: "m")
        }
        #expect(
            throws: LinuxReadError.malformedLine(
                path: "m", line: 1, text: "MemTotal: 12 MB", expected: "\"MemTotal: <integer> kB\"")
        ) {
            try LinuxMemoryInfo(parsing: "MemTotal: 12 MB\n", path: "m")
        }
    }

    @Test func pressureFullLineIsOptional() throws {
        let pressure = try MemoryPressureStall(parsing: "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", path: "p")
        #expect(pressure.full == nil && pressure.some.totalMicroseconds == 0)
        #expect(throws: LinuxReadError.self) { try MemoryPressureStall(parsing: "", path: "p") }
        #expect(throws: LinuxReadError.self) {
            try MemoryPressureStall(parsing: "many avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", path: "p")
        }
        #expect(throws: LinuxReadError.self) {
            try MemoryPressureStall(parsing: "some avg10=0.00 avg60=0.00 total=0\n", path: "p")
        }
    }

    @Test func errorMessagesSayWhatWasExpected() {
        let errors: [LinuxReadError] = [
            .unreadable(path: "/proc/meminfo", errno: 13), .missingFile(path: "/proc/meminfo"),
            .malformedLine(path: "/proc/meminfo", line: 3, text: "x", expected: "\"Key: <integer> kB\""),
            .missingField(path: "/proc/meminfo", field: "MemTotal", expected: "a line"),
        ]
        for error in errors {
            #expect(error.description.hasPrefix("/proc/meminfo") && error.description.contains("expected"))
        }
        #expect(errors[2].description == "/proc/meminfo:3: found \"x\"; expected \"Key: <integer> kB\"")
    }
}
