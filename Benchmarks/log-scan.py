#!/usr/bin/env python3
"""`mempressure kill-order --history` on a whole machine's log against `grep -c` (the floor) and a
Python line loop, side by side on the same files, paired runs (issue 52).

    swift build -c release --product mempressure
    python3 Benchmarks/log-scan.py [--megabytes 200] [--runs 3] [--dir /tmp/log-scan]

Two logs are written once (seeded, then reused): ordinary syslog lines only, and the same with a
real kernel OOM report (evidence/public/linux/002-…, Linux 6.7) inserted every 5 MB. Each run
times, in turn on the same file:
- `mempressure kill-order --history FILE --format json > /dev/null` (every report kind at once);
- `grep -c ' invoked oom-killer: ' FILE` (a byte search, the floor);
- a Python loop that only tests each line for ` invoked oom-killer: ` (what the issue measured).
Wall time, MB/s and peak RSS (wait4's ru_maxrss) of each child; the median of each. The report
count must agree between mempressure and grep, or the run fails.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOOP = (
    "import sys\n"
    "n = 0\n"
    "for line in open(sys.argv[1], 'rb'):\n"
    "    if b' invoked oom-killer: ' in line: n += 1\n"
    "print(n)\n"
)
SERVICES = ["systemd[1]", "sshd[2211]", "cron[981]", "rsyslogd[771]", "NetworkManager[803]", "dockerd[1322]"]
MESSAGES = [
    "Started Session {n} of user root.", "Accepted publickey for deploy from 10.0.{a}.{b} port {n} ssh2",
    "(root) CMD (run-parts /etc/cron.hourly)", "imuxsock lost {n} messages from pid {a} due to rate-limiting",
    "<info>  [{n}.{a}] dhcp4 (eth0): state changed bound -> bound", "container {n} exited with code 0",
]


def write_logs(directory, megabytes):
    os.makedirs(directory, exist_ok=True)
    plain = os.path.join(directory, f"syslog-{megabytes}mb.log")
    mixed = os.path.join(directory, f"syslog-{megabytes}mb-reports.log")
    if os.path.exists(plain) and os.path.exists(mixed):
        return plain, mixed
    report = open(os.path.join(ROOT, "evidence/public/linux/002-lkml-mglru-rsync-memcg-6.7.log")).read()
    random.seed(52)
    target = megabytes << 20
    with open(plain, "w") as a, open(mixed, "w") as b:
        written = 0
        next_report = 5 << 20
        second = 0
        while written < target:
            second += 1
            line = (f"Jun {20 + second // 86400 % 9} {second // 3600 % 24:02d}:{second // 60 % 60:02d}:"
                    f"{second % 60:02d} host {random.choice(SERVICES)}: "
                    + random.choice(MESSAGES).format(n=random.randrange(100000), a=random.randrange(256),
                                                     b=random.randrange(256)) + "\n")
            a.write(line)
            b.write(line)
            written += len(line)
            if written >= next_report:
                b.write(report)
                next_report += 5 << 20
    return plain, mixed


def run(arguments):
    """Wall seconds, peak RSS in MiB and standard output of one child."""
    start = time.perf_counter()
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0 and not (arguments[0] == "grep" and os.waitstatus_to_exitcode(status) == 1):
        sys.exit(f"{arguments[0]} failed: {status}")
    return seconds, usage.ru_maxrss / 1024, output


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", default="/tmp/log-scan")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/mempressure"))
    options = parser.parse_args()
    if not os.access(options.binary, os.X_OK):
        sys.exit(f"no release binary at {options.binary}: swift build -c release --product mempressure")
    plain, mixed = write_logs(options.dir, options.megabytes)
    print("| log | tool | median wall (s) | MB/s | peak RSS (MiB) |")
    print("| --- | --- | --: | --: | --: |")
    for path in (plain, mixed):
        size = os.path.getsize(path) / 1e6
        tools = {
            "mempressure kill-order --history": [options.binary, "kill-order", "--history", path, "--format", "json"],
            "grep -c (the floor)": ["grep", "-c", " invoked oom-killer: ", path],
            "Python line loop": [sys.executable, "-c", LOOP, path],
        }
        results = {name: [] for name in tools}
        outputs = {}
        for _ in range(options.runs):
            for name, arguments in tools.items():
                seconds, rss, output = run(arguments)
                results[name].append((seconds, rss))
                outputs[name] = output
        reports = json.loads(outputs["mempressure kill-order --history"])["reports"]
        grep = int(outputs["grep -c (the floor)"].strip() or 0)
        if reports != grep:
            sys.exit(f"{path}: mempressure read {reports} reports, grep counts {grep}")
        for name, values in results.items():
            wall = statistics.median(v[0] for v in values)
            rss = max(v[1] for v in values)
            label = f"{os.path.basename(path)} ({size:.0f} MB, {grep} reports)"
            print(f"| {label} | {name} | {wall:.2f} | {size / wall:.0f} | {rss:.0f} |")


if __name__ == "__main__":
    main()
