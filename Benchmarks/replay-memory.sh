#!/usr/bin/env bash
# Peak resident memory and time of `mempressure replay` and `compare --trace` on traces of about
# 1,000,000 lines (issue 14): one of `allocate`/`free` lines for one app, and a generated server
# trace of varied actions. Peak RSS is the child's getrusage maximum, as GNU time reports it
# (/usr/bin/time -f %M, KiB). Usage: Benchmarks/replay-memory.sh [path/to/mempressure]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/mempressure}
if [ ! -x "$bin" ]; then swift build -c release --product mempressure >&2; fi
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1,000,000 lines: a launch, then 999,999 alternating allocate/free of 4 KiB.
awk 'BEGIN {
    print "{\"t\":0,\"event\":\"launch\",\"app\":\"com.example.a\",\"footprint\":\"40MiB\"}"
    for (i = 1; i < 1000000; i++)
        printf "{\"t\":%d,\"event\":\"%s\",\"app\":\"com.example.a\",\"bytes\":4096}\n", i, (i % 2 ? "allocate" : "free")
}' > "$work/allocate-free.jsonl"
# A generated server trace of varied actions (opens of 1,000 tenants, allocations, frees, Home...).
"$bin" simulate --workload server --hours "${SERVER_HOURS:-300}" --seed 1 --max-actions 5000000 \
    --trace-out "$work/server.jsonl" > /dev/null

printf '| command | trace | lines | peak RSS (MiB) | wall (s) | lines/s |\n|---|---|--:|--:|--:|--:|\n'
measure() {
    local label=$1 trace=$2
    shift 2
    /usr/bin/time -f '%M %e' -o "$work/time" "$@" < "${stdin:-/dev/null}" > /dev/null
    local lines rss seconds
    lines=$(wc -l < "$work/$trace")
    read -r rss seconds < "$work/time"
    awk -v l="$label" -v t="$trace" -v n="$lines" -v r="$rss" -v s="$seconds" \
        'BEGIN { printf "| %s | %s | %d | %.1f | %.2f | %.0f |\n", l, t, n, r / 1024, s, n / s }'
}
for trace in allocate-free.jsonl server.jsonl; do
    measure "replay (text)" "$trace" "$bin" replay "$work/$trace"
    measure "replay --format jsonl" "$trace" "$bin" replay "$work/$trace" --format jsonl
    stdin="$work/$trace" measure "replay - --format jsonl (standard input)" "$trace" "$bin" replay - --format jsonl
    measure "compare --trace, 3 policies" "$trace" "$bin" compare --trace "$work/$trace" \
        --policies ios4,jetsam,oracle --jobs 2
done
