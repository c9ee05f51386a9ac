/// Competitor (d), idealized (packed arrays): one list per band, scanned for the heaviest app of
/// the highest non-empty band, the way Android's lmkd picks a victim with `kill_heaviest_task` (it
/// walks the processes of the highest `oom_score_adj` slot and takes the one with the largest
/// RSS) — but each band is a packed array of keys, where lmkd walks a linked list of individually
/// allocated nodes and reads each one's RSS (that is ``AdjSlotListsKillQueue``).
///
/// Each band is an array of keys with swap-removal, and every app knows its band and its position
/// in that array, so a footprint update is one store and a band change is a swap-remove plus an
/// append. Only victim selection and reports scan, and only the highest bands. A bitmap of the
/// non-empty bands finds the highest one in a few word tests even among lmkd's 2,001 adj slots
/// (lmkd itself tests every slot from the top, as ``AdjSlotListsKillQueue`` does).
struct BandListsKillQueue: KillQueue {
    struct Location {
        var band: UInt32
        var position: UInt32
    }

    var bands: [[UInt64]]
    var locations: [Location]
    /// Bit `b % 64` of word `b / 64` is set when band `b` is not empty.
    var occupied: [UInt64]
    let top: TopKBuffer

    init(keys: [UInt64], bandCount: Int) {
        bands = Array(repeating: [], count: bandCount)
        occupied = Array(repeating: 0, count: (bandCount + 63) / 64)
        for band in bands.indices { bands[band].reserveCapacity(2 * keys.count / bandCount + 16) }
        locations = Array(repeating: Location(band: 0, position: 0), count: keys.count)
        top = TopKBuffer(capacity: 128)
        for key in keys { append(key) }
    }

    @inline(__always)
    private mutating func append(_ key: UInt64) {
        let band = KillKey.band(key)
        locations[KillKey.app(key)] = Location(band: UInt32(band), position: UInt32(bands[band].count))
        bands[band].append(key)
        occupied[band >> 6] |= 1 << UInt64(band & 63)
    }

    /// The highest non-empty band, or -1.
    @inline(__always)
    private func highestBand() -> Int {
        var word = occupied.count - 1
        while word >= 0, occupied[word] == 0 { word -= 1 }
        return word < 0 ? -1 : word * 64 + 63 - occupied[word].leadingZeroBitCount
    }

    /// Removes the key at `position` of `band` by moving the band's last key into its place.
    @inline(__always)
    private mutating func swapRemove(band: Int, position: Int) {
        let last = bands[band].removeLast()
        if bands[band].isEmpty { occupied[band >> 6] &= ~(1 << UInt64(band & 63)) }
        if position < bands[band].count {
            bands[band][position] = last
            locations[KillKey.app(last)].position = UInt32(position)
        }
    }

    @inline(__always)
    func key(of app: Int) -> UInt64 {
        let location = locations[app]
        return bands[Int(location.band)][Int(location.position)]
    }

    @inline(__always)
    mutating func update(app: Int, to key: UInt64) {
        let location = locations[app]
        let band = KillKey.band(key)
        if band == Int(location.band) {
            bands[band][Int(location.position)] = key
        } else {
            swapRemove(band: Int(location.band), position: Int(location.position))
            append(key)
        }
    }

    mutating func killHeaviest() -> Int {
        let band = highestBand()
        precondition(band >= 0, "no app to kill")
        let heaviest = bands[band].withUnsafeBufferPointer { keys in
            var best = 0
            for position in keys.indices where keys[position] > keys[best] { best = position }
            return best
        }
        let app = KillKey.app(bands[band][heaviest])
        swapRemove(band: band, position: heaviest)
        return app
    }

    mutating func relaunch(app: Int, key: UInt64) { append(key) }

    mutating func reportTop(_ k: Int) -> UInt64 {
        top.reset()
        var band = bands.count - 1
        // Every key of a band is above every key of a lower band: stop once k keys are found.
        while band >= 0, !top.isFull(k) {
            bands[band].withUnsafeBufferPointer { keys in
                for key in keys { top.offer(key, limit: k) }
            }
            band -= 1
        }
        return top.checksum()
    }
}
