import MemoryPressure
import MemoryPressureFormats

/// `kill-order --history`'s forms: a table for people, one JSON document, JSON Lines (a kill a
/// line) and CSV (a kill a row).
struct KillHistoryReport {
    var history: KillHistory
    var source: String

    /// `20 reports (19 with a process table)`, the times and the machine, for the table's head.
    private var heading: String {
        var out = "kill history: \(source): \(history.entries.count) kill\(history.entries.count == 1 ? "" : "s") in "
        out +=
            "\(history.reports) report\(history.reports == 1 ? "" : "s") (\(history.reportsWithTable) with a process table), "
        out += "\(history.lines) lines read\n"
        if let first = history.firstTime, let last = history.lastTime {
            out += "log from \(first.text) to \(last.text)"
        } else {
            out += "the log's lines carry no time"
        }
        if !history.memory.isEmpty { out += "; memory " + history.memory.map(\.formatted).joined(separator: ", ") }
        if !history.swap.isEmpty { out += "; swap " + history.swap.map(\.formatted).joined(separator: ", ") }
        if !history.memory.isEmpty || !history.swap.isEmpty { out += " (as the reports state)" }
        return out + "\n\n"
    }

    /// The table: one line per kill, then the kills per process.
    var table: String {
        var out = heading
        guard !history.entries.isEmpty else { return out + "no kill in this log\n" }
        var rows = [["TIME", "KILLER", "VICTIM", "PID", "MEMORY", "REASON", "VERDICT"]]
        for entry in history.entries {
            rows.append([
                entry.time?.text ?? "", entry.killer, entry.victim, entry.pid.map(String.init) ?? "",
                entry.memory?.formatted ?? "", entry.reason, entry.verdict,
            ])
        }
        out += TextTable.render(rows, rightAligned: [3, 4])
        out += "\nkills per process:\n"
        out += TextTable.render(
            [["KILLS", "PROCESS"]] + history.counts.map { ["\($0.count)", $0.name] }, rightAligned: [0])
        return out
    }

    /// One kill as a JSON object.
    private func json(_ entry: KillHistory.Entry) -> String {
        var out = "{\"time\":" + (entry.time.map { Event.json($0.text) } ?? "null")
        out += ",\"killer\":\(Event.json(entry.killer)),\"victim\":\(Event.json(entry.victim))"
        out += ",\"pid\":" + (entry.pid.map(String.init) ?? "null")
        out += ",\"memory\":" + (entry.memory.map { String($0.value) } ?? "null")
        out += ",\"reason\":\(Event.json(entry.reason)),\"verdict\":\(Event.json(entry.verdict))"
        out += ",\"line\":" + (entry.line.map(String.init) ?? "null") + "}"
        return out
    }

    /// The whole history as one JSON document.
    var document: String {
        var out = "{\"source\":\(Event.json(source)),\"reports\":\(history.reports)"
        out += ",\"reportsWithTable\":\(history.reportsWithTable),\"lines\":\(history.lines)"
        out += ",\"firstTime\":" + (history.firstTime.map { Event.json($0.text) } ?? "null")
        out += ",\"lastTime\":" + (history.lastTime.map { Event.json($0.text) } ?? "null")
        out += ",\"memory\":[" + history.memory.map { String($0.value) }.joined(separator: ",") + "]"
        out += ",\"swap\":[" + history.swap.map { String($0.value) }.joined(separator: ",") + "]"
        out += ",\"kills\":[" + history.entries.map(json).joined(separator: ",") + "]"
        out += ",\"counts\":["
        out += history.counts.map { "{\"name\":\(Event.json($0.name)),\"count\":\($0.count)}" }.joined(separator: ",")
        return out + "]}\n"
    }

    /// A kill a line.
    var jsonLines: String { history.entries.map { json($0) + "\n" }.joined() }

    /// A kill a row, with a header.
    var csv: String {
        var out = "time,killer,victim,pid,memory,reason,verdict,line\n"
        for entry in history.entries {
            let fields: [String] = [
                entry.time?.text ?? "", entry.killer, entry.victim, entry.pid.map(String.init) ?? "",
                entry.memory.map { String($0.value) } ?? "", entry.reason, entry.verdict,
                entry.line.map(String.init) ?? "",
            ]
            out += fields.map(KillOrderReport.csvField).joined(separator: ",") + "\n"
        }
        return out
    }
}
