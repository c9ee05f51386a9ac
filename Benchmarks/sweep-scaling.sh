#!/usr/bin/env bash
# Sweep scaling: wall time of scripts/sweep-local.sh for 1, 2 and 4 shards on the same sweep, and
# of `mempressure merge` on 1,000 parts. Prints a Markdown table (Benchmarks/README.md, "Sweeps").
#
#   Benchmarks/sweep-scaling.sh [RUNS]      # RUNS repetitions per figure (default 3); the median is shown
#
# Uses the release build (swift build -c release --product mempressure) unless MEMPRESSURE is set.
# Each shard runs with --jobs 1, as one pod does, so the shard count is the number of cores used.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
binary="${MEMPRESSURE:-$PWD/.build/release/mempressure}"
[ -x "$binary" ] || swift build -c release --product mempressure >&2
export MEMPRESSURE="$binary"

# The sweep: every shipped policy and the oracle × 6 memory sizes × 200 seeds (user-days):
# 9,600 runs.
sweep=(--policies ios4,jetsam,android-lmkd,linux-oom,earlyoom,lru,relaunch-aware,oracle
    --param memory=384MiB,448MiB,512MiB,640MiB,768MiB,1GiB --seeds 200)

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

echo "| what | wall time (s), median of $runs | CPU time, user + system (s) | speed-up over 1 shard | load average before |"
echo "|---|--:|--:|--:|--:|"
TIMEFORMAT='%R %U %S'
reference=""
for shards in 1 2 4; do
    walls=()
    cpus=()
    load=$(cut -d' ' -f1 /proc/loadavg)
    for ((run = 0; run < runs; run++)); do
        { time scripts/sweep-local.sh "$shards" "${sweep[@]}" -- --format json > "$scratch/result-$shards.json" \
            2> "$scratch/errors"; } 2> "$scratch/time" || { cat "$scratch/errors" >&2; exit 1; }
        read -r wall user system < "$scratch/time"
        walls+=("$wall")
        cpus+=("$(echo "$user + $system" | bc)")
    done
    wall=$(printf '%s\n' "${walls[@]}" | median)
    cpu=$(printf '%s\n' "${cpus[@]}" | median)
    [ -n "$reference" ] || reference=$wall
    cmp -s "$scratch/result-1.json" "$scratch/result-$shards.json" || { echo "results differ at $shards shards" >&2; exit 1; }
    printf '| sweep-local.sh, %d shard(s) | %.2f | %.2f | %.2f× | %s |\n' "$shards" "$wall" "$cpu" \
        "$(echo "$reference / $wall" | bc -l)" "$load"
done

# 1,000 parts of a sweep of 1,000 units (5 memory sizes × 200 seeds, 2 policies, 1 hour), one unit a part.
parts="$scratch/parts"
mkdir -p "$parts"
small=(--policies ios4,lru --param memory=256MiB,384MiB,512MiB,768MiB,1GiB --seeds 200 --hours 1 --jobs 1)
for ((index = 1; index <= 1000; index++)); do
    "$binary" sweep "${small[@]}" --shard "$index/1000" --output "$(printf '%s/part-%04d' "$parts" "$index")"
done
walls=()
cpus=()
load=$(cut -d' ' -f1 /proc/loadavg)
for ((run = 0; run < runs; run++)); do
    { time "$binary" merge "$parts"/part-* --format json > "$scratch/merged.json"; } 2> "$scratch/time"
    read -r wall user system < "$scratch/time"
    walls+=("$wall")
    cpus+=("$(echo "$user + $system" | bc)")
done
"$binary" sweep "${small[@]}" --format json > "$scratch/whole.json"
cmp -s "$scratch/merged.json" "$scratch/whole.json" || { echo "the merge of 1,000 parts differs from the whole run" >&2; exit 1; }
printf '| merge of 1,000 parts (%s KiB in all; byte-identical to the unsharded run) | %.2f | %.2f | | %s |\n' \
    "$(du -sk "$parts" | cut -f1)" "$(printf '%s\n' "${walls[@]}" | median)" "$(printf '%s\n' "${cpus[@]}" | median)" "$load"
