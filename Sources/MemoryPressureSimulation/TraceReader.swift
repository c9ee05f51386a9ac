import MemoryPressure
import MemoryPressureFormats

/// Reads a JSON Lines trace (docs/DESIGN.md, "Trace") one entry at a time from a ``ByteLineReader``,
/// with the rules and the errors of ``Trace/init(jsonLines:file:)`` (which is built on it): the
/// optional `device` line first, times that never go backwards, the view and notification limits.
/// Memory holds one line, the last launch description of every app and the names counted
/// against the limits, never the trace: `replay` and `compare --trace` read files of any length
/// this way.
public struct TraceReader {
    /// The device the trace runs on: its `device` line, or `Device.iPhone4` if it has none.
    public private(set) var device: Device = .iPhone4
    /// The lines the trace is read from.
    public let lines: ByteLineReader
    /// The name used in error messages.
    public var file: String { lines.file }

    /// The first entry, read ahead while looking for the `device` line.
    private var pending: Trace.Entry?
    /// The error met while reading ahead, thrown by the next ``next()``.
    private var pendingError: InputError?
    private var lastTime = -Double.infinity
    private var sawAction = false
    private var launches: [AppID: AppLaunch] = [:]
    private var limits = Trace.TraceLimits()

    /// A reader of the trace `lines` holds; it reads up to the first action to learn the device.
    /// A bad line before it is thrown by the first ``next()`` (``device`` is then the default).
    ///
    /// - Complexity: O(length of the lines up to the first action)
    public init(_ lines: ByteLineReader) {
        self.lines = lines
        do throws(InputError) {
            pending = try read()
        } catch {
            pendingError = error
        }
    }

    /// The next entry, or `nil` at the end of the trace.
    ///
    /// - Throws: `InputError` naming the file, line, column and field of a bad line.
    /// - Complexity: O(length of the line)
    public mutating func next() throws(InputError) -> Trace.Entry? {
        if let error = pendingError {
            pendingError = nil
            throw error
        }
        if let entry = pending {
            pending = nil
            return entry
        }
        return try read()
    }

    /// The error reading the whole file first and then replaying it reports, given `error`, the
    /// first one a streamed replay met: the file is decoded first (an invalid UTF-8 byte later
    /// on wins over a malformed line), then parsed (a malformed line later on wins over an
    /// action the engine refused), then replayed. Reads the rest of the input to find out.
    ///
    /// - Complexity: O(length of the rest of the input); only on the error path.
    public mutating func wholeFileError(for error: any Error) -> any Error {
        if lines.failed { return error }
        if !(error is InputError) {
            do throws(InputError) {
                while try next() != nil {}
            } catch {
                return wholeFileError(for: error)
            }
            return error
        }
        do throws(InputError) {
            while try lines.nextLine() != nil {}
        } catch {
            return error
        }
        return error
    }

    /// Parses lines until the next action.
    private mutating func read() throws(InputError) -> Trace.Entry? {
        let file = lines.file
        while let line = try lines.nextLine() {
            let lineNumber = lines.lineNumber
            if line.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let node: ConfigNode
            do {
                node = try JSONParser.parse(line, firstLine: lineNumber)
            } catch {
                throw InputError(file: file, line: lineNumber, column: error.column, path: "", message: error.message)
            }
            let fields = try ConfigObject(node, file: file)
            let reader = TraceLineReader(fields: fields, line: lineNumber)
            let time = try reader.time(after: lastTime)
            lastTime = time
            let event = try fields.string("event")
            if event == "device" {
                guard !sawAction else { throw reader.error("a \"device\" line must come before every other event") }
                device = try reader.device()
                try reader.finish()
                continue
            }
            let action = try reader.action(event, launchedBefore: launches)
            if case .launch(let launch) = action { launches[launch.id] = launch }
            if case .open(let launch) = action { launches[launch.id] = launch }
            try reader.finish()
            try limits.check(action, reader: reader)
            sawAction = true
            return Trace.Entry(time: time, action: action, line: lineNumber)
        }
        return nil
    }
}
