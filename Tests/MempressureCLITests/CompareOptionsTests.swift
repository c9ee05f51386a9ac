import Foundation
import Testing
import TestSupport

/// The options issue 10 added to compare, simulate and profile, and their errors.
@Suite("compare, simulate and profile options")
struct CompareOptionsTests {
    @Test(
        "bad combinations are usage errors (exit 64) that name the option",
        arguments: [
            (["compare", "--policies", "ios4,ios4"], "--policies names ios4 twice"),
            (["compare", "--baseline", "nosuch"], "--baseline nosuch is not one of the policies compared"),
            (["compare", "--trace", "a.jsonl", "--usage-log", "b.csv"], "--trace, --usage-log and --event-log"),
            (["compare", "--event-log", "a.log", "--usage-log", "b.csv"], "--trace, --usage-log and --event-log"),
            (["compare", "--seeds", "10001"], "--seeds must be 1...10000"),
            (["compare", "--resolve", "0"], "--resolve must be 0.01...3600 seconds"),
            (["compare", "--max-seeds", "29"], "--max-seeds must be 30...10000"),
            (["compare", "--warm-up", "-1"], "--warm-up must be 0...8760 hours"),
            (["compare", "--warm-up", "24", "--hours", "24"], "--warm-up (24.0 h) must be shorter than --hours"),
            (["compare", "--warm-up", "30", "--seeds", "2"], "must be shorter than the workload's 24.0 h"),
            (
                ["compare", "--warm-up", "1", "--trace", "a.jsonl"],
                "--warm-up works with generated seeds and --usage-log"
            ),
            (
                ["compare", "--warm-up", "24", "--usage-log", "b.csv"],
                "must be shorter than a day, the length of a usage log's samples"
            ),
            // Options that would be ignored are refused: a trace or a device log replays whole, a
            // usage log's apps are its own.
            (["compare", "--hours", "1", "--trace", "a.jsonl"], "--trace and --event-log replay their files whole"),
            (["compare", "--apps", "5", "--event-log", "a.log"], "--trace and --event-log replay their files whole"),
            (
                ["compare", "--apps", "5", "--usage-log", "b.csv"],
                "--apps sets the app catalogue of a generated workload"
            ),
            (
                ["simulate", "--apps", "5", "--usage-log", "b.csv"],
                "--apps sets the app catalogue of a generated workload"
            ),
            (
                ["profile", "--apps", "5", "--usage-log", "b.csv"],
                "--apps sets the app catalogue of a generated workload"
            ),
            (
                ["sweep", "--apps", "5", "--usage-log", "b.csv", "--param", "memory=1GiB"],
                "--apps sets the app catalogue"
            ),
            (
                ["compare", "--policies", "informed", "--usage-log", "Examples/usage/sample.csv"],
                "informed knows a generated user"
            ),
            (
                [
                    "compare", "--policies", "informed", "--workload", "server", "--seeds", "1", "--hours", "1",
                    "--apps", "10",
                ],
                "needs a workload with a user model"
            ),
            (["simulate", "--policy", "informed"], "informed is a reference of compare"),
            (["simulate", "--policy", "informed@predictive"], "informed is a reference of compare"),
            (
                ["compare", "--policies", "jetsam,informed@predictive", "--trace", "a.jsonl"],
                "informed knows a generated user"
            ),
            (
                ["compare", "--policies", "jetsam,oracle@oracle", "--seeds", "2"],
                "oracle@oracle: oracle is a reference itself"
            ),
            // Seed options where files give the samples, and the sequential rule's beside --seeds.
            (
                ["compare", "--trace", "a.jsonl", "--seeds", "5"],
                "--trace gives the samples and --seeds chooses generated seeds"
            ),
            (
                ["compare", "--usage-log", "b.csv", "--first-seed", "5"],
                "--usage-log gives the samples and --first-seed"
            ),
            (["compare", "--event-log", "a.log", "--resolve", "2"], "--event-log gives the samples and --resolve"),
            (["compare", "--trace", "a.jsonl", "--max-seeds", "100"], "--trace gives the samples and --max-seeds"),
            (
                ["compare", "--seeds", "5", "--resolve", "2"],
                "--resolve steers the sequential choice of how many seeds"
            ),
            (["compare", "--seeds", "5", "--max-seeds", "100"], "--max-seeds steers the sequential choice"),
            (["simulate", "--usage-log", "b.csv", "--seed", "3"], "--usage-log gives the samples and --seed chooses"),
            (
                ["sweep", "--usage-log", "b.csv", "--first-seed", "3", "--param", "memory=1GiB"],
                "--first-seed chooses generated seeds"
            ),
            (
                ["compare", "--trace", "a.jsonl", "--max-actions", "10"],
                "--max-actions caps generated samples; --trace"
            ),
            (["simulate", "--usage-log", "b.csv", "--max-actions", "10"], "--max-actions caps generated samples"),
            (["sweep", "--usage-log", "b.csv", "--max-actions", "10", "--param", "memory=1GiB"], "--max-actions caps"),
            (["compare", "--policies", ","], "--policies: expected policy names separated by commas"),
            (["compare", "--policies", ""], "--policies: expected policy names separated by commas"),
            (
                ["sweep", "--policies", ",", "--param", "memory=1GiB"],
                "--policies: expected policy names separated by commas"
            ),
            (["compare", "--sample", "user", "--seeds", "3"], "--sample says what one sample of a usage log is"),
            (["simulate", "--sample", "user"], "--sample says what one sample of a usage log is"),
            (["profile", "--sample", "user"], "--sample says what one sample of a usage log is"),
            (
                ["sweep", "--sample", "user", "--param", "memory=1GiB"],
                "--sample says what one sample of a usage log is"
            ),
            (["sweep", "--param", "memory=1GiB", "--metric", "kills"], "--metric shapes the --svg chart"),
            (["merge", "part.jsonl", "--x", "memory"], "--x shapes the --svg chart"),
            (["simulate", "--hours", "nan"], "--hours must be above 0 and at most 8760"),
            (["simulate", "--user", "u1"], "--user needs --usage-log"),
            (
                ["compare", "--first-seed", "9223372036854775808", "--seeds", "2"],
                "--first-seed must be 0...2^63-1, got 9223372036854775808"
            ),
            (
                ["sweep", "--first-seed", "9223372036854775808", "--param", "memory=1GiB"],
                "--first-seed must be 0...2^63-1, got 9223372036854775808"
            ),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try runMempressure(arguments)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    /// Every integer option with a range, one value past each end: refused with the range the
    /// option's `--help` states (`OptionRange`), before any work.
    @Test(
        "every integer option's range is enforced at both ends, with the range in the message",
        arguments: [
            (["compare", "--seeds"], "0", "10001", "--seeds must be 1...10000"),
            (["sweep", "--param", "memory=1GiB", "--seeds"], "0", "10001", "--seeds must be 1...10000"),
            (["profile", "--seeds"], "0", "10001", "--seeds must be 1...10000"),
            (["compare", "--max-seeds"], "29", "10001", "--max-seeds must be 30...10000"),
            (["compare", "--jobs"], "0", "257", "--jobs must be 1...256"),
            (["sweep", "--param", "memory=1GiB", "--jobs"], "0", "257", "--jobs must be 1...256"),
            (["compare", "--apps"], "0", "1000001", "--apps must be 1...1000000"),
            (["simulate", "--max-actions"], "0", "1000000001", "--max-actions must be 1...1000000000"),
            (["simulate", "--real-memory", "--scale"], "0", "1048577", "--scale must be 1...1048576"),
            (["watch", "--top"], "0", "10001", "--top must be 1...10000"),
            (["watch", "--count"], "0", "1000001", "--count must be 1...1000000"),
        ] as [([String], String, String, String)])
    func integerRanges(prefix: [String], below: String, above: String, message: String) throws {
        for value in [below, above] {
            let result = try runMempressure(prefix + [value])
            #expect(result.status == 64, "\(prefix) \(value): \(result.standardError)")
            #expect(result.standardError.contains("\(message), got \(value)"), "\(result.standardError)")
        }
    }

    @Test("no option's help states its default twice")
    func helpDefaultsOnce() throws {
        for command in [
            ["compare"], ["simulate"], ["kill-order"], ["replay"], ["watch"], ["policy", "show"], ["profile"],
            ["sweep"], ["merge"],
        ] {
            let help = try runMempressure(command + ["--help"])
            #expect(help.status == 0)
            let text = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(
                text.range(of: #"\(default: [^)]*\) \(default:"#, options: .regularExpression) == nil,
                "\(command): \(text)")
        }
    }

    @Test("the prewarming rows show when a compared policy prewarms, and only then; JSON always has them")
    func prewarmingRows() throws {
        let plain = try runMempressure(["compare", "--policies", "ios4,predictive", "--seeds", "3"])
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(!plain.standardOutput.contains("prewarms") && plain.standardOutput.contains("launch wait"))
        let prewarming = try runMempressure([
            "compare", "--policies", "predictive,Examples/policies/predictive-prewarm.yaml,oracle-prewarm", "--seeds",
            "20",
        ])
        #expect(prewarming.status == 0, "\(prewarming.standardError)")
        for row in ["prewarms", "  opened while resident", "  launch work (s)"] {
            #expect(prewarming.standardOutput.contains("\n" + row + " "), "\(row)")
        }
        let json = try runMempressure(["compare", "--policies", "ios4", "--seeds", "2", "--format", "json"])
        #expect(json.status == 0 && json.standardOutput.contains("\"prewarmsOpened\""))
    }

    @Test("a workload too large for --max-actions is refused before any work, saying how to raise the limit")
    func workloadSizeGuard() throws {
        let result = try runMempressure(["simulate", "--workload", "server", "--hours", "8760"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("above the limit of 5000000"), "\(result.standardError)")
        #expect(result.standardError.contains("--max-actions"))
        #expect(result.standardError.utf8.count < 1024)
    }

    @Test("an unknown workload name lists the built-in ones")
    func unknownWorkload() throws {
        let result = try runMempressure(["simulate", "--workload", "nosuch"])
        #expect(result.status == 66)
        #expect(
            result.standardError.contains("built-in workloads: phone, phone-2024, server"), "\(result.standardError)")
    }

    @Test("--baseline sets the paired section's reference; the oracle column and its gap row appear by default")
    func baselineAndOracle() throws {
        let result = try runMempressure(["compare", "--seeds", "5", "--baseline", "lru"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("paired differences: policy − lru on the same 5 samples"))
        #expect(result.standardOutput.contains("oracle"))
        #expect(result.standardOutput.contains("share of the gap in mean launch wait from lru to the oracle closed"))
    }

    @Test("oracle@P keeps P's lifecycle and is the gap's reference; every share but the ends has an interval")
    func oracleWithALifecycle() throws {
        let result = try runMempressure([
            "compare", "--policies", "jetsam,predictive,informed@predictive,oracle@predictive,oracle", "--seeds", "20",
            "--baseline", "jetsam", "--format", "json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let policies = try #require(document["policies"] as? [[String: Any]])
        #expect(
            policies.map { $0["name"] as? String } == [
                "jetsam", "predictive", "informed@predictive", "oracle@predictive", "oracle",
            ])
        let shares = policies.map { $0["gapToOracleClosed"] as? Double }
        #expect(shares[0] == 0 && shares[3] == 1, "the gap runs from the baseline to the first oracle given: \(shares)")
        #expect(policies[0]["gapToOracleClosedInterval"] == nil && policies[3]["gapToOracleClosedInterval"] == nil)
        for index in [1, 2, 4] {
            let interval = try #require(policies[index]["gapToOracleClosedInterval"] as? [Double])
            let share = try #require(shares[index])
            #expect(interval.count == 2 && interval[0] <= share && share <= interval[1], "\(interval) around \(share)")
        }
        let text = try runMempressure([
            "compare", "--policies", "jetsam,predictive,oracle@predictive", "--seeds", "20", "--baseline", "jetsam",
        ])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(
            text.standardOutput.contains("share of the gap in mean launch wait from jetsam to oracle@predictive closed")
        )
        #expect(
            text.standardOutput.contains(/predictive -?[0-9.]+ % \[-?[0-9.]+, -?[0-9.]+\]/), "\(text.standardOutput)")
        // Without a plain oracle, the gap runs to the oracle that prewarms: the share of a policy
        // that prewarms gets its interval too.
        let prewarm = "Examples/policies/predictive-prewarm.yaml"
        let prewarming = try runMempressure([
            "compare", "--policies", "jetsam,\(prewarm),oracle-prewarm@\(prewarm)", "--seeds", "20", "--baseline",
            "jetsam",
        ])
        #expect(prewarming.status == 0, "\(prewarming.standardError)")
        #expect(
            prewarming.standardOutput.contains(
                "share of the gap in mean launch wait from jetsam to oracle-prewarm@predictive-prewarm closed"),
            "\(prewarming.standardOutput)")
        #expect(prewarming.standardOutput.contains(/predictive-prewarm -?[0-9.]+ % \[-?[0-9.]+, -?[0-9.]+\]/))
        let missing = try runMempressure(["compare", "--policies", "jetsam,oracle@nosuch.yaml", "--seeds", "2"])
        #expect(missing.status == 66)
        #expect(
            missing.standardError.contains("nosuch.yaml: no shipped policy of that name and no such file"),
            "\(missing.standardError)")
    }

    @Test(
        "a share whose gap vanishes in many resamples has unbounded ends (−∞, ∞; null in JSON; no CSV row); one user has none"
    )
    func unboundedShareInterval() throws {
        // Four users' first four hours: in some of them nobody is killed, so a quarter or more of
        // the resamples have no gap between jetsam and the oracle.
        let base = [
            "compare", "--policies", "jetsam,predictive,oracle@predictive", "--seeds", "4", "--hours", "4",
            "--baseline", "jetsam",
        ]
        let text = try runMempressure(base)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains(/predictive -?[0-9.]+ % \[−∞, ∞\]/), "\(text.standardOutput)")
        let json = try runMempressure(base + ["--format", "json"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let policies = try #require(document["policies"] as? [[String: Any]])
        let interval = try #require(policies[1]["gapToOracleClosedInterval"] as? [Any])
        #expect(interval.count == 2 && interval.allSatisfy { $0 is NSNull }, "\(interval)")
        let csv = try runMempressure(base + ["--format", "csv"])
        #expect(csv.standardOutput.contains("predictive,launchWait,gapToOracleClosed,,"))
        #expect(!csv.standardOutput.contains("gapToOracleClosedLow"))
        #expect(!csv.standardOutput.contains("gapToOracleClosedHigh"))
        // One user: a share, and no interval (every resample of one user is that user).
        let one = try runMempressure([
            "compare", "--policies", "jetsam,predictive,oracle@predictive", "--seeds", "1", "--baseline", "jetsam",
        ])
        #expect(one.status == 0, "\(one.standardError)")
        #expect(one.standardOutput.contains(/predictive -?[0-9.]+ %,/), "\(one.standardOutput)")
        #expect(!one.standardOutput.contains(/predictive -?[0-9.]+ % \[/))
        // Nor has any metric of one user: JSON gives its ends as null, CSV leaves their rows out.
        let oneJSON = try runMempressure([
            "compare", "--policies", "jetsam,predictive", "--seeds", "1", "--format", "json",
        ])
        let oneDocument = try #require(
            try JSONSerialization.jsonObject(with: Data(oneJSON.standardOutput.utf8)) as? [String: Any])
        let onePolicies = try #require(oneDocument["policies"] as? [[String: Any]])
        let launchWait = try #require((onePolicies[0]["metrics"] as? [String: Any])?["launchWait"] as? [String: Any])
        #expect(launchWait["mean"] is Double && launchWait["low"] is NSNull && launchWait["high"] is NSNull)
        let paired = try #require((onePolicies[1]["paired"] as? [String: Any])?["launchWait"] as? [String: Any])
        #expect(paired["difference"] is Double && paired["low"] is NSNull && paired["resolved"] as? Bool == false)
        let oneCSV = try runMempressure([
            "compare", "--policies", "jetsam,predictive", "--seeds", "1", "--format", "csv",
        ])
        #expect(oneCSV.standardOutput.contains("jetsam,launchWait,mean,"))
        #expect(!oneCSV.standardOutput.contains("jetsam,launchWait,low,"))
        #expect(oneCSV.standardOutput.contains("predictive,launchWait,difference,"))
        #expect(!oneCSV.standardOutput.contains("predictive,launchWait,differenceLow,"))
    }

    @Test("without --seeds the count is chosen sequentially, and the report says where and why it stopped")
    func sequentialSampling() throws {
        let base = ["compare", "--policies", "jetsam,relaunch-aware", "--format", "json"]
        let chosen = try runMempressure(base)
        #expect(chosen.status == 0, "\(chosen.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(chosen.standardOutput.utf8)) as? [String: Any])
        let sampling = try #require(document["sampling"] as? [String: Any])
        let looks = try #require(sampling["looks"] as? [Int])
        #expect(looks.first == 30 && looks.count >= 1)
        #expect((document["samples"] as? [String])?.count == looks.last)
        #expect(sampling["settled"] as? Bool == true)
        // The same seeds named with --seeds give the same runs (the rule only chooses how many).
        let fixed = try runMempressure(base + ["--seeds", String(looks.last!)])
        let fixedDocument = try #require(
            try JSONSerialization.jsonObject(with: Data(fixed.standardOutput.utf8)) as? [String: Any])
        #expect(fixedDocument["sampling"] == nil)
        let launchWaits = { (document: [String: Any]) -> [Double] in
            ((document["policies"] as? [[String: Any]])?.last?["runs"] as? [[String: Any]])?.compactMap {
                $0["launchWait"] as? Double
            } ?? []
        }
        #expect(!launchWaits(document).isEmpty && launchWaits(document) == launchWaits(fixedDocument))
        // An impossible width stops at the maximum and names the difference left unsettled.
        let capped = try runMempressure([
            "compare", "--policies", "jetsam,lru", "--resolve", "0.01", "--max-seeds", "60",
        ])
        #expect(capped.status == 0, "\(capped.standardError)")
        #expect(
            capped.standardOutput.contains(
                "looked at 30, 60; stopped at the maximum (--max-seeds 60) with lru neither resolved nor within ±0.005 s"
            ), "\(capped.standardOutput.prefix(400))")
    }

    @Test("--first-seed shifts the samples: seeds 3…4 of one run are seeds 3…4 of another")
    func firstSeed() throws {
        let shifted = try runMempressure([
            "compare", "--policies", "lru", "--first-seed", "3", "--seeds", "2", "--format", "json",
        ])
        let full = try runMempressure(["compare", "--policies", "lru", "--seeds", "4", "--format", "json"])
        #expect(shifted.status == 0 && full.status == 0)
        let runs = { (text: String) throws -> [[String: Any]] in
            let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let policies = try #require(document["policies"] as? [[String: Any]])
            return try #require(policies.first?["runs"] as? [[String: Any]]).map { run in
                run.filter { !["eventsPerSecond", "nanosecondsPerDecision"].contains($0.key) }
            }
        }
        let a = try runs(shifted.standardOutput)
        let b = Array(try runs(full.standardOutput).suffix(2))
        #expect(a.map { NSDictionary(dictionary: $0) } == b.map { NSDictionary(dictionary: $0) })
    }

    @Test("--first-seed takes the whole documented range: 2^63-1 runs, its samples past it included")
    func firstSeedRange() throws {
        let last = try runMempressure([
            "compare", "--policies", "lru", "--first-seed", "9223372036854775807", "--seeds", "2",
        ])
        #expect(last.status == 0, "\(last.standardError)")
        #expect(last.standardOutput.contains("2 samples (9223372036854775807 … 9223372036854775808)"))
    }

    @Test("profile of a workload without a user model does not set it beside the phone studies")
    func profileWithoutUser() throws {
        let server = try runMempressure([
            "profile", "--workload", "server", "--seeds", "2", "--hours", "1", "--apps", "20",
        ])
        #expect(server.status == 0, "\(server.standardError)")
        #expect(server.standardOutput.contains("it has no user model"))
        #expect(!server.standardOutput.contains("App Annie") && !server.standardOutput.contains("Böhmer"))
        let phone = try runMempressure(["profile", "--seeds", "2"])
        #expect(phone.standardOutput.contains("about 9 (App Annie 2017)"))
        #expect(!phone.standardOutput.contains("no user model"))
    }

    @Test("profile --usage-log measures the log's user-days exactly as the built-in user's, side by side")
    func profileUsageLog() throws {
        let table = try runMempressure(["profile", "--usage-log", "Examples/usage/lsapp-layout.tsv", "--seeds", "10"])
        #expect(table.status == 0, "\(table.standardError)")
        #expect(
            table.standardOutput.contains("usage log Examples/usage/lsapp-layout.tsv: 5 samples (one per user-day)"))
        #expect(table.standardOutput.contains("THIS LOG [95 %]") && table.standardOutput.contains("PHONE [95 %]"))
        // The log knows no installed apps: said, not guessed.
        #expect(table.standardOutput.contains { $0 == "—" })
        #expect(table.standardError.contains("skipped 1 row of event type \"Screen On\" (first at line"))
        let json = try runMempressure([
            "profile", "--usage-log", "Examples/usage/lsapp-layout.tsv", "--seeds", "3", "--format", "json",
        ])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let log = try #require(document["usageLog"] as? [String: Any])
        #expect(log["sample"] as? String == "day")
        #expect((log["samples"] as? [String])?.first == "0 2018-01-16")
        let opens = try #require(log["opensPerDay"] as? [String: Any])
        #expect((opens["values"] as? [Double])?.count == 5)
        #expect(log["installedApps"] == nil)
        // A log with no row that opens or closes an app is refused, naming the file.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mempressure-\(getpid())-ul")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("screen.csv").path
        try "user,timestamp,app,event\nu,1,android,SCREEN_INTERACTIVE\n".write(
            toFile: empty, atomically: true, encoding: .utf8)
        let refused = try runMempressure(["compare", "--usage-log", empty])
        #expect(refused.status == 65)
        #expect(
            refused.standardError.contains("screen.csv: no usable rows after the header"), "\(refused.standardError)")
    }

    @Test(
        "--hours with --usage-log replays each sample's first hours: day d of a user's log is --hours 24d --warm-up 24(d − 1)"
    )
    func usageLogHours() throws {
        func coldLaunches(_ extra: [String]) throws -> Double {
            let result = try runMempressure(
                [
                    "compare", "--usage-log", "Examples/usage/lsapp-layout.tsv", "--sample", "user", "--policies",
                    "ios4",
                    "--format", "json",
                ] + extra)
            #expect(result.status == 0, "\(result.standardError)")
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            let policies = try #require(document["policies"] as? [[String: Any]])
            let metrics = try #require(policies[0]["metrics"] as? [String: Any])
            return try #require((metrics["coldLaunches"] as? [String: Any])?["mean"] as? Double)
        }
        // User 0 launches five apps over two days, user 1 three over three: their first 24 hours
        // (from each user's first row) hold four and three launches, and their second day alone,
        // counted after the first, one (Netflix) and none (Chrome is resumed warm).
        #expect(try coldLaunches([]) == 4)
        #expect(try coldLaunches(["--hours", "24"]) == 3.5)
        #expect(try coldLaunches(["--hours", "48", "--warm-up", "24"]) == 0.5)
        let refused = try runMempressure(
            ["compare", "--usage-log", "Examples/usage/lsapp-layout.tsv", "--hours", "24", "--warm-up", "24"])
        #expect(refused.status == 64 && refused.standardError.contains("must be shorter than --hours"))
        // User 0's log ends 40.7 h after its first row, user 1's 47.5 h: after a 44 h warm-up only
        // user 1 has anything to count, so user 0 is left out rather than counted as zeros.
        let late = try runMempressure([
            "compare", "--usage-log", "Examples/usage/lsapp-layout.tsv", "--sample", "user", "--hours", "72",
            "--warm-up", "44", "--policies", "ios4", "--format", "json",
        ])
        #expect(late.status == 0, "\(late.standardError)")
        #expect(late.standardError.contains("1 of 2 samples end within the 44 h warm-up and are left out"))
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(late.standardOutput.utf8)) as? [String: Any])
        #expect(document["samples"] as? [String] == ["1"])
        let none = try runMempressure([
            "compare", "--usage-log", "Examples/usage/lsapp-layout.tsv", "--sample", "user", "--hours", "72",
            "--warm-up", "48", "--policies", "ios4",
        ])
        #expect(none.status == 64)
        #expect(none.standardError.contains("every sample of Examples/usage/lsapp-layout.tsv ends within it"))
    }

    @Test("a UsageStats export (milliseconds, no user column) is one device's days")
    func usageStatsExport() throws {
        let result = try runMempressure([
            "compare", "--usage-log", "Examples/usage/usagestats.csv", "--policies", "ios4", "--format", "json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(document["samples"] as? [String] == ["usagestats.csv 2023-11-14", "usagestats.csv 2023-11-15"])
    }

    @Test("compare --event-log replays a device's days and sets each policy's kills against the device's")
    func eventLog() throws {
        let table = try runMempressure([
            "compare", "--event-log", "Examples/android/constructed-two-days.log", "--policies",
            "ios4,android-lmkd,oracle",
        ])
        #expect(table.status == 0, "\(table.standardError)")
        #expect(table.standardOutput.contains("2 samples (--11-14 … --11-15)"))
        #expect(table.standardOutput.contains("KILLS AGAINST THE DEVICE"))
        let json = try runMempressure([
            "compare", "--event-log", "Examples/android/constructed-two-days.log", "--policies",
            "ios4,android-lmkd,oracle",
            "--format", "json",
        ])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let validation = try #require(document["validation"] as? [[String: Any]])
        // The clairvoyant oracle has no kills of its own to validate.
        #expect(validation.map { $0["policy"] as? String } == ["ios4", "android-lmkd"])
        for entry in validation {
            let day = try #require(entry["perDay"] as? [String: Any])
            let real = try #require(day["real"] as? Int)
            let matched = try #require(day["matched"] as? Int)
            #expect(real > 0 && matched <= real)
        }
        let none = try runMempressure(["compare", "--event-log", "Examples/usage/sample.csv"])
        #expect(none.status == 65)
        #expect(none.standardError.contains("sample.csv: no activity resume found"))
    }

    @Test("profile measures the built-in user per day, in table and JSON")
    func profile() throws {
        let table = try runMempressure(["profile", "--seeds", "20"])
        #expect(table.status == 0, "\(table.standardError)")
        for figure in ["installed apps", "distinct apps a day", "opens a day", "hours in apps a day", "App Annie 2017"]
        {
            #expect(table.standardOutput.contains(figure), "\(figure)")
        }
        let json = try runMempressure(["profile", "--seeds", "5", "--format", "json"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let distinct = try #require(document["distinctAppsPerDay"] as? [String: Any])
        #expect((distinct["values"] as? [Double])?.count == 5)
    }

    @Test("simulate with a usage log runs every user-day (or user) as a sample; --user picks one")
    func usageLogUsers() throws {
        let all = try runMempressure(["simulate", "--usage-log", "Examples/usage/sample.csv", "--format", "json"])
        #expect(all.status == 0, "\(all.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(all.standardOutput.utf8)) as? [String: Any])
        #expect(document["samples"] as? [String] == ["u1 2016-05-03", "u2 2016-05-03"])
        // The samples are the log's, as compare names them, not the workload's that shapes the device.
        #expect(document["workload"] as? String == "usage log")
        let byUser = try runMempressure([
            "simulate", "--usage-log", "Examples/usage/sample.csv", "--sample", "user", "--format", "json",
        ])
        let users = try #require(
            try JSONSerialization.jsonObject(with: Data(byUser.standardOutput.utf8)) as? [String: Any])
        #expect(users["samples"] as? [String] == ["u1", "u2"])
        let one = try runMempressure([
            "simulate", "--usage-log", "Examples/usage/sample.csv", "--user", "u2", "--format", "json",
        ])
        let single = try #require(
            try JSONSerialization.jsonObject(with: Data(one.standardOutput.utf8)) as? [String: Any])
        #expect(single["samples"] as? [String] == ["u2 2016-05-03"])
        let missing = try runMempressure(["simulate", "--usage-log", "Examples/usage/sample.csv", "--user", "u9"])
        #expect(missing.status == 64)
        let traceOut = try runMempressure([
            "simulate", "--usage-log", "Examples/usage/sample.csv", "--trace-out", "/tmp/never-written.jsonl",
        ])
        #expect(traceOut.status == 64)
        #expect(traceOut.standardError.contains("pick one with --user"))
    }

    @Test("the real layouts: detected, forced with --usage-log-format, every glitch and kind reported")
    func realLayouts() throws {
        let polled = try runMempressure(["profile", "--usage-log", "Examples/usage/polled-samples.csv", "--seeds", "3"])
        #expect(polled.status == 0, "\(polled.standardError)")
        #expect(
            polled.standardOutput.contains("usage log Examples/usage/polled-samples.csv: 2 samples (one per user-day)"))
        for line in [
            "polled-samples.csv: read as polled foreground samples (detected from its first line)",
            "polled-samples.csv: 2 repeats of a row above (the same time and package) (first at line 4): skipped",
            "polled-samples.csv: 1 rows earlier than a row above them (first at line 11): kept, placed by their time",
            "polled-samples.csv: polled about every 409 s",
            "polled-samples.csv: 2 app names are the home screen, not apps",
            "polled-samples.csv: 1 of 10 app names (1 rows) have no kind in the app-kind table",
        ] {
            #expect(polled.standardError.contains(line), "\(line)\n\(polled.standardError)")
        }
        let french = try runMempressure([
            "compare", "--usage-log", "Examples/usage/app-usage-fr.csv", "--policies", "ios4,lru", "--format", "json",
        ])
        #expect(french.status == 0, "\(french.standardError)")
        #expect(
            french.standardError.contains("app-usage-fr.csv: dates read day first (29 in the first field at line 9)"))
        #expect(french.standardError.contains("1 rows of an unknown kind (\"Powiadomienie (…)\", with no duration)"))
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(french.standardOutput.utf8)) as? [String: Any])
        #expect(document["samples"] as? [String] == ["app-usage-fr.csv 2024-02-29", "app-usage-fr.csv 2024-03-01"])
        // Forced: the unquoted export read day first.
        let forced = try runMempressure([
            "simulate", "--usage-log", "Examples/usage/app-usage-unquoted.csv", "--usage-log-format",
            "app-usage-day-first",
        ])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(forced.standardError.contains("read as an App Usage export (--usage-log-format)"))
        #expect(forced.standardError.contains("dates read day first, as the format given says"))
        let refused = try runMempressure(["profile", "--usage-log-format", "polled"])
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("give --usage-log or drop --usage-log-format"))
    }
}
