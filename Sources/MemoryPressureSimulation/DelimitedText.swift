import MemoryPressure
import MemoryPressureFormats

/// A reader of delimited text (CSV as RFC 4180 defines it, or TSV): records end at LF or CRLF;
/// a field that starts with `"` is quoted and may hold the separator, line ends and `""` (one
/// quote); spaces around a field are kept for the caller to trim. A UTF-8 byte order mark at the
/// start is ignored.
struct DelimitedText {
    /// One field, with where it starts (1-based line and column, in characters).
    struct Field {
        var text: String
        var line: Int
        var column: Int
    }

    /// One record: its fields and the line it starts on.
    struct Record {
        var fields: [Field]
        var line: Int
    }

    /// A quoted field that never ends, or text after a closing quote.
    struct SyntaxError: Error {
        var line: Int
        var column: Int
        var message: String
    }

    /// Why ``Reader/next()`` stopped: the text's syntax, or reading the input.
    enum ReadError: Error {
        /// A quoted field that never ends, or text after a closing quote.
        case syntax(SyntaxError)
        /// An input that is not UTF-8, a line over the reader's limit, or a failed read.
        case input(InputError)

        /// The error as an `InputError` of `file`, a syntax error at its line and column.
        func inputError(file: String) -> InputError {
            switch self {
            case .syntax(let syntax):
                InputError(file: file, line: syntax.line, column: syntax.column, path: "", message: syntax.message)
            case .input(let input): input
            }
        }
    }

    /// Reads records one at a time from lines (``ByteLineReader/nextRawLine()``), keeping only
    /// the record being read: a quoted field may span lines; every other state is one line.
    /// Positions are those of the whole-text reading: 1-based lines, and columns counted in
    /// Unicode scalars from the start of the line.
    struct Reader {
        /// The lines read.
        let lines: ByteLineReader
        /// The field separator (`,` or a tab).
        let separator: Unicode.Scalar

        /// The current line's scalars, with a `\n` at the end when the line ended with one.
        private var scalars: [Unicode.Scalar] = []
        private var position = 0
        private var atEnd = false
        private var line = 1
        private var lineStart = 0
        private var fieldLine = 1
        private var fieldColumn = 1
        private var recordLine = 1
        private var isEmptyRecord = true
        private var fields: [Field] = []
        private var current = String.UnicodeScalarView()
        /// The byte offset of the line where the record being read starts.
        private var recordOffset: Int64 = 0
        /// The byte offset of the line where the last record returned starts (for readers that
        /// come back to a record).
        private(set) var lastRecordOffset: Int64 = 0

        /// A reader of the records of `lines`, separated by `separator`.
        init(lines: ByteLineReader, separator: Unicode.Scalar) {
            self.lines = lines
            self.separator = separator
            line = lines.lineNumber + 1
            fieldLine = line
            recordLine = line
        }

        /// Loads the next line into `scalars`; false at the end of the input.
        private mutating func load() throws(ReadError) -> Bool {
            let text: String?
            do {
                text = try lines.nextRawLine()
            } catch {
                throw .input(error)
            }
            guard let text else {
                atEnd = true
                return false
            }
            scalars.removeAll(keepingCapacity: true)
            scalars.append(contentsOf: text.unicodeScalars)
            if lines.lineEndedWithNewline { scalars.append("\n") }
            position = 0
            lineStart = 0
            return true
        }

        /// Whether a scalar is at `position`, loading the next line if the current one is done.
        private mutating func more() throws(ReadError) -> Bool {
            if position < scalars.count { return true }
            if atEnd { return false }
            return try load() && position < scalars.count
        }

        private mutating func endField() {
            fields.append(Field(text: String(current), line: fieldLine, column: fieldColumn))
            current = String.UnicodeScalarView()
        }

        /// Whether `index` of the current line starts a line end (LF, or CR before LF).
        private func isLineEnd(_ index: Int) -> Bool {
            scalars[index] == "\n"
                || (scalars[index] == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n")
        }

        /// The next record, or `nil` at the end; empty lines are skipped.
        ///
        /// - Complexity: O(length of the record)
        mutating func next() throws(ReadError) -> Record? {
            while try more() {
                if position == 0 && isEmptyRecord && fields.isEmpty && current.isEmpty {
                    recordOffset = lines.lineOffset
                }
                let scalar = scalars[position]
                if scalar == "\"" && current.allSatisfy({ $0 == " " || $0 == "\t" }) {
                    // A quoted field.
                    let openLine = line
                    let openColumn = position - lineStart + 1
                    current = String.UnicodeScalarView()
                    position += 1
                    while true {
                        guard try more() else {
                            throw .syntax(
                                SyntaxError(
                                    line: openLine, column: openColumn,
                                    message: "a quoted field that never ends (a missing closing \")"))
                        }
                        let inner = scalars[position]
                        if inner == "\"" {
                            if position + 1 < scalars.count, scalars[position + 1] == "\"" {
                                current.append("\"")
                                position += 2
                                continue
                            }
                            position += 1
                            break
                        }
                        current.append(inner)
                        position += 1
                        if inner == "\n" {
                            line += 1
                            lineStart = position
                        }
                    }
                    isEmptyRecord = false
                    // Only spaces may follow the closing quote before the separator or the line end.
                    while position < scalars.count, scalars[position] == " " || scalars[position] == "\t",
                        scalars[position] != separator
                    {
                        position += 1
                    }
                    guard position == scalars.count || scalars[position] == separator || isLineEnd(position) else {
                        throw .syntax(
                            SyntaxError(
                                line: line, column: position - lineStart + 1,
                                message: "expected a separator or the end of the line after a closing quote"))
                    }
                    continue
                }
                if scalar == separator {
                    endField()
                    isEmptyRecord = false
                    position += 1
                    fieldLine = line
                    fieldColumn = position - lineStart + 1
                    continue
                }
                if isLineEnd(position) {
                    position += scalar == "\r" ? 2 : 1
                    var record: Record?
                    if !(isEmptyRecord && fields.isEmpty && current.isEmpty) {
                        endField()
                        record = Record(fields: fields, line: recordLine)
                        lastRecordOffset = recordOffset
                    }
                    fields = []
                    isEmptyRecord = true
                    line += 1
                    lineStart = position
                    recordLine = line
                    fieldLine = line
                    fieldColumn = 1
                    if let record { return record }
                    continue
                }
                if scalar != " " && scalar != "\t" { isEmptyRecord = false }
                current.append(scalar)
                position += 1
            }
            if !(isEmptyRecord && fields.isEmpty && current.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" })) {
                endField()
                let record = Record(fields: fields, line: recordLine)
                lastRecordOffset = recordOffset
                fields = []
                current = String.UnicodeScalarView()
                isEmptyRecord = true
                return record
            }
            return nil
        }
    }
}
