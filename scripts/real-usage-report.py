#!/usr/bin/env python3
"""The real-usage figures of docs/usage-logs.md ("Real people against the built-in user" and
"Every policy on real days"), from the real logs scripts/fetch-real-usage.sh fetches.

    scripts/fetch-real-usage.sh                       # into real-usage/
    swift build -c release --product mempressure
    scripts/real-usage-report.py real-usage           # both tables, as Markdown, on standard output
    scripts/real-usage-report.py real-usage --seeds 100 --workload phone --held-out

It runs `mempressure profile --usage-log FILE --format json` and `mempressure compare --usage-log
FILE --format json` on each real log (the seven of next-app-prediction/ and app-usage-exports/;
with --held-out also the three of held-out/), and the same on the built-in user's generated days
(`--seeds N`, one person's day each), then pools the real user-days:

- profile: each figure's mean over all real user-days with its 95 % interval (Student t over
  user-days; days of one person are not independent, so it is narrower than it should be), the
  range of the per-person means, the built-in user's mean and interval, and whether the built-in
  user falls outside the people's range;
- compare: each policy's mean launch wait on real user-days and on generated days, the two orders,
  Spearman's rank correlation between them with a bootstrap interval (user-days and seeds resampled,
  2,000 times, seeded), and every pair of policies whose paired difference changes sign between
  real and generated days, with both intervals.

The binary is $MEMPRESSURE, else .build/release/mempressure, else .build/debug/mempressure.
"""
import argparse
import json
import math
import os
import pathlib
import random
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LOGS = [
    "next-app-prediction/user_b_data.csv",
    "next-app-prediction/user_c_data.csv",
    "next-app-prediction/user_i_data.csv",
    "next-app-prediction/user_s_data.csv",
    "next-app-prediction/dataset.csv",
    "app-usage-exports/user1-AUM_V4_Activity_2019-12-05_00-46-03.csv",
    "app-usage-exports/user2-AUM_V4_Activity_2019-12-10_22-19-45.csv",
]
HELD_OUT = [
    "held-out/user_t_data.csv",
    "held-out/user_z_data.csv",
    "held-out/user3-AUM_V4_Activity_2019-12-10_14-47-33.csv",
]
FIGURES = [
    ("distinctAppsPerDay", "distinct apps a day"),
    ("opensPerDay", "opens a day"),
    ("meanSessionSeconds", "seconds per app session"),
    ("foregroundHoursPerDay", "hours in apps a day"),
    ("medianMinutesBetweenOpens", "minutes between opens (median)"),
    ("reopenWithin10MinutesPercent", "reopens within 10 min (% of opens)"),
    ("reopenWithinHourPercent", "reopens within 1 h (% of opens)"),
    ("nightSharePercent", "share of use 00:00–06:00 (%)"),
]
# Student t quantiles (0.975) by degrees of freedom; 1.96 beyond.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
        10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}


def t975(df):
    keys = sorted(k for k in T975 if k <= df)
    return T975[keys[-1]] if df <= 120 and keys else 1.96


def binary():
    for candidate in [os.environ.get("MEMPRESSURE"), ROOT / ".build/release/mempressure",
                      ROOT / ".build/debug/mempressure"]:
        if candidate and pathlib.Path(candidate).exists():
            return str(candidate)
    sys.exit("no mempressure binary: build it (swift build -c release --product mempressure) or set MEMPRESSURE")


def run(args):
    done = subprocess.run([binary()] + args, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"mempressure {' '.join(args)} failed ({done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout)


def interval(values):
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    if n < 2:
        return (mean, mean, mean)
    half = t975(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return (mean, mean - half, mean + half)


def fmt(x):
    if x != x:
        return "–"
    if abs(x) >= 1000:
        return str(round(x))
    return f"{x:.1f}".rstrip("0").rstrip(".") if abs(x) >= 10 else f"{x:.2f}".rstrip("0").rstrip(".")


def shown(triple):
    mean, low, high = triple
    return f"{fmt(mean)} [{fmt(low)}, {fmt(high)}]"


def spearman(a, b):
    def ranks(values):
        order = sorted(range(len(values)), key=lambda i: values[i])
        result = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                result[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return result
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return num / den if den else math.nan


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", help="where scripts/fetch-real-usage.sh put the logs")
    parser.add_argument("--seeds", type=int, default=100, help="generated days of the built-in user (default 100)")
    parser.add_argument("--workload", default="phone", help="the workload (device, kinds' footprints; default phone)")
    parser.add_argument("--held-out", action="store_true", help="add the held-out logs")
    options = parser.parse_args()
    logs = LOGS + (HELD_OUT if options.held_out else [])
    paths = [pathlib.Path(options.directory) / name for name in logs]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        sys.exit("missing (run scripts/fetch-real-usage.sh): " + ", ".join(missing))
    common = ["--workload", options.workload]

    # Profile: real user-days pooled, per person means, the built-in user.
    per_day = {key: [] for key, _ in FIGURES}
    per_family = {family: {key: [] for key, _ in FIGURES} for family in ("polled", "app-usage")}
    per_person = {key: [] for key, _ in FIGURES}
    days = 0
    builtin = None
    for path in paths:
        document = run(["profile", "--usage-log", str(path), "--format", "json", "--seeds", str(options.seeds)] + common)
        builtin = document
        log = document["usageLog"]
        days += len(log["samples"])
        family = "polled" if path.name.startswith("user_") else "app-usage"
        for key, _ in FIGURES:
            values = log[key]["values"]
            per_day[key] += values
            per_family[family][key] += values
            if values:
                per_person[key].append(statistics.fmean(values))
    print(f"### Profile: {len(paths)} real people, {days} user-days, against {options.seeds} days of the built-in "
          f"user (workload {options.workload})\n")
    print("| per user-day | real people [95 %] | App Usage exports | polled samples | range of the people's means "
          "| built-in user [95 %] | built-in user |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for key, name in FIGURES:
        low, high = min(per_person[key]), max(per_person[key])
        b = builtin[key]
        where = "below the range" if b["mean"] < low else "above the range" if b["mean"] > high else "within"
        print(f"| {name} | {shown(interval(per_day[key]))} | {fmt(interval(per_family['app-usage'][key])[0])} | "
              f"{fmt(interval(per_family['polled'][key])[0])} | {fmt(low)}–{fmt(high)} | "
              f"{fmt(b['mean'])} [{fmt(b['low'])}, {fmt(b['high'])}] | {where} |")

    # Compare: every policy on every real user-day, and on the built-in user's days.
    real = {}
    for path in paths:
        document = run(["compare", "--usage-log", str(path), "--format", "json"] + common)
        for policy in document["policies"]:
            real.setdefault(policy["name"], []).extend(run_["launchWait"] for run_ in policy["runs"])
    generated_document = run(["compare", "--seeds", str(options.seeds), "--format", "json"] + common)
    generated = {p["name"]: [r["launchWait"] for r in p["runs"]] for p in generated_document["policies"]}
    names = [name for name in generated if name in real]
    real_means = [statistics.fmean(real[n]) for n in names]
    gen_means = [statistics.fmean(generated[n]) for n in names]
    real_rank = {n: i + 1 for i, n in enumerate(sorted(names, key=lambda n: statistics.fmean(real[n])))}
    gen_rank = {n: i + 1 for i, n in enumerate(sorted(names, key=lambda n: statistics.fmean(generated[n])))}
    rho = spearman(real_means, gen_means)
    rng = random.Random(48)
    n_real = len(real[names[0]])
    n_gen = len(generated[names[0]])
    rhos = []
    for _ in range(2000):
        pick_real = [rng.randrange(n_real) for _ in range(n_real)]
        pick_gen = [rng.randrange(n_gen) for _ in range(n_gen)]
        a = [statistics.fmean(real[n][i] for i in pick_real) for n in names]
        b = [statistics.fmean(generated[n][i] for i in pick_gen) for n in names]
        rhos.append(spearman(a, b))
    rhos.sort()
    print(f"\n### Every policy: launch wait (s) per day, {n_real} real user-days against {n_gen} generated days\n")
    print("| policy | real days [95 %] | rank | built-in user [95 %] | rank |")
    print("| --- | --- | --- | --- | --- |")
    for n in sorted(names, key=lambda n: real_rank[n]):
        print(f"| {n} | {shown(interval(real[n]))} | {real_rank[n]} | {shown(interval(generated[n]))} | {gen_rank[n]} |")
    print(f"\nSpearman's rank correlation of the two orders: {rho:.2f} "
          f"[{rhos[int(0.025 * len(rhos))]:.2f}, {rhos[int(0.975 * len(rhos)) - 1]:.2f}] "
          f"(bootstrap over user-days and seeds, 2,000 resamples)\n")
    print("Pairs whose paired difference in launch wait changes sign between real and generated days "
          "(A − B; an interval that excludes 0 is resolved):\n")
    print("| A | B | real days [95 %] | built-in user [95 %] |")
    print("| --- | --- | --- | --- |")
    flips = 0
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            r = interval([x - y for x, y in zip(real[a], real[b])])
            g = interval([x - y for x, y in zip(generated[a], generated[b])])
            if r[0] * g[0] < 0:
                flips += 1
                print(f"| {a} | {b} | {shown(r)} | {shown(g)} |")
    pairs = len(names) * (len(names) - 1) // 2
    print(f"\n{flips} of {pairs} pairs change sign.")


if __name__ == "__main__":
    main()
