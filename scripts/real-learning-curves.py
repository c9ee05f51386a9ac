#!/usr/bin/env python3
"""Learning curves on real people's histories: does the learning policy learn from a real log?

    scripts/real-learning-curves.py DIR [--binary PATH] [--held-out] [--days 1,2,3,5,7]
                                        [--compression-workloads phone,phone-2024]

DIR holds the real usage logs as scripts/fetch-real-usage.sh lays them out (next-app-prediction/,
app-usage-exports/, and held-out/, which is read only with --held-out). For every user (one sample
per user, the whole log), and for each training length k (default 1, 2, 3, 5 and 7 days),
`mempressure compare --usage-log FILE --sample user --warm-up 24k` replays the first k days without
counting them (the learning policy learns from them) and counts the rest. Printed, as Markdown, one
table per phone:

- kill-only (workload `phone`): `jetsam` (the best real killer that only kills, on generated and on
  real days), `predictive` and `oracle@predictive` (the clairvoyant choice over the same lifecycle);
- with compression (each of --compression-workloads, default `phone` and `phone-2024`):
  `jetsam-compressor` (the best real killer on real days), `predictive@jetsam-compressor`
  (jetsam-compressor's lifecycle, compressor and freezer, with predictive's learnt victim choice
  and reclaim order) and `oracle@jetsam-compressor` (the same lifecycle with foresight).

Then, on each compression workload after the first training length, the paired differences that set learning
against compression: jetsam-compressor − jetsam, each oracle − its lifecycle's killer,
predictive@jetsam-compressor − jetsam-compressor and − predictive.

Each row of the curves gives the launch wait per counted user-day of the three policies (the sum over users of
the launch wait after the training days, divided by the sum of their days with data after them),
the paired differences learner − killer and oracle − killer per counted day, and the share of the
killer-to-oracle gap the learner closes (pooled: the sum of the users' gains over the sum of their
gaps); every interval is a 95 % percentile bootstrap over users (2,000 resamples, seeded: the
output is the same on every run). Users whose log ends within the k training days are left out of
that row, and the row says how many users and user-days it holds. Reads only DIR and the binary
(default: .build/debug/mempressure; --binary .build/release/mempressure is faster).
"""
import argparse
import glob
import json
import os
import random
import subprocess
import sys
from datetime import date

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESAMPLES = 2000


def compare(binary, path, workload, policies, warm_up_hours, sample="user"):
    """compare's JSON document, or None if the run was refused (every sample ends within the warm-up)."""
    command = [binary, "compare", "--usage-log", path, "--sample", sample, "--workload", workload,
               "--policies", ",".join(policies), "--baseline", policies[0], "--format", "json"]
    if warm_up_hours:
        command += ["--warm-up", str(warm_up_hours)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        return None
    return json.loads(result.stdout)


def days_with_data(binary, path):
    """For each user of the log, the dates of its days with data (one sample per user-day)."""
    document = compare(binary, path, "phone", ["jetsam"], 0, sample="day")
    users = {}
    for run in document["policies"][0]["runs"]:
        # A day's sample is named "USER YYYY-MM-DD".
        user, _, day = run["sample"].rpartition(" ")
        users.setdefault(user, []).append(date.fromisoformat(day))
    return {user: sorted(days) for user, days in users.items()}


def rows_for(binary, path, dates, workload, policies, k):
    """One entry per user whose log outlasts k days: (user, counted days, launch wait of each policy)."""
    document = compare(binary, path, workload, policies, 24 * k)
    if document is None:
        return []
    out = {}
    for policy in document["policies"]:
        for run in policy["runs"]:
            out.setdefault(run["sample"], {})[policy["name"]] = run["launchWait"]
    rows = []
    for user, waits in out.items():
        days = dates.get(user, [])
        counted = sum(1 for day in days if (day - days[0]).days >= k) if days else 0
        if counted == 0:
            continue
        rows.append((user, counted, [waits[name] for name in policies]))
    return rows


def pooled(rows):
    """Per counted day: each policy's launch wait, learner − killer, oracle − killer, and the share closed."""
    days = sum(counted for _, counted, _ in rows)
    total = [sum(waits[i] for _, _, waits in rows) for i in range(3)]
    gap = total[0] - total[2]
    share = (total[0] - total[1]) / gap if gap > 0 else float("nan")
    return ([t / days for t in total], (total[1] - total[0]) / days, (total[2] - total[0]) / days, share)


def interval(values):
    values = sorted(v for v in values if v == v)
    if not values:
        return (float("nan"), float("nan"))
    return (values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1])


def curve(binary, logs, dates, workload, policies, days, seed=1):
    table = []
    for k in days:
        rows = []
        for path in logs:
            rows += rows_for(binary, path, dates[path], workload, policies, k)
        if not rows:
            table.append((k, 0, 0, None))
            continue
        random.seed(seed)
        boots = [pooled([random.choice(rows) for _ in rows]) for _ in range(RESAMPLES)]
        estimate = pooled(rows)
        table.append((k, len(rows), sum(counted for _, counted, _ in rows), estimate,
                      interval(b[1] for b in boots), interval(b[2] for b in boots), interval(b[3] for b in boots)))
    return table


def signed(value):
    return f"{value:+.1f}".replace("-", "−")


def print_table(title, table, policies):
    real, learner, oracle = policies
    print(f"### {title}\n")
    print(f"| trained on (days) | users | counted user-days | {real} | {learner} | {oracle} "
          f"| {learner} − {real} [95 %] | {oracle} − {real} [95 %] | gap closed by {learner} [95 %] |")
    print("| --: | --: | --: | --: | --: | --: | --- | --- | --- |")
    for entry in table:
        k, users, user_days = entry[:3]
        if users == 0:
            print(f"| {k} | 0 | 0 | | | | | | |")
            continue
        (waits, learnt, foresight, share), learnt_ci, foresight_ci, share_ci = entry[3:]
        print(f"| {k} | {users} | {user_days} | {waits[0]:.1f} | {waits[1]:.1f} | {waits[2]:.1f} "
              f"| {signed(learnt)} [{signed(learnt_ci[0])}, {signed(learnt_ci[1])}] "
              f"| {signed(foresight)} [{signed(foresight_ci[0])}, {signed(foresight_ci[1])}] "
              f"| {100 * share:.0f} % [{100 * share_ci[0]:.0f}, {100 * share_ci[1]:.0f}] |")
    print("\nLaunch wait in seconds per counted user-day (a day with data after the training days), pooled "
          "over users; intervals: bootstrap over users.\n")


CONTRASTS = [
    ("jetsam-compressor", "jetsam", "compression, no learning, against jetsam (the same bands, kills only)"),
    ("oracle@predictive", "jetsam", "the kill-only curve's gap: foresight, on predictive's lifecycle"),
    ("oracle@jetsam-compressor", "jetsam-compressor", "the compressing curve's gap: foresight (victims and reclaim order) on the compressor's lifecycle"),
    ("predictive@jetsam-compressor", "jetsam-compressor", "what the learnt choice gains over the compressor"),
    ("predictive@jetsam-compressor", "predictive", "what the compressor gains under the learnt choice"),
]


def contrasts(binary, logs, dates, workload, k, seed=1):
    """Paired differences between the kill-only and the compressing policies, on the same user-days."""
    policies = ["jetsam", "predictive", "oracle@predictive", "jetsam-compressor", "predictive@jetsam-compressor",
                "oracle@jetsam-compressor"]
    rows = []
    for path in logs:
        rows += rows_for(binary, path, dates[path], workload, policies, k)
    print(f"### Compression against learning (workload {workload}, trained on {k} "
          f"day{'s' if k > 1 else ''}: {len(rows)} users, {sum(c for _, c, _ in rows)} counted user-days)\n")
    print("| A − B | what it measures | s per counted user-day [95 %] | share of B's launch wait |")
    print("| --- | --- | --- | --: |")
    for a, b, meaning in CONTRASTS:
        i, j = policies.index(a), policies.index(b)

        def difference(sample):
            days = sum(counted for _, counted, _ in sample)
            return sum(waits[i] - waits[j] for _, _, waits in sample) / days

        random.seed(seed)
        low, high = interval(difference([random.choice(rows) for _ in rows]) for _ in range(RESAMPLES))
        wait = sum(waits[j] for _, _, waits in rows) / sum(counted for _, counted, _ in rows)
        value = difference(rows)
        print(f"| {a} − {b} | {meaning} | {signed(value)} [{signed(low)}, {signed(high)}] | "
              f"{signed(100 * value / wait)} % |")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory")
    parser.add_argument("--binary")
    parser.add_argument("--held-out", action="store_true", help="read held-out/ too")
    parser.add_argument("--days", default="1,2,3,5,7", help="training lengths, in days")
    parser.add_argument("--compression-workloads", default="phone,phone-2024")
    arguments = parser.parse_args()
    binary = arguments.binary or os.path.join(ROOT, ".build/debug/mempressure")
    logs = sorted(path for path in glob.glob(os.path.join(arguments.directory, "*", "*.csv"))
                  if arguments.held_out or os.path.basename(os.path.dirname(path)) != "held-out")
    if not logs:
        sys.exit(f"no usage logs under {arguments.directory}: run scripts/fetch-real-usage.sh first")
    days = [int(day) for day in arguments.days.split(",")]
    dates = {path: days_with_data(binary, path) for path in logs}
    kill_only = ["jetsam", "predictive", "oracle@predictive"]
    print_table("Kill-only phone (workload phone)", curve(binary, logs, dates, "phone", kill_only, days), kill_only)
    with_compression = ["jetsam-compressor", "predictive@jetsam-compressor", "oracle@jetsam-compressor"]
    for workload in arguments.compression_workloads.split(","):
        print_table(f"With compression (workload {workload})",
                    curve(binary, logs, dates, workload, with_compression, days), with_compression)
    for workload in arguments.compression_workloads.split(","):
        contrasts(binary, logs, dates, workload, days[0])


if __name__ == "__main__":
    main()
