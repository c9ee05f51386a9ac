import MemoryPressure
import MemoryPressureSimulation

/// Seeded random actions over a fixed set of apps, for invariant and determinism tests. Some
/// actions are impossible in the state they arrive in (the engine refuses them); that is intended.
public struct RandomActionGenerator {
    private var random: SeededGenerator
    private let apps: [AppID]
    private var time: Double = 0

    /// A generator over `apps` app ids, fully determined by `seed`.
    public init(seed: UInt64, apps: Int) {
        random = SeededGenerator(seed: seed)
        self.apps = (0..<apps).map { AppID("com.example.app\($0)") }
    }

    /// The next time and action.
    public mutating func next() -> (Double, Action) {
        time += Double(Int.random(in: 0...5, using: &random))
        let app = apps[Int.random(in: 0..<apps.count, using: &random)]
        let roll = Int.random(in: 0..<100, using: &random)
        let action: Action
        switch roll {
        case 0..<25:
            var modes: BackgroundModes = []
            if app.rawValue.hasSuffix("3") { modes = .audio }
            let viewCount = Int.random(in: 0...3, using: &random)
            let views = (0..<viewCount).map {
                ViewSpec(name: "v\($0)", bytes: .mebibytes(Int64.random(in: 1...8, using: &random)))
            }
            action = .open(
                AppLaunch(
                    id: app, footprint: .mebibytes(Int64.random(in: 40...120, using: &random)), backgroundModes: modes,
                    exitsOnSuspend: app.rawValue.hasSuffix("7"), views: views,
                    purgeable: .mebibytes(Int64.random(in: 0...5, using: &random)),
                    ignoresWarnings: app.rawValue.hasSuffix("5")))
        case 25..<45:
            action = .allocate(
                app: app, bytes: .mebibytes(Int64.random(in: 1...30, using: &random)), purgeable: roll % 2 == 0)
        case 45..<55:
            action = .free(
                app: app, bytes: .mebibytes(Int64.random(in: 1...10, using: &random)), purgeable: roll % 2 == 0)
        case 55..<63: action = .home
        case 63..<68: action = .interrupt
        case 68..<73: action = .interruptEnd(answered: roll % 2 == 0)
        case 73..<76: action = .lock
        case 76..<80: action = .unlock
        case 80..<86:
            action = .showView(app: app, view: "v\(Int.random(in: 0...4, using: &random))", bytes: .mebibytes(3))
        case 86..<90: action = .hideView(app: app, view: "v\(Int.random(in: 0...3, using: &random))")
        case 90..<94: action = .beginBackgroundTask(app: app, seconds: Double(Int.random(in: 1...60, using: &random)))
        case 94..<97: action = .userKill(app: app)
        case 97..<98: action = .notify(name: "timeChange")
        default: action = .tick
        }
        return (time, action)
    }
}
