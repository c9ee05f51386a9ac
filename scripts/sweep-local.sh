#!/usr/bin/env bash
# Runs a sweep as N shards in parallel local processes, then merges the parts: the same contract
# as the Kubernetes Indexed Job in deploy/kubernetes/sweep-job.yaml (shard i/N writes part i;
# merge reads them all), on one machine.
#
#   scripts/sweep-local.sh N SWEEP_ARGS… [-- MERGE_ARGS…]
#
#   scripts/sweep-local.sh 4 --policies ios4,lru --param memory=256MiB,512MiB --seeds 20 -- --format json
#
# SWEEP_ARGS go to every `mempressure sweep --shard i/N`; MERGE_ARGS (after --) go to
# `mempressure merge` (--format, --svg, --metric, --output). Each shard runs with --jobs 1 (one
# core, as one pod) unless SWEEP_ARGS give --jobs. Parts go to $SWEEP_PARTS (default: a
# temporary directory, removed at the end). The binary is $MEMPRESSURE, else mempressure on the
# PATH, else this checkout's .build/release or .build/debug build.
set -euo pipefail

usage() { echo "usage: $0 N SWEEP_ARGS… [-- MERGE_ARGS…]" >&2; exit 64; }
[ $# -ge 1 ] || usage
shards=$1
shift
case $shards in '' | *[!0-9]*) usage ;; esac
[ "$shards" -ge 1 ] || usage

sweep_args=()
merge_args=()
seen_separator=0
for argument in "$@"; do
    if [ $seen_separator -eq 0 ] && [ "$argument" = "--" ]; then seen_separator=1; continue; fi
    if [ $seen_separator -eq 0 ]; then sweep_args+=("$argument"); else merge_args+=("$argument"); fi
done
jobs_given=0
for argument in "${sweep_args[@]+"${sweep_args[@]}"}"; do
    case $argument in --jobs | --jobs=*) jobs_given=1 ;; esac
done
[ $jobs_given -eq 1 ] || sweep_args+=(--jobs 1)

root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${MEMPRESSURE:-}"
if [ -z "$binary" ]; then
    if command -v mempressure >/dev/null 2>&1; then binary=mempressure
    elif [ -x "$root/.build/release/mempressure" ]; then binary="$root/.build/release/mempressure"
    elif [ -x "$root/.build/debug/mempressure" ]; then binary="$root/.build/debug/mempressure"
    else echo "$0: no mempressure binary: build it (swift build -c release) or set MEMPRESSURE" >&2; exit 69
    fi
fi

parts="${SWEEP_PARTS:-}"
cleanup=0
if [ -z "$parts" ]; then parts="$(mktemp -d)"; cleanup=1; fi
mkdir -p "$parts"
pids=()
terminate() {
    for pid in "${pids[@]+"${pids[@]}"}"; do kill "$pid" 2>/dev/null || true; done
    [ $cleanup -eq 0 ] || rm -rf "$parts"
}
trap terminate INT TERM
trap '[ $cleanup -eq 0 ] || rm -rf "$parts"' EXIT

width=${#shards}
names=()
for ((index = 1; index <= shards; index++)); do
    name="$(printf "part-%0${width}d" "$index")"
    names+=("$parts/$name")
    "$binary" sweep "${sweep_args[@]}" --shard "$index/$shards" --output "$parts/$name" &
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
    wait "$pid" || { code=$?; [ $status -ne 0 ] || status=$code; }
done
if [ $status -ne 0 ]; then
    echo "$0: a shard failed (exit $status)" >&2
    exit $status
fi
"$binary" merge "${names[@]}" "${merge_args[@]+"${merge_args[@]}"}"
