import MemoryPressure
import MemoryPressureFormats

/// Helpers to write lifecycle and pressure scenarios compactly.
extension PressureEngine {
    /// An engine on a device with `memory` and `reserved`, following `policy`.
    public static func scenario(
        memory: Bytes = .mebibytes(512), reserved: Bytes = .mebibytes(96), policy: Policy = .ios4
    ) -> PressureEngine {
        try! PressureEngine(device: Device(memory: memory, reserved: reserved), policy: policy)
    }

    /// Applies `action` at `time` and returns the events it produced, as compact strings.
    @discardableResult
    public func step(_ time: Double, _ action: Action) throws -> [String] {
        try apply(action, at: time)
        return takeEvents().map(\.compact)
    }
}

extension Action {
    /// A launch of `app` with a footprint of `mib` MiB.
    public static func launch(
        _ app: AppID, mib: Int64, modes: BackgroundModes = [], exitsOnSuspend: Bool = false,
        views: [(String, Int64)] = [], purgeableMiB: Int64 = 0, ignoresWarnings: Bool = false
    ) -> Action {
        .launch(
            AppLaunch(
                id: app, footprint: .mebibytes(mib), backgroundModes: modes, exitsOnSuspend: exitsOnSuspend,
                views: views.map { ViewSpec(name: $0.0, bytes: .mebibytes($0.1)) }, purgeable: .mebibytes(purgeableMiB),
                ignoresWarnings: ignoresWarnings))
    }

    /// Opens `app` (cold or warm) with a footprint of `mib` MiB if it has to launch.
    public static func open(
        _ app: AppID, mib: Int64, modes: BackgroundModes = [], views: [(String, Int64)] = [],
        purgeableMiB: Int64 = 0, ignoresWarnings: Bool = false
    ) -> Action {
        .open(
            AppLaunch(
                id: app, footprint: .mebibytes(mib), backgroundModes: modes,
                views: views.map { ViewSpec(name: $0.0, bytes: .mebibytes($0.1)) }, purgeable: .mebibytes(purgeableMiB),
                ignoresWarnings: ignoresWarnings))
    }

    /// `app` allocates `mib` MiB of base memory.
    public static func allocate(_ app: AppID, mib: Int64) -> Action {
        .allocate(app: app, bytes: .mebibytes(mib), purgeable: false)
    }
}

extension Event {
    /// A compact, readable form for assertions: `A didFinishLaunching`, `A notRunning→inactive`,
    /// `level normal→warning`, `B warning 1`, `B view settings viewDidUnload`, `B purge offscreenViews 3MiB`,
    /// `C kill suspended none 40MiB`, `A notification name×2`.
    public var compact: String {
        switch kind {
        case .callback(let app, let name, let level):
            return level.map { "\(app) warning \($0)" } ?? "\(app) \(name.rawValue)"
        case .viewCallback(let app, let view, let name):
            return "\(app) view \(view) \(name.rawValue)"
        case .state(let app, let from, let to):
            return "\(app) \(from.rawValue)→\(to.rawValue)"
        case .level(let from, let to, _):
            return "level \(from.name)→\(to.name)"
        case .purge(let app, let what, let freed):
            return "\(app) purge \(what.rawValue) \(Self.mib(freed))"
        case .kill(let app, let state, _, let notice, let freed):
            return "\(app) kill \(state.rawValue) \(notice.rawValue) \(Self.mib(freed))"
        case .notification(let app, let name, let count):
            return "\(app) notification \(name)×\(count)"
        case .compress(let app, let bytes, let stored, let evicted, _):
            let files = evicted.value > 0 ? " evict \(Self.mib(evicted))" : ""
            return "\(app) compress \(Self.mib(bytes)) into \(Self.mib(stored))\(files)"
        case .decompress(let app, let bytes, let stored, let refaulted, _):
            let files = refaulted.value > 0 ? " refault \(Self.mib(refaulted))" : ""
            return "\(app) decompress \(Self.mib(bytes)) from \(Self.mib(stored))\(files)"
        case .freeze(let app, let bytes, _):
            return "\(app) freeze \(Self.mib(bytes))"
        case .thaw(let app, let bytes, _):
            return "\(app) thaw \(Self.mib(bytes))"
        case .writeback(let app, let bytes, let stored):
            return "\(app) writeback \(Self.mib(bytes)) from \(Self.mib(stored))"
        case .prewarm(let app, let bytes):
            return "\(app) prewarm \(Self.mib(bytes))"
        case .pressure(let crossing):
            return "pressure \(crossing.stall.rawValue) \(crossing.window) \(crossing.direction.rawValue)"
        }
    }

    private static func mib(_ bytes: Bytes) -> String {
        bytes.value % (1 << 20) == 0 ? "\(bytes.value >> 20)MiB" : "\(bytes.value)B"
    }
}
