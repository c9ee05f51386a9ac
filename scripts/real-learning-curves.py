#!/usr/bin/env python3
"""Learning curves on real people's histories: does the learning policy learn from a real log?

    scripts/real-learning-curves.py DIR [PATH-TO-mempressure]

DIR holds the real usage logs as scripts/fetch-real-usage.sh lays them out (next-app-prediction/,
app-usage-exports/, and held-out/ when fetched). For every user (one sample per user, the whole
log), and for each training length k of 1, 2, 3, 5 and 7 days, `mempressure compare --usage-log FILE
--sample user --warm-up 24k` replays the first k days without counting them (the learning policy
learns from them) and counts the rest. Printed, as Markdown:

- kill-only (workload `phone`): `jetsam` (the real killer the learning docs measure against),
  `predictive` and `oracle@predictive` (the clairvoyant choice over the same mechanisms); the
  launch wait per counted day of each, and the share of the jetsam-to-oracle gap that predictive
  closes, pooled over users (sum of gaps), with a bootstrap interval over users (seeded);
- with compression (workload `phone-2024`): `jetsam-compressor`, `oracle@jetsam-compressor`, and
  `predictive` (which cannot compress: a learned victim choice is not layered over the compressor
  in this version), the same way.

Users whose log is shorter than k + 1 days are left out of that k, and the table says how many
users each cell holds. Reads only DIR and the binary.
"""
import glob
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def runs(binary, path, workload, policies, warm_up_hours):
    """Every user's launch wait per policy, and the counted hours, or None if the log is too short."""
    command = [binary, "compare", "--usage-log", path, "--sample", "user", "--workload", workload,
               "--policies", ",".join(policies), "--baseline", policies[0], "--warm-up", str(warm_up_hours),
               "--format", "json"]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        return None
    document = json.loads(result.stdout)
    out = {}
    for policy in document["policies"]:
        for run in policy["runs"]:
            out.setdefault(run["sample"], {})[policy["name"]] = run["launchWait"]
    return out


def curve(binary, logs, workload, real, learner, oracle, days, seed=1):
    rows = []
    for k in days:
        per_user = []
        for path in logs:
            values = runs(binary, path, workload, [real, learner, oracle], 24 * k)
            if not values:
                continue
            for user, value in values.items():
                per_user.append((os.path.basename(path) + ":" + user, value[real], value[learner], value[oracle]))
        if not per_user:
            rows.append((k, 0, None, None, None, None, None))
            continue

        def closed(sample):
            gap = sum(r - o for _, r, _, o in sample)
            return sum(r - l for _, r, l, _ in sample) / gap if gap > 0 else float("nan")

        random.seed(seed)
        boots = sorted(closed([random.choice(per_user) for _ in per_user]) for _ in range(2000))
        boots = [b for b in boots if b == b]
        low = boots[int(0.025 * len(boots))] if boots else float("nan")
        high = boots[int(0.975 * len(boots)) - 1] if boots else float("nan")
        mean = lambda i: sum(row[i] for row in per_user) / len(per_user)
        rows.append((k, len(per_user), mean(1), mean(2), mean(3), closed(per_user), (low, high)))
    return rows


def table(title, rows, real, learner, oracle):
    print(f"### {title}\n")
    print(f"| trained on (days) | users | {real} | {learner} | {oracle} | gap closed by {learner} [95 %] |")
    print("| --: | --: | --: | --: | --: | --: |")
    for k, users, r, l, o, share, interval in rows:
        if users == 0:
            print(f"| {k} | 0 | | | | |")
            continue
        print(f"| {k} | {users} | {r:.0f} | {l:.0f} | {o:.0f} | {100 * share:.0f} % "
              f"[{100 * interval[0]:.0f}, {100 * interval[1]:.0f}] |")
    print("\nLaunch wait in seconds over each user's counted days (after the training days), mean over users.\n")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    binary = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, ".build/debug/mempressure")
    logs = sorted(glob.glob(os.path.join(directory, "*", "*.csv")))
    if not logs:
        sys.exit(f"no usage logs under {directory}: run scripts/fetch-real-usage.sh first")
    days = [1, 2, 3, 5, 7]
    table("Kill-only phone (workload phone)",
          curve(binary, logs, "phone", "jetsam", "predictive", "oracle@predictive", days),
          "jetsam", "predictive", "oracle@predictive")
    table("With compression (workload phone-2024)",
          curve(binary, logs, "phone-2024", "jetsam-compressor", "predictive", "oracle@jetsam-compressor", days),
          "jetsam-compressor", "predictive", "oracle@jetsam-compressor")


if __name__ == "__main__":
    main()
