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
# One plugin run for every target: the package is planned and built once, not once a target.
log="$(mktemp)"
arguments=()
for target in "${targets[@]}"; do arguments+=(--target "$target"); done
failed=0
if ! swift package --disable-sandbox generate-documentation "${arguments[@]}" >"$log" 2>&1; then
    echo "docs: the DocC build failed:"
    grep -E "error|warning" "$log" | head -40
    failed=1
elif grep -q "doesn't exist at" "$log"; then
    echo "docs: symbol links that do not resolve:"
    grep -A6 "doesn't exist at" "$log" | head -60
    failed=1
else
    for target in "${targets[@]}"; do
        grep -q "Finished building documentation for '$target'" "$log" || { echo "docs: $target: no archive built"; failed=1; }
    done
    [ $failed -eq 0 ] && echo "docs: ${targets[*]}: built ($(grep -c "warning:" "$log") other DocC warnings)"
fi
rm -f "$log"
exit $failed
