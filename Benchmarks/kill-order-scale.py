#!/usr/bin/env python3
"""kill-order at scale (issue 14): wall time and peak RSS of `mempressure kill-order` on large
snapshots, against CPython's C `json` module parsing the same file, in the same run.

    swift build -c release --product mempressure
    python3 Benchmarks/kill-order-scale.py [--binary .build/release/mempressure] [--dir /tmp/kill-order-scale]

Writes (once, deterministically, seeded) the snapshots: 100,000 and 1,000,000 apps in JSON with
every field, 1,000,000 apps in JSON with only id/state/footprint/lastActive, and 1,000,000 apps in
YAML (block style, every field). Then, for each file, best of `--runs` (default 3):
- `mempressure kill-order FILE --format json --limit 100 > /dev/null`: wall time and peak RSS
  (the child's own `ru_maxrss`, from wait4);
- for JSON, `python3 -c 'json.loads(open(FILE).read())'` in a child that reports its own parse
  time (the file is read before the clock starts) and its peak RSS.
Prints one line per file and the ratio of the two times.
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import time

STATES = ["suspended", "background", "active"]


def apps(count, every_field, seed=20261121):
    """The server shape of scripts/make-server-snapshot.py (log-normal footprints, one active app)."""
    rng = random.Random(seed)
    sigma = math.log(300 / 12) / 2.326
    has_active = False
    for index in range(count):
        state = rng.choices(STATES, weights=[70, 29, 1])[0]
        if state == "active":
            if has_active:
                state = "background"
            has_active = True
        footprint = int(12 * 2**20 * math.exp(rng.gauss(0, sigma)))
        app = {"id": f"tenant-{index:07d}", "state": state, "footprint": footprint}
        if every_field:
            app["purgeable"] = footprint // 8
        app["lastActive"] = rng.randrange(0, 86400)
        if every_field:
            app["oomScoreAdj"] = -1000 if rng.random() < 0.01 else rng.choice([0, 0, 100, 300, 900])
            app["swap"] = rng.randrange(0, 4) * 2**20
            app["pageTables"] = footprint // 500
        yield app


def device(count):
    scale = max(count // 2000, 1)
    return {"memory": 64 * 2**30 * scale, "reserved": 2 * 2**30 * scale, "swap": 8 * 2**30 * scale}


def write_json(path, count, every_field):
    with open(path, "w") as out:
        out.write('{"device":' + json.dumps(device(count), separators=(",", ":")) + ',"apps":[')
        for index, app in enumerate(apps(count, every_field)):
            if index:
                out.write(",")
            out.write(json.dumps(app, separators=(",", ":")))
        out.write("]}\n")


def write_yaml(path, count):
    with open(path, "w") as out:
        d = device(count)
        out.write(f"device:\n  memory: {d['memory']}\n  reserved: {d['reserved']}\n  swap: {d['swap']}\napps:\n")
        for app in apps(count, True):
            lines = [f"{key}: {value}" for key, value in app.items()]
            out.write("  - " + "\n    ".join(lines) + "\n")


def run(command):
    """Wall seconds, peak RSS (MiB), output and CPU seconds (user + system) of one child process."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    output = child.stdout.read()
    errors = child.stderr.read()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({child.returncode}): {errors.decode()[:500]}")
    return elapsed, usage.ru_maxrss / 1024, output, usage.ru_utime + usage.ru_stime


PYTHON_PARSE = (
    "import json,sys,time\n"
    "text=open(sys.argv[1],encoding='utf-8').read()\n"
    "start=time.perf_counter()\n"
    "document=json.loads(text)\n"
    "print(time.perf_counter()-start)\n"
)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/mempressure")
    parser.add_argument("--dir", default="/tmp/kill-order-scale")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated file names to run (default: all)")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    files = [
        ("apps-100k.json", lambda p: write_json(p, 100_000, True)),
        ("apps-1m-minimal.json", lambda p: write_json(p, 1_000_000, False)),
        ("apps-1m.json", lambda p: write_json(p, 1_000_000, True)),
        ("apps-1m.yaml", lambda p: write_yaml(p, 1_000_000)),
    ]
    only = set(filter(None, args.only.split(",")))
    print(f"{'file':<22} {'MiB':>6} {'kill-order s':>12} {'CPU s':>8} {'peak RSS MiB':>12} {'json.loads s':>12} "
          f"{'python RSS':>10} {'ratio':>6}")
    for name, write in files:
        if only and name not in only:
            continue
        path = os.path.join(args.dir, name)
        if not os.path.exists(path):
            write(path)
        size = os.path.getsize(path) / 2**20
        ours = min(
            (run([args.binary, "kill-order", path, "--format", "json", "--limit", "100"]) for _ in range(args.runs)),
            key=lambda r: r[0])
        line = f"{name:<22} {size:6.0f} {ours[0]:12.3f} {ours[3]:8.3f} {ours[1]:12.0f}"
        if name.endswith(".json"):
            best = None
            for _ in range(args.runs):
                _, rss, output, _ = run([sys.executable, "-c", PYTHON_PARSE, path])
                parse = float(output.decode().strip())
                if best is None or parse < best[0]:
                    best = (parse, rss)
            line += f" {best[0]:12.3f} {best[1]:10.0f} {ours[0] / best[0]:6.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
