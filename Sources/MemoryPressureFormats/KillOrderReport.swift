import MemoryPressure

/// The kill-order report of docs/DESIGN.md ("Kill-order report") in its three forms: the JSON
/// contract (``json``), CSV (``csv``) and an aligned table for people (``table``).
public struct KillOrderReport {
    /// The policy's name.
    public var policy: String
    /// The device ranked.
    public var device: Device
    /// Its free memory.
    public var free: Bytes
    /// The pressure level that free memory means under the policy.
    public var level: PressureLevel
    /// The victims, in kill order (`PressureEngine.killOrder(limit:)`).
    public var order: [KillCandidate]
    /// The apps the policy never kills, with the reason (`PressureEngine.protectedApps()`).
    public var protected: [(app: AppID, reason: String)]
    /// Whether each row also shows the key that ordered it.
    public var explain: Bool
    /// Processes left out of the ranking, with the reason (`--live`: this tool's own process).
    public var excluded: [(app: String, reason: String)] = []
    /// Notes printed under the table (`--live`: the PSI reading against lmkd's triggers).
    public var notes: [String] = []
    /// The real report the ranking was rebuilt from, or `nil` for a snapshot (see
    /// KillOrderReport+Evidence.swift for what it adds to each form).
    public var evidence: EvidenceSection?

    /// A report; ``excluded`` and ``notes`` start empty.
    ///
    /// - Complexity: O(1)
    public init(
        policy: String, device: Device, free: Bytes, level: PressureLevel, order: [KillCandidate],
        protected: [(app: AppID, reason: String)], explain: Bool
    ) {
        self.policy = policy
        self.device = device
        self.free = free
        self.level = level
        self.order = order
        self.protected = protected
        self.explain = explain
    }

    /// The contract's JSON, on one line, keys in the contract's order.
    ///
    /// - Complexity: O(size of the report)
    public var json: String {
        var out = "{\"policy\":\(Event.json(policy)),\"device\":{\"memory\":\(device.memory.value),"
        out += "\"free\":\(free.value),\"level\":\"\(level.name)\"},\"order\":["
        out += order.map { row in
            var item =
                "{\"rank\":\(row.rank),\"app\":\(Event.json(row.app.rawValue)),\"state\":\"\(row.state.rawValue)\","
            item += "\"band\":\(Event.json(row.band)),\"footprint\":\(row.footprint.value),"
            item += "\"notice\":\"\(row.notice.rawValue)\",\"reason\":\(Event.json(row.reason))"
            if explain { item += ",\"key\":\"\(Self.hex(row.key))\"" }
            if let evidence { item += evidence.jsonFields(of: row.app) }
            return item + "}"
        }.joined(separator: ",")
        out += "],\"protected\":["
        out += protected.map { "{\"app\":\(Event.json($0.app.rawValue)),\"reason\":\(Event.json($0.reason))}" }
            .joined(separator: ",")
        out += "]"
        // Only in live reports, so snapshot reports keep the contract's keys exactly.
        if !excluded.isEmpty {
            out += ",\"excluded\":["
            out += excluded.map { "{\"app\":\(Event.json($0.app)),\"reason\":\(Event.json($0.reason))}" }
                .joined(separator: ",")
            out += "]"
        }
        if let evidence { out += ",\"evidence\":" + evidence.json }
        return out + "}\n"
    }

    /// CSV with a header row; footprints in bytes; protected apps follow with an empty rank. On a
    /// real report every row starts with the report's number in its file (`report`, from 1) and
    /// ends with the process's `pid` and whether the report says it was `killed`, so the rows of
    /// a log's reports can follow one header (``csvRows``).
    ///
    /// - Complexity: O(size of the report)
    public var csv: String {
        var out = evidence == nil ? "" : "report,"
        out += "rank,app,state,band,footprint,notice,reason" + (explain ? ",key" : "")
        out += (evidence == nil ? "" : ",pid,killed") + "\n"
        return out + csvRows
    }

    /// ``csv`` without its header row.
    ///
    /// - Complexity: O(size of the report)
    public var csvRows: String {
        var out = ""
        let report = evidence.map { ["\($0.index)"] } ?? []
        for row in order {
            var fields =
                report + [
                    "\(row.rank)", row.app.rawValue, row.state.rawValue, row.band, "\(row.footprint.value)",
                    row.notice.rawValue, row.reason,
                ]
            if explain { fields.append(Self.hex(row.key)) }
            if let evidence { fields += evidence.csvFields(of: row.app) }
            out += fields.map(Self.csvField).joined(separator: ",") + "\n"
        }
        for entry in protected {
            var fields = report + ["", entry.app.rawValue, "", "protected", "", "", entry.reason]
            if explain { fields.append("") }
            if let evidence { fields += evidence.csvFields(of: entry.app) }
            out += fields.map(Self.csvField).joined(separator: ",") + "\n"
        }
        return out
    }

    /// An aligned table for people, with human-readable sizes.
    ///
    /// - Complexity: O(size of the report)
    public var table: String {
        var out = evidence?.tableHeading ?? ""
        if let evidence, evidence.evidence.snapshot == nil {
            // A log of kills without a process list: its kills, not an empty ranking.
            return out + evidence.killsTable + evidence.tableFooter
        }
        out += "policy \(policy): memory \(device.memory.formatted), reserved \(device.reserved.formatted), "
        out += "free \(free.formatted), level \(level.name)\n\n"
        var rows = [
            ["RANK", "APP", "STATE", "BAND", "FOOTPRINT", "NOTICE", "REASON"] + (explain ? ["KEY"] : [])
                + (evidence?.figureHeaders ?? []) + (evidence == nil ? [] : ["EVIDENCE"])
        ]
        for row in order {
            rows.append(
                [
                    "\(row.rank)", row.app.rawValue, row.state.rawValue, row.band, row.footprint.formatted,
                    row.notice.rawValue, row.reason,
                ] + (explain ? [Self.hex(row.key)] : []) + (evidence?.figureCells(of: row.app) ?? [])
                    + (evidence.map { [$0.tableMark(of: row.app)] } ?? []))
        }
        let figureColumns = evidence?.figureHeaders.count ?? 0
        let firstFigure = 7 + (explain ? 1 : 0)
        out += TextTable.render(rows, rightAligned: Set([0, 4]).union(firstFigure..<firstFigure + figureColumns))
        if order.isEmpty { out += "(no app can be killed under this policy)\n" }
        if !protected.isEmpty {
            out += "\nprotected:\n"
            out += TextTable.render(
                [["APP", "REASON"]] + protected.map { [$0.app.rawValue, $0.reason] }, rightAligned: [])
        }
        if !excluded.isEmpty {
            out += "\nnot ranked:\n"
            out += TextTable.render([["APP", "REASON"]] + excluded.map { [$0.app, $0.reason] }, rightAligned: [])
        }
        if !notes.isEmpty { out += "\n" + notes.map { $0 + "\n" }.joined() }
        if let evidence { out += evidence.tableFooter }
        return out
    }

    /// A packed kill-queue key as 16 hex digits, `0x…`.
    ///
    /// - Complexity: O(1)
    public static func hex(_ key: UInt64) -> String {
        let digits = String(key, radix: 16)
        return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
    /// Control characters (from live process names) are escaped as `\u{1B}` first.
    ///
    /// - Complexity: O(length of `raw`)
    public static func csvField(_ raw: String) -> String {
        let text = raw.escapingControlCharacters()
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        var quoted = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            quoted.append(scalar)
            if scalar == "\"" { quoted.append(scalar) }
        }
        return "\"" + String(quoted) + "\""
    }
}
