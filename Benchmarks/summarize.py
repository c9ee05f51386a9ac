#!/usr/bin/env python3
"""Turns one or more JMH exports of the IndexedHeap benchmarks into the Markdown tables of README.md.

    swift package --disable-sandbox benchmark --format jmh --path /tmp/run1    # repeat for run2, run3 ...
    python3 summarize.py /tmp/run*/Current_run.jmh.json

Every iteration runs 1,000 operations, so a time in microseconds per iteration is nanoseconds per
operation. With several runs, each figure is the median over the runs of that run's figure, and the
"runs" column shows the range of the per-run means.
"""
import json
import re
import statistics
import sys

OPS_PER_ITERATION = 1_000
SIZES = ["1K", "10K", "100K", "1M"]
SINGLE = ["update random", "update drift ±1%", "insert", "remove", "popMax", "top-10", "top-100"]
COMPETITORS = ["IndexedHeap", "Heap+lazy deletion", "linear scan", "band lists"]
TARGETS = {  # (N, competitor): minimum IndexedHeap speed-up on the mixed workload
    ("100K", "Heap+lazy deletion"): 2,
    ("100K", "linear scan"): 10,
    ("100K", "band lists"): 3,
    ("1M", "linear scan"): 100,
}


def load(paths):
    runs = []
    for path in paths:
        run = {}
        for entry in json.load(open(path)):
            name = entry["benchmark"].split("IndexedHeapBenchmarks.", 1)[1].replace("_", " ")
            metrics = entry["secondaryMetrics"]
            time = metrics["Time (wall clock)"]
            mallocs = metrics.get("Malloc (total)")
            run[name] = {
                "mean": time["score"],  # µs per iteration = ns per operation
                "p50": time["scorePercentiles"]["50.0"],
                "mallocs": mallocs["score"] / OPS_PER_ITERATION if mallocs else float("nan"),
                "samples": len(time["rawData"][0]),
            }
        runs.append(run)
    return runs


def figure(runs, name, key):
    values = [run[name][key] for run in runs if name in run]
    return statistics.median(values) if values else float("nan")


def spread(runs, name):
    values = [run[name]["mean"] for run in runs if name in run]
    return f"{min(values):,.1f}–{max(values):,.1f}" if len(values) > 1 else "—"


def row(runs, label, name):
    mean = figure(runs, name, "mean")
    return (f"| {label} | {mean:,.1f} | {figure(runs, name, 'p50'):,.1f} | {1e9 / mean / 1e6:,.2f} M "
            f"| {figure(runs, name, 'mallocs'):.3f} | {spread(runs, name)} |")


def main():
    runs = load(sys.argv[1:])
    header = "| benchmark | mean ns/op | p50 ns/op | ops/s | mallocs/op | mean ns/op over runs |\n|---|--:|--:|--:|--:|--:|"
    print("### Single operations on `IndexedHeap<UInt64>`\n")
    print(header)
    for operation in SINGLE:
        for size in SIZES:
            print(row(runs, f"{operation}, N = {size}", f"IndexedHeap {operation} N={size}"))
    print("\n### Mixed kill-queue workload\n")
    print(header)
    for size in SIZES:
        for competitor in COMPETITORS:
            print(row(runs, f"{competitor}, N = {size}", f"Kill queue mixed: {competitor} N={size}"))
    print("\n### IndexedHeap speed-up on the mixed workload\n")
    print("Speed-up = the competitor's mean ns/op ÷ IndexedHeap's, computed within each run, then the median over runs.\n")
    print("| N | competitor | competitor ns/op | IndexedHeap ns/op | speed-up | speed-up over runs | target | met |")
    print("|---|---|--:|--:|--:|--:|--:|---|")
    for size in SIZES:
        ours_name = f"Kill queue mixed: IndexedHeap N={size}"
        ours = figure(runs, ours_name, "mean")
        for competitor in COMPETITORS[1:]:
            name = f"Kill queue mixed: {competitor} N={size}"
            theirs = figure(runs, name, "mean")
            ratios = [run[name]["mean"] / run[ours_name]["mean"] for run in runs if name in run and ours_name in run]
            ratio = statistics.median(ratios)
            target = TARGETS.get((size, competitor))
            met = "—" if target is None else ("yes" if ratio >= target else "**no**")
            over_runs = f"{min(ratios):,.2f}–{max(ratios):,.2f}×" if len(ratios) > 1 else "—"
            print(f"| {size} | {competitor} | {theirs:,.1f} | {ours:,.1f} | {ratio:,.2f}× | {over_runs} | "
                  f"{'—' if target is None else f'≥ {target}×'} | {met} |")


if __name__ == "__main__":
    main()
