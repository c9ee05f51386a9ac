import MemoryPressure

/// Reads an iOS JetsamEvent report (``JetsamEventReport``) in either form: a one-line JSON header
/// followed by the JSON body, or a single JSON document. Keys the report may hold and the reader
/// does not need are ignored; a key it needs with the wrong type is an error naming its line,
/// column and path.
public enum JetsamEventReportParser {
    /// The most processes one report may list: 100,000 (a device runs a few hundred).
    public static let maximumProcesses = 100_000

    /// Whether `line` (the first non-empty line of an input) starts a JetsamEvent report: a JSON
    /// header or document with `bug_type` 298, or a body's `memoryStatus`.
    ///
    /// - Complexity: O(length of `line`)
    public static func startsReport<S: StringProtocol>(_ line: S) -> Bool {
        startsReport(Array(line.utf8))
    }

    /// ``startsReport(_:)`` on the UTF-8 bytes of a line.
    static func startsReport(_ line: [UInt8]) -> Bool {
        let compact = line.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        return UTF8Search.contains(compact, "\"bug_type\":\"298\"") || UTF8Search.contains(compact, "\"bug_type\":298")
            || UTF8Search.contains(compact, "\"memoryStatus\":") || UTF8Search.contains(compact, "\"rpages\":")
            || UTF8Search.contains(compact, "\"bug_type\":") && UTF8Search.contains(compact, "\"os_version\":")
            || startsTextReport(line)
    }

    /// The report `text` holds; `file` names it in errors.
    ///
    /// - Throws: `InputError` with the line, column and path of the first problem: a JSON syntax
    ///   error, a header that is not followed by a body, a missing `processes` list, or a field
    ///   of the wrong type.
    /// - Complexity: O(length of `text`)
    public static func report(in text: String, file: String) throws(InputError) -> JetsamEventReport {
        var body = Substring(text)
        var header: ConfigObject?
        var form = JetsamEventReport.Form.singleDocument
        var bodyLine = 1
        // The header is the first line when that line is a whole JSON object and more follows.
        let start = body.firstIndex { !$0.isWhitespace } ?? body.endIndex
        bodyLine += body[..<start].filter(\.isNewline).count
        body = body[start...]
        if let newline = body.firstIndex(where: \.isNewline) {
            let first = body[..<newline]
            let rest = body[body.index(after: newline)...]
            if rest.contains(where: { !$0.isWhitespace }), let node = try? JSONParser.parse(first, firstLine: bodyLine),
                case .object = node.value
            {
                header = try ConfigObject(node, file: file)
                form = .headerAndBody
                body = rest
                bodyLine += 1
            }
        }
        if let node = header?.optional("bug_type"), case .string(let type) = node.value, type != "298", type != "198" {
            throw InputError(
                file: file, line: node.line, column: node.column, path: "bug_type",
                message: "expected a JetsamEvent report (bug_type 298, or 198 for iOS 8's Low Memory report), "
                    + "found bug_type \(type.quotedExcerpt())" + (type == "211" ? " (a daily analytics log)" : ""))
        }
        // The plain-text form of iOS 5–8, alone or after a JSON header (bug_type 198).
        if let first = body.first(where: { !$0.isWhitespace }), first != "{", first != "[", first != "\"",
            body.contains("Largest process:") || body.contains("Processes")
        {
            return try textReport(in: body, firstLine: bodyLine, header: header, file: file)
        }
        let document: ConfigNode
        var repairs = (elided: 0, closed: 0)
        do throws(JSONSyntaxError) {
            document = try JSONParser.parse(body, firstLine: bodyLine)
        } catch {
            // A report a publisher damaged: elided entries, a trailing comma, a cut end, a header
            // line cut at its start, or only some process entries. Each repair is said.
            var found: ConfigNode?
            let withoutFirstLine = body.firstIndex(of: "\n").map { body[body.index(after: $0)...] }
            let attempts: [(prefix: String, text: Substring, line: Int)] =
                [("", body, bodyLine)] + (withoutFirstLine.map { [("", $0, bodyLine + 1)] } ?? [])
                + [("[", body, bodyLine), ("[{", body, bodyLine)]
            for attempt in attempts {
                let fixed = repaired((attempt.prefix + attempt.text)[...])
                if let node = try? JSONParser.parse(fixed.text[...], firstLine: attempt.line) {
                    found = node
                    repairs = (fixed.elided, fixed.closed)
                    break
                }
            }
            guard let found else {
                throw InputError(
                    file: file, line: error.line, column: error.column, path: "",
                    message: error.message
                        + " (a JetsamEvent report is JSON: a header line and a body, or one document)")
            }
            document = found
        }
        var parsed: JetsamEventReport
        switch document.value {
        case .array(let entries):
            parsed = try entriesReport(entries, file: file)
        case .object where (try? ConfigObject(document, file: file))?.optional("rpages") != nil:
            parsed = try entriesReport([document], file: file)
        default:
            parsed = try report(
                root: try ConfigObject(document, file: file), header: header, form: form, file: file,
                cutShort: repairs.closed > 0)
        }
        parsed.elidedLines = repairs.elided
        parsed.closedBrackets = repairs.closed
        return parsed
    }

    /// A report of process entries alone (a lone victim's entry, or a window of a `processes`
    /// list): every whole entry, the cut ones counted.
    private static func entriesReport(_ entries: [ConfigNode], file: String) throws(InputError) -> JetsamEventReport {
        var report = JetsamEventReport(
            form: .processEntries, bugType: nil, osVersion: nil, product: nil, date: nil, pageSize: nil,
            memoryPages: [:], compressorPages: nil, largestProcess: nil, processes: [])
        for (index, node) in entries.enumerated() {
            guard let entry = try? ConfigObject(node, file: file, path: "[\(index)]") else {
                report.partialEntries += 1
                continue
            }
            if let process = try? process(entry) {
                report.processes.append(process)
                continue
            }
            report.partialEntries += 1
            // An entry the window cut still names a kill when its name and reason survive.
            if let name = entry.optional("name"), case .string(let text) = name.value, AppID.problem(with: text) == nil,
                let reason = entry.optional("reason"), case .string(let why) = reason.value
            {
                let pid = (try? entry.optionalInt("pid", in: 0...Int(Int32.max))) ?? nil
                report.processes.append(
                    JetsamEventReport.Process(
                        pid: pid, name: text, priority: nil, states: [], residentPages: 0, lifetimeMaxPages: nil,
                        coalition: nil, reason: why, line: node.line))
            }
        }
        return report
    }

    /// One entry of `processes`.
    private static func process(_ entry: ConfigObject) throws(InputError) -> JetsamEventReport.Process {
        guard let nameNode = entry.optional("name"), case .string(let name) = nameNode.value else {
            throw entry.error("expected a key \"name\": the process's name")
        }
        if let problem = AppID.problem(with: name) { throw entry.error(problem) }
        var states: [String] = []
        if let list = try entry.optionalStringList("states") { states = list }
        let resident = try entry.optionalInt("rpages", in: 0...(1 << 40)).map(Int64.init)
        guard let resident else {
            throw entry.error("expected a key \"rpages\": the resident pages of the process")
        }
        var reason: String?
        if let node = entry.optional("reason") {
            guard case .string(let text) = node.value else {
                throw entry.error(at: node, key: "reason", "expected a string, found \(node.kindDescription)")
            }
            reason = text
        }
        return JetsamEventReport.Process(
            pid: try entry.optionalInt("pid", in: 0...Int(Int32.max)), name: name,
            priority: try entry.optionalInt("priority", in: -1000...1000), states: states, residentPages: resident,
            lifetimeMaxPages: try entry.optionalInt("lifetimeMax", in: 0...(1 << 40)).map(Int64.init),
            coalition: try entry.optionalInt("coalition", in: Int(Int32.min)...Int(Int64.max)), reason: reason,
            line: entry.node.line)
    }

    private static func report(
        root: ConfigObject, header: ConfigObject?, form: JetsamEventReport.Form, file: String, cutShort: Bool = false
    ) throws(InputError) -> JetsamEventReport {
        func string(_ object: ConfigObject?, _ key: String) throws(InputError) -> String? {
            guard let object, let node = object.optional(key) else { return nil }
            switch node.value {
            case .string(let text): return text
            case .number(_, let text): return text
            default: throw object.error(at: node, key: key, "expected a string, found \(node.kindDescription)")
            }
        }
        /// The first of `keys` present, each in its object.
        func first(_ keys: [(ConfigObject?, String)]) throws(InputError) -> String? {
            for (object, key) in keys {
                if let text = try string(object, key) { return text }
            }
            return nil
        }
        let bugType = try first([(header, "bug_type"), (root, "bug_type")])
        if let bugType, bugType != "298" {
            throw InputError(
                file: file, line: 1, column: 1, path: "bug_type",
                message: "expected a JetsamEvent report (bug_type 298), found bug_type \(bugType.quotedExcerpt())")
        }
        let status = try root.optionalObject("memoryStatus")
        var pageSize = try status?.optionalInt("pageSize", in: 512...(1 << 24)).map(Int64.init)
        if pageSize == nil { pageSize = try root.optionalInt("pageSize", in: 512...(1 << 24)).map(Int64.init) }
        var memoryPages: [String: Int64] = [:]
        if let pages = try status?.optionalObject("memoryPages") {
            for key in pages.keys {
                if let count = try pages.optionalInt(key, in: 0...(1 << 40)) { memoryPages[key] = Int64(count) }
            }
        }
        let compressor = try status?.optionalInt("compressorSize", in: 0...(1 << 40)).map(Int64.init)
        // A report cut before its list holds no process: it is read for what it says.
        guard let list = try root.optionalList("processes") ?? (cutShort ? [] : nil) else {
            throw root.error("expected a key \"processes\": the list of processes a JetsamEvent report holds")
        }
        guard list.count <= maximumProcesses else {
            throw root.error("expected at most \(maximumProcesses) processes, found \(list.count)")
        }
        var processes: [JetsamEventReport.Process] = []
        processes.reserveCapacity(list.count)
        for (path, node) in list {
            processes.append(try process(try ConfigObject(node, file: file, path: path)))
        }
        return JetsamEventReport(
            form: form, bugType: bugType,
            osVersion: try first([(header, "os_version"), (root, "os_version"), (root, "build")]),
            product: try first([(root, "product"), (root, "modelCode")]),
            date: try first([(root, "date"), (header, "timestamp"), (root, "timestamp")]),
            pageSize: pageSize, memoryPages: memoryPages, compressorPages: compressor,
            largestProcess: try string(root, "largestProcess"), processes: processes)
    }
}
