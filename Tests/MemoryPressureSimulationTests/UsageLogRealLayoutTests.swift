import Foundation
import MemoryPressure
import MemoryPressureSimulation
import Testing
import TestSupport

// Issue 48: the two layout families of real usage logs — polled foreground samples and "App
// Usage" exports — read on constructed samples (Examples/usage/README.md: none is a real log),
// their glitches counted with their rules, and app names mapped to the workload's kinds.

@Suite("usage-log layouts of real collectors: polled samples, App Usage exports, app kinds")
struct UsageLogRealLayoutTests {
    /// The text of `Examples/usage/NAME`.
    static func example(_ name: String) throws -> String {
        try String(contentsOfFile: PackagePaths.path("Examples/usage/\(name)"), encoding: .utf8)
    }

    /// The log `text` read with `sampling` (and `format`, else detected).
    static func read(
        _ text: String, file: String, sampling: UsageLogImport.Sampling = .day, format: UsageLogFormat? = nil,
        workload: Workload = .phone
    ) throws -> UsageLogImport.Log {
        try UsageLogImport.read(
            ByteLineReader(.bytes(Array(text.utf8)), file: file, byteOrderMarks: 2), workload: workload,
            sampling: sampling, format: format)
    }

    /// The counts of a log as `count what` lines.
    static func counts(_ log: UsageLogImport.Log) -> [String] { log.rowCounts.map { "\($0.count) \($0.what)" } }

    /// A trace's actions as `time open app` / `time home` lines.
    static func actions(_ trace: Trace) -> [String] { UsageLogLayoutTests.actions(trace) }

    @Test("the layout is detected from the first line")
    func detection() throws {
        #expect(UsageLogFormat.detect(firstLine: "2023-12-14 13:46:39.876000,com.snapchat.android") == .polledSamples)
        #expect(UsageLogFormat.detect(firstLine: "\0\0\u{0}2023-12-23 16:01:14.415000,com.x") == .polledSamples)
        #expect(UsageLogFormat.detect(firstLine: "1700000000000,com.whatsapp") == .polledSamples)
        #expect(UsageLogFormat.detect(firstLine: "timestamp,package") == .polledSamples)
        #expect(
            UsageLogFormat.detect(firstLine: "\"App name\",\"Date\",\"Time\",\"Duration\"") == .appUsage(dateOrder: nil)
        )
        #expect(UsageLogFormat.detect(firstLine: "Nom,Date,Heure,Durée") == .appUsage(dateOrder: nil))
        #expect(UsageLogFormat.detect(firstLine: "user,session,timestamp,app,event") == .events)
        #expect(UsageLogFormat.detect(firstLine: "package,timestamp,event_type") == .events)
        // An event log's header that lacks its event column stays an event log, whose reader says so.
        #expect(UsageLogFormat.detect(firstLine: "user,session,timestamp,app") == .events)
        #expect(UsageLogFormat.detect(firstLine: "user_id\tsession_id\ttimestamp\tapp_name\tevent_type") == .events)
        for name in UsageLogFormat.names { #expect(UsageLogFormat(name: name)?.description == name) }
    }

    @Test("polled samples: a change of package is a switch; placeholders, repeats and rows out of order counted")
    func polled() throws {
        let log = try Self.read(try Self.example("polled-samples.csv"), file: "logs/polled-samples.csv")
        #expect(log.format == .polledSamples)
        #expect(log.samples.map(\.label) == ["polled-samples.csv 2024-03-04", "polled-samples.csv 2024-03-05"])
        #expect(
            Self.counts(log) == [
                "2 repeats of a row above (the same time and package)",
                "1 rows with a placeholder time (Android's 0: 1970-01-01 on the phone's clock)",
                "1 rows earlier than a row above them",
            ])
        #expect(log.rowCounts.map(\.firstLine) == [4, 8, 11])
        #expect(log.rowCounts[2].rule == "kept, placed by their time")
        #expect(log.rows == 13)
        // The collector (com.example.nextapp) in front with nothing open is nothing; the launcher
        // sends the app in front home; the row out of order (line 11) is placed by its time.
        #expect(
            Self.actions(log.samples[0].trace) == [
                "28711.502 open com.whatsapp", "28742.911 open com.google.android.youtube", "29080.007 home",
                "30612.35 open com.android.chrome", "30640.1 open com.instagram.android",
                "30709.8 open com.whatsapp", "30715.42 open com.example.studentfood",
                "44100 open com.supercell.brawlstars", "45630.25 home",
            ])
        #expect(
            Self.actions(log.samples[1].trace) == [
                "32405 open com.spotify.music", "32420 open com.google.android.apps.maps", "33945.5 home",
            ])
        #expect(log.homeApps == ["com.example.nextapp", "com.sec.android.app.launcher"])
        #expect(log.unmappedApps.map(\.name) == ["com.example.studentfood"])
        // Four gaps from 28,711.502 to 30,612.35 s (rows 2, 3, 5, 6, 7 of the first day) are the shortest.
        #expect(log.notes.count == 1)
        #expect(log.notes[0].hasPrefix("polled about every 409 s"))
        // The labels a sharded sweep lists first are the labels the read gives.
        let listed = try UsageLogImport.samples(
            ByteLineReader(.bytes(Array(try Self.example("polled-samples.csv").utf8)), file: "logs/polled-samples.csv"),
            sampling: .day)
        #expect(listed.map(\.label) == log.samples.map(\.label))
    }

    @Test(
        "polled samples: NUL bytes removed and counted, a header accepted, bad lines counted, too few rows to estimate")
    func polledGlitches() throws {
        let text =
            "timestamp,package\n\0\0\02024-01-01 10:00:00.000000,com.whatsapp\nnot a row\n"
            + "2024-01-01 10:01:00.000000,com.android.chrome,extra\n1969-12-31 19:00:00.000000,com.x\n"
            + "yesterday,com.x\n2024-01-01 10:02:00.000000,com.whatsapp\n"
        let log = try Self.read(text, file: "p.csv")
        #expect(log.format == .polledSamples)
        #expect(
            Self.counts(log) == [
                "1 rows with NUL bytes (a write cut short)",
                "1 lines that are not TIME,PACKAGE (expected 2 fields, found 1)",
                "1 lines that are not TIME,PACKAGE (expected 2 fields, found 3)",
                "1 rows with a placeholder time (Android's 0: 1970-01-01 on the phone's clock)",
                "1 rows whose time is not a date and time such as 2023-12-14 13:46:39.876000",
            ])
        // The second WhatsApp row is the app already in front: no switch.
        #expect(Self.actions(log.samples[0].trace) == ["36000 open com.whatsapp"])
        #expect(log.notes == ["poll interval not estimated: fewer than 5 distinct times"])
    }

    @Test("App Usage, English: month first from a value, newest first, a session is its start plus its duration")
    func appUsageEnglish() throws {
        let log = try Self.read(try Self.example("app-usage-en.csv"), file: "app-usage-en.csv")
        #expect(log.format == .appUsage(dateOrder: nil))
        #expect(log.samples.map(\.label) == ["app-usage-en.csv 2024-03-13", "app-usage-en.csv 2024-03-14"])
        #expect(
            log.notes == ["dates read month first (14 in the second field at line 2)", "rows listed newest first"])
        #expect(
            Self.actions(log.samples[0].trace) == [
                "79498 open Spotify", "79500 home", "79500 open Maps", "79800 home", "86040 open Phone",
                "86085 home", "86100 open Brawl Stars",
            ])
        // Brawl Stars' session ends after midnight: the next day does not carry it.
        #expect(
            Self.actions(log.samples[1].trace) == [
                "71290 open Chrome", "71395 home", "71400 open YouTube", "72120 home", "77910 open WhatsApp",
                "78000 home",
            ])
        #expect(
            Self.counts(log) == [
                "2 notification rows (\"Notification posted (…)\")",
                "3 screen on rows (\"Screen on (unlocked)\")",
                "1 screen off rows (\"Screen off (locked)\")",
                "1 screen on rows (\"Screen on (locked)\")",
                "1 screen off rows (\"Screen off\")",
                "1 device boot rows (\"Device boot\")",
                "1 device shutdown rows (\"Device shutdown\")",
            ])
        #expect(log.rowCounts.allSatisfy { $0.rule == "counted, not an app session" })
        #expect(log.homeApps == ["App Usage"])
        #expect(log.unmappedApps.isEmpty)
    }

    @Test("App Usage, French: day first, decided by 29/02/2024 after rows that do not decide; unknown kinds counted")
    func appUsageFrench() throws {
        let log = try Self.read(try Self.example("app-usage-fr.csv"), file: "app-usage-fr.csv")
        #expect(log.samples.map(\.label) == ["app-usage-fr.csv 2024-02-29", "app-usage-fr.csv 2024-03-01"])
        #expect(log.notes == ["dates read day first (29 in the first field at line 9)", "rows listed newest first"])
        #expect(
            Self.actions(log.samples[0].trace) == [
                "47640 open Caméra", "47700 home", "75300 open Boutique Amazon", "75480 home",
                "75480 open Google Actualités", "75600 home", "83280 open Téléphone", "83400 home",
            ])
        // IU syst. (System UI) is the home screen: with nothing in front it is nothing.
        #expect(
            Self.actions(log.samples[1].trace) == [
                "27900 open Horloge", "27910 home", "66580 open Messenger", "66610 home",
            ])
        #expect(
            Self.counts(log) == [
                "1 notification rows (\"Notification posted (…)\")",
                "2 screen on rows (\"Écran allumé (déverrouillé)\")",
                "1 screen on rows (\"Écran allumé (verrouillé)\")",
                "1 screen off rows (\"Écran éteint (verrouillé)\")",
                "1 screen off rows (\"Écran éteint\")",
                "1 device boot rows (\"Appareil allumé\")",
                "1 device shutdown rows (\"Appareil éteint\")",
                "1 rows of an unknown kind (\"Powiadomienie (…)\", with no duration)",
            ])
        #expect(log.homeApps == ["App Usage", "IU syst."])
        #expect(log.unmappedApps.isEmpty)
    }

    @Test("App Usage without quotes, oldest first: the field that changes is the day; the export's notes counted")
    func appUsageUnquoted() throws {
        let text = try Self.example("app-usage-unquoted.csv")
        let log = try Self.read(text, file: "dataset.csv")
        #expect(log.samples.map(\.label) == ["dataset.csv 2019-01-02", "dataset.csv 2019-01-03"])
        #expect(log.notes.count == 1)
        #expect(log.notes[0].hasPrefix("dates read month first: no date has a field above 12"))
        #expect(
            Self.actions(log.samples[0].trace) == [
                "28800 open Google", "28830 home", "28830 open Instagram", "28950 home",
            ])
        #expect(
            Self.actions(log.samples[1].trace) == [
                "36000 open WhatsApp", "36060 home", "36300 open WhatsApp", "36340 home",
            ])
        #expect(
            Self.counts(log).contains(
                "2 the export's own notes (rows with no date, time or duration, such as \"Activity history, …\")"))
        // Forced day first, the same rows are on 1 February and 1 March.
        let forced = try Self.read(text, file: "dataset.csv", format: .appUsage(dateOrder: .dayFirst))
        #expect(forced.samples.map(\.label) == ["dataset.csv 2019-02-01", "dataset.csv 2019-03-01"])
        #expect(forced.notes == ["dates read day first, as the format given says"])
    }

    @Test("an export listed oldest first gives the same traces as newest first")
    func rowOrder() throws {
        let text = try Self.example("app-usage-en.csv")
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let reversed = ([lines[0]] + lines.dropFirst().reversed()).joined(separator: "\n") + "\n"
        let newest = try Self.read(text, file: "a.csv")
        let oldest = try Self.read(reversed, file: "a.csv")
        #expect(oldest.notes == ["dates read month first (13 in the second field at line 2)"])
        #expect(oldest.samples.map { Self.actions($0.trace) } == newest.samples.map { Self.actions($0.trace) })
    }

    @Test("dates, times and durations as the exports write them")
    func fields() throws {
        // 5:30:15 PM is 17:30:15; a row whose time cannot be read is counted, not a reason to refuse.
        let text =
            "App name,Date,Time,Duration\nChrome,2019-12-05,5:30:15 PM,0:01\nChrome,05.12.2019,25:00:00,0:00:01\n"
            + "Chrome,13/13/19,10:00:00,0:00:01\nChrome,12/5/19,10:00:00,one minute\nChrome,12/5/19,12:00:00 am,1:00\n"
        let log = try Self.read(text + "Chrome,2019. 12. 5.,23:00:00,0:00:01\n", file: "f.csv")
        #expect(log.samples.map(\.label) == ["f.csv 2019-12-05"])
        #expect(
            Self.actions(log.samples[0].trace) == [
                "0 open Chrome", "60 home", "63015 open Chrome", "63016 home", "82800 open Chrome", "82801 home",
            ])
        #expect(
            Self.counts(log) == [
                "1 rows whose time is not a time such as 17:30:15 or 5:30:15 PM",
                "1 rows whose date is not a date such as 12/5/19, 5.12.2019 or 2019-12-05",
                "1 rows whose duration is not a duration such as 0:03:01",
            ])
    }

    @Test("the app-kind table: names, display names, patterns, the home screen, overrides")
    func kinds() throws {
        let table = AppKindTable.builtIn
        #expect(table.role(of: "com.whatsapp") == .kind("messaging"))
        #expect(table.role(of: "  whatsapp ") == .kind("messaging"))
        #expect(table.role(of: "Google\u{A0}Actualités") == .kind("news"))
        #expect(table.role(of: "com.example.game.puzzle") == .kind("game"))
        #expect(table.role(of: "com.supercell.clashofclans") == .kind("game"))
        #expect(table.role(of: "com.google.android.apps.maps") == .kind("navigation"))
        #expect(table.role(of: "com.sec.android.app.launcher") == .home)
        #expect(table.role(of: "com.vendor.launcher") == .home)
        #expect(table.role(of: "com.example.nextapp") == .home)
        #expect(table.role(of: "App Usage") == .home)
        #expect(table.role(of: "com.example.unknown") == nil)
        // Every kind the table names is a kind of the phone workloads.
        let kinds = Set(PhoneUser.iOS4Kinds.map(\.name))
        #expect(Set(AppKindTable.builtInKinds) == kinds)
        for entry in table.entries {
            if case .kind(let name) = entry.role { #expect(kinds.contains(name), "\(entry.pattern): \(name)") }
        }
        let overridden = table.overridden(by: [.init("com.whatsapp", .kind("voip")), .init("com.example.*", .home)])
        #expect(overridden.role(of: "com.whatsapp") == .kind("voip"))
        #expect(overridden.role(of: "com.example.unknown") == .home)
        #expect(overridden.role(of: "com.instagram.android") == .kind("social"))
    }

    @Test("a workload file's appKinds override the table; an unknown kind is refused with its line")
    func workloadOverrides() throws {
        let workload = try Workload(
            yaml: "appKinds:\n  com.example.studentfood: utility\n  \"com.sec.*\": game\n", file: "w.yaml")
        #expect(workload.appKinds.role(of: "com.example.studentfood") == .kind("utility"))
        #expect(workload.appKinds.role(of: "com.sec.android.app.launcher") == .game)
        let log = try Self.read(try Self.example("polled-samples.csv"), file: "p.csv", workload: workload)
        #expect(log.unmappedApps.isEmpty)
        #expect(log.homeApps == ["com.example.nextapp"])
        do {
            _ = try Workload(yaml: "appKinds:\n  com.x: gaems\n", file: "w.yaml")
            Issue.record("an unknown kind was accepted")
        } catch {
            #expect(error.description.hasPrefix("w.yaml:2:10: appKinds.com.x: expected home or a kind of the workload"))
        }
    }

    @Test("an app of a kind is sized from its kind's footprint distribution")
    func footprints() throws {
        // The same name sized as a game and as a utility: the game's median is 6 times larger.
        let text = "2024-01-01 10:00:00,a.game.x\n2024-01-01 10:01:00,com.whatsapp\n"
        var small = Workload.phone
        small.appKinds = AppKindTable([.init("a.game.x", .kind("utility"))])
        let asGame = try Self.read(text, file: "p.csv")
        let asUtility = try Self.read(text, file: "p.csv", workload: small)
        func footprint(_ log: UsageLogImport.Log) -> Int64 {
            guard case .open(let launch) = log.samples[0].trace.entries[0].action else { return -1 }
            return launch.footprint.value
        }
        #expect(footprint(asGame) > footprint(asUtility))
    }
}

extension AppRole {
    /// The game kind, for the tests.
    static let game = AppRole.kind("game")
}

/// The real logs of issue 48 (`scripts/fetch-real-usage.sh` fetches them and checks their
/// hashes): read when `MEMPRESSURE_REAL_USAGE` names their directory, or `real-usage/` at the
/// repository's root holds them; skipped otherwise.
@Suite("usage logs: the real logs, when fetched")
struct UsageLogRealFilesTests {
    static let directory: String? = {
        let candidates = [
            ProcessInfo.processInfo.environment["MEMPRESSURE_REAL_USAGE"], PackagePaths.path("real-usage"),
        ]
        return candidates.compactMap { $0 }.first {
            FileManager.default.fileExists(atPath: "\($0)/next-app-prediction/user_b_data.csv")
        }
    }()

    @Test("every real log reads, with one sample a user-day and every glitch counted", .enabled(if: directory != nil))
    func realLogs() throws {
        let root = try #require(Self.directory)
        let expected: [(String, UsageLogFormat, Int)] = [
            ("next-app-prediction/user_b_data.csv", .polledSamples, 16),
            ("next-app-prediction/user_c_data.csv", .polledSamples, 12),
            ("next-app-prediction/user_i_data.csv", .polledSamples, 15),
            ("next-app-prediction/user_s_data.csv", .polledSamples, 12),
            ("next-app-prediction/dataset.csv", .appUsage(dateOrder: nil), 7),
            ("app-usage-exports/user1-AUM_V4_Activity_2019-12-05_00-46-03.csv", .appUsage(dateOrder: nil), 27),
            ("app-usage-exports/user2-AUM_V4_Activity_2019-12-10_22-19-45.csv", .appUsage(dateOrder: nil), 32),
        ]
        for (name, format, days) in expected {
            let path = "\(root)/\(name)"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let log = try UsageLogImport.read(
                ByteLineReader(.bytes(Array(text.utf8)), file: name), sampling: .day)
            #expect(log.format == format, "\(name)")
            #expect(log.samples.count == days, "\(name)")
            #expect(Set(log.samples.map(\.label)).count == log.samples.count, "\(name)")
            #expect(!log.notes.isEmpty, "\(name)")
            if format == .polledSamples {
                #expect(log.notes[0].hasPrefix("polled about every 1"), "\(name): \(log.notes)")
            }
        }
        // The held-out logs, if fetched: a French export with day-first dates and two more polled users.
        let heldOut: [(String, UsageLogFormat, String)] = [
            (
                "held-out/user3-AUM_V4_Activity_2019-12-10_14-47-33.csv", .appUsage(dateOrder: nil),
                "dates read day first"
            ),
            ("held-out/user_t_data.csv", .polledSamples, "polled about every 1"),
            ("held-out/user_z_data.csv", .polledSamples, "polled about every 1"),
        ]
        for (name, format, note) in heldOut where FileManager.default.fileExists(atPath: "\(root)/\(name)") {
            let text = try String(contentsOfFile: "\(root)/\(name)", encoding: .utf8)
            let log = try UsageLogImport.read(ByteLineReader(.bytes(Array(text.utf8)), file: name), sampling: .day)
            #expect(log.format == format, "\(name)")
            #expect(log.notes.first?.hasPrefix(note) == true, "\(name): \(log.notes)")
            #expect(log.samples.count > 20, "\(name)")
        }
        let b = try UsageLogImport.read(
            ByteLineReader(
                .bytes(
                    Array(
                        try String(contentsOfFile: "\(root)/next-app-prediction/user_b_data.csv", encoding: .utf8).utf8)
                ), file: "b"),
            sampling: .day)
        #expect(b.rowCounts.map(\.count) == [1907, 21])
        let s = try UsageLogImport.read(
            ByteLineReader(
                .bytes(
                    Array(
                        try String(contentsOfFile: "\(root)/next-app-prediction/user_s_data.csv", encoding: .utf8).utf8)
                ), file: "s"),
            sampling: .day)
        #expect(s.rowCounts.contains { $0.what == "rows with NUL bytes (a write cut short)" && $0.count == 1 })
    }
}
