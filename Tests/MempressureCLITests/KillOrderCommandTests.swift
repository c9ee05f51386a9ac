import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// `mempressure kill-order` and `mempressure policy` (issue 4): golden reports for every shipped
// policy in every format, the JSON contract of docs/DESIGN.md, and the documented exit codes.

/// A fresh directory for a test's files.
private func temporaryDirectory() throws -> URL {
    try scratchDirectory("kill-order")
}

/// Writes `text` to `name` in a fresh directory and returns its path.
private func temporaryFile(_ name: String, _ text: String) throws -> String {
    let url = try temporaryDirectory().appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

/// The parsed JSON object of `text`.
private func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

/// A snapshot where earlyoom sees a tie (both score 672 on a 1 GiB phone) and ranks the larger first.
private let tieSnapshot = """
    device: { memory: 1GiB, reserved: 200MiB }
    apps:
      - { id: small, state: suspended, footprint: \(2530 * 4096) }
      - { id: big, state: suspended, footprint: \(2600 * 4096) }
      - { id: "com.example.quoted,name", state: background, footprint: 50MiB }

    """

@Suite("mempressure kill-order")
struct KillOrderCommandTests {
    static let formats = ["table", "json", "csv"]

    @Test(
        "the phone example under every shipped policy matches its golden report in every format",
        arguments: Policy.shippedNames)
    func phoneGolden(policy: String) throws {
        for format in Self.formats {
            let result = try runMempressure([
                "kill-order", "Examples/snapshots/phone.yaml", "--policy", policy, "--format", format,
            ])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError.isEmpty)
            let mismatch = goldenMismatch(result.standardOutput, "kill-order/phone-\(policy).\(format)")
            #expect(mismatch == nil, "\(mismatch ?? "")")
        }
    }

    @Test(
        "the server example's top 20 under every shipped policy matches its golden JSON", arguments: Policy.shippedNames
    )
    func serverGolden(policy: String) throws {
        let result = try runMempressure(
            ["kill-order", "Examples/snapshots/server.json", "--policy", policy, "--limit", "20", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let mismatch = goldenMismatch(result.standardOutput, "kill-order/server-\(policy).json")
        #expect(mismatch == nil, "\(mismatch ?? "")")
        let report = try jsonObject(result.standardOutput)
        let order = try #require(report["order"] as? [[String: Any]])
        #expect(order.count == 20)
        #expect(order.compactMap { $0["rank"] as? Int } == Array(1...20))
    }

    @Test(
        "the JSON report is exactly the docs/DESIGN.md contract: keys, order of keys, types",
        arguments: Policy.shippedNames)
    func jsonContract(policy: String) throws {
        let result = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--policy", policy, "--format", "json",
        ])
        let text = result.standardOutput
        #expect(text.hasPrefix("{\"policy\":\"\(policy)\",\"device\":{\"memory\":1073741824,\"free\":"))
        #expect(text.hasSuffix("]}\n"))
        #expect(text.split(separator: "\n").count == 1)
        let report = try jsonObject(text)
        #expect(Set(report.keys) == ["policy", "device", "order", "protected"])
        let device = try #require(report["device"] as? [String: Any])
        #expect(Set(device.keys) == ["memory", "free", "level"])
        #expect(device["free"] as? Int == 1_073_741_824 - 200 * 1_048_576 - 765 * 1_048_576)
        #expect(["normal", "warning", "urgent", "critical"].contains(device["level"] as? String ?? ""))
        let order = try #require(report["order"] as? [[String: Any]])
        #expect(!order.isEmpty)
        for row in order {
            #expect(Set(row.keys) == ["rank", "app", "state", "band", "footprint", "notice", "reason"])
            #expect(row["rank"] is Int && row["footprint"] is Int)
            #expect(["none", "willTerminate"].contains(row["notice"] as? String ?? ""))
            #expect(["active", "inactive", "background", "suspended"].contains(row["state"] as? String ?? ""))
            #expect(!(row["reason"] as? String ?? "").isEmpty)
        }
        // Keys in the contract's order, in every row.
        let rowPattern = try Regex(
            #"\{"rank":\d+,"app":"[^"]+","state":"[a-z]+","band":"[^"]+","footprint":\d+,"notice":"(none|willTerminate)","reason":"[^"]+"\}"#
        )
        #expect(text.matches(of: rowPattern).count == order.count)
        let protected = try #require(report["protected"] as? [[String: Any]])
        for entry in protected {
            #expect(Set(entry.keys) == ["app", "reason"])
        }
        let apps = order.count + protected.count
        #expect(apps == 12)
    }

    @Test("csv has a header row, one row per victim then the protected apps, and quotes fields with commas")
    func csv() throws {
        let result = try runMempressure(
            ["kill-order", "-", "--policy", "earlyoom", "--format", "csv"], input: tieSnapshot)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput == """
                rank,app,state,band,footprint,notice,reason
                1,"com.example.quoted,name",background,all,52428800,willTerminate,oom_score 698
                2,big,suspended,all,10649600,willTerminate,"oom_score 672, largest RSS among ties"
                3,small,suspended,all,10362880,willTerminate,"oom_score 672, largest RSS among ties"

                """)
        let phone = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--policy", "jetsam", "--format", "csv",
        ])
        let lines = phone.standardOutput.split(separator: "\n")
        #expect(lines.first == "rank,app,state,band,footprint,notice,reason")
        #expect(lines.count == 1 + 12)
        // Priority 200 is below JETSAM_PRIORITY_MAX (210): memorystatus_kill_top_process() reaches
        // it last (the old policy protected it, which XNU does not).
        #expect(
            lines.last
                == "12,com.apple.backboardd,background,above-foreground,41943040,none,\"first in its priority band (first in, first out) (priority 200); killable below 41.2 MiB free\""
        )
    }

    @Test("--explain adds the key that ordered each row, in every format")
    func explain() throws {
        let table = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--policy", "linux-oom", "--explain",
        ])
        #expect(table.status == 0)
        let header = try #require(table.standardOutput.split(separator: "\n").first { $0.contains("RANK") })
        #expect(header.hasSuffix("KEY"))
        // linux-oom: band rank 1, the badness value, then the tie-breaker (2^20 - 1 - file position).
        #expect(table.standardOutput.contains("com.example.chat"))
        let json = try runMempressure(
            ["kill-order", "Examples/snapshots/phone.yaml", "--policy", "linux-oom", "--explain", "--format", "json"])
        let order = try #require(try jsonObject(json.standardOutput)["order"] as? [[String: Any]])
        let keys = order.compactMap { $0["key"] as? String }
        #expect(keys.count == order.count)
        #expect(keys.allSatisfy { $0.hasPrefix("0x") && $0.count == 18 })
        #expect(keys == keys.sorted(by: >), "keys are in decreasing order")
        let plain = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--policy", "linux-oom", "--format", "json",
        ])
        #expect(!plain.standardOutput.contains("\"key\""))
        let csv = try runMempressure(
            ["kill-order", "Examples/snapshots/phone.yaml", "--policy", "linux-oom", "--explain", "--format", "csv"])
        #expect(csv.standardOutput.hasPrefix("rank,app,state,band,footprint,notice,reason,key\n"))
        let golden = goldenMismatch(table.standardOutput, "kill-order/phone-linux-oom-explain.table")
        #expect(golden == nil, "\(golden ?? "")")
    }

    @Test("--limit N gives the first N rows of the full order")
    func limit() throws {
        let full = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--policy", "lru", "--format", "csv",
        ])
        let three = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--policy", "lru", "--format", "csv", "--limit", "3",
        ])
        #expect(three.status == 0)
        let fullRows = full.standardOutput.split(separator: "\n")
        #expect(three.standardOutput.split(separator: "\n") == Array(fullRows.prefix(4)))
        let json = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--format", "json", "--limit", "3",
        ])
        #expect((try jsonObject(json.standardOutput)["order"] as? [[String: Any]])?.count == 3)
        let table = try runMempressure(["kill-order", "Examples/snapshots/phone.yaml", "--limit", "3"])
        let rows = table.standardOutput.split(separator: "\n").filter {
            $0.range(of: #"^\s+\d+  "#, options: .regularExpression) != nil
        }
        #expect(rows.count == 3)
        let zero = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--limit", "0", "--format", "json",
        ])
        #expect(zero.status == 0)
        #expect((try jsonObject(zero.standardOutput)["order"] as? [[String: Any]])?.isEmpty == true)
    }

    @Test("the default policy is ios4; a snapshot can come from standard input")
    func defaults() throws {
        let file = try runMempressure(["kill-order", "Examples/snapshots/phone.yaml", "--format", "json"])
        let named = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--format", "json", "--policy", "ios4",
        ])
        #expect(file.standardOutput == named.standardOutput)
        #expect(file.standardOutput.hasPrefix("{\"policy\":\"ios4\""))
        let text = try String(contentsOfFile: PackagePaths.path("Examples/snapshots/phone.yaml"), encoding: .utf8)
        let stdin = try runMempressure(["kill-order", "-", "--format", "json"], input: text)
        #expect(stdin.standardOutput == file.standardOutput)
    }

    @Test("a policy file works like the shipped name, and an earlyoom tie shows in the table")
    func policyFile() throws {
        let byFile = try runMempressure(
            ["kill-order", "Examples/snapshots/phone.yaml", "--policy", "policies/jetsam.yaml", "--format", "json"])
        let byName = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--policy", "jetsam", "--format", "json",
        ])
        #expect(byFile.status == 0)
        #expect(byFile.standardOutput == byName.standardOutput)
        let tie = try runMempressure(["kill-order", "-", "--policy", "earlyoom"], input: tieSnapshot)
        #expect(tie.standardOutput.contains("oom_score 672, largest RSS among ties"))
    }

    @Test(
        "a malformed snapshot exits 65 naming file, line, column and field path; nothing is printed",
        arguments: [
            (
                "apps:\n  - { id: a, state: sleeping, footprint: 1MiB }\ndevice: { memory: 1GiB }\n",
                "s.yaml:2:21: apps[0].state: expected one of notRunning, inactive, active, background, suspended, found the string \"sleeping\""
            ),
            (
                "device: { memory: 1GiB }\napps:\n  - { id: a, state: suspended, footprint: lots }\n",
                "s.yaml:3:43: apps[0].footprint: expected a size such as 4096, 640KiB or 40MiB, found the string \"lots\""
            ),
            (
                "device: { memory: 1GiB, reserved: 2GiB }\n",
                "s.yaml:1:9: device: expected \"reserved\" (2147483648) below \"memory\""
            ),
            (
                "device: { memory: 1GiB }\nweather: sunny\n",
                "s.yaml:2:1: unknown key \"weather\"; expected device, apps"
            ),
            (
                "{\"device\": {\"memory\": 1},\n \"apps\": [1]}",
                "s.yaml:2:11: apps[0]: expected a mapping of keys to values, found the number 1"
            ),
        ])
    func malformedSnapshot(text: String, message: String) throws {
        let path = try temporaryFile("s.yaml", text)
        let result = try runMempressure(["kill-order", path])
        #expect(result.status == 65)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.hasPrefix("mempressure: error: \(path):"))
    }

    @Test("a snapshot with two foreground apps exits 65")
    func twoForeground() throws {
        let text =
            "device: { memory: 1GiB }\napps:\n  - { id: a, state: active, footprint: 1MiB }\n  - { id: b, state: inactive, footprint: 1MiB }\n"
        let result = try runMempressure(["kill-order", "-"], input: text)
        #expect(result.status == 65)
        #expect(result.standardError.contains("<stdin>"))
    }

    @Test("a missing snapshot exits 66")
    func missingSnapshot() throws {
        let result = try runMempressure(["kill-order", "no/such/snapshot.yaml"])
        #expect(result.status == 66)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("no/such/snapshot.yaml: no such file"))
    }

    @Test("bad usage exits 64")
    func badUsage() throws {
        #expect(try runMempressure(["kill-order", "Examples/snapshots/phone.yaml", "--limit", "-1"]).status == 64)
        let equals = try runMempressure(["kill-order", "Examples/snapshots/phone.yaml", "--limit=-1"])
        #expect(equals.status == 64)
        #expect(equals.standardError.contains("--limit must be 0 or more"))
        #expect(try runMempressure(["kill-order", "Examples/snapshots/phone.yaml", "--format", "xml"]).status == 64)
        #expect(try runMempressure(["kill-order", "Examples/snapshots/phone.yaml", "--limit", "many"]).status == 64)
        #expect(try runMempressure(["kill-order", "Examples/snapshots/phone.yaml", "--colour"]).status == 64)
        // The oracle reads the rest of a trace; a snapshot, a report or this machine has none.
        for arguments in [
            ["Examples/snapshots/phone.yaml", "--policy", "oracle"],
            ["Examples/snapshots/phone.yaml", "--policy", "oracle@jetsam"],
            ["evidence/linux-oom/02-largest-dies.log", "--policies", "oracle-prewarm"],
            ["--live", "--policy", "oracle"],
        ] {
            let clairvoyant = try runMempressure(["kill-order"] + arguments)
            #expect(clairvoyant.status == 64 && clairvoyant.standardOutput.isEmpty, "\(arguments)")
            #expect(clairvoyant.standardError.contains("knows the rest of a trace"), "\(clairvoyant.standardError)")
        }
        // --policies ranks a real report's victims: on a snapshot or --live it would be ignored, so
        // it is refused.
        let onSnapshot = try runMempressure(["kill-order", "Examples/snapshots/phone.yaml", "--policies", "jetsam"])
        #expect(onSnapshot.status == 64 && onSnapshot.standardOutput.isEmpty)
        #expect(
            onSnapshot.standardError.contains("phone.yaml is a snapshot: use --policy"), "\(onSnapshot.standardError)")
        let onLive = try runMempressure(["kill-order", "--live", "--policies", "all"])
        #expect(onLive.status == 64)
        #expect(onLive.standardError.contains("not --live: use --policy"), "\(onLive.standardError)")
    }

    @Test("an unknown policy name exits 66; an invalid policy file exits 65 listing its problems")
    func badPolicy() throws {
        let unknown = try runMempressure(["kill-order", "Examples/snapshots/phone.yaml", "--policy", "nonesuch"])
        #expect(unknown.status == 66)
        #expect(unknown.standardOutput.isEmpty)
        #expect(unknown.standardError.contains("nonesuch: no shipped policy of that name and no such file"))
        #expect(
            unknown.standardError.contains(
                "ios4, jetsam, jetsam-compressor, android-lmkd, android-lmkd-zram, android-lmkd-psi, linux-oom"))

        let path = try temporaryFile("bad.yaml", PolicyCommandTests.invalidPolicy)
        let invalid = try runMempressure(["kill-order", "Examples/snapshots/phone.yaml", "--policy", path])
        #expect(invalid.status == 65)
        #expect(invalid.standardOutput.isEmpty)
        #expect(invalid.standardError.contains("\(path):2:1: unknown key \"colour\""), "\(invalid.standardError)")
        #expect(invalid.standardError.contains("\(path):9:11: kill.target:"))
    }

    @Test("--help mentions every option")
    func help() throws {
        let result = try runMempressure(["kill-order", "--help"])
        #expect(result.status == 0)
        for option in ["--policy", "--format", "--limit", "--explain", "<snapshot>", "table", "json", "csv"] {
            #expect(result.standardOutput.contains(option), "\(option)")
        }
        #expect(!result.standardOutput.contains("(default: ios4) (default: ios4)"))
    }
}

@Suite("mempressure policy")
struct PolicyCommandTests {
    /// A policy file with five problems (lines 2, 5, 6, 9 and 14).
    static let invalidPolicy = """
        name: bad
        colour: blue
        thresholds:
          warning: { enter: 10%, clear: 20% }
          urgent: { enter: 15%, clear: 25% }
          critical: { enter: 5%, clear: 5% }
        kill:
          startLevel: urgent
          target: lots
        bands:
          - name: a
            match: { states: [suspended] }
            reason: r
            colour: red

        """

    @Test("policy list shows the shipped policies with descriptions, ios4 marked default")
    func list() throws {
        let result = try runMempressure(["policy", "list"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == Policy.shippedNames.count + 1)
        #expect(lines.first?.hasPrefix("NAME") == true)
        for (line, name) in zip(lines.dropFirst(), Policy.shippedNames) {
            #expect(line.hasPrefix(name + (name == "ios4" ? " (default)" : " ")))
            #expect(line.contains(try Policy.shipped(name).summary))
        }
        #expect(result.standardOutput.split(separator: "\n").filter { $0.contains("(default)") }.count == 1)
    }

    @Test(
        "policy show prints a policy that loads back to the same text and the same behaviour",
        arguments: Policy.shippedNames)
    func showRoundTrip(name: String) throws {
        let shown = try runMempressure(["policy", "show", name])
        #expect(shown.status == 0, "\(shown.standardError)")
        #expect(shown.standardOutput.contains("name: \"\(name)\""))
        let path = try temporaryFile("\(name)-shown.yaml", shown.standardOutput)
        let again = try runMempressure(["policy", "show", path])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput == shown.standardOutput)
        #expect(try runMempressure(["policy", "validate", path]).status == 0)
        // Fully resolved: every level of warn and purge, and every band's killableFrom, written out.
        for key in [
            "warn:", "purge:", "foregroundNeedsIgnoredWarnings:", "protect:", "preferences:", "comparison:", "ties:",
            "limits:",
        ] {
            #expect(shown.standardOutput.contains(key), "\(key)")
        }
        // Every band shows where its kills start: the kill rule's level, or its own free-memory point.
        let bands = shown.standardOutput.components(separatedBy: "  - name:").count - 1
        let starts =
            shown.standardOutput.components(separatedBy: "killableFrom:").count - 1
            + shown.standardOutput.components(separatedBy: "killBelow:").count - 1
        #expect(starts == bands)
        let byName = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--policy", name, "--format", "json",
        ])
        let byShown = try runMempressure([
            "kill-order", "Examples/snapshots/phone.yaml", "--policy", path, "--format", "json",
        ])
        #expect(byShown.standardOutput == byName.standardOutput)
        let golden = goldenMismatch(shown.standardOutput, "policy/show-\(name).yaml")
        #expect(golden == nil, "\(golden ?? "")")
    }

    @Test("policy show of an oracle says, first, that its YAML does not load back; a shipped policy's has no such line")
    func showOracle() throws {
        let oracle = try runMempressure(["policy", "show", "oracle@jetsam"])
        #expect(oracle.status == 0, "\(oracle.standardError)")
        #expect(oracle.standardOutput.hasPrefix("# oracle@jetsam orders its bands by what the trace does next"))
        #expect(oracle.standardOutput.contains("\nname: \"oracle@jetsam\"\n"))
        let jetsam = try runMempressure(["policy", "show", "jetsam"])
        #expect(jetsam.status == 0 && jetsam.standardOutput.hasPrefix("name: "))
    }

    @Test("policy show of an unknown name exits 66")
    func showUnknown() throws {
        #expect(try runMempressure(["policy", "show", "nonesuch"]).status == 66)
    }

    @Test("policy validate accepts every shipped file (exit 0)")
    func validateShipped() throws {
        let files = Policy.shippedNames.map { "policies/\($0).yaml" }
        let result = try runMempressure(["policy", "validate"] + files)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == files.count)
        for (line, name) in zip(lines, Policy.shippedNames) {
            #expect(line.hasPrefix("policies/\(name).yaml: ok (policy \(name), "))
        }
    }

    @Test("policy validate of an invalid file exits 65 listing every problem, and stops there")
    func validateInvalid() throws {
        let path = try temporaryFile("bad.yaml", Self.invalidPolicy)
        let result = try runMempressure(["policy", "validate", "policies/ios4.yaml", path, "policies/lru.yaml"])
        #expect(result.status == 65)
        #expect(result.standardOutput == "policies/ios4.yaml: ok (policy ios4, 3 bands)\n")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.first == "mempressure: error: \(path): 5 problems")
        #expect(
            Array(lines.dropFirst()) == [
                "\(path):2:1: unknown key \"colour\"; expected name, summary, comparison, thresholds, warn, purge, kill, oomScoreAdjByState, priorityByState, oomScoreAdjByBackgroundMode, priorityByBackgroundMode, bands, relaunch, prediction, protect, preferences, limits, compression, psi, memoryPressureLimit",
                "\(path):5:11: thresholds.urgent: threshold out of order: urgent is entered below 15% free, expected less than warning's 10% (a higher level needs less free memory)",
                "\(path):6:13: thresholds.critical: expected \"clear\" (5%) above \"enter\" (5%): a level is left only above where it is entered",
                "\(path):9:11: kill.target: expected a size such as 40MiB or a percentage from 0% to 100%, found the string \"lots\"",
                "\(path):14:5: bands[0]: unknown key \"colour\"; expected name, match, order, reason, slotsByOomScoreAdj, killableFrom, slotsByPriority, killBelow, killUntil, ties, minimumSwapPercent",
            ])
    }

    @Test("policy validate: a missing file exits 66, no file at all is bad usage (64), a JSON policy is fine")
    func validateOthers() throws {
        #expect(try runMempressure(["policy", "validate", "no/such/policy.yaml"]).status == 66)
        #expect(try runMempressure(["policy", "validate"]).status == 64)
        let json = try temporaryFile(
            "p.json",
            #"{"name":"j","thresholds":{"critical":{"enter":"1%","clear":"2%"}},"kill":{"startLevel":"critical","target":"2%"},"bands":[{"name":"all","match":{"states":["suspended"]},"reason":"r"}]}"#
        )
        let result = try runMempressure(["policy", "validate", json])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasSuffix(": ok (policy j, 1 band)\n"))
    }
}
