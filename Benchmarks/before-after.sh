#!/usr/bin/env bash
# "Nothing else gets slower": replay, compare and sweep run by two builds of mempressure, in
# turn, on the same inputs; prints the median CPU time (user + system) of each and the ratio.
#
#   Benchmarks/before-after.sh BEFORE_BINARY AFTER_BINARY [RUNS]     # RUNS per figure (default 3)
#
# Build the "before" binary from the commit to compare against, for example:
#   git checkout --detach COMMIT && swift build -c release --product mempressure \
#     && cp .build/release/mempressure /tmp/mempressure-before && git checkout main
# The inputs: a 24-hour server trace generated once (seed 1) by the "after" binary.
set -euo pipefail
before="${1:?usage: before-after.sh BEFORE AFTER [RUNS]}"
after="${2:?usage: before-after.sh BEFORE AFTER [RUNS]}"
runs=${3:-3}
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$after" simulate --workload server --hours 24 --seed 1 --trace-out "$scratch/server.jsonl" > /dev/null

# The seven policies both builds have (the shipped set grew in issue 25), named, so that the
# before and after runs do the same work.
policies=ios4,jetsam,android-lmkd,linux-oom,earlyoom,lru,relaunch-aware
workloads=(
    "replay: 24 h server trace, jetsam|replay $scratch/server.jsonl --policy jetsam --format jsonl"
    "compare: 300 phone users, 7 policies|compare --policies $policies --seeds 300 --format json"
    "sweep: 2 memory sizes × 100 users × 7 policies|sweep --policies $policies --param memory=512MiB,1GiB --seeds 100 --format json --jobs 1"
)
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cpu() { /usr/bin/time -f "%U %S" "$@" 2>&1 > /dev/null | tail -1 | awk '{ printf "%.2f\n", $1 + $2 }'; }

echo "| run | before: CPU s (median of $runs) | after | after ÷ before |"
echo "|---|--:|--:|--:|"
for entry in "${workloads[@]}"; do
    name="${entry%%|*}"
    read -r -a arguments <<< "${entry#*|}"
    b=(); a=()
    for _ in $(seq "$runs"); do
        b+=("$(cpu "$before" "${arguments[@]}")")
        a+=("$(cpu "$after" "${arguments[@]}")")
    done
    mb=$(printf '%s\n' "${b[@]}" | median)
    ma=$(printf '%s\n' "${a[@]}" | median)
    echo "| $name | $mb | $ma | $(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.2f×", a / b }') |"
done
