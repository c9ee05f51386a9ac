#!/usr/bin/env python3
"""Turns a JMH export of the mixed kill-queue benchmarks into the per-distribution tables of README.md.

    swift package --disable-sandbox benchmark --target IndexedHeapBenchmarks \\
        --filter "Kill queue mixed/.*" --no-progress --format jmh --path /tmp/killqueues
    python3 summarize-kill-queues.py /tmp/killqueues/Current_run.jmh.json

Every figure is the median wall-clock time of the run's iterations in ns per operation (each
iteration runs 1,000 operations, so microseconds per iteration are nanoseconds per operation):
on a shared machine a preempted iteration takes milliseconds and moves a mean, not a median.
"""
import json
import math
import sys

DISTRIBUTIONS = ["uniform", "phone", "android", "server"]
SIZES = ["100", "1K", "10K", "100K", "1M"]
ENGINE = "engine (AdaptiveIndexedQueue)"
# The engine's queue is an IndexedTournament from 786,432 apps on: there the tournament is the
# engine's own structure, not a competitor, and "fastest other" leaves it out.
ENGINE_IS_TOURNAMENT = {"1M"}
QUEUES = [
    (ENGINE, "**engine** (AdaptiveIndexedQueue)"),
    ("IndexedTournament", "IndexedTournament"),
    ("Heap+lazy deletion", "Heap + lazy deletion"),
    ("task-list scan", "task-list scan"),
    ("adj-slot lists", "adj-slot lists"),
    ("adj-slot lists, checked handles", "adj-slot lists, checked handles"),
    ("linear scan, packed array (idealized)", "linear scan (idealized)"),
    ("band lists, packed arrays (idealized)", "band arrays (idealized)"),
]


def load(path):
    run = {}
    for entry in json.load(open(path)):
        name = entry["benchmark"].split(".", 3)[3].replace("_", " ")
        metrics = entry["secondaryMetrics"]
        run[name] = (
            metrics["Time (wall clock)"]["scorePercentiles"]["50.0"],
            metrics["Malloc (total)"]["scorePercentiles"]["100.0"],
        )
    return run


def fmt(value):
    if math.isnan(value):
        return "—"
    return f"{value:,.0f}" if value >= 1000 else f"{value:,.1f}"


def main(path):
    run = load(path)
    allocating = sorted(f"{name} ({m:g})" for name, (_, m) in run.items() if m > 0)
    print("(median ns/op; benchmarks with a malloc in some iteration: " + (", ".join(allocating) or "none") + ")\n")
    for distribution in DISTRIBUTIONS:
        print(f"#### {distribution}\n")
        print("| N | " + " | ".join(label for _, label in QUEUES) + " | fastest other | engine's speed-up over it |")
        print("|---|" + "--:|" * len(QUEUES) + "---|--:|")
        for size in SIZES:
            times = {}
            for name, _ in QUEUES:
                key = f"Kill queue mixed/{distribution}: {name} N={size}"
                times[name] = run[key][0] if key in run else float("nan")
            others = {
                n: t
                for n, t in times.items()
                if n != ENGINE and not math.isnan(t) and not (size in ENGINE_IS_TOURNAMENT and n == "IndexedTournament")
            }
            fastest = min(others, key=others.get) if others else None
            cells = [fmt(times[name]) for name, _ in QUEUES]
            ratio = times[ENGINE] and others[fastest] / times[ENGINE] if fastest else float("nan")
            label = dict(QUEUES)[fastest] if fastest else "—"
            print(f"| {size} | " + " | ".join(cells) + f" | {label} | {ratio:.2f}× |")
        print()


if __name__ == "__main__":
    main(sys.argv[1])
