#!/usr/bin/env bash
# The whole test suite under AddressSanitizer (release build) and ThreadSanitizer (debug build),
# each in its own scratch folder so the package's normal build is left alone:
#   scripts/sanitizers.sh [address|thread]   (default: both)
# A sanitizer report fails the run. ProcessStatisticsTests are skipped: they check that malloc
# is jemalloc's, and a sanitizer's allocator replaces it. The command-line suites
# (MempressureCLITests: golden files, help and table text, each test a child process of the
# tool) are skipped too: what they drive is the library code the other suites run in-process, and
# under a sanitizer each child process cost minutes of CI (docs/ci.md); `make test` runs them.
set -euo pipefail
cd "$(dirname "$0")/.."

which="${1:-both}"
# The machine-dependent tests run too; the churn test runs its short form.
export MEMORYPRESSURE_MACHINE_TESTS=1 MEMORYPRESSURE_CHURN=20000
if [ "$which" = address ] || [ "$which" = both ]; then
    echo "== AddressSanitizer (release)"
    # libjemalloc exports C++ operator new/delete; swiftc links ASan's runtime without its C++
    # part, so new would go to jemalloc and delete to ASan ("bad-free"). Linking ASan's C++
    # runtime into every executable, exported, keeps both halves in ASan.
    runtime="$(dirname "$(dirname "$(command -v swiftc)")")/lib/clang"
    cxx="$(ls "$runtime"/*/lib/linux/libclang_rt.asan_cxx-x86_64.a | head -n 1)"
    flags=(-c release -Xswiftc -sanitize=address -Xswiftc -enable-testing --scratch-path .build-asan
        -Xlinker --whole-archive -Xlinker "$cxx" -Xlinker --no-whole-archive
        -Xlinker "--dynamic-list=$cxx.syms")
    swift build "${flags[@]}"
    ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 swift test "${flags[@]}" --skip ProcessStatisticsTests \
        --skip MempressureCLITests
fi
if [ "$which" = thread ] || [ "$which" = both ]; then
    echo "== ThreadSanitizer (debug)"
    runtime="$(dirname "$(dirname "$(command -v swiftc)")")/lib/clang"
    cxx="$(ls "$runtime"/*/lib/linux/libclang_rt.tsan_cxx-x86_64.a | head -n 1)"
    TSAN_OPTIONS=halt_on_error=1 swift test -Xswiftc -sanitize=thread --scratch-path .build-tsan --skip ProcessStatisticsTests \
        --skip MempressureCLITests \
        -Xlinker --whole-archive -Xlinker "$cxx" -Xlinker --no-whole-archive -Xlinker "--dynamic-list=$cxx.syms"
fi
