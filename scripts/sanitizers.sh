#!/usr/bin/env bash
# The whole test suite under AddressSanitizer (release build) and ThreadSanitizer (debug build),
# each in its own scratch folder so the package's normal build is left alone:
#   scripts/sanitizers.sh [address|thread]   (default: both)
# A sanitizer report fails the run. The jemalloc tests are skipped under AddressSanitizer, which
# replaces malloc (jemalloc's arenas and ASan's allocator cannot both own the heap).
set -euo pipefail
cd "$(dirname "$0")/.."

which="${1:-both}"
if [ "$which" = address ] || [ "$which" = both ]; then
    echo "== AddressSanitizer (release)"
    swift build -c release -Xswiftc -sanitize=address --scratch-path .build-asan
    ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 swift test -c release -Xswiftc -sanitize=address -Xswiftc -enable-testing \
        --scratch-path .build-asan --skip JemallocTests --skip SimulateRealMemory
fi
if [ "$which" = thread ] || [ "$which" = both ]; then
    echo "== ThreadSanitizer (debug)"
    TSAN_OPTIONS=halt_on_error=1 swift test -Xswiftc -sanitize=thread --scratch-path .build-tsan \
        --skip JemallocTests --skip SimulateRealMemory
fi
