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

    /// Every record of `text`, separated by `separator`; empty lines are skipped.
    ///
    /// - Complexity: O(length of `text`)
    static func records(_ text: String, separator: Unicode.Scalar) throws(SyntaxError) -> [Record] {
        let scalars = Array(InputText.droppingByteOrderMark(text).unicodeScalars)
        var records: [Record] = []
        var fields: [Field] = []
        var current = String.UnicodeScalarView()
        var position = 0
        var line = 1
        var lineStart = 0
        var fieldLine = 1
        var fieldColumn = 1
        var recordLine = 1
        var isEmptyRecord = true

        func endField() {
            fields.append(Field(text: String(current), line: fieldLine, column: fieldColumn))
            current = String.UnicodeScalarView()
        }
        func isLineEnd(_ index: Int) -> Bool {
            scalars[index] == "\n"
                || (scalars[index] == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n")
        }

        fieldColumn = 1
        while position < scalars.count {
            let scalar = scalars[position]
            if scalar == "\"" && current.allSatisfy({ $0 == " " || $0 == "\t" }) {
                // A quoted field.
                let openLine = line
                let openColumn = position - lineStart + 1
                current = String.UnicodeScalarView()
                position += 1
                while true {
                    guard position < scalars.count else {
                        throw SyntaxError(
                            line: openLine, column: openColumn,
                            message: "a quoted field that never ends (a missing closing \")")
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
                    if inner == "\n" {
                        line += 1
                        lineStart = position + 1
                    }
                    current.append(inner)
                    position += 1
                }
                isEmptyRecord = false
                // Only spaces may follow the closing quote before the separator or the line end.
                while position < scalars.count, scalars[position] == " " || scalars[position] == "\t",
                    scalars[position] != separator
                {
                    position += 1
                }
                guard position == scalars.count || scalars[position] == separator || isLineEnd(position) else {
                    throw SyntaxError(
                        line: line, column: position - lineStart + 1,
                        message: "expected a separator or the end of the line after a closing quote")
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
                if !(isEmptyRecord && fields.isEmpty && current.isEmpty) {
                    endField()
                    records.append(Record(fields: fields, line: recordLine))
                }
                fields = []
                isEmptyRecord = true
                line += 1
                lineStart = position
                recordLine = line
                fieldLine = line
                fieldColumn = 1
                continue
            }
            if scalar != " " && scalar != "\t" { isEmptyRecord = false }
            current.append(scalar)
            position += 1
        }
        if !(isEmptyRecord && fields.isEmpty && current.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" })) {
            endField()
            records.append(Record(fields: fields, line: recordLine))
        }
        return records
    }
}
