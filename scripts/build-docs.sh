#!/usr/bin/env bash
# Builds every library's DocC catalog (swift-docc-plugin) and fails on a broken build or on a
# symbol link that does not resolve (DocC reports those as warnings: "… doesn't exist at …").
# Other DocC warnings (a parameter a doc comment leaves undescribed) are counted and printed,
# not fatal. Archives: .build/plugins/Swift-DocC/outputs/<target>.doccarchive.
#   scripts/build-docs.sh [TARGET…]   (default: every library target)
set -uo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(IndexedHeapModule MemoryPressure MemoryPressureFormats MemoryPressureSimulation
        MemoryPressureJemalloc MemoryPressureLinux MemoryPressureMetrics MemoryPressureMetricsServer)
fi
failed=0
for target in "${targets[@]}"; do
    log="$(mktemp)"
    if ! swift package --disable-sandbox generate-documentation --target "$target" >"$log" 2>&1; then
        echo "docs: $target: the DocC build failed:"
        grep -E "error|warning" "$log" | head -40
        failed=1
    elif grep -q "doesn't exist at" "$log"; then
        echo "docs: $target: symbol links that do not resolve:"
        grep -A6 "doesn't exist at" "$log" | head -60
        failed=1
    else
        echo "docs: $target: built ($(grep -c "warning:" "$log") other DocC warnings)"
    fi
    rm -f "$log"
done
exit $failed
