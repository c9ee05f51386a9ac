#!/usr/bin/env bash
# The test suites under AddressSanitizer (release build) and ThreadSanitizer (debug build), each in
# its own scratch folder so the package's normal build is left alone:
#   scripts/sanitizers.sh [address|thread|both] [build|test|all]   (default: both all)
# A sanitizer report fails the run. `build` only compiles, `test` only runs what was compiled
# (CI runs AddressSanitizer's tests while ThreadSanitizer's build compiles: .ci/run).
#
# What runs (docs/ci.md, "Where each suite runs"):
# - AddressSanitizer, release: every suite but the command-line ones, with the 10-million-id churn
#   of LongRunTests. This is also CI's release run: the optimizer-sensitive code (the heaps, the
#   unsafe buffers of the readers) runs optimized, where a memory error has the most room to show.
# - ThreadSanitizer, debug: the same suites (the concurrent fronts, the NIO server, the readers,
#   the engine), with the churn's short form and without the long single-threaded tests (seeded
#   property tests, exhaustive searches, every-offset scans: the `.singleThreadedLongRun` trait,
#   Tests/TestSupport/ThreadSanitizerRun.swift), which took most of its minutes and give a race
#   detector nothing to find; their neighbours still run in parallel with each other.
# Left out of both: ProcessStatisticsTests, which check that malloc is jemalloc's (a sanitizer's
# allocator replaces it), and the command-line suites (MempressureCLITests: golden files, help and
# table text, each test a child process of the tool), which drive the library code the other suites
# run in-process, and cost minutes a test under a sanitizer; `make test` runs them. Neither build
# compiles them or the tool (MEMORYPRESSURE_LIBRARIES_ONLY=1: Package.swift leaves both out). Both
# builds leave out the TLS trait: no suite run here exercises TLS (the TLS tests are command-line tests),
# and BoringSSL would be compiled twice more for nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

which="${1:-both}"
phase="${2:-all}"
case "$which" in address | thread | both) ;; *) echo "expected address, thread or both, found $which" >&2; exit 64 ;; esac
case "$phase" in build | test | all) ;; *) echo "expected build, test or all, found $phase" >&2; exit 64 ;; esac
export MEMORYPRESSURE_MACHINE_TESTS=1
# Package.swift then leaves out the command-line tool and its suite (not run here, see above).
export MEMORYPRESSURE_LIBRARIES_ONLY=1
runtime="$(dirname "$(dirname "$(command -v swiftc)")")/lib/clang"
skips=(--skip ProcessStatisticsTests)
if [ "$which" = address ] || [ "$which" = both ]; then
    echo "== AddressSanitizer (release, the 10-million-id churn)"
    # libjemalloc exports C++ operator new/delete; swiftc links ASan's runtime without its C++
    # part, so new would go to jemalloc and delete to ASan ("bad-free"). Linking ASan's C++
    # runtime into every executable, exported, keeps both halves in ASan.
    cxx="$(ls "$runtime"/*/lib/linux/libclang_rt.asan_cxx-x86_64.a | head -n 1)"
    flags=(-c release --disable-default-traits -Xswiftc -sanitize=address -Xswiftc -enable-testing
        --scratch-path .build-asan
        -Xlinker --whole-archive -Xlinker "$cxx" -Xlinker --no-whole-archive -Xlinker "--dynamic-list=$cxx.syms")
    [ "$phase" = test ] || swift build --build-tests "${flags[@]}"
    [ "$phase" = build ] || MEMORYPRESSURE_CHURN="${MEMORYPRESSURE_CHURN:-10000000}" \
        ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 swift test --skip-build "${flags[@]}" "${skips[@]}"
fi
if [ "$which" = thread ] || [ "$which" = both ]; then
    echo "== ThreadSanitizer (debug)"
    cxx="$(ls "$runtime"/*/lib/linux/libclang_rt.tsan_cxx-x86_64.a | head -n 1)"
    flags=(--disable-default-traits -Xswiftc -sanitize=thread --scratch-path .build-tsan
        -Xlinker --whole-archive -Xlinker "$cxx" -Xlinker --no-whole-archive -Xlinker "--dynamic-list=$cxx.syms")
    [ "$phase" = test ] || swift build --build-tests "${flags[@]}"
    [ "$phase" = build ] || MEMORYPRESSURE_CHURN=20000 MEMORYPRESSURE_SANITIZER=thread TSAN_OPTIONS=halt_on_error=1 \
        swift test --skip-build "${flags[@]}" "${skips[@]}"
fi
