#!/usr/bin/env python3
"""Load test of `mempressure watch --metrics-port` on loopback (issue 23), bounded in count and time.

Starts `mempressure watch --metrics-port 0 --interval I --count C`, then, while it runs:
  - opens IDLE connections that send nothing;
  - runs SLOW clients that each send a request one byte a second;
  - makes SCRAPES scrapes one after another (a fresh connection each), timing each;
  - finally measures scrape throughput: as many scrapes as it can in THROUGHPUT_SECONDS from
    4 concurrent clients.
It reports the scrape latency (p50, p99, max; failures), the server's peak resident memory
(VmHWM from /proc/PID/status), the refresh cadence (the gaps between watch's `[   T.Ts]` stamps
against --interval), and how the process ended (it must end only after --count refreshes).

    python3 Benchmarks/metrics-load.py --binary .build/release/mempressure [--idle 1000 --slow 50 --scrapes 100]

Prints one JSON object (and a table to stderr). Exits 0 whatever the numbers: it measures; the
README says what the goals are and whether they are met.
"""
import argparse
import json
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import threading
import time


def scrape(port, timeout=10.0):
    """One GET /metrics on a fresh connection: (seconds, status or None)."""
    start = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        elapsed = time.perf_counter() - start
        status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else None
        return elapsed, status
    except OSError:
        return time.perf_counter() - start, None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/mempressure")
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--slow", type=int, default=50)
    parser.add_argument("--scrapes", type=int, default=100)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--throughput-seconds", type=float, default=3.0)
    parser.add_argument("--label", default="")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    started = time.monotonic()
    process = subprocess.Popen(
        [args.binary, "watch", "--metrics-port", "0", "--interval", str(args.interval), "--count", str(args.count)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    port = None
    while port is None:
        line = process.stderr.readline()
        if not line:
            raise SystemExit("watch ended before serving: " + process.stderr.read())
        match = re.search(r":(\d+)/metrics", line)
        if match:
            port = int(match.group(1))
    stamps = []

    def read_stdout():
        for line in process.stdout:
            match = re.match(r"\[\s*([0-9.]+)s\]", line)
            if match:
                stamps.append(float(match.group(1)))

    reader = threading.Thread(target=read_stdout, daemon=True)
    reader.start()
    # Idle connections: opened, never written to.
    idle = []
    refused = 0
    for _ in range(args.idle):
        try:
            idle.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        except OSError:
            refused += 1
    # Slow clients: a request one byte a second, until the end of the test.
    stop = threading.Event()

    def slow_client():
        request = b"GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n"
        while not stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                    for byte in request:
                        if stop.wait(1.0):
                            return
                        s.sendall(bytes([byte]))
            except OSError:
                if stop.wait(0.5):
                    return

    slow = [threading.Thread(target=slow_client, daemon=True) for _ in range(args.slow)]
    for thread in slow:
        thread.start()
    time.sleep(1.0)
    latencies = []
    failures = 0
    for _ in range(args.scrapes):
        elapsed, status = scrape(port)
        if status == 200:
            latencies.append(elapsed)
        else:
            failures += 1
        time.sleep(0.01)
    # Throughput: 4 clients scraping back to back.
    counts = [0] * 4
    deadline = time.perf_counter() + args.throughput_seconds

    def hammer(index):
        while time.perf_counter() < deadline:
            _, status = scrape(port)
            if status == 200:
                counts[index] += 1

    hammers = [threading.Thread(target=hammer, args=(i,)) for i in range(4)]
    for thread in hammers:
        thread.start()
    for thread in hammers:
        thread.join()
    peak_kib = None
    try:
        with open(f"/proc/{process.pid}/status") as status_file:
            for line in status_file:
                if line.startswith("VmHWM:"):
                    peak_kib = int(line.split()[1])
    except OSError:
        pass
    alive_during = process.poll() is None
    stop.set()
    try:
        process.wait(timeout=args.count * args.interval + 30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    for s in idle:
        s.close()
    reader.join(timeout=5)
    wall = time.monotonic() - started
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    within = [abs(gap - args.interval) <= 0.05 * args.interval for gap in gaps]
    latencies.sort()
    result = {
        "label": args.label,
        "idle": args.idle, "idleRefused": refused, "slow": args.slow,
        "scrapes": args.scrapes, "scrapeFailures": failures,
        "p50ms": round(statistics.median(latencies) * 1000, 2) if latencies else None,
        "p99ms": round(latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1000, 2) if latencies else None,
        "maxms": round(latencies[-1] * 1000, 2) if latencies else None,
        "throughputPerSecond": round(sum(counts) / args.throughput_seconds, 1),
        "peakMiB": round(peak_kib / 1024, 1) if peak_kib else None,
        "refreshes": len(stamps), "count": args.count,
        "gapMeanSeconds": round(statistics.mean(gaps), 3) if gaps else None,
        "gapsWithin5Percent": f"{sum(within)}/{len(within)}",
        "exitStatus": process.returncode, "aliveThroughLoad": alive_during,
        "wallSeconds": round(wall, 1),
    }
    print(json.dumps(result))
    print(
        f"{args.label}: scrape p50 {result['p50ms']} ms, p99 {result['p99ms']} ms, failures {failures}/{args.scrapes}; "
        f"throughput {result['throughputPerSecond']}/s; peak {result['peakMiB']} MiB; refreshes {len(stamps)}/{args.count}, "
        f"gaps within 5 %: {result['gapsWithin5Percent']} (mean {result['gapMeanSeconds']} s); exit {process.returncode}",
        file=sys.stderr)


if __name__ == "__main__":
    main()
