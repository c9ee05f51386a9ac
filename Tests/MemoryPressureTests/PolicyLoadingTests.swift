import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// Policy files (issue 4, "Policy files"): the shipped ones load, and every problem in a bad one is
// reported with the file, line, column, key path, what was found and what was expected.

/// A small valid policy; the line numbers in the tests below refer to it.
private let valid = """
    name: p
    thresholds:
      warning: { enter: 20%, clear: 25% }
      urgent: { enter: 10%, clear: 15% }
    kill:
      startLevel: urgent
      target: 15%
    bands:
      - name: suspended
        match: { states: [suspended] }
        reason: heaviest suspended app

    """

/// The problems loading `text` reports (none if it loads).
private func problems(_ text: String, file: String = "p.yaml") -> [InputError] {
    do {
        _ = try Policy(yaml: text, file: file)
        return []
    } catch {
        return error.problems
    }
}

/// `valid` with line `number` (1-based) replaced by `lines` (an empty list deletes it).
private func replacing(line number: Int, with lines: [String], in text: String = valid) -> String {
    var all = text.components(separatedBy: "\n")
    all.replaceSubrange((number - 1)...(number - 1), with: lines)
    return all.joined(separator: "\n")
}

/// `valid` with `lines` inserted before line `number`.
private func inserting(_ lines: [String], before number: Int, in text: String = valid) -> String {
    var all = text.components(separatedBy: "\n")
    all.insert(contentsOf: lines, at: number - 1)
    return all.joined(separator: "\n")
}

@Suite("Shipped policies load")
struct ShippedPolicyTests {
    @Test("every shipped policy loads under its own name, with a summary", arguments: Policy.shippedNames)
    func loads(name: String) throws {
        let policy = try Policy.shipped(name)
        #expect(policy.name == name)
        #expect(!policy.summary.isEmpty)
        #expect(!policy.bands.isEmpty)
        #expect(try PressureEngine(device: .iPhone4, policy: policy)._invariantViolation() == nil)
    }

    @Test(
        "policies/NAME.yaml at the root is the bundled file, and loads to the same policy",
        arguments: Policy.shippedNames)
    func rootFileIsTheBundledOne(name: String) throws {
        let path = PackagePaths.path("policies/\(name).yaml")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == Policy.shippedSource(name))
        #expect(try Policy(yaml: text, file: path) == (try Policy.shipped(name)))
    }

    /// The measured variants in Examples/policies (not shipped): each loads under its file's name,
    /// says what it is and where its sources are (in its own comments or the file it varies), is
    /// accepted by the engine, and what `policy show` writes reads back to the same text.
    @Test(
        "every example policy in Examples/policies loads, cites its sources and is written back the same",
        arguments: try FileManager.default.contentsOfDirectory(atPath: PackagePaths.path("Examples/policies"))
            .filter { $0.hasSuffix(".yaml") }.sorted())
    func examplePolicy(file: String) throws {
        let path = PackagePaths.path("Examples/policies/\(file)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let policy = try Policy(yaml: text, file: path)
        #expect(policy.name + ".yaml" == file)
        let comments = text.split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(comments.count >= 4 && text.contains("a measured variant"))
        #expect(text.contains("Sources:") || text.contains("docs/") || text.contains("policies/"))
        #expect(try PressureEngine(device: .iPhone4, policy: policy)._invariantViolation() == nil)
        // `policy show` spells out defaults (every level's warning audience, a band's killableFrom),
        // so what it writes reads back to a policy it writes the same way.
        let shown = PolicyYAML.render(policy)
        #expect(PolicyYAML.render(try Policy(yaml: shown, file: "shown.yaml")) == shown)
    }

    @Test("each shipped file cites where its numbers come from in comments", arguments: Policy.shippedNames)
    func citesSources(name: String) throws {
        let source = try #require(Policy.shippedSource(name))
        let comments = source.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
        #expect(comments.count >= 4)
        if name != "lru" {  // lru is this project's own baseline, with nothing to cite
            #expect(source.contains("Sources"))
        }
    }

    @Test("twelve policies ship, ios4 first and the default")
    func names() throws {
        #expect(
            Policy.shippedNames == [
                "ios4", "jetsam", "jetsam-compressor", "android-lmkd", "android-lmkd-zram", "android-lmkd-psi",
                "linux-oom", "earlyoom", "earlyoom-zram", "systemd-oomd", "lru", "relaunch-aware", "predictive",
            ])
        #expect(Policy.ios4 == (try Policy.shipped("ios4")))
        #expect(Policy.shippedSource("nonesuch") == nil)
        #expect(throws: PolicyErrors.self) { try Policy.shipped("nonesuch") }
    }

    @Test("the shipped numbers are those the comments cite")
    func numbers() throws {
        let ios4 = try Policy.shipped("ios4")
        #expect(ios4.thresholds.warning == LevelThreshold(enter: .percent(15), clear: .percent(20)))
        #expect(ios4.thresholds.critical?.enter == .percent(5))
        #expect(ios4.kills.startLevel == .urgent)
        #expect(ios4.kills.foregroundNeedsIgnoredWarnings)
        let earlyoom = try Policy.shipped("earlyoom")
        #expect(earlyoom.thresholds.urgent?.enter == .percent(10))
        #expect(earlyoom.thresholds.critical?.enter == .percent(5))
        #expect(earlyoom.kills.notices == [.urgent: .willTerminate, .critical: .none])
        #expect(earlyoom.bands.map(\.order) == [.oomScore])
        // main.c lowmem_sig(): at or below, memory and swap together.
        #expect(earlyoom.comparison == .atOrBelow)
        #expect(earlyoom.thresholds.urgent?.swapFree == .percent(10))
        #expect(earlyoom.thresholds.critical?.swapFree == .percent(5))
        let lmkd = try Policy.shipped("android-lmkd")
        // ProcessList.updateOomLevels(): mOomMinFreeLow / mOomMinFreeHigh in KB, for adj 950 … 0
        // (adj 201–249 are killable from adj 200's level, as adj 200 is).
        let low: [Int64] = [49152, 43008, 36864, 24576, 24576, 18432, 12288]
        let high: [Int64] = [184320, 147456, 129024, 110592, 110592, 92160, 73728]
        #expect(
            lmkd.bands.map(\.killBelow)
                == zip(low, high).map {
                    .interpolated(
                        low: Bytes($0 * 1024), high: Bytes($1 * 1024), from: .mebibytes(350), to: .mebibytes(700))
                })
        #expect(lmkd.oomScoreAdjByState == [.active: 0, .inactive: 100, .background: 500, .suspended: 900])
        #expect(lmkd.oomScoreAdjByBackgroundMode == [.audio: 200, .location: 200, .voip: 200])
        #expect(
            lmkd.bands.map(\.order) == [
                .firstInFirstOut, .firstInFirstOut, .firstInFirstOut, .firstInFirstOut, .largestFirst, .largestFirst,
                .largestFirst,
            ])
        let jetsam = try Policy.shipped("jetsam")
        #expect(jetsam.priorityByState == [.suspended: 0, .background: 30, .inactive: 100, .active: 100])
        #expect(jetsam.priorityByBackgroundMode == [.audio: 120])
        // The limits by device memory: Stack Overflow's crash points (jetsam.yaml's header).
        let limit = try #require(jetsam.limits.first)
        #expect(jetsam.limits.count == 1 && limit.fatal)
        for (memory, active, inactive) in [
            (512, 650, 450), (1024, 650, 450), (2048, 1395, 966), (3072, 1792, 1241), (4096, 2040, 1412),
            (6144, 3318, 2297), (8192, 4424, 3063), (65536, 4424, 3063),
        ] as [(Int64, Int64, Int64)] {
            let device = Device(memory: .mebibytes(memory), reserved: .zero)
            #expect(limit.active?.resolved(on: device) == .mebibytes(active), "\(memory) MiB")
            #expect(limit.inactive?.resolved(on: device) == .mebibytes(inactive), "\(memory) MiB")
        }
        let linux = try Policy.shipped("linux-oom")
        #expect(linux.warnings.values.allSatisfy { $0 == .none })
        #expect(linux.purges.values.allSatisfy { $0.isEmpty })
        #expect(linux.thresholds.warning == nil && linux.thresholds.urgent == nil)
        #expect(linux.kills.startLevel == .critical)
    }
}

@Suite("Policy loading errors")
struct PolicyLoadingErrorTests {
    /// Checks that `text` gives exactly one problem, at `line`:`column` with `path`, whose message
    /// contains `message`.
    func expectOne(
        _ text: String, _ line: Int, _ column: Int, _ path: String, _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let found = problems(text)
        #expect(found.count == 1, "\(found)", sourceLocation: sourceLocation)
        guard let problem = found.first else { return }
        #expect(problem.file == "p.yaml", sourceLocation: sourceLocation)
        #expect(problem.line == line, "\(problem)", sourceLocation: sourceLocation)
        #expect(problem.column == column, "\(problem)", sourceLocation: sourceLocation)
        #expect(problem.path == path, "\(problem)", sourceLocation: sourceLocation)
        #expect(problem.message.contains(message), "\(problem)", sourceLocation: sourceLocation)
        #expect(problem.description.hasPrefix("p.yaml:\(line):\(column): "), sourceLocation: sourceLocation)
    }

    @Test("the base policy of these tests is valid")
    func baseIsValid() throws {
        let policy = try Policy(yaml: valid, file: "p.yaml")
        #expect(policy.bands.map(\.name) == ["suspended"])
        #expect(policy.bands[0].order == .largestFirst)
        #expect(policy.warnings.isEmpty && policy.purges.isEmpty && policy.limits.isEmpty)
    }

    @Test("an unknown key at the top level names the key and the keys expected")
    func unknownTopLevelKey() {
        expectOne(
            inserting(["colour: blue"], before: 2), 2, 1, "",
            "unknown key \"colour\"; expected name, summary, comparison, thresholds, warn, purge, kill")
    }

    @Test("an unknown key inside a band names the band's path")
    func unknownKeyInBand() {
        expectOne(
            inserting(["    colour: red"], before: 12), 12, 5, "bands[0]",
            "unknown key \"colour\"; expected name, match, order, reason, slotsByOomScoreAdj, killableFrom")
    }

    @Test("an unknown key inside a threshold and inside a match")
    func unknownKeyDeeper() {
        expectOne(
            replacing(line: 3, with: ["  warning: { enter: 20%, clear: 25%, exit: 30% }"]), 3, 38, "thresholds.warning",
            "unknown key \"exit\"; expected enter, clear")
        expectOne(
            replacing(line: 10, with: ["    match: { states: [suspended], colour: red }"]), 10, 35, "bands[0].match",
            "unknown key \"colour\"")
    }

    @Test("a wrong type says what was found and what was expected")
    func wrongType() {
        expectOne(
            replacing(line: 7, with: ["  target: lots"]), 7, 11, "kill.target",
            "expected a size such as 40MiB or a percentage from 0% to 100%, found the string \"lots\"")
        expectOne(
            inserting(["    slotsByOomScoreAdj: 3"], before: 12), 12, 25, "bands[0].slotsByOomScoreAdj",
            "expected true or false, found the number 3")
        expectOne(
            inserting(["    order: biggest"], before: 12), 12, 12, "bands[0].order",
            "expected one of largestFirst, leastRecentlyUsed, firstInFirstOut, badness, oomScore, swapUsage, expectedRelaunchCost, predictedReuse, found the string \"biggest\""
        )
        expectOne(
            inserting(["warn: { warning: everyone }"], before: 5), 5, 18, "warn.warning",
            "expected one of none, foreground, backgroundRunning, running, found the string \"everyone\"")
    }

    @Test("a threshold out of order: urgent entered with more free memory than warning")
    func thresholdOutOfOrder() {
        expectOne(
            replacing(line: 4, with: ["  urgent: { enter: 30%, clear: 35% }"]), 4, 11, "thresholds.urgent",
            "threshold out of order: urgent is entered below 30% free, expected less than warning's 20%")
        expectOne(
            replacing(line: 4, with: ["  urgent: { enter: 20%, clear: 25% }"]), 4, 11, "thresholds.urgent",
            "threshold out of order")
    }

    @Test("a clear threshold not above its enter threshold")
    func clearNotAboveEnter() {
        expectOne(
            replacing(line: 3, with: ["  warning: { enter: 20%, clear: 20% }"]), 3, 12, "thresholds.warning",
            "expected \"clear\" (20%) above \"enter\" (20%)")
        expectOne(
            replacing(line: 3, with: ["  warning: { enter: 20MiB, clear: 10MiB }"]), 3, 12, "thresholds.warning",
            "expected \"clear\" (10485760) above \"enter\" (20971520)")
    }

    @Test("an empty band list, and a missing one")
    func emptyBands() {
        let empty = replacing(line: 8, with: ["bands: []"]).replacingOccurrences(
            of: "  - name: suspended\n    match: { states: [suspended] }\n    reason: heaviest suspended app\n",
            with: "")
        expectOne(empty, 8, 8, "bands", "expected at least one kill band (killed first to last), found an empty list")
        let missing = valid.components(separatedBy: "\n").prefix(7).joined(separator: "\n") + "\n"
        expectOne(missing, 1, 1, "", "missing or empty \"bands\": expected at least one kill band")
    }

    @Test("an empty or blank policy name, and a blank band name")
    func blankNames() {
        for blank in ["\"\"", "\"  \""] {
            expectOne(
                valid.replacingOccurrences(of: "name: p\n", with: "name: \(blank)\n"), 1, 1, "",
                "key \"name\": expected a non-empty text")
        }
        expectOne(
            valid.replacingOccurrences(of: "  - name: suspended", with: "  - name: \" \""), 9, 5, "bands[0]",
            "key \"name\": expected a non-empty text")
    }

    @Test("two bands with the same name")
    func duplicateBandNames() {
        expectOne(
            valid + "  - name: suspended\n    match: { states: [background] }\n    reason: again\n", 12, 5, "bands[1]",
            "band name \"suspended\" appears twice")
    }

    @Test("a regular expression that does not compile, in a band, a protection and a preference")
    func badRegex() {
        expectOne(
            replacing(line: 10, with: ["    match: { states: [suspended], names: [\"(unclosed\"] }"]), 10, 12,
            "bands[0].match",
            "key \"names\": invalid regular expression \"(unclosed\"")
        expectOne(
            valid + "protect:\n  - match: { names: [\"[z-a]\"] }\n    reason: r\n", 13, 12, "protect[0].match",
            "invalid regular expression \"[z-a]\"")
        expectOne(
            valid + "preferences:\n  - { pattern: \"a**(\", score: 300 }\n", 13, 5, "preferences[0]",
            "key \"pattern\": invalid regular expression \"a**(\"")
    }

    @Test("kills starting at a level the policy has no threshold for")
    func startLevelWithoutThreshold() {
        expectOne(
            replacing(line: 6, with: ["  startLevel: critical"]), 6, 15, "kill.startLevel",
            "kills start at critical, but the policy has no critical threshold, so they would never happen")
        expectOne(
            replacing(line: 6, with: ["  startLevel: normal"]), 6, 15, "kill.startLevel",
            "expected warning, urgent or critical, found the string \"normal\"")
    }

    @Test("a file with several problems reports every one of them, in the order of the file")
    func severalProblems() {
        var text = replacing(line: 7, with: ["  target: lots"])
        text = replacing(line: 4, with: ["  urgent: { enter: 30%, clear: 35% }"], in: text)
        text = inserting(["colour: blue"], before: 2, in: text)
        text += "  - name: suspended\n    match: { states: [background], names: [\"(\"] }\n    reason: again\n"
        let found = problems(text)
        #expect(found.count == 4, "\(found)")
        #expect(found.map(\.line) == [2, 5, 8, 13])
        #expect(found.map(\.path) == ["", "thresholds.urgent", "kill.target", "bands[1]"])
        #expect(found.allSatisfy { $0.file == "p.yaml" && $0.column > 0 })
        do {
            _ = try Policy(yaml: text, file: "p.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.split(separator: "\n").count == 4)
            #expect(error.description.hasPrefix("p.yaml:2:1: unknown key \"colour\""))
        }
    }

    @Test("every bad threshold is reported, not only the first")
    func everyBadThreshold() {
        let lines = [
            "  warning: { enter: 20%, clear: 20% }", "  urgent: { enter: 30%, clear: 35%, exit: 1 }",
            "  critical: { enter: 1% }",
        ]
        let text = replacing(line: 3, with: lines, in: replacing(line: 4, with: []))
        let found = problems(text)
        #expect(found.map(\.path) == ["thresholds.warning", "thresholds.urgent", "thresholds.critical"], "\(found)")
        #expect(found.map(\.line) == [3, 4, 5])
        #expect(
            found.last?.message == "missing key \"clear\": expected a size such as 40MiB or a percentage such as 15%")
    }

    @Test("a YAML syntax error has a line and a column")
    func yamlSyntax() {
        let found = problems("name: x\nthresholds: {\n  warning: [1, 2\nkill: 3\n")
        #expect(found.count == 1)
        let problem = found.first
        #expect(problem?.line == 4)
        #expect(problem?.column == 5)
        #expect(problem?.message.contains("YAML syntax") == true, "\(String(describing: problem))")
        let tab = problems("name: x\nthresholds:\n\twarning: 1\n")
        #expect(tab.count == 1)
        #expect(tab.first.map { $0.line > 0 && $0.column > 0 } == true, "\(tab)")
    }

    @Test("a document that is not a mapping")
    func notAMapping() {
        let found = problems("- a\n- b\n")
        #expect(found.count == 1)
        #expect(found.first?.message == "expected a mapping of keys to values, found a list")
        #expect(found.first?.line == 1)
    }
}

@Suite("Policy files: every feature of the schema, in YAML and in JSON")
struct PolicySchemaTests {
    static let full = """
        name: full
        summary: every feature
        thresholds:
          warning: { enter: 200MiB, clear: 250MiB }
          critical: { enter: 5%, clear: 6% }
        warn: { warning: foreground, critical: backgroundRunning }
        purge: { warning: [purgeableCaches], critical: [offscreenViews, suspendedOffscreenViews] }
        kill:
          startLevel: warning
          target: 300MiB
          foregroundNeedsIgnoredWarnings: true
          notices: { warning: willTerminate, critical: none }
        oomScoreAdjByState: { suspended: 900, active: 0 }
        priorityByState: { background: 30 }
        bands:
          - name: old
            match: [{ states: [suspended], oomScoreAdj: [900, 1000] }, { names: ["^com\\\\.junk\\\\."] }]
            order: leastRecentlyUsed
            slotsByOomScoreAdj: true
            killableFrom: critical
            reason: old ones
          - name: rest
            match: { priority: 30, backgroundMode: false }
            order: badness
            reason: the rest
        protect:
          - match: { oomScoreAdj: -1000 }
            reason: never
        preferences:
          - { pattern: "chrome", score: 300 }
        limits:
          - match: { names: ["big"] }
            active: 1GiB
            fatal: false
          - inactive: 100MiB

        """

    @Test("every key of the schema is read into the model")
    func everyFeature() throws {
        let policy = try Policy(yaml: Self.full, file: "full.yaml")
        #expect(policy.summary == "every feature")
        #expect(
            policy.thresholds.warning == LevelThreshold(enter: .bytes(.mebibytes(200)), clear: .bytes(.mebibytes(250))))
        #expect(policy.thresholds.urgent == nil)
        #expect(policy.warnings == [.warning: .foreground, .critical: .backgroundRunning])
        #expect(policy.purges == [.warning: .purgeableCaches, .critical: [.offscreenViews, .suspendedOffscreenViews]])
        #expect(
            policy.kills
                == KillRule(
                    startLevel: .warning, target: .bytes(.mebibytes(300)), foregroundNeedsIgnoredWarnings: true,
                    notices: [.warning: .willTerminate, .critical: .none]))
        #expect(policy.oomScoreAdjByState == [.suspended: 900, .active: 0])
        #expect(policy.priorityByState == [.background: 30])
        #expect(
            policy.bands[0]
                == Band(
                    name: "old",
                    matches: [
                        AppMatch(states: [.suspended], oomScoreAdj: 900...1000), AppMatch(names: ["^com\\.junk\\."]),
                    ],
                    order: .leastRecentlyUsed, reason: "old ones", slotsByOomScoreAdj: true, killableFrom: .critical))
        #expect(
            policy.bands[1]
                == Band(
                    name: "rest", matches: [AppMatch(hasBackgroundMode: false, priority: 30...30)], order: .badness,
                    reason: "the rest"))
        #expect(policy.protections == [Protection(matches: [AppMatch(oomScoreAdj: -1000...(-1000))], reason: "never")])
        #expect(policy.preferences == [NamePreference(pattern: "chrome", score: 300)])
        #expect(
            policy.limits == [
                AppLimit(
                    matches: [AppMatch(names: ["big"])], active: .fixed(.bytes(.gibibytes(1))), inactive: nil,
                    fatal: false),
                AppLimit(matches: [AppMatch()], active: nil, inactive: .fixed(.bytes(.mebibytes(100))), fatal: true),
            ])
    }

    @Test("a JSON policy file loads to the same policy as its YAML form")
    func json() throws {
        let json = """
            {"name": "full", "summary": "every feature",
             "thresholds": {"warning": {"enter": "200MiB", "clear": "250MiB"}, "critical": {"enter": "5%", "clear": "6%"}},
             "warn": {"warning": "foreground", "critical": "backgroundRunning"},
             "purge": {"warning": ["purgeableCaches"], "critical": ["offscreenViews", "suspendedOffscreenViews"]},
             "kill": {"startLevel": "warning", "target": 314572800, "foregroundNeedsIgnoredWarnings": true,
                      "notices": {"warning": "willTerminate", "critical": "none"}},
             "oomScoreAdjByState": {"suspended": 900, "active": 0},
             "priorityByState": {"background": 30},
             "bands": [
               {"name": "old", "match": [{"states": ["suspended"], "oomScoreAdj": [900, 1000]}, {"names": ["^com\\\\.junk\\\\."]}],
                "order": "leastRecentlyUsed", "slotsByOomScoreAdj": true, "killableFrom": "critical", "reason": "old ones"},
               {"name": "rest", "match": {"priority": 30, "backgroundMode": false}, "order": "badness", "reason": "the rest"}],
             "protect": [{"match": {"oomScoreAdj": -1000}, "reason": "never"}],
             "preferences": [{"pattern": "chrome", "score": 300}],
             "limits": [{"match": {"names": ["big"]}, "active": "1GiB", "fatal": false}, {"inactive": "100MiB"}]}

            """
        #expect(try Policy(yaml: json, file: "full.json") == (try Policy(yaml: Self.full, file: "full.yaml")))
        let bad = problems("{\"name\": \"j\",\n \"colour\": 1}", file: "p.json")
        #expect(bad.contains { $0.line == 2 && $0.column == 2 && $0.message.hasPrefix("unknown key \"colour\"") })
        #expect(bad.allSatisfy { $0.file == "p.json" })
    }

    @Test("every shipped policy also loads from its JSON form")
    func shippedAsJSON() throws {
        // The shipped YAML files are flow-style enough that a YAML parser turns each into the same
        // model whether the text is YAML or the JSON a converter would print; check one by hand.
        let linux = try Policy.shipped("linux-oom")
        let json = """
            {"name":"linux-oom","summary":\(Event.json(linux.summary)),
             "thresholds":{"critical":{"enter":"1%","clear":"2%"}},
             "kill":{"startLevel":"critical","target":"2%","notices":{"critical":"none"}},
             "bands":[{"name":"all","match":{"states":["active","inactive","background","suspended"]},"order":"badness","ties":"lastAppeared","reason":"highest oom_badness"}],
             "protect":[{"match":{"oomScoreAdj":-1000},"reason":"oom_score_adj -1000 (OOM_SCORE_ADJ_MIN) is never killed"}]}
            """
        #expect(try Policy(yaml: json, file: "linux-oom.json") == linux)
    }
}

/// The refusals of the less used sections: each at its line, with the key and what was expected.
@Suite("Policy loading errors, section by section")
struct PolicySectionErrorTests {
    /// A compression section with its mechanism, apps, capacity, ratio and compressible share.
    static let zram =
        "compression: { mechanism: zram, match: { states: [suspended] }, capacity: 10%, ratio: 2, compressible: 0.5"

    /// Lines appended to `valid` (they start at line 12), or a replacement of its `match` (line 10).
    static let cases: [(text: String, line: Int, message: String)] = [
        (
            valid + "preferences:\n  - { pattern: chrome }\n", 13,
            "missing key \"score\": expected an integer from -1000"
        ),
        (
            valid + "limits:\n  - { match: { states: [suspended] } }\n", 13,
            "expected an \"active\" or an \"inactive\" limit"
        ),
        (
            valid + "purge:\n  severe: [offscreenViews]\n", 13,
            "unknown key \"severe\": expected warning, urgent or critical"
        ),
        (
            valid + "purge:\n  warning: offscreenViews\n", 13,
            "expected a list such as [offscreenViews, purgeableCaches]"
        ),
        (
            valid + "purge:\n  warning: [1]\n", 13,
            "expected offscreenViews, purgeableCaches or suspendedOffscreenViews, found"
        ),
        (valid + "purge:\n  warning: [everything]\n", 13, "found \"everything\""),
        (
            valid + "oomScoreAdjByState:\n  zombie: 5\n", 13,
            "unknown key \"zombie\": expected active, inactive, background or suspended"
        ),
        (valid + "relaunch: { coldFixed: -1 }\n", 12, "key \"coldFixed\": expected"),
        (
            valid + "compression: { capacity: 10% }\n", 12,
            "missing key \"mechanism\": expected compressor, zram, swap or zswap"
        ),
        (
            valid + "\(zram) }\n", 12, "missing key \"startBelow\""
        ),
        (
            valid + "\(zram), startBelow: 5% }\n", 12, "missing key \"stopAt\""
        ),
        (
            valid + "\(zram), startBelow: midWatermark, stopAt: 5% }\n", 12,
            "expected minWatermark, lowWatermark or highWatermark, found \"midWatermark\""
        ),
        (
            replacing(
                line: 10,
                with: ["    match: { states: [suspended] }", "    killBelow: [{ amount: 5% }, { amount: 4% }]"]),
            11, "only the last tier may leave out \"upTo\""
        ),
        (
            inserting(["    slotsByOomScoreAdj: true", "    slotsByPriority: true"], before: 12), 9,
            "expected slotsByOomScoreAdj or slotsByPriority, not both"
        ),
        (inserting(["    killUntil: 10%"], before: 12), 9, "\"killUntil\" needs \"killBelow\""),
        (
            inserting(["    killBelow: 10%", "    killUntil: 5%"], before: 12), 9,
            "expected \"killUntil\" (5%) at or above \"killBelow\" (10%)"
        ),
        (replacing(line: 10, with: ["    match: []"]), 10, "expected at least one condition"),
        (
            replacing(line: 10, with: ["    match: { oomScoreAdj: [900, 100] }"]), 10,
            "expected [min, max] with min ≤ max, found [900, 100]"
        ),
        (
            replacing(line: 10, with: ["    match: { oomScoreAdj: high }"]), 10,
            "expected an integer or a range [min, max], found"
        ),
    ]

    @Test("each refusal names its line and what was expected", arguments: cases.indices)
    func refusal(index: Int) {
        let (text, line, message) = Self.cases[index]
        let found = problems(text)
        #expect(
            found.contains { $0.line == line && $0.message.contains(message) && $0.file == "p.yaml" },
            "\(found.map(\.description))")
    }

    @Test("more than 127 bands is refused (the band rank is 7 bits of the kill key)")
    func tooManyBands() {
        let bands = (0..<128).flatMap { ["  - name: b\($0)", "    match: { states: [suspended] }", "    reason: r"] }
        let text = replacing(line: 9, with: bands, in: valid)
            .replacingOccurrences(
                of: "    match: { states: [suspended] }\n    reason: heaviest suspended app\n", with: "")
        #expect(
            problems(text).contains { $0.message.contains("expected at most 127 bands, found 128") },
            "\(problems(text))")
    }
}
