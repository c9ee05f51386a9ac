import MemoryPressure

extension JetsamEventReportParser {
    /// Whether `line` belongs to the plain-text "Low Memory" report of iOS 5–8 (for recognising a file).
    ///
    /// - Complexity: O(length of `line`)
    static func startsTextReport(_ line: [UInt8]) -> Bool {
        UTF8Search.contains(line, "Largest process:")
    }

    /// The plain-text "Low Memory" report of iOS 5–8 in `text`: a header of `Key: value` lines
    /// (`OS Version`, `Hardware Model`, `Date`, `Page Size`, `Free pages`, … `Largest process`),
    /// then `Processes`, a column header and one row per process: `Name <UUID>` then the header's
    /// numeric columns (`rpages`, `recent_max`, `fds`, …, or iOS 5's one `Count resident pages`),
    /// then `[reason]` for a process jetsam killed (iOS 5 writes `(jettisoned)`) and `(state)`
    /// marks. Rows it cannot place are skipped and counted; names are cut at 16 characters by the
    /// OS, not here.
    ///
    /// - Throws: `InputError` when the text holds no process table header.
    /// - Complexity: O(length of `text`)
    static func textReport(in text: Substring, firstLine: Int, header: ConfigObject?, file: String) throws(InputError)
        -> JetsamEventReport
    {
        var report = JetsamEventReport(
            form: .text, bugType: nil, osVersion: nil, product: nil, date: nil, pageSize: nil, memoryPages: [:],
            compressorPages: nil, largestProcess: nil, processes: [])
        if let header {
            if let node = header.optional("bug_type"), case .string(let value) = node.value { report.bugType = value }
            if let node = header.optional("os_version"), case .string(let value) = node.value {
                report.osVersion = value
            }
        }
        var columns: [String]?
        var skipped = 0
        var lineNumber = firstLine - 1
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty { continue }
            if columns == nil {
                if trimmed.hasPrefix("Name") && (trimmed.contains("UUID") || trimmed.contains("rpages")) {
                    columns = Self.textColumns(trimmed)
                    continue
                }
                guard let colon = trimmed.firstIndex(of: ":") else { continue }
                let key = trimmed[..<colon].lowercased()
                let value = String(trimmed[trimmed.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
                let number = Int64(value.prefix { $0.isNumber })
                switch key {
                case "os version": report.osVersion = report.osVersion ?? value
                case "hardware model": report.product = value
                case "date": report.date = value
                case "page size": report.pageSize = number.flatMap { (512...(1 << 24)).contains($0) ? $0 : nil }
                case "largest process": report.largestProcess = value
                case "compressor size": report.compressorPages = number
                default:
                    if key.hasSuffix(" pages"), let number {
                        let kind = key.dropLast(" pages".count)
                        if ["free", "active", "inactive", "speculative", "throttled", "wired", "purgeable"]
                            .contains(kind)
                        {
                            report.memoryPages[String(kind)] = number
                        }
                    }
                }
                continue
            }
            if trimmed.hasPrefix("**End**") { break }
            if ["...", "…"].contains(String(trimmed)) {
                report.elidedLines += 1
                continue
            }
            guard let columns, report.processes.count < maximumProcesses,
                let process = Self.textRow(line, columns: columns, line: lineNumber)
            else {
                skipped += 1
                continue
            }
            report.processes.append(process)
        }
        guard columns != nil || report.largestProcess != nil || !report.memoryPages.isEmpty else {
            throw InputError(
                file: file, line: firstLine, column: 1, path: "",
                message: "expected the process table of a Low Memory report ('Name <UUID> rpages …'), found none")
        }
        report.partialEntries = skipped
        return report
    }

    /// The numeric columns of a text report's header, in order (`Name` and `UUID` left out, as are
    /// `[reason]` and `(state)`): split at `|` where the header uses them, else at blanks.
    static func textColumns(_ header: Substring) -> [String] {
        if header.contains("resident pages") { return ["rpages"] }  // iOS 5: "Count resident pages"
        let fields =
            header.contains("|")
            ? header.split(separator: "|").map { String($0.trimmed(of: " \t")) }
            : header.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        return fields.filter { field in
            !field.isEmpty && field != "Name" && !field.contains("UUID") && !field.hasPrefix("[")
                && !field.hasPrefix("(")
        }.map { $0.lowercased().replacing(" ", with: "_") }
    }

    /// One row: `MobileMail <b3574f4b…> 1113 1113 200 [vm-pageshortage] (resume) (continuous)`.
    static func textRow(_ line: Substring, columns: [String], line number: Int) -> JetsamEventReport.Process? {
        guard let open = line.firstIndex(of: "<"), let close = line[open...].firstIndex(of: ">") else { return nil }
        let name = String(line[..<open].trimmed(of: " \t|"))
        guard !name.isEmpty, AppID.problem(with: name) == nil else { return nil }
        let rest = line[line.index(after: close)...].replacing("|", with: " ")
        var values: [String: Double] = [:]
        var reason: String?
        var states: [String] = []
        var index = 0
        for token in rest.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            if token.hasPrefix("[") && token.hasSuffix("]") {
                reason = String(token.dropFirst().dropLast())
            } else if token.hasPrefix("(") && token.hasSuffix(")") {
                states.append(String(token.dropFirst().dropLast()))
            } else if let value = Double(token), index < columns.count {
                values[columns[index]] = value
                index += 1
            }
        }
        // A count is a whole number in range: "1e300", "nan" or "12.5" in a column makes no row (found
        // by the report fuzzer, where the conversion trapped).
        guard let resident = values["rpages"].flatMap({ Int64(exactly: $0) }), resident >= 0 else { return nil }
        // iOS 5 marks a killed process "(jettisoned)" and the app in front "(active)".
        if states.contains("jettisoned") {
            reason = reason ?? "jettisoned"
            states.removeAll { $0 == "jettisoned" }
        }
        if states.contains("active") && !states.contains("frontmost") { states.append("frontmost") }
        return JetsamEventReport.Process(
            pid: values["pid"].flatMap { Int(exactly: $0) }, name: name, priority: nil, states: states,
            residentPages: resident,
            lifetimeMaxPages: values["lifetime_max"].flatMap { Int64(exactly: $0) }, coalition: nil, reason: reason,
            line: number)
    }
}

extension StringProtocol {
    /// The text without the characters of `set` at either end.
    fileprivate func trimmed(of set: String) -> SubSequence {
        var text = self[...]
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return text
    }
}
