import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation
import Testing

/// The tenant model's sessions (``WorkloadGenerator`` without a ``PhoneUser``): view switches,
/// growth, interruptions, locks and trips Home within a session. The built-in `server` workload
/// never reaches them (its sessions last a second, and it has no interruptions, locks or Home),
/// so they are driven here by a workload file's rates.
@Suite("The tenant model's sessions")
struct TenantSessionTests {
    /// `server`'s tenants at a phone's pace: 6 sessions an hour of about 10 minutes each, so every
    /// in-session event occurs.
    static let slowTenants: Workload = {
        var workload = Workload.server
        workload.apps = 60
        workload.preload = 0
        workload.hours = 12
        workload.device = Device(memory: .mebibytes(256), reserved: .mebibytes(160))
        workload.switchesPerHour = 6
        workload.interruptionsPerHour = 6
        workload.locksPerHour = 4
        workload.lockSeconds = LogNormal(median: 120, p99: 1_800)
        workload.viewSwitchesPerMinute = 2
        workload.growthPerMinute = .mebibytes(2)
        workload.homeShare = 0.3
        return workload
    }()

    @Test("a session switches views, grows, is interrupted, locks, gives memory back and goes Home")
    func everyInSessionAction() {
        let trace = WorkloadGenerator(workload: Self.slowTenants).trace(seed: 11)
        var seen: Set<String> = []
        var answered = 0
        var unanswered = 0
        for entry in trace.entries {
            switch entry.action {
            case .open: seen.insert("open")
            case .showView: seen.insert("showView")
            case .allocate(_, let bytes, let purgeable):
                #expect(bytes == Self.slowTenants.growthPerMinute && !purgeable)
                seen.insert("allocate")
            case .free: seen.insert("free")
            case .interrupt: seen.insert("interrupt")
            case .interruptEnd(let wasAnswered): if wasAnswered { answered += 1 } else { unanswered += 1 }
            case .lock: seen.insert("lock")
            case .unlock: seen.insert("unlock")
            case .home: seen.insert("home")
            case .beginBackgroundTask: seen.insert("beginBackgroundTask")
            default: break
            }
        }
        #expect(
            seen == [
                "open", "showView", "allocate", "free", "interrupt", "lock", "unlock", "home", "beginBackgroundTask",
            ])
        #expect(answered > 0 && unanswered > 0)
        // Time never runs backwards, and the day ends at the workload's hours (the last session
        // is cut there, and the closing tick follows it).
        #expect(zip(trace.entries, trace.entries.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(trace.entries.last.map { $0.time >= Self.slowTenants.hours * 3600 } == true)
    }

    @Test("an app gives back half of what it grew when the user leaves it, unless a call took the user away")
    func growthGivenBackOnLeaving() {
        let trace = WorkloadGenerator(workload: Self.slowTenants).trace(seed: 5)
        var grown: [AppID: Int64] = [:]
        var current: AppID?
        var checked = 0
        for entry in trace.entries {
            switch entry.action {
            case .open(let launch):
                current = launch.id
                grown[launch.id] = 0
            case .allocate(let app, let bytes, _):
                #expect(app == current)
                grown[app, default: 0] += bytes.value
            case .free(let app, let bytes, _):
                #expect(app == current)
                #expect(bytes.value == grown[app, default: 0] / 2)
                checked += 1
            default: break
            }
        }
        #expect(checked > 3)
    }

    @Test("every shipped policy replays these sessions; only actions aimed at killed apps are skipped")
    func everyPolicyReplays() throws {
        let trace = WorkloadGenerator(workload: Self.slowTenants).trace(seed: 3)
        var killed = 0
        for name in Policy.shippedNames {
            let metrics = try SimulationRun.run(trace, policy: try Policy.shipped(name), launchCost: .server).metrics
            #expect(metrics.coldLaunches + metrics.warmResumes > 20, "\(name)")
            if metrics.kills == 0 { #expect(metrics.skippedActions == 0, "\(name)") }
            killed += metrics.kills
        }
        // 96 MiB for the apps: memory runs short, so the kill paths are replayed too.
        #expect(killed > 0)
    }
}
