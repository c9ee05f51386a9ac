// Fleet's measured series, copied from evidence/papers/fleet-cached-apps.csv (its README gives the
// notebook cell they were read from); a test checks that the two agree.

extension FleetCachedApps {
    /// Fleet's measured count per step on stock Android 10 without swap ("Android w/o swap",
    /// `Y_original_no_swap` of `exp-cache-commercial.ipynb`; lmkd's kills were disabled in that
    /// build: docs/phone-2024-sources.md §5b). Steps 1…36.
    public static let measuredNoSwap = [
        2, 3, 4, 5, 6, 8, 7, 7, 8, 8, 10, 10, 11, 11, 11, 11, 10, 10,
        11, 11, 9, 10, 9, 10, 8, 8, 10, 10, 11, 11, 12, 12, 14, 12, 12, 12,
    ]

    /// Fleet's measured count per step with a 2 GiB swap file on flash, zram off ("Android w/
    /// swap", `Y_original`; `configure-flash-swap.sh`). Steps 1…36.
    public static let measuredSwapFile = [
        2, 3, 4, 5, 6, 8, 9, 9, 10, 11, 12, 13, 13, 11, 11, 11, 11, 10,
        11, 10, 11, 12, 11, 13, 14, 14, 13, 14, 14, 13, 12, 12, 13, 11, 11, 11,
    ]

    /// Fleet's own system's count per step (`Y_our`): a reference, not a target (it needs Fleet's
    /// garbage collector and swap co-design, which no policy here models). Steps 1…36.
    public static let measuredFleet = [
        1, 2, 3, 5, 6, 8, 9, 9, 9, 10, 11, 12, 14, 14, 15, 16, 16, 17,
        16, 15, 15, 14, 15, 15, 15, 15, 16, 16, 16, 17, 16, 15, 16, 15, 14, 14,
    ]
}
