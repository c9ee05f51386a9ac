#!/usr/bin/env python3
"""`mempressure kill-order` as a whole command against the four-line Python script of issue 24,
and pysimdjson's parse as the floor, on the same JSON snapshots, paired runs.

Install the competitors first (PyPI):

    python3 -m pip install --user orjson pysimdjson
    swift build -c release --product mempressure
    python3 Benchmarks/kill-order-vs-python.py [--runs 5] [--dir /tmp/kill-order-scale]

The snapshots are those of kill-order-scale.py (written once, seeded): 100,000 and 1,000,000
apps with every field. Each run times, in turn on the same file:
- `mempressure kill-order FILE --format json --limit 10 > /dev/null`;
- the script: `orjson.loads` of the file, keep the suspended apps, `heapq.nlargest(10, …,
  key=footprint)`, print them;
- the floor: `simdjson.Parser().parse` of the file.
Wall time and peak RSS (wait4's ru_maxrss) of each child; prints the median of each and the
paired median ratio, and the growth of each from 100K to 1M.
"""
import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import time

SCRIPT = (
    "import sys, heapq, orjson\n"
    "apps = orjson.loads(open(sys.argv[1], 'rb').read())['apps']\n"
    "top = heapq.nlargest(10, (a for a in apps if a['state'] == 'suspended'), key=lambda a: a['footprint'])\n"
    "print(orjson.dumps(top).decode())\n"
)
FLOOR = "import sys, simdjson\nd = simdjson.Parser().parse(open(sys.argv[1], 'rb').read())\nprint(len(d['apps']))\n"


def timed(arguments):
    start = time.perf_counter()
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"{arguments[0]} failed: status {status}")
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/mempressure")
    parser.add_argument("--dir", default="/tmp/kill-order-scale")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("scale", os.path.join(here, "kill-order-scale.py"))
    scale = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scale)
    os.makedirs(args.dir, exist_ok=True)
    results = {}
    for count in (100_000, 1_000_000):
        path = os.path.join(args.dir, f"apps-{count}.json")
        if not os.path.exists(path):
            scale.write_json(path, count, True)
        rows = {"mempressure": [], "script": [], "floor": []}
        for _ in range(args.runs):
            rows["mempressure"].append(timed([args.binary, "kill-order", path, "--format", "json", "--limit", "10"]))
            rows["script"].append(timed([sys.executable, "-c", SCRIPT, path]))
            rows["floor"].append(timed([sys.executable, "-c", FLOOR, path]))
        ratios = [m[0] / s[0] for m, s in zip(rows["mempressure"], rows["script"])]
        floors = [m[0] / f[0] for m, f in zip(rows["mempressure"], rows["floor"])]
        results[count] = {name: statistics.median(t for t, _ in values) for name, values in rows.items()}
        print(
            f"{count:>9,} apps: mempressure {results[count]['mempressure']:.3f} s "
            f"({max(m for _, m in rows['mempressure']):.0f} MiB), script {results[count]['script']:.3f} s "
            f"({max(m for _, m in rows['script']):.0f} MiB), pysimdjson parse {results[count]['floor']:.3f} s; "
            f"paired median ratio to the script {statistics.median(ratios):.2f}x, to the parse {statistics.median(floors):.2f}x")
    for name in ("mempressure", "script", "floor"):
        print(f"growth 100K -> 1M, {name}: {results[1_000_000][name] / results[100_000][name]:.1f}x")


if __name__ == "__main__":
    main()
