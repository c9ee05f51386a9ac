import Foundation
import MemoryPressure
import MemoryPressureFormats
import Testing
import TestSupport

// Issue 22: the iOS JetsamEvent report, in both forms. The files in Examples/reports/ were
// constructed in the layout of the reports Apple documents ("Identifying high-memory use with
// jetsam event reports") and users paste publicly; they are not real reports (none could be
// fetched on the build machine), so they test the reader and the rebuild, not jetsam's fidelity.

@Suite("JetsamEvent reports: both forms read, the device rebuilt, the victims ranked")
struct JetsamEventReportTests {
    static func read(_ name: String) throws -> JetsamEventReport {
        let path = PackagePaths.path("Examples/reports/\(name)")
        return try JetsamEventReportParser.report(in: try String(contentsOfFile: path, encoding: .utf8), file: name)
    }

    @Test("the header-and-body form: header, memory status, every process with its priority, states and reason")
    func twoPart() throws {
        let report = try Self.read("JetsamEvent-two-part.ips")
        #expect(report.form == .headerAndBody)
        #expect(report.bugType == "298")
        #expect(report.osVersion == "iPhone OS 14.5 (18E199)")
        #expect(report.product == "iPhone12,1")
        #expect(report.pageSize == 16_384)
        #expect(report.memoryPages["free"] == 2931 && report.memoryPages["wired"] == 57076)
        #expect(report.compressorPages == 97537)
        #expect(
            report.processes.map(\.name) == [
                "cloudd", "nsurlsessiond", "photoanalysisd", "MobileMail", "MyGame", "SpringBoard",
            ])
        #expect(report.processes.map(\.priority) == [0, 0, 0, 40, 100, 160])
        #expect(report.killed.map(\.pid) == [311, 402])
        #expect(report.killed.allSatisfy { $0.reason == "vm-pageshortage" })
        #expect(report.processes[4].states == ["frontmost", "resume"])
        #expect(report.processes[4].residentPages == 30410)
    }

    @Test("jetsam ranks a batch of idle-band kills as its first ones; the device is what memoryStatus counts")
    func twoPartEvidence() throws {
        let evidence = try Self.read("JetsamEvent-two-part.ips").evidence(source: "r.ips")
        let snapshot = try #require(evidence.snapshot)
        let counted: Int64 = 79418 + 0 + 57076 + 46163 + 2931 + 1141 + 97537
        #expect(snapshot.device.memory == Bytes(counted * 16_384))
        #expect(snapshot.apps.first { $0.id == "MyGame[1544]" }?.state == .active)
        #expect(snapshot.apps.first { $0.id == "MobileMail[1201]" }?.state == .suspended)
        #expect(snapshot.apps.first { $0.id == "cloudd[311]" }?.footprint == Bytes(1310 * 16_384))
        #expect(evidence.missing.contains { $0.hasPrefix("memory limits") })
        let ranking = try #require(try EvidenceRanking(evidence, policy: try Policy.shipped("jetsam")))
        #expect(evidence.killed.map { $0.app.flatMap(ranking.rank(of:)) } == [1, 2])
        let verdicts = ranking.verdicts(for: evidence)
        #expect(
            verdicts[0]
                == "jetsam killed cloudd[311] (vm-pageshortage); jetsam ranks it first, within its first 2 (the kills of this report)"
        )
        // Within the idle band the report's order is the band's queue (first in, first out):
        // the smaller nsurlsessiond comes after cloudd, and photoanalysisd, larger, after both.
        #expect(
            ranking.order.prefix(3).map(\.app.rawValue) == ["cloudd[311]", "nsurlsessiond[402]", "photoanalysisd[455]"])
    }

    @Test("the single-document form; a kill for the process's own limit is not held to a ranking")
    func singleDocument() throws {
        let report = try Self.read("JetsamEvent-single-document.ips")
        #expect(report.form == .singleDocument)
        #expect(report.pageSize == 4096)
        let evidence = report.evidence(source: "r.ips")
        #expect(evidence.killed.map(\.isChoice) == [false])
        let ranking = try #require(try EvidenceRanking(evidence, policy: try Policy.shipped("jetsam")))
        #expect(
            ranking.verdicts(for: evidence) == [
                "jetsam killed Camera[910] (per-process-limit); it passed its own memory limit, which is not a choice "
                    + "among processes: a ranking does not apply"
            ])
    }

    @Test("bad reports are errors with their line, column and field")
    func errors() throws {
        func failure(_ text: String) -> String {
            do {
                _ = try JetsamEventReportParser.report(in: text, file: "r.ips")
                return "no error"
            } catch {
                return error.description
            }
        }
        let header = "{\"bug_type\":\"298\",\"os_version\":\"iPhone OS 15.0\"}\n"
        // The body's lines are the file's: the header is line 1.
        // A body cut short is read for what it holds, and says it was cut.
        let cut = try JetsamEventReportParser.report(
            in: header + "{\n  \"processes\" : [ { \"name\" : \"a\", \"rpages\" : 1 }\n", file: "r.ips")
        #expect(cut.processes.map(\.name) == ["a"] && cut.closedBrackets == 2)
        #expect(
            cut.evidence(source: "r.ips").missing.first?.contains("cut short (2 bracket(s) closed by the reader)")
                == true)
        // What no repair makes JSON is an error at its line, as before.
        let garbled = failure(header + "{\n  \"processes\" : [ { \"name\" : \"a\", \"rpages\" : 1 } ] }\n x")
        #expect(garbled.hasPrefix("r.ips:4:2: "), "\(garbled)")
        #expect(garbled.hasSuffix("(a JetsamEvent report is JSON: a header line and a body, or one document)"))
        #expect(
            failure(header + "{\"memoryStatus\":{}}")
                == "r.ips:2:1: expected a key \"processes\": the list of processes a JetsamEvent report holds")
        #expect(
            failure(header + "{\"processes\":[{\"name\":\"a\",\"rpages\":\"many\"}]}")
                .hasPrefix("r.ips:2:36: processes[0].rpages: "))
        #expect(
            failure(header + "{\"processes\":[{\"rpages\":3}]}")
                == "r.ips:2:15: processes[0]: expected a key \"name\": the process's name")
        #expect(
            failure("{\"bug_type\":\"109\"}\n{\"processes\":[]}")
                == "r.ips:1:13: bug_type: expected a JetsamEvent report (bug_type 298, or 198 for iOS 8's Low Memory "
                + "report), found bug_type \"109\"")
    }

    @Test("a text report's count that is no whole number in range makes no row (found by the report fuzzer)")
    func textCountsOutOfRange() throws {
        let text = """
            Incident Identifier: 7BC7B59F-A13D-44C1-8D57-62508830C0C2
            OS Version:          iPhone OS 7.0.4 (11B554a)
            Date:                2015-08-07 11:20:54 +0800

            Processes
                 Name                    <UUID>                       rpages       lifetime_max fds      [reason]          (state)

                  huge <b3574f4bded1315cb2e50e5de205be48>         1e300             1113  200   [vm-pageshortage]  (resume)
                  nan <1fea8c5a71943151b5cd304c7eb0fd8c>          nan              170  200   [vm-pageshortage]  (daemon)
                  half <be2d64e41bf43e48a09a23fb129eb0b4>          12.5              381  200   [vm-pageshortage]  (daemon)
                  kbd <be2d64e41bf43e48a09a23fb129eb0b5>          381              1e300  200   (daemon)

            **End**
            """
        let report = try JetsamEventReportParser.report(in: text, file: "r.txt")
        #expect(report.processes.map(\.name) == ["kbd"])
        #expect(report.processes.first?.residentPages == 381)
        #expect(report.processes.first?.lifetimeMaxPages == nil)
        #expect(report.partialEntries == 3)
    }

    @Test("recognised by content: a header with bug_type 298 in any spacing, or a body's memoryStatus")
    func detection() {
        #expect(EvidenceFormat.detect(["{\"bug_type\":\"298\",\"timestamp\":\"…\"}"]) == .jetsamEvent)
        #expect(EvidenceFormat.detect(["{\"bug_type\" : \"298\"}"]) == .jetsamEvent)
        #expect(EvidenceFormat.detect(["{", "  \"memoryStatus\" : {"]) == .jetsamEvent)
        #expect(EvidenceFormat.detect(["{\"bug_type\":\"109\"}"]) == nil)
        #expect(EvidenceFormat.jetsamEvent.matchingPolicy == "jetsam")
    }

    @Test("seeded random process lists: every process becomes one app of rpages × page size, the victims found")
    func randomLists() throws {
        try withEvery("seed", in: UInt64(0)..<100) { seed in
            var random = SplitMix64(seed: seed)
            let count = Int(random.next() % 40) + 1
            var entries: [String] = []
            var killed: [Int] = []
            for index in 0..<count {
                let reason = random.next() % 5 == 0 ? ",\"reason\":\"vm-pageshortage\"" : ""
                if !reason.isEmpty { killed.append(1000 + index) }
                entries.append(
                    "{\"name\":\"p \(index) (é)\",\"pid\":\(1000 + index),\"rpages\":\(random.next() % 100_000),"
                        + "\"priority\":\(random.next() % 211),\"states\":[\"daemon\"]\(reason)}")
            }
            let text =
                "{\"bug_type\":\"298\"}\n{\"memoryStatus\":{\"pageSize\":16384},\"processes\":[\n"
                + entries.joined(separator: ",\n") + "\n]}\n"
            let report = try JetsamEventReportParser.report(in: text, file: "r.ips")
            #expect(report.processes.count == count)
            let evidence = report.evidence(source: "r.ips")
            let snapshot = try #require(evidence.snapshot)
            #expect(snapshot.apps.count == count)
            for (process, app) in zip(report.processes, snapshot.apps) {
                #expect(app.footprint == Bytes(process.residentPages * 16_384))
                #expect(app.priority == process.priority)
            }
            #expect(evidence.killed.compactMap(\.pid) == killed)
            #expect(evidence.killed.allSatisfy { $0.app != nil })
            _ = try EvidenceRanking(evidence, policy: try Policy.shipped("jetsam"))
        }
    }
}
