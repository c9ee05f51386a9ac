// The band directory of a BandedHeap: which band holds each band id, and which bands are not
// empty, in an occupancy bitmap that finds the highest one in a few word tests.
//
// Band ids are 20 bits: the top 8 select a page (allocated on first use), the low 12 a band of
// the page. A page holds 4,096 band indices and 64 occupancy words; a summary word per page says
// which of its 64 words are not zero, and four words say which pages have an occupied band.

extension BandedHeap {
    @frozen @usableFromInline
    internal struct _Directory {
        /// The page of each of the 256 high parts of an id, or -1 (empty until the first band).
        @usableFromInline internal var pageOfHigh: ContiguousArray<Int32>
        /// The high part of each page's ids.
        @usableFromInline internal var highOfPage: ContiguousArray<UInt8>
        /// The band index of id `high, low` at `page × 4096 + low`, or -1.
        @usableFromInline internal var bandOfID: ContiguousArray<Int32>
        /// Bit `low % 64` of word `page × 64 + low / 64` is set when that band is not empty.
        @usableFromInline internal var occupied: ContiguousArray<UInt64>
        /// Bit `w` of `summary[page]` is set when `occupied[page × 64 + w]` is not zero.
        @usableFromInline internal var summary: ContiguousArray<UInt64>
        /// Bit `high % 64` of `highs[high / 64]` is set when the page of `high` has an occupied band.
        @usableFromInline internal var highs: ContiguousArray<UInt64>

        @inlinable
        internal init() {
            pageOfHigh = []
            highOfPage = []
            bandOfID = []
            occupied = []
            summary = []
            highs = [0, 0, 0, 0]
        }

        /// The band index of `id`, or -1 if no band has that id yet.
        @inlinable @inline(__always)
        internal func band(of id: UInt32) -> Int32 {
            let high = Int(id >> 12)
            guard high < pageOfHigh.count else { return -1 }
            let page = pageOfHigh[high]
            guard page >= 0 else { return -1 }
            return bandOfID[Int(page) << 12 | Int(id & 0xFFF)]
        }

        /// Records that `id` is held by band `band`.
        @inlinable
        internal mutating func add(_ id: UInt32, band: Int32) {
            let high = Int(id >> 12)
            if pageOfHigh.isEmpty { pageOfHigh = ContiguousArray(repeating: -1, count: 256) }
            if pageOfHigh[high] < 0 {
                pageOfHigh[high] = Int32(highOfPage.count)
                highOfPage.append(UInt8(high))
                bandOfID.append(contentsOf: repeatElement(-1, count: 4096))
                occupied.append(contentsOf: repeatElement(0, count: 64))
                summary.append(0)
            }
            bandOfID[Int(pageOfHigh[high]) << 12 | Int(id & 0xFFF)] = band
        }

        /// Marks band id `id` (which has a band) occupied or empty.
        @inlinable
        internal mutating func setOccupied(_ id: UInt32, _ isOccupied: Bool) {
            let high = Int(id >> 12)
            let page = Int(pageOfHigh[high])
            let low = Int(id & 0xFFF)
            let word = page << 6 | low >> 6
            let bit: UInt64 = 1 << UInt64(low & 63)
            if isOccupied {
                occupied[word] |= bit
                summary[page] |= 1 << UInt64(low >> 6)
                highs[high >> 6] |= 1 << UInt64(high & 63)
            } else {
                occupied[word] &= ~bit
                if occupied[word] == 0 {
                    summary[page] &= ~(1 << UInt64(low >> 6))
                    if summary[page] == 0 { highs[high >> 6] &= ~(1 << UInt64(high & 63)) }
                }
            }
        }

        /// The highest occupied id below `limit` (all ids when `limit` is 2^20), or `nil`.
        @inlinable
        internal func highestOccupied(below limit: UInt32) -> UInt32? {
            guard limit > 0 else { return nil }
            let last = limit &- 1
            var high = Int(last >> 12)
            // Inside the page of `last`: only ids up to `last`.
            if highs[high >> 6] & (1 << UInt64(high & 63)) != 0 {
                let page = Int(pageOfHigh[high])
                let low = Int(last & 0xFFF)
                var word = low >> 6
                var bits = occupied[page << 6 | word] & (UInt64.max >> UInt64(63 &- (low & 63)))
                if bits == 0 {
                    let below = word == 0 ? 0 : summary[page] & (UInt64.max >> UInt64(64 &- word))
                    if below != 0 {
                        word = 63 &- below.leadingZeroBitCount
                        bits = occupied[page << 6 | word]
                    }
                }
                if bits != 0 {
                    return UInt32(high << 12 | word << 6 | (63 &- bits.leadingZeroBitCount))
                }
            }
            // The highest occupied page below.
            guard high > 0 else { return nil }
            high &-= 1
            var chunk = high >> 6
            var bits = highs[chunk] & (UInt64.max >> UInt64(63 &- (high & 63)))
            while bits == 0 {
                guard chunk > 0 else { return nil }
                chunk &-= 1
                bits = highs[chunk]
            }
            high = chunk << 6 | (63 &- bits.leadingZeroBitCount)
            let page = Int(pageOfHigh[high])
            let word = 63 &- summary[page].leadingZeroBitCount
            let wordBits = occupied[page << 6 | word]
            return UInt32(high << 12 | word << 6 | (63 &- wordBits.leadingZeroBitCount))
        }
    }
}

extension BandedHeap._Directory: Sendable {}
