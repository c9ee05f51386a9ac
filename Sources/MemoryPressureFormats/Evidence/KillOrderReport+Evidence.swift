import MemoryPressure

extension KillOrderReport {
    /// What a kill-order report built from a real report adds to each form (docs/DESIGN.md,
    /// "Kill-order report"): per entry the `pid` and `"killed":true` on the processes that died;
    /// at the top an `evidence` object with the format, the source, the real victims and their
    /// ranks, what the report does not say, and — with `--policies` — where every policy ranks
    /// the real victims.
    public struct EvidenceSection: Sendable {
        /// Where one policy ranks the real victims.
        public struct PolicyRank: Sendable, Hashable {
            /// The policy's name.
            public var policy: String
            /// The rank of each killed process, in the order of ``ReportEvidence/killed``
            /// (`nil`: the policy would not kill it, or it is not in the process list).
            public var ranks: [Int?]
            /// The policy's first choice, if any.
            public var first: AppID?

            /// A policy's ranks.
            ///
            /// - Complexity: O(1)
            public init(policy: String, ranks: [Int?], first: AppID?) {
                self.policy = policy
                self.ranks = ranks
                self.first = first
            }
        }

        /// The report.
        public var evidence: ReportEvidence
        /// The ranking policy's rank of each killed process (as `PolicyRank.ranks`).
        public var ranks: [Int?]
        /// One sentence per killed process (``EvidenceRanking/verdicts(for:)``).
        public var verdicts: [String]
        /// Every policy's ranks, with `--policies`; empty otherwise.
        public var policies: [PolicyRank]
        /// Which report of the input this is and how many there are (1 of 1 for a single one).
        public var index: Int, count: Int

        /// The section for `evidence` ranked by `ranking`.
        ///
        /// - Complexity: O(n) per killed process
        public init(evidence: ReportEvidence, ranking: EvidenceRanking?, index: Int = 1, count: Int = 1) {
            self.evidence = evidence
            self.ranks = evidence.killed.map { killed in killed.app.flatMap { ranking?.rank(of: $0) } }
            self.verdicts =
                ranking?.verdicts(for: evidence)
                ?? [
                    evidence.killed.isEmpty
                        ? "the log holds no process list and no kill: nothing to rank"
                        : "the log holds no process list to rank: its kills follow, as it states them"
                ]
            self.policies = []
            self.index = index
            self.count = count
        }

        private var killedApps: Set<AppID> { Set(evidence.killed.compactMap(\.app)) }

        /// `,"pid":N,"killed":true` for an entry, as it applies.
        ///
        /// - Complexity: O(killed processes)
        public func jsonFields(of app: AppID) -> String {
            var out = evidence.pids[app].map { ",\"pid\":\($0)" } ?? ""
            if killedApps.contains(app) { out += ",\"killed\":true" }
            if let figures = evidence.figures[app] {
                for (name, value) in zip(evidence.figureNames, figures) {
                    out += ",\"\(name)\":" + (value.map(String.init) ?? "null")
                }
            }
            return out
        }

        /// The table's columns of the killer's own figures (``ReportEvidence/figureNames``), or none.
        public var figureHeaders: [String] {
            evidence.figureNames.map { name in
                switch name {
                case "rss": "RSS"
                case "swapEntries": "SWAPENTS"
                case "pageTableBytes": "PGTABLES"
                case "oomScoreAdj": "ADJ"
                case "badnessPoints": "POINTS"
                case "oomScore": "OOM_SCORE"
                default: name.uppercased()
                }
            }
        }

        /// An entry's figures for the table, in the order of ``figureHeaders``.
        ///
        /// - Complexity: O(figures)
        public func figureCells(of app: AppID) -> [String] {
            guard !evidence.figureNames.isEmpty else { return [] }
            let figures = evidence.figures[app] ?? []
            return evidence.figureNames.indices.map { index in
                guard index < figures.count, let value = figures[index] else { return "" }
                return evidence.figureNames[index] == "pageTableBytes" ? Bytes(value).formatted : "\(value)"
            }
        }

        /// The `pid` and `killed` CSV fields of an entry.
        ///
        /// - Complexity: O(killed processes)
        public func csvFields(of app: AppID) -> [String] {
            [evidence.pids[app].map(String.init) ?? "", killedApps.contains(app) ? "true" : ""]
        }

        /// The table's EVIDENCE cell of an entry: "killed by the kernel", or nothing.
        ///
        /// - Complexity: O(killed processes)
        public func tableMark(of app: AppID) -> String {
            killedApps.contains(app) ? "killed by \(evidence.format.killer)" : ""
        }

        /// The `evidence` object.
        ///
        /// - Complexity: O(size of the section)
        public var json: String {
            var out = "{\"format\":\"\(evidence.format.rawValue)\",\"source\":\(Event.json(evidence.source)),"
            out += "\"location\":\(Event.json(evidence.location)),\"summary\":\(Event.json(evidence.summary)),"
            out += "\"killed\":["
            out += zip(evidence.killed, ranks).map { killed, rank in
                var item = "{"
                if let pid = killed.pid { item += "\"pid\":\(pid)," }
                item += "\"name\":\(Event.json(killed.name)),\"rank\":" + (rank.map(String.init) ?? "null")
                if let reason = killed.reason { item += ",\"reason\":\(Event.json(reason))" }
                if !killed.isChoice { item += ",\"choice\":false" }
                if let uid = killed.uid { item += ",\"uid\":\(uid)" }
                if let adj = killed.oomScoreAdj { item += ",\"oomScoreAdj\":\(adj)" }
                if let freed = killed.freed { item += ",\"freed\":\(freed.value)" }
                if let score = killed.score { item += ",\"score\":\(score)" }
                if let killer = killed.killer { item += ",\"killer\":\(Event.json(killer))" }
                if let time = killed.time { item += ",\"time\":\(Event.json(time))" }
                if let line = killed.line { item += ",\"line\":\(line)" }
                item += "}"
                return item
            }.joined(separator: ",")
            out += "],\"verdicts\":[" + verdicts.map(Event.json).joined(separator: ",") + "]"
            if let why = evidence.why {
                out += ",\"why\":{\"victim\":\(Event.json(why.victim.rawValue)),\"victimScore\":\(why.victimScore)"
                out += ",\"runnerUp\":\(Event.json(why.runnerUp.rawValue)),\"runnerUpScore\":\(why.runnerUpScore)"
                out += ",\"margin\":\(why.victimScore - why.runnerUpScore),\"unit\":\(Event.json(why.unit))"
                out += ",\"reversingOomScoreAdj\":" + (why.reversingOomScoreAdj.map(String.init) ?? "null")
                out += ",\"text\":\(Event.json(why.text))}"
            }
            if !evidence.figureNames.isEmpty {
                out += ",\"figures\":[" + evidence.figureNames.map(Event.json).joined(separator: ",") + "]"
            }
            out += ",\"missing\":[" + evidence.missing.map(Event.json).joined(separator: ",") + "]"
            out += ",\"notes\":[" + evidence.notes.map(Event.json).joined(separator: ",") + "]"
            if !evidence.excluded.isEmpty {
                out += ",\"excluded\":["
                out += evidence.excluded.map { "{\"app\":\(Event.json($0.app)),\"reason\":\(Event.json($0.reason))}" }
                    .joined(separator: ",")
                out += "]"
            }
            if !policies.isEmpty {
                out += ",\"policies\":["
                out += policies.map { (entry: PolicyRank) -> String in
                    let ranks: [String] = entry.ranks.map { $0.map { String($0) } ?? "null" }
                    let first: String = entry.first.map { Event.json($0.rawValue) } ?? "null"
                    return
                        "{\"policy\":\(Event.json(entry.policy)),\"ranks\":[\(ranks.joined(separator: ","))],\"first\":\(first)}"
                }.joined(separator: ",")
                out += "]"
            }
            return out + "}"
        }

        /// The lines above the table: which report, and the verdicts.
        ///
        /// - Complexity: O(size of the section)
        public var tableHeading: String {
            let name =
                switch evidence.format {
                case .linuxOOMReport: "kernel OOM report"
                case .earlyoom: "earlyoom kill"
                case .jetsamEvent: "iOS JetsamEvent report"
                case .androidMeminfo: "Android dumpsys meminfo"
                case .androidLog: "Android kill log"
                }
            var out = "\(name)" + (count > 1 ? " \(index) of \(count)" : "")
            out += ": \(evidence.source), \(evidence.location): \(evidence.summary)\n"
            out += verdicts.map { $0 + ".\n" }.joined()
            if let why = evidence.why { out += "why: \(why.text).\n" }
            return out + "\n"
        }

        /// The kills a log states, one row each, for a log with no process list to rank (most
        /// Android and earlyoom logs): when, who killed, the process, its pid, uid, adj, score,
        /// the memory freed and the reason, as the log gives them.
        ///
        /// - Complexity: O(kills)
        public var killsTable: String {
            let killed = evidence.killed
            guard !killed.isEmpty else { return "no kill in this log\n" }
            let hasTime = killed.contains { $0.time != nil }, hasScore = killed.contains { $0.score != nil }
            let hasKiller = killed.contains { $0.killer != nil }
            var rows = [
                ["#"] + (hasTime ? ["TIME"] : []) + (hasKiller ? ["KILLER"] : []) + ["PROCESS", "PID", "UID", "ADJ"]
                    + (hasScore ? ["SCORE"] : []) + ["FREED", "REASON"]
            ]
            for (index, process) in killed.enumerated() {
                var row = ["\(index + 1)"]
                if hasTime { row.append(process.time ?? "") }
                if hasKiller { row.append(process.killer ?? "") }
                row += [
                    process.name, process.pid.map(String.init) ?? "", process.uid.map(String.init) ?? "",
                    process.oomScoreAdj.map(String.init) ?? "",
                ]
                if hasScore { row.append(process.score.map(String.init) ?? "") }
                row += [process.freed?.formatted ?? "", process.reason ?? ""]
                rows.append(row)
            }
            let numeric = Set(rows[0].indices.filter { ["#", "PID", "UID", "ADJ", "FREED"].contains(rows[0][$0]) })
            return TextTable.render(rows, rightAligned: numeric)
        }

        /// The lines under the table: what the report does not say, notes, left-out processes
        /// and every policy's ranks.
        ///
        /// - Complexity: O(size of the section)
        public var tableFooter: String {
            var out = ""
            if !evidence.excluded.isEmpty {
                out += "\nnot ranked:\n"
                out += TextTable.render(
                    [["APP", "REASON"]] + evidence.excluded.map { [$0.app, $0.reason] }, rightAligned: [])
            }
            if !evidence.missing.isEmpty {
                out += "\nthe report does not say:\n" + evidence.missing.map { "- \($0)\n" }.joined()
            }
            if !evidence.notes.isEmpty { out += "\nnotes:\n" + evidence.notes.map { "- \($0)\n" }.joined() }
            if !policies.isEmpty {
                let victims = evidence.killed.map { $0.app?.rawValue ?? $0.name }
                out += "\nwhere each policy ranks what \(evidence.format.killer) killed:\n"
                var rows = [["POLICY"] + victims.map { "RANK OF \($0)" } + ["FIRST CHOICE"]]
                for entry in policies {
                    rows.append(
                        [entry.policy] + entry.ranks.map { $0.map(String.init) ?? "never" }
                            + [entry.first?.rawValue ?? "-"])
                }
                out += TextTable.render(rows, rightAligned: Set(1...max(victims.count, 1)))
            }
            return out
        }
    }
}
