import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// Kernel generations and damaged copies. evidence/public/linux/019-shared-stable-5.4-backport.log is
// REAL (a production Kubernetes pod, every task at oom_score_adj -998, on a kernel before 5.9: the
// kernel killed `pause`, 1 page, because oom_badness() clamped every negative score to 1 and the
// first task scanned won). The 5.10 report and the small report below are NOT real: they are
// constructed from mm/oom_kill.c's printk formats (dump_header(), dump_tasks(),
// __oom_kill_process()) to show what a 5.9+ kernel does with the same table and to damage one
// report in every way a mail, a blog or a console damages them.

private let backportPath = "evidence/public/linux/019-shared-stable-5.4-backport.log"

private func reports(_ text: String) throws(InputError) -> [KernelOOMReport] {
    try KernelOOMReportParser.reports(in: text, file: "test.log")
}

/// A task's `oom_badness()` by hand: rss + swapents + pgtables_bytes / 4096 + adj × (totalpages / 1000).
private func points(_ task: KernelOOMReport.Task, totalPages: Int64) -> Int64 {
    task.residentPages + (task.swapEntries ?? 0) + (task.pageTableBytes ?? 0) / 4096
        + Int64(task.oomScoreAdj ?? 0) * (totalPages / 1000)
}

/// The reversing oom_score_adj by hand: the largest adj below the victim's (and above -1000) at
/// which its points fall below the runner-up's, found by trying each adj in turn.
private func reversingAdj(_ victim: KernelOOMReport.Task, runnerUpPoints: Int64, totalPages: Int64) -> Int? {
    let adj = victim.oomScoreAdj ?? 0
    let base = points(victim, totalPages: totalPages) - Int64(adj) * (totalPages / 1000)
    guard adj > -999 else { return nil }
    for candidate in stride(from: adj - 1, through: -999, by: -1)
    where base + Int64(candidate) * (totalPages / 1000) < runnerUpPoints {
        return candidate
    }
    return nil
}

/// The 019 table under a 5.10 kernel's lines (constructed): the release stated, the victim line
/// of 5.x with `pgtables` and `oom_score_adj`, the victim data_sim (as a 5.9+ kernel chooses).
private func constructed510(adjusting adjustments: [String: Int] = [:]) throws -> String {
    let real = try String(contentsOfFile: PackagePaths.path(backportPath), encoding: .utf8)
    var lines = real.components(separatedBy: "\n").filter {
        !$0.contains("oom-kill:") && !$0.contains("Killed process") && !$0.contains("oom_reaper") && !$0.isEmpty
    }
    for (name, adj) in adjustments {
        let index = try #require(lines.firstIndex { $0.hasSuffix(" \(name)") })
        lines[index] = lines[index].replacingOccurrences(
            of: "          -998 \(name)", with: String(format: "%14d", adj) + " \(name)")
    }
    let victimAdj = adjustments["data_sim"] ?? -998
    return
        ([
            "[7516987.983200] data_sim invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=\(victimAdj)",
            "[7516987.983201] CPU: 7 PID: 58406 Comm: data_sim Not tainted 5.10.0-8-amd64 #1 Debian 5.10.46-4",
        ] + lines + [
            "[7516987.984221] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=3aa16c,mems_allowed=0-1,"
                + "oom_memcg=/kubepods/podf1c273d3,task_memcg=/kubepods/podf1c273d3/1f246a,task=data_sim,pid=58406,uid=1000",
            "[7516987.984254] Memory cgroup out of memory: Killed process 58406 (data_sim) total-vm:73142336kB, "
                + "anon-rss:15869288kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:36232kB oom_score_adj:\(victimAdj)",
        ]).joined(separator: "\n") + "\n"
}

/// A small 5.10 memory-cgroup report (constructed), to be damaged: totalpages 65536, so each unit
/// of oom_score_adj weighs 65 pages; medium (adj 500) dies with 47540 points against big's 30071.
private let small = [
    "[  386.360000] grower invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0",
    "[  386.360001] CPU: 1 PID: 985 Comm: grower Not tainted 5.10.0-21-amd64 #1 Debian 5.10.162-1",
    "[  386.360002] memory: usage 262144kB, limit 262144kB, failcnt 72",
    "[  386.360003] memory+swap: usage 262144kB, limit 9007199254740988kB, failcnt 0",
    "[  386.360004] Tasks state (memory values in pages):",
    "[  386.360005] [  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name",
    "[  386.360006] [    983]     0   983    40000    30000   290816        0             0 big",
    "[  386.360007] [    984]     0   984    20000    15000   163840        0           500 medium",
    "[  386.360008] [    985]     0   985    10000     8000    98304        0             0 grower",
    "[  386.360009] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/t,"
        + "task_memcg=/t,task=medium,pid=984,uid=0",
    "[  386.360010] Memory cgroup out of memory: Killed process 984 (medium) total-vm:80000kB, anon-rss:60000kB, "
        + "file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:160kB oom_score_adj:500",
]

@Suite("Kernel generations, figures and damaged reports")
struct KernelGenerationTests {
    // MARK: - Generations

    @Test(
        "Before 5.9 (019, real): every task at -998 clamps to 1, and linux-oom ranks pause[5740], the first scanned, first"
    )
    func clampBefore59() throws {
        let text = try String(contentsOfFile: PackagePaths.path(backportPath), encoding: .utf8)
        let report = try #require(try reports(text).first)
        #expect(report.kernelRelease == nil)
        #expect(report.isBefore59 == true, "the kill line without pgtables and oom_score_adj is of a kernel before 5.4")
        #expect(report.tasks.count == 21 && report.tasks.allSatisfy { $0.oomScoreAdj == -998 })
        let evidence = report.evidence(source: backportPath)
        #expect(evidence.killed.map(\.app) == [AppID("pause[5740]")])
        let ranking = try #require(try EvidenceRanking(evidence, policy: try Policy.shipped("linux-oom")))
        #expect(ranking.order.first?.app == AppID("pause[5740]"))
        #expect(ranking.rank(of: AppID("pause[5740]")) == 1)
        // Ties in the order the kernel scanned them.
        #expect(
            ranking.order.map(\.app).prefix(3) == [
                AppID("pause[5740]"), AppID("entry_point.bas[58804]"), AppID("cron[58908]"),
            ])
        #expect(ranking.order.first?.reason.contains("clamped to 1 before Linux 5.9") == true)
        let why = try #require(evidence.why)
        #expect(why.victim == AppID("pause[5740]") && why.victimScore == 1 && why.runnerUpScore == 1)
        #expect(why.runnerUp == AppID("entry_point.bas[58804]"))
        #expect(why.text.contains("tied"), "\(why.text)")
        #expect(why.reversingOomScoreAdj == nil)
        #expect(evidence.notes.contains { $0.contains("clamped a badness of 0 or less to 1") }, "\(evidence.notes)")
    }

    @Test("The same table under 5.10 (constructed): no clamp, data_sim first")
    func sameTableAfter59() throws {
        let report = try #require(try reports(try constructed510()).first)
        #expect(report.kernelVersion == [5, 10, 0])
        #expect(report.isBefore59 == false)
        #expect(report.derivedPageSize == 4096)
        let evidence = report.evidence(source: "constructed-5.10.log")
        #expect(evidence.generationOrder == nil)
        #expect(evidence.killed.map(\.app) == [AppID("data_sim[58406]")])
        let ranking = try #require(try EvidenceRanking(evidence, policy: try Policy.shipped("linux-oom")))
        #expect(ranking.order.first?.app == AppID("data_sim[58406]"))
        #expect(ranking.rank(of: AppID("pause[5740]")) != 1)
        let why = try #require(evidence.why)
        #expect(!why.text.contains("tied"))
    }

    @Test("why: the margin and the reversing oom_score_adj agree with a hand computation")
    func whyByHand() throws {
        let cases: [(String, String)] = [
            ("5.10, all at -998", try constructed510()),
            (
                "5.10, data_sim and odin-log-agent at 0",
                try constructed510(adjusting: ["data_sim": 0, "odin-log-agent": 0])
            ),
            ("small", small.joined(separator: "\n")),
        ]
        var reversings: [Int?] = []
        for (name, text) in cases {
            let report = try #require(try reports(text).first, "\(name)")
            let totalPages = try #require(report.cgroupLimit).value / 4096
            let victim = try #require(report.victimTask, "\(name)")
            let others = report.tasks.filter { $0.pid != victim.pid && $0.oomScoreAdj != -1000 }
            let runnerUp = try #require(
                others.max { points($0, totalPages: totalPages) < points($1, totalPages: totalPages) })
            let victimPoints = points(victim, totalPages: totalPages)
            let runnerUpPoints = points(runnerUp, totalPages: totalPages)
            let why = try #require(report.evidence(source: name).why, "\(name)")
            #expect(why.victimScore == victimPoints, "\(name)")
            #expect(why.runnerUpScore == runnerUpPoints, "\(name)")
            #expect(why.runnerUp == AppID("\(runnerUp.name)[\(runnerUp.pid)]"), "\(name)")
            #expect(why.text.contains("margin \(victimPoints - runnerUpPoints) pages"), "\(name): \(why.text)")
            let expected = reversingAdj(victim, runnerUpPoints: runnerUpPoints, totalPages: totalPages)
            #expect(why.reversingOomScoreAdj == expected, "\(name)")
            reversings.append(why.reversingOomScoreAdj)
        }
        // The hand computation, done once more on paper: at -998 none reverses (it would take
        // adj -1931); with data_sim at 0 against odin-log-agent's 64428 points, -933
        // (3976380 - 933 × 4194 = 63378 < 64428 ≤ 3976380 - 932 × 4194); small: 231
        // (15040 + 231 × 65 = 30055 < 30071).
        #expect(reversings == [nil, -933, 231])
    }

    // MARK: - Figures

    @Test("Every entry of evidence.figures holds the six figures in figureNames' order")
    func figures() throws {
        let sources: [(String, String, Bool)] = [
            (backportPath, try String(contentsOfFile: PackagePaths.path(backportPath), encoding: .utf8), true),
            ("constructed-5.10", try constructed510(), false),
            ("small", small.joined(separator: "\n"), false),
        ]
        for (name, text, clamps) in sources {
            let report = try #require(try reports(text).first)
            let evidence = report.evidence(source: name)
            #expect(
                evidence.figureNames == [
                    "rss", "swapEntries", "pageTableBytes", "oomScoreAdj", "badnessPoints", "oomScore",
                ])
            #expect(evidence.figures.count == report.tasks.count, "\(name)")
            // totalpages as the rebuilt machine has it, which is the cgroup's limit (019 states it
            // before the report's first line it keeps: see cgroupLimitBeforeTheTable).
            let snapshot = try #require(evidence.snapshot)
            let totalPages = (snapshot.device.memory + snapshot.device.swap).value / 4096
            #expect(report.cgroupLimit.map { $0.value / 4096 } == totalPages, "\(name)")
            for task in report.tasks {
                let id = AppID("\(task.name)[\(task.pid)]")
                let figures = try #require(evidence.figures[id], "\(name): \(id)")
                #expect(figures.count == 6)
                let raw = points(task, totalPages: totalPages)
                let badness = clamps ? max(raw, 1) : raw
                let oomScore = clamps ? badness * 1000 / totalPages : (1000 + badness * 1000 / totalPages) * 2 / 3
                #expect(
                    figures == [
                        task.residentPages, task.swapEntries ?? 0, task.pageTableBytes, Int64(task.oomScoreAdj ?? 0),
                        badness, oomScore,
                    ], "\(name): \(id)")
            }
        }
    }

    /// 019 as posted: `memory: usage 16777216kB, limit 16777216kB` and `memory+swap: …` open the
    /// excerpt, then `[...]` (the poster's elision of the invoked line and the call trace), then the
    /// task table. The limit lines are the report's own (mem_cgroup_print_oom_meminfo()), so the
    /// cgroup's limit is known: totalpages is 4194304, not the tasks' own total.
    @Test("019: the memory cgroup's limit stated before the elided header is the report's")
    func cgroupLimitBeforeTheTable() throws {
        let text = try String(contentsOfFile: PackagePaths.path(backportPath), encoding: .utf8)
        let report = try #require(try reports(text).first)
        #expect(report.cgroupLimit == .kibibytes(16_777_216), "firstLine \(report.firstLine)")
        let evidence = report.evidence(source: backportPath)
        #expect(evidence.snapshot?.device.memory == .kibibytes(16_777_216))
        #expect(!evidence.missing.contains { $0.hasPrefix("the memory totals") }, "\(evidence.missing)")
    }

    // kill-order's JSON of these figures is checked with the CLI's tests
    // (KernelGenerationFiguresCommandTests in Tests/MempressureCLITests/KillOrderAndroidCommandTests.swift).

    // MARK: - Damaged reports

    /// What every damaged copy of ``small`` must still give.
    private func expectSmall(_ text: String, _ damage: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> KernelOOMReport
    {
        let parsed = try reports(text)
        #expect(parsed.count == 1, "\(damage): \(parsed.count) reports", sourceLocation: sourceLocation)
        let report = try #require(parsed.first, "\(damage)", sourceLocation: sourceLocation)
        #expect(
            report.columns == [
                "uid", "tgid", "total_vm", "rss", "pgtables_bytes", "swapents", "oom_score_adj", "name",
            ],
            "\(damage)", sourceLocation: sourceLocation)
        #expect(report.tasks.map(\.pid) == [983, 984, 985], "\(damage)", sourceLocation: sourceLocation)
        #expect(report.tasks.map(\.name) == ["big", "medium", "grower"], "\(damage)", sourceLocation: sourceLocation)
        #expect(report.tasks.map(\.residentPages) == [30000, 15000, 8000], "\(damage)", sourceLocation: sourceLocation)
        #expect(report.tasks.map(\.oomScoreAdj) == [0, 500, 0], "\(damage)", sourceLocation: sourceLocation)
        #expect(
            report.victim?.pid == 984 && report.victim?.name == "medium", "\(damage)", sourceLocation: sourceLocation)
        #expect(
            report.constraint == .memoryCgroup && report.oomMemoryCgroup == "/t", "\(damage)",
            sourceLocation: sourceLocation)
        #expect(report.kernelRelease == "5.10.0-21-amd64", "\(damage)", sourceLocation: sourceLocation)
        #expect(report.cgroupLimit == .kibibytes(262_144), "\(damage)", sourceLocation: sourceLocation)
        let evidence = report.evidence(source: damage)
        let ranking = try #require(try EvidenceRanking(evidence, policy: try Policy.shipped("linux-oom")))
        #expect(ranking.rank(of: AppID("medium[984]")) == 1, "\(damage)", sourceLocation: sourceLocation)
        return report
    }

    @Test("The undamaged report")
    func undamaged() throws {
        let report = try expectSmall(small.joined(separator: "\n"), "undamaged")
        #expect(report.interleavedLines == 0 && report.joinedRows == 0)
    }

    @Test("Quoted-printable: =3D for '=', soft line breaks ending in '=' (mid-token too)")
    func quotedPrintable() throws {
        var lines = small.map { $0.replacingOccurrences(of: "=", with: "=3D") }
        // Soft breaks: the oom-kill line cut mid-word, a task row cut mid-number, the kill line cut at a blank.
        let oomKill = try #require(lines.firstIndex { $0.contains("oom-kill:") })
        let cut = lines[oomKill].range(of: "cpuset")!.lowerBound
        let row = try #require(lines.firstIndex { $0.hasSuffix(" big") })
        let rowCut = lines[row].range(of: "30000")!.lowerBound
        let killed = try #require(lines.firstIndex { $0.contains("Killed process") })
        let killCut = lines[killed].range(of: " anon-rss")!.lowerBound
        var damaged: [String] = []
        for (index, line) in lines.enumerated() {
            let at = index == oomKill ? cut : index == row ? rowCut : index == killed ? killCut : nil
            if let at {
                let half = line.index(at, offsetBy: 3)
                damaged += [String(line[..<half]) + "=", String(line[half...])]
            } else {
                damaged.append(line)
            }
        }
        lines = damaged
        let report = try expectSmall(lines.joined(separator: "\n"), "quoted-printable")
        #expect(report.tasks.first?.residentPages == 30000)
        #expect(report.victim?.anonymousKiB == 60000)
    }

    @Test("A header wrapped over two lines, cut inside a word and at a blank")
    func wrappedHeader() throws {
        let header = try #require(small.firstIndex { $0.contains("[  pid  ]") })
        for (first, second) in [
            ("[  386.360005] [  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_ad", "j name"),
            ("[  386.360005] [  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents", "oom_score_adj name"),
            ("[  386.360005] [  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents ", "oom_score_adj name"),
        ] {
            var lines = small
            lines.replaceSubrange(header...header, with: [first, second])
            _ = try expectSmall(lines.joined(separator: "\n"), "header cut: '\(first.suffix(12))' / '\(second)'")
        }
    }

    @Test("A task row wrapped over two lines is joined (joinedRows == 1)")
    func wrappedRow() throws {
        let row = try #require(small.firstIndex { $0.hasSuffix(" medium") })
        for (first, second) in [
            ("[  386.360007] [    984]     0   984    20000    15000   163840        0", "          500 medium"),
            ("[  386.360007] [    984]     0   984    20000    15000   163840        0           500", "medium"),
        ] {
            var lines = small
            lines.replaceSubrange(row...row, with: [first, second])
            let report = try expectSmall(lines.joined(separator: "\n"), "row cut before '\(second)'")
            #expect(report.joinedRows == 1)
            #expect(report.interleavedLines == 0)
        }
    }

    @Test("/dev/kmsg records: 'PRIORITY,SEQ,USEC,-,caller=T1;' before each message")
    func kmsgRecords() throws {
        let lines = small.enumerated().map { index, line in
            "6,\(1234 + index),\(5_678_000 + index),-,caller=T\(985);" + line.drop { $0 != "]" }.dropFirst(2)
        }
        _ = try expectSmall(lines.joined(separator: "\n"), "/dev/kmsg")
    }

    @Test("No-break spaces (U+00A0) for every blank, as a web page's copy has them")
    func noBreakSpaces() throws {
        let lines = small.map { $0.replacingOccurrences(of: " ", with: "\u{A0}") }
        _ = try expectSmall(lines.joined(separator: "\n"), "no-break spaces")
    }

    @Test("A mail's '> ' and '>> ' quotes")
    func mailQuotes() throws {
        _ = try expectSmall(small.map { "> " + $0 }.joined(separator: "\n"), "quoted")
        _ = try expectSmall(small.map { ">> " + $0 }.joined(separator: "\n"), "quoted twice")
    }

    @Test(
        "systemd's '[  OK  ] Started …' inside the table is skipped and counted; '[  OK    386.369228][  T709] [ pid ] …' is a row"
    )
    func systemdOnTheConsole() throws {
        var lines = small
        let row = try #require(lines.firstIndex { $0.hasSuffix(" medium") })
        lines.insert("[  OK  ] Started Session 3 of user root.", at: row)
        let grower = try #require(lines.firstIndex { $0.hasSuffix(" grower") })
        lines[grower] =
            "[  OK    386.369228][  T709] [    985]     0   985    10000     8000    98304        0             0 grower"
        let report = try expectSmall(lines.joined(separator: "\n"), "systemd on the console")
        #expect(report.interleavedLines == 1)
        #expect(
            report.skippedRows.count == 1 && report.skippedRows.first?.hasPrefix("line \(row + 1):") == true,
            "\(report.skippedRows)")
        let notes = report.evidence(source: "console").notes
        #expect(notes.contains { $0.hasPrefix("1 line(s) of other messages inside the report") }, "\(notes)")
    }

    @Test("Every damage at once, in a seeded random mix, still reads the same report")
    func damagesCombined() throws {
        try withEvery("seed", in: UInt64(0)..<100) { seed in
            var random = SplitMix64(seed: seed)
            let quote = ["", "> ", ">> ", "   "].randomElement(using: &random)!
            let nbsp = Bool.random(using: &random)
            let kmsg = Bool.random(using: &random)
            var lines = small
            if kmsg {
                lines = lines.enumerated().map { index, line in
                    "6,\(1234 + index),\(5_678_000 + index),-,caller=T985;" + line.drop { $0 != "]" }.dropFirst(2)
                }
            }
            if Bool.random(using: &random) {
                let row = lines.firstIndex { $0.hasSuffix(" medium") }!
                lines.insert("[  OK  ] Started Session \(seed) of user root.", at: row)
            }
            lines = lines.map { quote + (nbsp ? $0.replacingOccurrences(of: " ", with: "\u{A0}") : $0) }
            _ = try expectSmall(
                lines.joined(separator: "\n"), TestContext.annotate("quote '\(quote)', nbsp \(nbsp), kmsg \(kmsg)"))
        }
    }
}
