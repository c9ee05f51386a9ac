import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// The kernel report reader on the layouts of older kernels and on the prefixes of every log tool.
// The reports below are NOT real: they are written here from the printk format strings of
// mm/oom_kill.c of each generation (dump_tasks(), oom_kill_process(), __oom_kill_process()) to
// pin the reader's handling of each layout. The real reports are in evidence/ (RealReportCorpusTests).

/// A 2.6.32 (RHEL 6) report: `cpu` and `oom_adj` columns, `kill process … or a child`, and
/// `Killed process N, UID U, (name)`.
private let rhel6 = """
    java invoked oom-killer: gfp_mask=0x201da, order=0, oom_adj=0, oom_score_adj=0
    Pid: 4242, comm: java Not tainted 2.6.32-431.el6.x86_64 #1
    Mem-Info:
    Node 0 DMA per-cpu:
    active_anon:480000 inactive_anon:20000 isolated_anon:0
     active_file:10 inactive_file:12 isolated_file:0
     unevictable:0 dirty:0 writeback:0 unstable:0
     free:3000 slab_reclaimable:1000 slab_unreclaimable:2000
     mapped:40 shmem:20 pagetables:1500 bounce:0
    Total swap = 0kB
    524288 pages RAM
    10000 pages reserved
    [ pid ]   uid  tgid total_vm      rss cpu oom_adj oom_score_adj name
    [  501]     0   501     2700      120   1     -17         -1000 udevd
    [ 4242]   500  4242   900000   400000   0       0             0 java
    [ 4300]    48  4300    50000    20000   1       0             0 httpd
    Out of memory: Kill process 4242 (java) score 780 or sacrifice child
    Killed process 4242, UID 500, (java) total-vm:3600000kB, anon-rss:1599000kB, file-rss:1000kB

    """

/// A 4.9 report: `nr_ptes nr_pmds swapents`, syslog prefixes, `Kill process … or sacrifice child`.
private let debian9 = """
    Jan  3 04:05:06 db1 kernel: [123456.789012] mysqld invoked oom-killer: gfp_mask=0x24201ca(GFP_HIGHUSER_MOVABLE|__GFP_COLD), nodemask=0, order=0, oom_score_adj=0
    Jan  3 04:05:06 db1 kernel: [123456.789020] CPU: 3 PID: 2345 Comm: mysqld Not tainted 4.9.0-8-amd64 #1 Debian 4.9.130-2
    Jan  3 04:05:06 db1 kernel: [123456.789500] Total swap = 1048572kB
    Jan  3 04:05:06 db1 kernel: [123456.789501] 1048446 pages RAM
    Jan  3 04:05:06 db1 kernel: [123456.789502] 0 pages HighMem/MovableOnly
    Jan  3 04:05:06 db1 kernel: [123456.789503] 26000 pages reserved
    Jan  3 04:05:06 db1 kernel: [123456.789504] [ pid ]   uid  tgid total_vm      rss nr_ptes nr_pmds swapents oom_score_adj name
    Jan  3 04:05:06 db1 kernel: [123456.789510] [  312]     0   312    12000      300      25       3        0             0 systemd-journal
    Jan  3 04:05:06 db1 kernel: [123456.789511] [ 2345]   106  2345  1200000   700000    1500       6    20000             0 mysqld
    Jan  3 04:05:06 db1 kernel: [123456.789512] [ 3000]  1000  3000   300000   150000     400       4    50000           300 Web Content
    Jan  3 04:05:06 db1 kernel: [123456.789513] Out of memory: Kill process 2345 (mysqld) score 680 or sacrifice child
    Jan  3 04:05:06 db1 kernel: [123456.789514] Killed process 2345 (mysqld) total-vm:4800000kB, anon-rss:2800000kB, file-rss:0kB, shmem-rss:0kB

    """

/// A 5.4 report from `journalctl -k` (no timestamp in brackets), `pgtables_bytes`, the
/// `oom-kill:` line and the one-line `Out of memory: Killed process`, with a name holding a
/// parenthesis and blanks.
private let ubuntu2004 = """
    Mar 14 15:09:26 web kernel: node invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0
    Mar 14 15:09:26 web kernel: CPU: 0 PID: 777 Comm: node Not tainted 5.4.0-100-generic #113-Ubuntu
    Mar 14 15:09:26 web kernel: Tasks state (memory values in pages):
    Mar 14 15:09:26 web kernel: [  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name
    Mar 14 15:09:26 web kernel: [    777]  1000   777   500000   200000  2000000        0             0 node
    Mar 14 15:09:26 web kernel: [    900]  1000   900   100000    90000   800000        0           -900 (sd-pam) x
    Mar 14 15:09:26 web kernel: oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/user.slice,task=node,pid=777,uid=1000
    Mar 14 15:09:26 web kernel: Out of memory: Killed process 777 (node) total-vm:2000000kB, anon-rss:800000kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:1953kB oom_score_adj:0

    """

/// A 4.14 memory-cgroup report, cgroup v1 lines and `Task in … killed as a result of limit of …`.
private let memcg414 = """
    [ 1000.000001] java invoked oom-killer: gfp_mask=0x14000c0(GFP_KERNEL), nodemask=(null),  order=0, oom_score_adj=980
    [ 1000.000002] CPU: 1 PID: 5000 Comm: java Not tainted 4.14.200 #1
    [ 1000.000003] Task in /kubepods/pod1/abc killed as a result of limit of /kubepods/pod1/abc
    [ 1000.000004] memory: usage 524288kB, limit 524288kB, failcnt 77
    [ 1000.000005] memory+swap: usage 524288kB, limit 9007199254740988kB, failcnt 0
    [ 1000.000006] [ pid ]   uid  tgid total_vm      rss nr_ptes nr_pmds swapents oom_score_adj name
    [ 1000.000007] [ 4990]     0  4990      256        1       4       2        0          -998 pause
    [ 1000.000008] [ 5000]     0  5000   900000   130000     400       5        0           980 java
    [ 1000.000009] Memory cgroup out of memory: Kill process 5000 (java) score 1975 or sacrifice child
    [ 1000.000010] Killed process 5000 (java) total-vm:3600000kB, anon-rss:519000kB, file-rss:1000kB, shmem-rss:0kB

    """

private func reports(_ text: String) throws(InputError) -> [KernelOOMReport] {
    try KernelOOMReportParser.reports(in: text, file: "test.log")
}

@Suite("Kernel OOM report reader: layouts, prefixes, errors")
struct KernelOOMReportParserTests {
    @Test(
        "2.6.32: oom_adj and cpu columns, 'kill process … or sacrifice child', RHEL's 'Killed process N, UID U, (name)'"
    )
    func rhel6Layout() throws {
        let report = try #require(try reports(rhel6).first)
        #expect(report.kernelVersion == [2, 6, 32])
        #expect(report.columns == ["uid", "tgid", "total_vm", "rss", "cpu", "oom_adj", "oom_score_adj", "name"])
        #expect(report.tasks.map(\.oomAdj) == [-17, 0, 0])
        #expect(report.victim?.pid == 4242 && report.victim?.name == "java" && report.victim?.chosenScore == 780)
        #expect(report.freePages == 3000 && report.pagesRAM == 524_288)
        #expect(report.derivedPageSize == 4096)
        let evidence = report.evidence(source: "test.log")
        #expect(evidence.killed.first?.app == AppID("java[4242]"))
        let ranking = try #require(try EvidenceRanking(evidence, policy: try Policy.shipped("linux-oom")))
        #expect(ranking.rank(of: AppID("java[4242]")) == 1)
        #expect(ranking.protected.map(\.app) == [AppID("udevd[501]")])
    }

    @Test("4.9: nr_ptes and nr_pmds add up to page tables; syslog prefixes; a name with a blank")
    func debian9Layout() throws {
        let report = try #require(try reports(debian9).first)
        #expect(report.firstLine == 1 && report.lastLine == 12)
        #expect(report.kernelRelease == "4.9.0-8-amd64")
        #expect(report.tasks.map(\.pageTablePages) == [28, 1506, 404])
        #expect(report.tasks.last?.name == "Web Content")
        #expect(report.totalSwap == .kibibytes(1_048_572))
        let evidence = report.evidence(source: "test.log")
        let snapshot = try #require(evidence.snapshot)
        #expect(snapshot.device.memory.value == (1_048_446 - 26000) * 4096)
        #expect(snapshot.device.swap == .kibibytes(1_048_572))
        #expect(snapshot.apps[1].pageTables.value == 1506 * 4096 && snapshot.apps[1].swap.value == 20000 * 4096)
        let ranking = try #require(try EvidenceRanking(evidence, policy: try Policy.shipped("linux-oom")))
        #expect(ranking.rank(of: AppID("mysqld[2345]")) == 1)
    }

    @Test(
        "5.4 from journalctl -k: pgtables_bytes, the oom-kill line, a name with a parenthesis; a negative badness before 5.9 is named"
    )
    func ubuntuLayout() throws {
        let report = try #require(try reports(ubuntu2004).first)
        #expect(report.constraint == KernelOOMReport.Constraint.none)
        #expect(report.taskMemoryCgroup == "/user.slice")
        #expect(report.tasks.map(\.name) == ["node", "(sd-pam) x"])
        #expect(report.tasks.map(\.pageTableBytes) == [2_000_000, 800_000])
        #expect(report.victim?.pageTablesKiB == 1953 && report.victim?.oomScoreAdj == 0)
        let evidence = report.evidence(source: "test.log")
        // No 'pages RAM': the totals are missing and said to be.
        #expect(evidence.missing.contains { $0.contains("memory totals") })
        #expect(evidence.notes.contains { $0.contains("clamped a badness of 0 or less to 1") })
    }

    @Test(
        "4.14 memory cgroup: 'Task in … killed as a result of limit of …', cgroup v1 lines, 'Memory cgroup out of memory: Kill process'"
    )
    func memcgLayout() throws {
        let report = try #require(try reports(memcg414).first)
        #expect(report.constraint == .memoryCgroup)
        #expect(report.taskMemoryCgroup == "/kubepods/pod1/abc" && report.oomMemoryCgroup == "/kubepods/pod1/abc")
        #expect(report.cgroupLimit == .kibibytes(524_288))
        #expect(report.victim?.byMemoryCgroup == true && report.victim?.chosenPID == 5000)
        let evidence = report.evidence(source: "test.log")
        #expect(evidence.snapshot?.device.memory == .kibibytes(524_288))
        let ranking = try #require(try EvidenceRanking(evidence, policy: try Policy.shipped("linux-oom")))
        #expect(ranking.rank(of: AppID("java[5000]")) == 1)
    }

    @Test("Several reports in one log are read one by one, each with its own lines")
    func severalReports() throws {
        let parsed = try reports(rhel6 + "some other kernel message\n" + memcg414 + debian9)
        #expect(parsed.map(\.victim?.pid) == [4242, 5000, 2345])
        #expect(parsed.map(\.kernelVersion?.first) == [2, 4, 4])
    }

    @Test("A report cut short before its victim line is still returned, and says so")
    func truncated() throws {
        let cut = ubuntu2004.split(separator: "\n").prefix(6).joined(separator: "\n")
        let report = try #require(try reports(cut).first)
        #expect(report.victim == nil && report.tasks.count == 2)
        #expect(report.evidence(source: "x").missing.contains { $0.contains("victim line") })
    }

    @Test("Prefixes: dmesg, dmesg -T, printk levels, caller ids, syslog and ISO journal headers")
    func prefixes() {
        let message = "Out of memory: Killed process 1 (x)"
        for line in [
            "[  345.019753] \(message)", "[Wed Nov 25 18:40:01 2026] \(message)", "<3>[  1.5] \(message)",
            "[  345.019753] [ T4256] \(message)", "Nov 25 18:40:01 host kernel: \(message)",
            "2024-01-02T03:04:05.678901+00:00 host kernel: [  9.1] \(message)", message,
        ] {
            #expect(KernelLogLine.message(of: line[...]) == message[...], "\(line)")
        }
        // A task row is not a timestamp.
        #expect(KernelLogLine.message(of: "[  345.1] [   5928]     0 x"[...]) == "[   5928]     0 x")
    }

    @Test("A task row that does not fit its header is skipped, counted and named in the notes with its line and column")
    func malformedRow() throws {
        let bad = debian9.replacingOccurrences(of: "    50000           300 Web", with: "    lots           300 Web")
        let report = try #require(try reports(bad).first)
        #expect(report.interleavedLines == 1)
        #expect(!report.tasks.contains { $0.line == 10 })
        let note = try #require(report.evidence(source: "bad.log").notes.first { $0.contains("were skipped") })
        #expect(note.contains("line 10: expected a number in column swapents at column "))
        #expect(note.contains("found \"lots\""))
    }

    @Test(
        "Random lines and mutated report lines never crash the reader: a report or an InputError",
        .singleThreadedLongRun, arguments: 0..<4)
    func hostileLines(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let pieces = (rhel6 + debian9 + ubuntu2004 + memcg414).split(separator: "\n").map(String.init)
        let alphabet = Array("[]() :,=-0123456789kBpidrssnameKilledprocess\t\u{00E9}")
        for _ in 0..<300 {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 1...30, using: &random) {
                var line = pieces.randomElement(using: &random)!
                for _ in 0..<Int.random(in: 0...3, using: &random) where !line.isEmpty {
                    var characters = Array(line)
                    characters[Int.random(in: 0..<characters.count, using: &random)] = alphabet.randomElement(
                        using: &random)!
                    line = String(characters)
                }
                lines.append(line)
            }
            do {
                for report in try reports(lines.joined(separator: "\n")) {
                    _ = report.evidence(source: "x")
                }
            } catch {
                #expect(error.line >= 1 && error.line <= lines.count)
            }
        }
    }
}
