import BenchmarkSupport
import Foundation
import MemoryPressure
import MemoryPressureFormats
import MemoryPressureSimulation

/// A deterministic JSON snapshot of a server with `apps` tenants, in the shape of
/// `Examples/snapshots/server.json` (see `scripts/make-server-snapshot.py`): states suspended /
/// background / active with weights 70 / 29 / 1 (one active app at most), log-normal footprints
/// with a 12 MiB median and a 300 MiB 99th percentile, purgeable = footprint / 8, `lastActive`
/// within a day, `oomScoreAdj` from {0, 0, 100, 300, 900} (−1000 for 1 %), swap 0 … 3 MiB, page
/// tables = footprint / 500. The device is the script's 64 GiB server scaled with the number of
/// tenants (the script's 2,000 tenants on 64 GiB memory, 2 GiB reserved and 8 GiB swap), so free
/// memory is in the same range. Drawn from SeededGenerator (SplitMix64), so the values differ from the script's.
enum SnapshotText {
    static func server(apps: Int, seed: UInt64 = 20_261_121) -> String {
        var rng = SeededGenerator(seed: seed)
        let scale = Int64(max(apps / 2_000, 1))
        let gib: Int64 = 1 << 30
        var text = "{\"device\":{\"memory\":\(64 * gib * scale),\"reserved\":\(2 * gib * scale),"
        text += "\"swap\":\(8 * gib * scale)},\"apps\":["
        text.reserveCapacity(apps * 200)
        let sigma = log(300.0 / 12.0) / 2.326
        var hasActive = false
        let digits = String(apps - 1).count
        for index in 0..<apps {
            let draw = rng.next(below: 100)
            var state = draw < 70 ? "suspended" : draw < 99 ? "background" : "active"
            if state == "active" {
                if hasActive { state = "background" } else { hasActive = true }
            }
            let footprint = Int64(12 * 1_048_576 * exp(gaussian(&rng) * sigma))
            let number = String(index)
            let id = "tenant-" + String(repeating: "0", count: max(digits - number.count, 0)) + number
            let adjustments = [0, 0, 100, 300, 900]
            var adj = adjustments[rng.next(below: adjustments.count)]
            if rng.next(below: 100) == 0 { adj = -1000 }
            if index > 0 { text += "," }
            text += "{\"id\":\"\(id)\",\"state\":\"\(state)\",\"footprint\":\(footprint),"
            text += "\"purgeable\":\(footprint / 8),\"lastActive\":\(rng.next(below: 86_400)),"
            text +=
                "\"oomScoreAdj\":\(adj),\"swap\":\(Int64(rng.next(below: 4)) << 20),\"pageTables\":\(footprint / 500)}"
        }
        text += "]}\n"
        return text
    }

    /// The apps of ``server(apps:seed:)`` in YAML, block style (one key per line), every field:
    /// the same values, so the two texts are the same snapshot.
    static func serverYAML(apps: Int, seed: UInt64 = 20_261_121) -> String {
        let json = server(apps: apps, seed: seed)
        do {
            let snapshot = try Snapshot(text: json, file: "server.json")
            var text =
                "device:\n  memory: \(snapshot.device.memory.value)\n  reserved: \(snapshot.device.reserved.value)\n"
            text += "  swap: \(snapshot.device.swap.value)\napps:\n"
            text.reserveCapacity(apps * 190)
            for app in snapshot.apps {
                text += "  - id: \(app.id.rawValue)\n    state: \(app.state.rawValue)\n"
                text += "    footprint: \(app.footprint.value)\n    purgeable: \(app.purgeable.value)\n"
                text += "    lastActive: \(Int(app.lastActive))\n    oomScoreAdj: \(app.oomScoreAdj ?? 0)\n"
                text += "    swap: \(app.swap.value)\n    pageTables: \(app.pageTables.value)\n"
            }
            return text
        } catch {
            fatalError("SnapshotText.serverYAML: \(error)")
        }
    }

    /// A standard normal draw (Box–Muller).
    static func gaussian(_ rng: inout SeededGenerator) -> Double {
        let u1 = (Double(rng.next() >> 11) + 1) / Double(1 << 53)
        let u2 = Double(rng.next() >> 11) / Double(1 << 53)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
