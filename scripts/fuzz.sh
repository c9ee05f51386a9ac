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
#
#   scripts/fuzz.sh build
# only builds every fuzzer (CI builds them beside another step, then fuzzes with the cores free).
#
#   scripts/fuzz.sh all SECONDS
# builds every fuzzer once, then fuzzes every target SECONDS each, as many at a time as the machine
# has cores (each libFuzzer process uses one), so `make fuzz` spends its minutes fuzzing, not
# waiting: each target still gets SECONDS of one core. Every target's output is printed when all
# have ended; any failure fails the whole.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${1:?usage: scripts/fuzz.sh all|policy|snapshot|trace|workload|usage-log|sweep|report SECONDS, or scripts/fuzz.sh build}"
# Builds the fuzzers (every one, or those named by the arguments, e.g. --product FuzzPolicy) in the
# Fuzz package's own scratch folder, so it never disturbs the package's own builds.
build_fuzzers() {
    (cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library "$@")
}
if [ "$target" = build ]; then
    build_fuzzers
    exit 0
fi
seconds="${2:?usage: scripts/fuzz.sh TARGET SECONDS}"
shift 2

if [ "$target" = all ]; then
    build_fuzzers >&2
    logs="$(mktemp -d)"
    trap 'rm -rf "$logs"' EXIT
    targets=(policy snapshot trace workload usage-log sweep report)
    cores="$(nproc)"
    failed=0
    for name in "${targets[@]}"; do
        while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do wait -n || failed=1; done
        MEMORYPRESSURE_FUZZ_BUILT=1 "$0" "$name" "$seconds" "$@" >"$logs/$name" 2>&1 &
    done
    while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
    for name in "${targets[@]}"; do cat "$logs/$name"; done
    exit "$failed"
fi

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

# (`all` has built every fuzzer already.)
if [ -z "${MEMORYPRESSURE_FUZZ_BUILT:-}" ]; then
    build_fuzzers --product "$product" >&2
fi
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
