import Foundation
import MemoryPressure
import MemoryPressureSimulation
import Testing
import TestSupport

// Issue 22, item 4: usage logs as people have them — LSApp's TSV, Android UsageStatsManager
// exports, one sample per user-day, unknown event types counted and skipped.

@Suite("usage-log layouts: LSApp, UsageStats, days")
struct UsageLogLayoutTests {
    /// The log `text` read with `sampling`.
    static func read(_ text: String, file: String = "log.tsv", sampling: UsageLogImport.Sampling)
        throws -> UsageLogImport.Log
    {
        try UsageLogImport.read(
            ByteLineReader(.bytes(Array(text.utf8)), file: file, byteOrderMarks: 2), sampling: sampling)
    }

    /// A trace's actions as `time open app` / `time home` lines.
    static func actions(_ trace: Trace) -> [String] {
        trace.entries.map { entry in
            let time = entry.time == entry.time.rounded() ? String(Int(entry.time)) : String(entry.time)
            switch entry.action {
            case .open(let launch): return "\(time) open \(launch.id.rawValue)"
            case .home: return "\(time) home"
            default: return "\(time) other"
            }
        }
    }

    /// Constructed in LSApp's layout (Aliannejadi et al., TOIS 2021; github.com/aliannejadi/LSApp:
    /// `user_id session_id timestamp app_name event_type`, tab-separated, zone-less times): these
    /// rows are not the dataset's.
    static let lsappLayout = """
        user_id\tsession_id\ttimestamp\tapp_name\tevent_type
        0\t1\t2018-01-16 06:01:05\tMinesweeper Classic (Mines)\tOpened
        0\t1\t2018-01-16 06:01:40\tMinesweeper Classic (Mines)\tUser Interaction
        0\t1\t2018-01-16 06:03:05\tMinesweeper Classic (Mines)\tClosed
        0\t2\t2018-01-16 12:10:00\tGmail\tUser Interaction
        0\t2\t2018-01-16 12:12:00\tGmail\tBroken
        0\t2\t2018-01-16 12:12:30\tGmail\tClosed
        0\t3\t2018-01-17 07:00:00\tCafé Pâtisserie — Menü\tOpened
        0\t3\t2018-01-17 07:05:00\tCafé Pâtisserie — Menü\tClosed
        1\t4\t2018-01-17 23:59:00\tWhatsApp Messenger\tOpened
        1\t4\t2018-01-18 00:01:00\tWhatsApp Messenger\tClosed

        """

    @Test("LSApp's layout: a sample per user-day from local midnight, User Interaction opens, Broken closes")
    func lsappDays() throws {
        let log = try Self.read(Self.lsappLayout, sampling: .day)
        #expect(log.samples.map(\.label) == ["0 2018-01-16", "0 2018-01-17", "1 2018-01-17", "1 2018-01-18"])
        #expect(log.skippedEvents.isEmpty)
        #expect(log.rows == 10)
        // 06:01:05 is 21,665 s after midnight; the interaction of the open app is not another open;
        // an interaction of an app not in front opens it; Broken closes it; the Closed after is nothing.
        #expect(
            Self.actions(log.samples[0].trace) == [
                "21665 open Minesweeper Classic (Mines)", "21785 home", "43800 open Gmail", "43920 home",
            ])
        #expect(Self.actions(log.samples[1].trace) == ["25200 open Café Pâtisserie — Menü", "25500 home"])
        // A session across midnight is cut there: the next day starts with the app closed.
        #expect(Self.actions(log.samples[2].trace) == ["86340 open WhatsApp Messenger"])
        #expect(Self.actions(log.samples[3].trace) == [])
    }

    @Test("--sample user keeps one sample per user, from its first row")
    func lsappUsers() throws {
        let log = try Self.read(Self.lsappLayout, sampling: .user)
        #expect(log.samples.map(\.label) == ["0", "1"])
        #expect(log.samples.allSatisfy { $0.day == nil })
        #expect(Self.actions(log.samples[1].trace) == ["0 open WhatsApp Messenger", "120 home"])
        // The labels a sharded sweep learns first are the labels the read gives.
        for sampling in UsageLogImport.Sampling.allCases {
            let labels = try UsageLogImport.samples(
                ByteLineReader(.bytes(Array(Self.lsappLayout.utf8)), file: "log.tsv"), sampling: sampling
            ).map(\.label)
            #expect(labels == (try Self.read(Self.lsappLayout, sampling: sampling)).samples.map(\.label))
        }
    }

    @Test("hours keeps each sample's first hours: from a user's first row, or from the day's midnight")
    func firstHours() throws {
        func read(_ sampling: UsageLogImport.Sampling, hours: Double?) throws -> [[String]] {
            try UsageLogImport.read(
                ByteLineReader(.bytes(Array(Self.lsappLayout.utf8)), file: "log.tsv"), sampling: sampling, hours: hours
            ).samples.map { Self.actions($0.trace) }
        }
        // User 0's first row is at 06:01:05 on the 16th: 24 hours keep the 16th, not the 17th's 07:00.
        let whole = try read(.user, hours: nil)
        let day = try read(.user, hours: 24)
        #expect(whole[0].count == 6 && day[0] == Array(whole[0].prefix(4)))
        #expect(day[0].last == "22255 home")  // Gmail broken at 12:12:00
        #expect(day[1] == whole[1])
        // By day, from midnight: 7 hours keep the 16th's 06:01 and drop its 12:10; the 17th's
        // open at 07:00:00 is at the cut, which is half-open, and goes. Every day stays a sample.
        let mornings = try read(.day, hours: 7)
        #expect(mornings[0] == ["21665 open Minesweeper Classic (Mines)", "21785 home"])
        #expect(mornings.count == (try read(.day, hours: nil)).count && mornings[1].isEmpty)
        #expect(try read(.day, hours: 7.001)[1] == ["25200 open Café Pâtisserie — Menü"])
        // Hours past every sample's end change nothing.
        #expect(try read(.user, hours: 8760) == whole)
    }

    @Test("the day is the user's: an ISO 8601 offset moves the time, not the clock the day is cut by")
    func offsets() throws {
        let log = try Self.read(
            """
            user,timestamp,app,event
            u,2020-03-01T23:30:00-08:00,Maps,Opened
            u,2020-03-01T23:40:00-08:00,Maps,Closed

            """, file: "log.csv", sampling: .day)
        #expect(log.samples.map(\.label) == ["u 2020-03-01"])
        #expect(Self.actions(log.samples[0].trace) == ["84600 open Maps", "85200 home"])
    }

    /// Android UsageStatsManager events as commonly exported: package, epoch milliseconds, the
    /// `UsageEvents.Event` type by name or value, no user column. Constructed, not a real export.
    static let usageStats = """
        package,timestamp,event_type
        com.android.launcher3,1700000000000,ACTIVITY_RESUMED
        com.android.launcher3,1700000005000,ACTIVITY_PAUSED
        com.google.android.gm,1700000005100,ACTIVITY_RESUMED
        com.android.launcher3,1700000005600,ACTIVITY_STOPPED
        com.google.android.gm,1700000030000,ACTIVITY_PAUSED
        com.google.android.gm,1700000030300,ACTIVITY_RESUMED
        com.google.android.gm,1700000030400,ACTIVITY_STOPPED
        com.google.android.gm,1700000090000,ACTIVITY_PAUSED
        com.google.android.gm,1700000090500,ACTIVITY_STOPPED
        android,1700000091000,SCREEN_NON_INTERACTIVE
        android,1700000099000,SCREEN_INTERACTIVE
        android,1700000099500,SCREEN_NON_INTERACTIVE
        com.whatsapp,1700050000000,1
        com.whatsapp,1700050060000,2

        """

    @Test("UsageStats: milliseconds, no user column, an activity change inside an app is not a leave")
    func usageStats() throws {
        let log = try Self.read(Self.usageStats, file: "exports/phone.csv", sampling: .day)
        // 1700000000 s is 2023-11-14 22:13:20 UTC; 1700050000 s is 2023-11-15 12:06:40 UTC.
        #expect(log.samples.map(\.label) == ["phone.csv 2023-11-14", "phone.csv 2023-11-15"])
        // The launcher is the home screen, not an app (issue 48): its resume with nothing in front is nothing.
        #expect(
            Self.actions(log.samples[0].trace) == ["80005.1 open com.google.android.gm", "80090 home"])
        #expect(log.homeApps == ["com.android.launcher3"])
        #expect(Self.actions(log.samples[1].trace) == ["43600 open com.whatsapp", "43660 home"])
        #expect(
            log.skippedEvents == [
                .init(type: "SCREEN_NON_INTERACTIVE", count: 2, firstLine: 11),
                .init(type: "SCREEN_INTERACTIVE", count: 1, firstLine: 12),
            ])
    }

    @Test("a milliseconds column by name; a seconds file refuses a millisecond time")
    func units() throws {
        let named = try Self.read(
            "user,time_ms,app,event\nu,5000,a,MOVE_TO_FOREGROUND\nu,65000,a,MOVE_TO_BACKGROUND\n", file: "log.csv",
            sampling: .user)
        #expect(Self.actions(named.samples[0].trace) == ["0 open a", "60 home"])
        #expect(
            throws: InputError(
                file: "log.csv", line: 3, column: 3, path: "timestamp",
                message:
                    "expected seconds from -1e11 to 1e11 or a valid ISO 8601 time such as 2016-05-03T08:15:00Z, "
                    + "found \"1700000000000\"")
        ) {
            try Self.read(
                "user,timestamp,app,event\nu,10,a,Opened\nu,1700000000000,a,Closed\n", file: "log.csv", sampling: .user)
        }
    }

    @Test("unknown event types are counted once each; a log of nothing else has no sample; too many types fail")
    func unknownEvents() throws {
        let log = try Self.read(
            "user,timestamp,app,event\nu,1,a,Started\nu,2,a,started\nu,3,a,Crashed\n", file: "log.csv",
            sampling: .day)
        #expect(log.samples.isEmpty)
        #expect(log.rows == 0)
        #expect(
            log.skippedEvents == [
                .init(type: "Started", count: 2, firstLine: 2), .init(type: "Crashed", count: 1, firstLine: 4),
            ])
        var text = "user,timestamp,app,event\n"
        for index in 0...UsageLogReader.maximumSkippedTypes { text += "u,\(index),a,kind\(index)\n" }
        #expect(
            throws: InputError(
                file: "log.csv", line: UsageLogReader.maximumSkippedTypes + 2, column: 8, path: "event",
                message:
                    "expected a usage event (Opened, Closed, User Interaction, Broken, ACTIVITY_RESUMED, "
                    + "ACTIVITY_PAUSED, ACTIVITY_STOPPED, MOVE_TO_FOREGROUND, MOVE_TO_BACKGROUND); 64 other event "
                    + "types were skipped already, found another: \"kind64\"")
        ) { try Self.read(text, file: "log.csv", sampling: .day) }
    }

    @Test("every vocabulary's names and values, in any case and spacing")
    func vocabulary() {
        let cases: [(String, UsageEvent?)] = [
            ("Opened", .opened), ("closed", .closed), ("User Interaction", .userInteraction),
            ("user_interaction", .userInteraction), ("Broken", .broken), ("MOVE_TO_FOREGROUND", .activityResumed),
            ("activity-resumed", .activityResumed), ("1", .activityResumed), ("2", .activityPaused),
            ("MOVE_TO_BACKGROUND", .activityPaused), ("23", .activityStopped), ("ACTIVITY_STOPPED", .activityStopped),
            ("7", nil), ("SCREEN_INTERACTIVE", nil), ("", nil), (String(repeating: "opened", count: 10), nil),
        ]
        for (text, expected) in cases { #expect(UsageEvent(text) == expected, "\(text)") }
    }

    @Test("seeded random logs: every user-day sample holds exactly its day's rows' opens, in order, within the day")
    func randomDays() throws {
        try withEvery("seed", in: UInt64(0)..<200) { seed in
            var random = SplitMix64(seed: seed)
            var text = "user\ttimestamp\tapp\tevent\n"
            var opens: [String: Int] = [:]
            var foreground: [String: String] = [:]
            var time = 1_500_000_000 + Int(random.next() % 86_400)
            for _ in 0..<Int(random.next() % 60) {
                let user = "u\(random.next() % 3)"
                let app = ["Mail", "Maps (beta)", "Ünïcode"][Int(random.next() % 3)]
                let open = random.next() % 2 == 0
                time += Int(random.next() % 20_000)
                text += "\(user)\t\(time)\t\(app)\t\(open ? "Opened" : "Closed")\n"
                let day = "\(user) \(time / 86_400)"
                if open {
                    if foreground[day] != app { opens[day, default: 0] += 1 }
                    foreground[day] = app
                } else if foreground[day] == app {
                    foreground[day] = nil
                }
            }
            let log = try Self.read(text, sampling: .day)
            var counted: [String: Int] = [:]
            for sample in log.samples {
                let times = sample.trace.entries.map(\.time)
                #expect(times == times.sorted())
                #expect(times.allSatisfy { $0 >= 0 && $0 < 86_400 })
                let count = sample.trace.entries.filter { if case .open = $0.action { true } else { false } }.count
                if count > 0 { counted[sample.user + " " + String(sampleDay(sample.day!))] = count }
            }
            #expect(counted == opens.filter { $0.value > 0 })
        }
    }

    /// Days since 1970 of a `YYYY-MM-DD` date, by Foundation (the inverse the import must agree with).
    func sampleDay(_ date: String) -> Int {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return Int(formatter.date(from: date)!.timeIntervalSince1970 / 86_400)
    }
}
