// SPDX-License-Identifier: MIT
// earlyoom's /proc scan (find_largest_process() and what it calls), compiled from its source for
// the LiveProcBenchmarks side-by-side. See earlyoom_scan.c for the origin and the licence.
#ifndef EARLYOOM_SCAN_H
#define EARLYOOM_SCAN_H

/// The victim earlyoom's scan picks: its pid (0 if none), oom_score and VmRSS in KiB.
typedef struct {
    int pid;
    int oom_score;
    long long rss_kib;
} earlyoom_victim_t;

/// Runs earlyoom's find_largest_process() once over `procdir` (normally "/proc") with earlyoom's
/// default options (no --prefer/--avoid/--ignore, no --ignore-root-user, no --sort-by-rss, no -d).
earlyoom_victim_t earlyoom_find_largest_process(const char* procdir);

#endif
