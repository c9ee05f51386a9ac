import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing
import TestSupport

// Issue 22, items 1 and 5: Android's logs read (logcat formats, lmkd's kill lines of each
// generation, killinfo, ActivityManager's events) and a real device's day replayed, its kills
// set against each policy's. The lines below are written from the format strings the parser's
// documentation cites; they are not copied from a real device (none was at hand).

@Suite("Android logs: read, a device's day rebuilt, kills validated")
struct AndroidDeviceLogTests {
    static func records(_ text: String) throws -> [AndroidLogRecord] {
        try AndroidLogParser.records(in: text, file: "device.log")
    }

    @Test("logcat's threadtime, year, time and epoch formats give the same records")
    func formats() throws {
        let threadtime = try Self.records(
            "11-14 07:03:14.300  1290  1410 I am_proc_start: [0,3007,10100,com.example.mail,activity,{com.example.mail/.Main}]\n"
        )
        let year = try Self.records(
            "2023-11-14 07:03:14.300  1290  1410 I am_proc_start: [0,3007,10100,com.example.mail,activity,{x/.y}]\n")
        let time = try Self.records(
            "11-14 07:03:14.300 I/am_proc_start( 1290): [0,3007,10100,com.example.mail,activity,{x/.y}]\n")
        let epoch = try Self.records(
            "1699945394.300  1290  1410 I am_proc_start: [0,3007,10100,com.example.mail,activity,{x/.y}]\n")
        for records in [threadtime, year, time, epoch] {
            #expect(records.map(\.kind) == [.processStarted(pid: 3007, name: "com.example.mail")])
        }
        #expect(threadtime[0].time.date == "--11-14")
        #expect(year[0].time.date == "2023-11-14")
        // 1699945394 s is 2023-11-14 07:03:14 UTC.
        #expect(epoch[0].time.date == "2023-11-14")
        for records in [threadtime, year, time, epoch] {
            #expect(abs(records[0].time.seconds - (7 * 3600 + 3 * 60 + 14.3)) < 1e-9)
        }
    }

    @Test("lmkd's kill line of every generation, killinfo, am_kill, am_proc_died and the resumes")
    func kinds() throws {
        let text = """
            11-14 08:00:00.000  1290  1410 I wm_set_resumed_activity: [0,com.example.mail/.Inbox,resumeTopActivity]
            11-14 08:00:01.000  1290  1410 I am_set_resumed_activity: [0,com.example.maps/com.example.maps.Main,x]
            11-14 08:00:02.000  1290  1410 I am_focused_activity: [0,com.example.chat/.Main]
            11-14 08:00:03.000  1290  1410 I wm_resume_activity: [0,212345,17,com.example.news/.Main]
            11-14 08:00:04.000   612   612 I lowmemorykiller: Kill 'com.example.maps' (4001), uid 10123, oom_score_adj 900 to free 45678kB rss, 1234kB swap; reason: low watermark is breached
            11-14 08:00:04.010   612   612 I killinfo: [4001,10123,900,200,45678,4,20480,0]
            11-14 08:00:05.000   600   600 I lowmemorykiller: Kill 'com.example.chat' (4002), uid 10124, oom_adj 906 to free 30000kB
            11-14 08:00:06.000   600   600 I lowmemorykiller: Killing 'com.example.news' (4003), uid 10125, adj 915
            11-14 08:00:07.000  1290  1410 I am_kill : [0,4004,com.example.mail:sync,955,empty #17]
            11-14 08:00:07.100  1290  1410 I am_proc_died: [0,4004,com.example.mail:sync,955,19]
            11-14 08:00:08.000  1290  1410 I ActivityManager: Start proc 4010:com.example.x/u0a1 for activity
            not a log line at all

            """
        let kinds = try Self.records(text).map(\.kind)
        #expect(
            kinds == [
                .resumed(package: "com.example.mail"), .resumed(package: "com.example.maps"),
                .resumed(package: "com.example.chat"), .resumed(package: "com.example.news"),
                .lowMemoryKill(
                    pid: 4001, name: "com.example.maps", oomScoreAdj: 900, residentKiB: 45678,
                    reason: "low watermark is breached"),
                .lowMemoryKill(
                    pid: 4001, name: "com.example.maps", oomScoreAdj: 900, residentKiB: 45678, reason: "kill_reason 4"),
                .lowMemoryKill(pid: 4002, name: "com.example.chat", oomScoreAdj: 906, residentKiB: 30000, reason: nil),
                .lowMemoryKill(pid: 4003, name: "com.example.news", oomScoreAdj: 915, residentKiB: nil, reason: nil),
                .activityManagerKill(pid: 4004, name: "com.example.mail:sync", oomAdj: 955, reason: "empty #17"),
                .processDied(pid: 4004, name: "com.example.mail:sync"),
            ])
    }

    @Test("a run of digits too long for an epoch time is not one (found by the usage-log fuzzer)")
    func longDigitRun() throws {
        // 26 digits before the point overflowed Int when read as logcat's epoch time.
        let line = "21111111111111111111111102.911000,com.google.android.youtube\n"
        #expect(try Self.records(line).isEmpty)
        #expect(throws: InputError.self) { try UsageLogImport.parse(line, file: "polled.csv") }
    }

    @Test("a recognised line with a malformed field is an error naming the line and the tag")
    func errors() {
        #expect(
            throws: InputError(
                file: "device.log", line: 2, column: 0, path: "am_kill",
                message: "expected the pid as a whole number, found \"x12\"")
        ) {
            try Self.records(
                "11-14 08:00:00.000  1 1 I am_proc_died: [0,5,a,900,19]\n11-14 08:00:00.000  1 1 I am_kill : [0,x12,a,900,empty]\n"
            )
        }
        #expect(throws: InputError.self) {
            try Self.records("11-14 08:00:00.000  1 1 I lowmemorykiller: Kill 'a' (pid), uid 1\n")
        }
    }

    @Test(
        "a day: one open per resume of another app, one kill per pid (the kill line and killinfo are one), subprocesses are their app"
    )
    func day() throws {
        let text = """
            11-14 08:00:00.000  1 1 I wm_set_resumed_activity: [0,com.example.mail/.Inbox,x]
            11-14 08:00:30.000  1 1 I wm_set_resumed_activity: [0,com.example.mail/.Compose,x]
            11-14 08:01:00.000  1 1 I wm_set_resumed_activity: [0,com.example.maps/.Main,x]
            11-14 09:30:00.000  1 1 I am_proc_start: [0,4004,10100,com.example.mail:sync,service,{x/.y}]
            11-14 09:30:04.000  2 2 I lowmemorykiller: Kill 'com.example.mail' (4000), uid 1, oom_score_adj 900 to free 1kB rss, 0kB swap; reason: r
            11-14 09:30:04.010  2 2 I killinfo: [4000,1,900,200,1,4]
            11-14 09:31:00.000  1 1 I am_kill : [0,4004,com.example.mail:sync,955,empty #17]
            11-14 09:32:00.000  1 1 I am_kill : [0,4005,com.example.weather,955,empty #18]
            11-15 00:10:00.000  1 1 I wm_set_resumed_activity: [0,com.example.chat/.Main,x]

            """
        let days = RealDeviceDay.days(try Self.records(text))
        #expect(days.map(\.date) == ["--11-14", "--11-15"])
        let opens = days[0].trace.entries.compactMap { entry -> String? in
            if case .open(let launch) = entry.action { return "\(entry.time) \(launch.id.rawValue)" }
            return nil
        }
        #expect(opens == ["28800.0 com.example.mail", "28860.0 com.example.maps"])
        #expect(days[0].kills.map(\.app) == ["com.example.mail", "com.example.mail"])
        #expect(days[0].kills.map(\.killer) == ["lmkd", "ActivityManager"])
        // The weather app was never opened: no replay can kill it.
        #expect(days[0].unmatchableKills == 1)
        #expect(days[1].kills.isEmpty)
    }

    @Test("precision and recall pool each window's sets of killed apps")
    func validationArithmetic() throws {
        // A day the phone user generates (seed 1) kills under ios4; the real kills are the
        // policy's first kill, in its hour, plus an app the policy did not kill then.
        let trace = WorkloadGenerator(workload: .phone).trace(seed: 1)
        let policy = try Policy.shipped("ios4")
        let kills = try Replay.events(trace, policy: policy).compactMap { event -> (Double, AppID)? in
            if case .kill(let app, _, _, _, _) = event.kind { return (event.time, app) }
            return nil
        }
        let first = try #require(kills.first)
        let hour = Int(first.0 / 3600)
        let killedInThatHour = Set(kills.filter { Int($0.0 / 3600) == hour }.map(\.1))
        let opened = trace.entries.compactMap { entry -> AppID? in
            if case .open(let launch) = entry.action, entry.time <= first.0 { return launch.id }
            return nil
        }
        let other = try #require(opened.first { !killedInThatHour.contains($0) })
        let day = RealDeviceDay(
            date: "--01-01", trace: trace,
            kills: [
                .init(time: first.0, app: first.1, killer: "lmkd", reason: "", line: 1),
                .init(time: first.0, app: other, killer: "lmkd", reason: "", line: 2),
            ], unmatchableKills: 0)
        let validation = try KillValidation.measure([day], policy: policy)
        let windows = Set(kills.map { "\(Int($0.0 / 3600)) \($0.1.rawValue)" })
        #expect(validation.perHour.simulated == windows.count)
        #expect(validation.perHour.real == 2)
        #expect(validation.perHour.matched == 1)
        #expect(validation.perHour.recall == 0.5)
        #expect(validation.perDay.simulated == Set(kills.map(\.1)).count)
        #expect(validation.perDay.real == 2)
    }
}
