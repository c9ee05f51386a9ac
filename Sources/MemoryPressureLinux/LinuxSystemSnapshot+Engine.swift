import MemoryPressure

extension LinuxProcess {
    /// The app id the engine knows this process by: `name[pid]` (names alone are not unique).
    /// Policy name patterns also match the name part alone.
    public var appID: AppID { AppID("\(name)[\(pid.rawValue)]") }

    /// This process as an app of an engine snapshot: executing (`background`), its RSS as the
    /// footprint, with its swap, page tables and oom_score_adj.
    public var residentApp: ResidentApp {
        ResidentApp(
            id: appID, state: .background, footprint: resident, oomScoreAdj: oomScoreAdj, swap: swap,
            pageTables: pageTables)
    }
}

extension LinuxSystemSnapshot {
    /// This machine as an engine snapshot: the device is `MemTotal` (no reserve) plus `SwapTotal`,
    /// every user-space process is an app, and the memory used outside them
    /// (`MemTotal − MemAvailable − Σ RSS`, never negative) is unattributed, so the engine's free
    /// memory is the kernel's `MemAvailable` whenever RSS does not double-count shared pages.
    /// The global init process (pid 1) is left out: the kernel never kills it; so is
    /// ``excludedProcessID`` (this tool's own process on the live `/proc`), whose memory counts
    /// as unattributed.
    public var engineSnapshot: Snapshot {
        let apps = rankedProcesses.map(\.residentApp)
        return Snapshot(
            device: Device(
                memory: memory.total, reserved: .zero, swap: memory.swapTotal,
                swapFree: min(memory.swapFree, memory.swapTotal)), apps: apps,
            unattributed: unattributedMemory)
    }

    /// `MemTotal − MemAvailable − Σ RSS` of the processes in the snapshot, never negative.
    public var unattributedMemory: Bytes {
        let resident = rankedProcesses.reduce(Int64(0)) { $0 + $1.resident.value }
        return Bytes(max(memory.total.value - memory.available.value - resident, 0))
    }

    /// The processes that become apps: all but pid 1 and ``excludedProcessID``.
    var rankedProcesses: [LinuxProcess] {
        processes.processes.filter { $0.pid.rawValue != 1 && $0.pid != excludedProcessID }
    }
}

/// A kill order of this machine kept up to date across refreshes: each refresh re-reads `/proc`
/// and moves only what changed in the engine's kill queue, instead of rebuilding and sorting.
/// Read-only: it never sends a signal.
public final class LiveKillOrder {
    /// The engine holding the processes; read its `PressureEngine.killOrder(limit:)`.
    public private(set) var engine: PressureEngine
    /// Where `/proc` is read from.
    public let fileSystem: ProcFileSystem
    /// Whether each refresh reads every process's `oom_score` too (``LinuxProcess/kernelOOMScore``:
    /// for comparison only, the ranking never uses it).
    public let includingKernelScores: Bool
    /// The last reading.
    public private(set) var snapshot: LinuxSystemSnapshot
    private var known: Set<AppID> = []
    private var time = 0.0

    /// Reads the machine once and ranks it under `policy`; `includingKernelScores` says whether
    /// readings carry the kernel's own `oom_score` of each process (one file more per process).
    ///
    /// - Throws: ``LinuxReadError`` for unreadable machine-wide files, or the engine's error as
    ///   ``LiveKillOrderError``.
    /// - Complexity: O(p log p) for p processes.
    public init(policy: Policy, fileSystem: ProcFileSystem = .live, includingKernelScores: Bool = true) throws {
        self.fileSystem = fileSystem
        self.includingKernelScores = includingKernelScores
        snapshot = try LinuxSystemSnapshot.read(from: fileSystem, includingKernelScores: includingKernelScores)
        do {
            engine = try PressureEngine(snapshot: snapshot.engineSnapshot, policy: policy)
        } catch {
            throw LiveKillOrderError.engine(error)
        }
        known = Set(engine.allApps.map(\.id))
    }

    /// Re-reads the machine and updates the kill order in place: new processes are added,
    /// vanished ones forgotten, the others' footprints and adjustments updated. Pressure is then
    /// evaluated as a dry run at `time` (its events are returned; nothing is signalled).
    ///
    /// - Complexity: O(p log p) for p processes.
    @discardableResult
    public func refresh(at time: Double) throws -> [Event] {
        snapshot = try LinuxSystemSnapshot.read(from: fileSystem, includingKernelScores: includingKernelScores)
        let current = snapshot.engineSnapshot
        var seen: Set<AppID> = []
        seen.reserveCapacity(current.apps.count)
        do throws(EngineError) {
            for app in current.apps {
                try engine.update(app)
                seen.insert(app.id)
            }
            for gone in known where !seen.contains(gone) { engine.forget(gone) }
            known = seen
            engine.setUnattributedMemory(current.unattributed)
            engine.setSwapFree(snapshot.memory.swapFree)
            self.time = max(self.time, time)
            try engine.refreshPressure(at: self.time)
        } catch {
            throw LiveKillOrderError.engine(error)
        }
        return engine.takeEvents()
    }
}

/// Why a live kill order could not be built.
public enum LiveKillOrderError: Error, CustomStringConvertible, Sendable {
    /// The engine refused the policy or a process reading.
    case engine(EngineError)

    /// What went wrong.
    public var description: String {
        switch self {
        case .engine(let error): "cannot rank this machine's processes: \(error)"
        }
    }
}
