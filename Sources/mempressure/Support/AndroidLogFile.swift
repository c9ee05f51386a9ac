import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// Reading a real Android device's logs for `compare --event-log`.
enum AndroidLogFile {
    /// The days of the log at `path` (`-` reads standard input), read a line at a time.
    ///
    /// - Throws: ``CLIError`` 66 when it cannot be opened, 65 for a malformed recognised line or a
    ///   log without an activity resume.
    static func days(_ path: String, workload: Workload) throws -> [RealDeviceDay] {
        let name = InputFile.displayName(path)
        let file = try InputFile.openRereadable(path)
        let reader = ByteLineReader(.file(file.descriptor), file: name, owner: file)
        var parser = AndroidLogParser(file: name)
        var records: [AndroidLogRecord] = []
        do throws(InputError) {
            while let line = try reader.nextLine() {
                if let record = try parser.consume(line[...], lineNumber: reader.lineNumber) { records.append(record) }
            }
        } catch {
            throw CLIError.malformed(error.description)
        }
        let days = RealDeviceDay.days(records, workload: workload).filter { !$0.trace.entries.isEmpty }
        guard !days.isEmpty else {
            throw CLIError.malformed(
                "\(name): no activity resume found: expected logcat -b events lines such as "
                    + "'… I wm_set_resumed_activity: [0,com.example/.Main,…]' (or am_set_resumed_activity, "
                    + "am_focused_activity, wm_resume_activity)")
        }
        return days
    }
}
