#!/usr/bin/env bash
# Fuzzes one parser with libFuzzer for a number of seconds:
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer options…]
# TARGET is policy, snapshot, trace, workload, usage-log, sweep (sweep files, --param, --shard
# and merge's parts; the first byte of an input picks which) or report (kernel OOM reports,
# earlyoom logs, Android kill logs and JetsamEvent reports, read, rebuilt, ranked and rendered). The seed corpus comes from the
# project's own files (policies/, Examples/, Fuzz/Seeds/); the corpus grows in
# Fuzz/.build/corpus/TARGET between runs. A crash, a leak, a timeout (a hang) or running out of
# memory stops the run with a non-zero exit and leaves the input in Fuzz/findings/: make it a
# regression test. The last line printed is "TARGET: N executions in S s".
set -euo pipefail
cd "$(dirname "$0")/.."

target="${1:?usage: scripts/fuzz.sh policy|snapshot|trace|workload|usage-log|sweep|report SECONDS}"
seconds="${2:?usage: scripts/fuzz.sh TARGET SECONDS}"
shift 2

case "$target" in
    policy) product=FuzzPolicy; seeds=(policies/*.yaml Examples/policies/*.yaml) ;;
    snapshot) product=FuzzSnapshot; seeds=(Examples/snapshots/*) ;;
    trace) product=FuzzTrace; seeds=(Examples/traces/*.jsonl) ;;
    workload) product=FuzzWorkload; seeds=() ;;
    usage-log) product=FuzzUsageLog; seeds=(Examples/usage/* Examples/android/*) ;;
    sweep) product=FuzzSweep; seeds=() ;;
    report) product=FuzzReport; seeds=(evidence/linux-oom/0[1-4]*.log evidence/earlyoom/*.log Examples/reports/*.ips Examples/reports/*.txt
        evidence/public/linux/00[1-9]*.log evidence/public/android/*.log evidence/public/earlyoom/*.log evidence/public/jetsam/*.ips) ;;
    *) echo "unknown target $target: expected policy, snapshot, trace, workload, usage-log, sweep or report" >&2; exit 64 ;;
esac

# The fuzzer build has its own scratch folder, so it never disturbs the package's own builds.
(cd Fuzz && swift build -c release --product "$product" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2)
binary="Fuzz/.build/release/$product"

corpus="Fuzz/.build/corpus/$target"
mkdir -p "$corpus" Fuzz/findings
for seed in "${seeds[@]}" Fuzz/Seeds/"$target"/*; do
    [ -f "$seed" ] && cp "$seed" "$corpus/seed-$(basename "$seed")"
done

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
# -timeout: one input taking more than 10 s is a hang; -rss_limit_mb: memory exhaustion is a finding.
"$binary" "$corpus" -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix=Fuzz/findings/"$target"- -print_final_stats=1 "$@" 2>"$log" || status=$?
executions="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)"
if [ "$status" -ne 0 ]; then
    tail -n 40 "$log" >&2
    echo "$target: FAILED after $executions executions (exit $status); the input is in Fuzz/findings/" >&2
    exit "$status"
fi
echo "$target: $executions executions in $seconds s"
