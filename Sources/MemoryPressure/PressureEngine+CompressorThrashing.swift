// Compressor thrashing (MemoryCompression.Thrashing; docs/compression.md): XNU kills when memory
// comes back out of the compressor soon after it went in, fast, while older memory sits in the
// pool — the working set no longer fits, and a device without swap has nowhere to put the old part.

/// The thrashing rule's sample: the compressions and decompressions since it started.
struct ThrashingSample {
    /// Engine time of its first compression or decompression.
    var start: Double
    /// Uncompressed bytes that entered and left the pool.
    var compressed: Int64 = 0
    var decompressed: Int64 = 0
    /// Each decompression: the seconds since the memory was compressed, and its bytes.
    var decompressions: [(age: Double, bytes: Int64)] = []
    /// The time at which the oldest memory decompressed in the sample was compressed.
    var oldestDecompressed = Double.infinity
}

extension PressureEngine {
    /// Whether the thrashing rule found the compressor thrashing and a kill is due.
    @inline(__always)
    var compressorIsThrashing: Bool {
        guard hasCompression else { return false }
        return compression!.thrashingDetected
    }

    /// Counts `bytes` of app `index` entering the pool, for the thrashing rule.
    func noteCompressedForThrashing(_ index: Int, bytes: Int64) {
        guard let rule = compression!.model.thrashing, bytes > 0 else { return }
        compression!.compressedAt[index] = now
        sampleThrashing(rule)
        compression!.thrashingSample!.compressed &+= bytes
    }

    /// Counts `bytes` of app `index` leaving the pool to be used again, and judges the sample.
    func noteDecompressedForThrashing(_ index: Int, bytes: Int64) {
        guard let rule = compression!.model.thrashing, bytes > 0 else { return }
        sampleThrashing(rule)
        let compressedAt = compression!.compressedAt[index]
        compression!.thrashingSample!.decompressed &+= bytes
        compression!.thrashingSample!.decompressions.append((Swift.max(now - compressedAt, 0), bytes))
        compression!.thrashingSample!.oldestDecompressed = Swift.min(
            compression!.thrashingSample!.oldestDecompressed, compressedAt)
        if isThrashing(rule, sample: compression!.thrashingSample!) {
            compression!.thrashingDetected = true
            compression!.thrashingSample = nil
        }
    }

    /// Starts a sample if none runs or the running one reached its longest.
    private func sampleThrashing(_ rule: MemoryCompression.Thrashing) {
        if let sample = compression!.thrashingSample, (now - sample.start) * 1000 < rule.sampleMaxMs { return }
        compression!.thrashingSample = ThrashingSample(start: now)
    }

    /// `compute_swapout_target_age()`'s verdict on `sample`, then `compressor_needs_to_swap()`'s:
    /// rates high enough both ways, a working set that fits in the pool, and older memory left in it.
    ///
    /// - Complexity: O(d log d) for d decompressions in the sample, plus O(apps) when every rate
    ///   passes (the search for the pool's oldest memory).
    private func isThrashing(_ rule: MemoryCompression.Thrashing, sample: ThrashingSample) -> Bool {
        let elapsedMs = (now - sample.start) * 1000
        guard elapsedMs >= rule.sampleMinMs, elapsedMs > 0 else { return false }
        let page = Double(rule.pageSize.value)
        let minimum = rule.minimumPer10ms * elapsedMs / 10
        guard Double(sample.compressed) / page >= minimum, Double(sample.decompressed) / page >= minimum,
            Double(sample.decompressed) / page > rule.thresholdPer10ms * elapsedMs / 10
        else { return false }
        // The age below which 95 % of the decompressed bytes fall, and the working set up to it.
        let target = Double(sample.decompressed) * 0.95
        var covered = 0.0
        var workingSet = 0.0
        var withinAge = false
        for (age, bytes) in sample.decompressions.sorted(by: { $0.age < $1.age }) {
            guard age < MemoryCompression.Thrashing.maximumAge else { break }
            covered += Double(bytes)
            workingSet += age * Double(bytes)
            if covered >= target {
                withinAge = true
                break
            }
        }
        guard withinAge, workingSet * 1000 / elapsedMs < Double(compression!.pooled) else { return false }
        // The pool's oldest memory was compressed before the oldest memory decompressed: it should
        // be swapped out, and there is no swap.
        let books = compression!
        for index in books.compressed.indices
        where books.compressed[index] > 0 && !books.frozen[index] && books.compressedAt[index] < sample.oldestDecompressed {
            return true
        }
        return false
    }
}
