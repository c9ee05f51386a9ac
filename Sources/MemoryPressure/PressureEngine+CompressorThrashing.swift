// Compressor thrashing (MemoryCompression.Thrashing; docs/compression.md): XNU kills when memory
// comes back out of the compressor soon after it went in, fast, while older memory sits in the
// pool — the working set no longer fits, and a device without swap has nowhere to put the old part.

/// The thrashing rule's sample: the compressions and decompressions since it started.
struct ThrashingSample {
    /// Engine time of its first compression or decompression (`nil`: no sample runs).
    var start: Double? = nil
    /// Uncompressed bytes that entered and left the pool.
    var compressed: Int64 = 0
    var decompressed: Int64 = 0
    /// Bytes decompressed by whole seconds since they were compressed, below
    /// ``MemoryCompression/Thrashing/maximumAge`` (XNU's `age_of_decompressions_during_sample_period`;
    /// older ones count only in ``decompressed``, as its overage).
    /// (Allocated by the first ``restart(at:)``.)
    var byAge: [Int64] = []
    /// The ages of ``byAge`` that are not zero, in increasing order (a new sample clears only those).
    var usedAges: [Int] = []
    /// The time at which the oldest memory decompressed in the sample was compressed.
    var oldestDecompressed = Double.infinity
    /// Set once the pool was found to hold nothing older than ``oldestDecompressed``: it stays so
    /// for the rest of the sample, since memory entering the pool is new and the bound only falls.
    var nothingOlder = false

    /// Counts `bytes` decompressed `age` seconds after they were compressed.
    ///
    /// - Complexity: O(distinct ages in the sample), at most O(``MemoryCompression/Thrashing/maximumAge``).
    mutating func decompressed(_ bytes: Int64, age: Double) {
        decompressed &+= bytes
        guard age < MemoryCompression.Thrashing.maximumAge else { return }
        let bucket = Int(age)
        if byAge[bucket] == 0 {
            var position = usedAges.count
            while position > 0 && usedAges[position - 1] > bucket { position -= 1 }
            usedAges.insert(bucket, at: position)
        }
        byAge[bucket] &+= bytes
    }

    /// Starts a new sample at `time`.
    mutating func restart(at time: Double?) {
        if byAge.isEmpty { byAge = [Int64](repeating: 0, count: Int(MemoryCompression.Thrashing.maximumAge)) }
        for age in usedAges { byAge[age] = 0 }
        usedAges.removeAll(keepingCapacity: true)
        start = time
        compressed = 0
        decompressed = 0
        oldestDecompressed = .infinity
        nothingOlder = false
    }
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
        sampleThrashing(rule)
        compression!.thrashingSample.compressed &+= bytes
    }

    /// Counts `bytes` of app `index` leaving the pool to be used again, and judges the sample.
    func noteDecompressedForThrashing(_ index: Int, bytes: Int64) {
        guard let rule = compression!.model.thrashing, bytes > 0 else { return }
        sampleThrashing(rule)
        let compressedAt = compression!.compressedAt[index]
        let age = Swift.max(now - compressedAt, 0)
        compression!.thrashingSample.decompressed(bytes, age: age)
        compression!.thrashingSample.oldestDecompressed = Swift.min(
            compression!.thrashingSample.oldestDecompressed, compressedAt)
        if isThrashing(rule) {
            compression!.thrashingDetected = true
            compression!.thrashingSample.restart(at: nil)
        }
    }

    /// Starts a sample if none runs or the running one reached its longest.
    private func sampleThrashing(_ rule: MemoryCompression.Thrashing) {
        if let start = compression!.thrashingSample.start, (now - start) * 1000 < rule.sampleMaxMs { return }
        compression!.thrashingSample.restart(at: now)
    }

    /// `compute_swapout_target_age()`'s verdict on the sample, then `compressor_needs_to_swap()`'s:
    /// rates high enough both ways, a working set that fits in the pool, and older memory left in it.
    ///
    /// - Complexity: O(distinct ages decompressed in the sample, at most
    ///   ``MemoryCompression/Thrashing/maximumAge``), plus O(apps) at most once per sample for the
    ///   pool's oldest memory.
    private func isThrashing(_ rule: MemoryCompression.Thrashing) -> Bool {
        let sample = compression!.thrashingSample
        guard let start = sample.start else { return false }
        let elapsedMs = (now - start) * 1000
        guard elapsedMs >= rule.sampleMinMs, elapsedMs > 0, !sample.nothingOlder else { return false }
        let page = Double(rule.pageSize.value)
        let minimum = rule.minimumPer10ms * elapsedMs / 10
        guard Double(sample.compressed) / page >= minimum, Double(sample.decompressed) / page >= minimum,
            Double(sample.decompressed) / page > rule.thresholdPer10ms * elapsedMs / 10
        else { return false }
        // The age (whole seconds) by which 95 % of the decompressed bytes are covered, and the
        // working set up to it: Σ age × bytes per second of sample.
        let target = Double(sample.decompressed) * 0.95
        var covered = 0.0
        var workingSet = 0.0
        var withinAge = false
        for age in sample.usedAges {
            let bytes = sample.byAge[age]
            covered += Double(bytes)
            workingSet += Double(age) * Double(bytes)
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
        where books.compressed[index] > 0 && !books.frozen[index]
            && books.compressedAt[index] < sample.oldestDecompressed
        {
            return true
        }
        compression!.thrashingSample.nothingOlder = true
        return false
    }
}
