#!/usr/bin/env python3
"""Turns one or more JMH exports of the benchmarks into the Markdown tables of README.md.

    swift package --disable-sandbox benchmark --no-progress --format jmh --path /tmp/run1   # repeat: run2, run3 ...
    python3 summarize.py /tmp/run*/Current_run.jmh.json

With several runs, each figure is the median over the runs of that run's figure (a mean over the
run's iterations), and the "over runs" columns show the range of the per-run figures.

Units: the JMH export gives wall-clock time in microseconds per iteration. IndexedHeap benchmarks
and footprint changes run 1,000 operations per iteration, so there microseconds per iteration are
nanoseconds per operation; every other benchmark runs one replay, step, run or refresh per iteration.

The export copies a benchmark's custom metrics into the entries of the benchmarks that follow it
(in its own order), so every table reads only the metrics its benchmarks record.
"""
import json
import statistics
import sys

SIZES = ["1K", "10K", "100K", "1M"]
SINGLE = ["update random", "update drift ±1%", "insert", "remove", "popMax", "top-10", "top-100"]


def load(paths):
    runs = []
    for path in paths:
        run = {}
        for entry in json.load(open(path)):
            name = entry["benchmark"].split(".", 3)[3].replace("_", " ")
            run[name] = entry["secondaryMetrics"]
        runs.append(run)
    return runs


def values(runs, name, metric, key="score"):
    out = []
    for run in runs:
        if name in run and metric in run[name]:
            m = run[name][metric]
            out.append(m["score"] if key == "score" else m["scorePercentiles"][key])
    return out


def med(runs, name, metric, key="score"):
    v = values(runs, name, metric, key)
    return statistics.median(v) if v else float("nan")


def span(v, fmt="{:,.1f}", unit=""):
    if len(v) < 2:
        return "—"
    return f"{fmt.format(min(v))}–{fmt.format(max(v))}{unit}"


TIME = "Time (wall clock)"
MALLOC = "Malloc (total)"


def ratio(runs, a, b, fmt="{:,.2f}", unit="×"):
    """The median over runs of benchmark a's mean time ÷ benchmark b's, with the range over runs."""
    r = [x[a][TIME]["score"] / x[b][TIME]["score"] for x in runs if a in x and b in x]
    return f"{fmt.format(statistics.median(r))}{unit} ({span(r, fmt, unit)})"


def heap(runs):
    header = "| benchmark | mean ns/op | p50 ns/op | ops/s | mallocs/op | mean ns/op over runs |\n|---|--:|--:|--:|--:|--:|"

    def row(label, name):
        mean = med(runs, name, TIME)
        return (f"| {label} | {mean:,.1f} | {med(runs, name, TIME, '50.0'):,.1f} | {1e3 / mean:,.2f} M "
                f"| {med(runs, name, MALLOC) / 1000:.3f} | {span(values(runs, name, TIME))} |")

    print("### Single operations on `IndexedHeap<UInt64>`\n")
    print(header)
    for operation in SINGLE:
        for size in SIZES:
            print(row(f"{operation}, N = {size}", f"IndexedHeap {operation} N={size}"))
    # The mixed kill-queue workload (four distributions, seven queues) has its own summary.
    print("\n(Mixed kill-queue workload: python3 summarize-kill-queues.py <one run's JMH export>)")


def engine(runs):
    print("### Replay throughput (`Workload.server`, 1 hour, ios4)\n")
    print("| benchmark | actions per replay | events per replay | ms per replay | actions/s | events/s | "
          "mallocs per action | actions/s over runs |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    for size in ["1K", "10K"]:
        for form in ["whole trace", "after preload"]:
            name = f"Engine replay: server 1 h, {form} N={size}"
            actions = med(runs, name, "actions per replay")
            per_second = values(runs, name, "actions per second")
            print(f"| {form}, {size} tenants | {actions:,.0f} | {med(runs, name, 'events per replay'):,.0f} | "
                  f"{med(runs, name, TIME) / 1000:,.3f} | {statistics.median(per_second):,.0f} | "
                  f"{med(runs, name, 'events per second'):,.0f} | {med(runs, name, MALLOC) / actions:.2f} | "
                  f"{span(per_second, '{:,.0f}')} |")
    print("\n### One footprint change\n")
    print("| N | path | mean ns/op | p50 ns/op | mallocs/op | ÷ bare heap (median over runs) | ÷ bare heap over runs |")
    print("|---|---|--:|--:|--:|--:|--:|")
    for size in ["1K", "10K", "100K"]:
        bare = f"Footprint change: bare IndexedHeap update N={size}"
        for path, label in [("engine changeFootprint", "engine `changeFootprint(of:by:at:)`"),
                            ("engine apply allocate-free", "engine `apply(.allocate/.free)`"),
                            ("bare IndexedHeap update", "bare `IndexedHeap.update`")]:
            name = f"Footprint change: {path} N={size}"
            ratios = [r[name][TIME]["score"] / r[bare][TIME]["score"] for r in runs if name in r and bare in r]
            print(f"| {size} | {label} | {med(runs, name, TIME):,.1f} | {med(runs, name, TIME, '50.0'):,.1f} | "
                  f"{med(runs, name, MALLOC) / 1000:.3f} | {statistics.median(ratios):,.2f}× | {span(ratios, '{:,.2f}', '×')} |")


def kill_order(runs):
    steps = [
        ("load snapshot", "load: `Snapshot(text:file:)`"),
        ("rank engine + killOrder 100", "rank: `PressureEngine(snapshot:policy:)` + `killOrder(limit: 100)`"),
        ("print top 100", "print: the top 100 rows as a table `String`"),
        ("load + rank + print", "**load + rank + print**"),
        ("killOrder 100 on a built engine", "`killOrder(limit: 100)` alone, on a built engine"),
        ("full sort of all keys, take 100", "full sort of all 100,000 kill keys (`[UInt64]`), take 100"),
        ("full sort of all apps on a built engine, take 100", "full sort of all apps (`allApps` by ios4 order) on a built engine, take 100"),
        ("rank by full sort engine + sort all apps", "rank by full sort: `PressureEngine(snapshot:policy:)` + sort all apps, take 100"),
    ]
    print("### kill-order on 100,000 apps (ios4)\n")
    print("| step | mean ms | p50 ms | mallocs | mean ms over runs |")
    print("|---|--:|--:|--:|--:|")
    for key, label in steps:
        name = f"Kill-order N=100K: {key}"
        print(f"| {label} | {med(runs, name, TIME) / 1000:,.3f} | {med(runs, name, TIME, '50.0') / 1000:,.3f} | "
              f"{med(runs, name, MALLOC):,.0f} | {span([v / 1000 for v in values(runs, name, TIME)], '{:,.3f}')} |")

    def kill_ratio(a, b):
        return ratio(runs, f"Kill-order N=100K: {a}", f"Kill-order N=100K: {b}", "{:,.1f}")
    print(f"\nfull sort of the keys ÷ `killOrder(limit: 100)`: {kill_ratio('full sort of all keys, take 100', 'killOrder 100 on a built engine')}  ")
    print(f"full sort of the apps ÷ `killOrder(limit: 100)`: {kill_ratio('full sort of all apps on a built engine, take 100', 'killOrder 100 on a built engine')}  ")
    print(f"rank by full sort ÷ rank with the heap: {kill_ratio('rank by full sort engine + sort all apps', 'rank engine + killOrder 100')}")


def simulation(runs):
    print("### 24-hour simulations (ios4)\n")
    print("| workload | actions | events | kills | s per run | actions/s | events/s | mallocs per action | "
          "run peak allocated | trace allocated | process peak RSS (clean process) | process peak RSS (benchmark process) |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for label in ["phone, 5,000 apps", "server, 10,000 tenants"]:
        name = f"Simulation 24 h: {label}"
        memory = f"Simulation memory 24 h: {label}"
        actions = med(runs, name, "actions per run")
        mib = lambda v: f"{v / 1048576:,.2f} MiB"
        print(f"| {label} | {actions:,.0f} | {med(runs, name, 'events per run'):,.0f} | {med(runs, name, 'kills per run'):,.0f} | "
              f"{med(runs, name, TIME) / 1e6:,.4f} | {med(runs, name, 'actions per second'):,.0f} | "
              f"{med(runs, name, 'events per second'):,.0f} | {med(runs, name, MALLOC) / actions:.2f} | "
              f"{mib(med(runs, memory, 'run peak allocated bytes'))} | {mib(med(runs, memory, 'trace allocated bytes'))} | "
              f"{mib(med(runs, memory, 'process peak resident bytes'))} | {mib(med(runs, name, 'Memory (resident peak)'))} |")
    print("\n### Engine memory per tracked app (no views; jemalloc `stats.allocated`, clean process)\n")
    print("| apps | ids | engine B/app | id index `[AppID: Int32]` | kill queue `IndexedHeap<UInt64>` | "
          "slot table `[Int32]` | remainder (app records …) | engine B/app over runs |")
    print("|--:|---|--:|--:|--:|--:|--:|--:|")
    for size in ["10K", "100K"]:
        for ids in ["ids of 9 bytes", "bundle ids of 25 bytes"]:
            name = f"Engine memory: {ids} N={size}"
            cells = [med(runs, name, m) for m in [
                "engine bytes per app", "id index [AppID: Int32] bytes per app",
                "kill queue IndexedHeap<UInt64> bytes per app", "slot table [Int32] bytes per app",
                "remainder (app records) bytes per app"]]
            print(f"| {size} | {ids} | {' | '.join(f'{c:,.0f}' for c in cells)} | "
                  f"{span(values(runs, name, 'engine bytes per app'), '{:,.0f}')} |")


def ms(value):
    """Milliseconds with three decimals, or four significant digits below 0.1 ms."""
    return f"{value:,.3f}" if value >= 0.1 else f"{value:.4g}"


def live_proc(runs):
    steps = [
        ("refresh in place + killOrder 10", "**refresh in place**: `LiveKillOrder.refresh(at:)` + `killOrder(limit: 10)`"),
        ("naive: read + full sort", "**naive**: `LinuxSystemSnapshot.read(from:)` + sort every process by `LinuxOOMBadness.points`, take 10"),
        ("read only", "read only: `LinuxSystemSnapshot.read(from:)`"),
        ("rank only, in place", "rank only, in place: the refresh's engine update + `killOrder(limit: 10)`"),
        ("rank only, full sort", "rank only, full sort: points of every process, sort, take 10"),
    ]
    print("### One refresh of the live kill order (linux-oom)\n")
    print("| process table | processes | step | mean ms | p50 ms | mallocs | mean ms over runs |")
    print("|---|--:|---|--:|--:|--:|--:|")
    sources = [("this machine", "this machine (`/proc`)"), ("synthetic N=10K", "10,000 synthetic entries (tmpfs)")]
    for key, label in sources:
        for step, step_label in steps:
            name = f"Live proc {key}: {step}"
            times = [v / 1000 for v in values(runs, name, TIME)]
            print(f"| {label} | {med(runs, name, 'processes'):,.0f} | {step_label} | {ms(med(runs, name, TIME) / 1000)} | "
                  f"{ms(med(runs, name, TIME, '50.0') / 1000)} | {med(runs, name, MALLOC):,.0f} | "
                  f"{ms(min(times))}–{ms(max(times))} |")

    def live_ratio(key, a, b):
        return ratio(runs, f"Live proc {key}: {a}", f"Live proc {key}: {b}")
    print("\n| process table | naive ÷ in place | read only ÷ refresh in place | rank in place ÷ rank by full sort |")
    print("|---|--:|--:|--:|")
    for key, label in sources:
        print(f"| {label} | {live_ratio(key, 'naive: read + full sort', 'refresh in place + killOrder 10')} | "
              f"{live_ratio(key, 'read only', 'refresh in place + killOrder 10')} | "
              f"{live_ratio(key, 'rank only, in place', 'rank only, full sort')} |")


SECTIONS = [("IndexedHeap ", heap), ("Engine replay", engine), ("Kill-order", kill_order),
            ("Simulation", simulation), ("Live proc", live_proc)]


def main():
    runs = load(sys.argv[1:])
    names = set().union(*runs)
    present = [section for prefix, section in SECTIONS if any(n.startswith(prefix) for n in names)]
    for index, section in enumerate(present):
        if index:
            print()
        section(runs)


if __name__ == "__main__":
    main()
