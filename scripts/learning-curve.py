#!/usr/bin/env python3
"""How many days of a user's history a learning policy needs: day d of every generated user, counted
after d − 1 days replayed as a warm-up (`compare --hours 24d --warm-up 24(d − 1)`), for d = 1 … DAYS.
With --usage-log, the users of a real multi-day log instead: each user's whole log is a sample
(`--sample user`), and day d is the d-th 24 hours from the user's first row.

Prints a Markdown table: each policy's mean launch wait on day d, the paired difference of each
learning policy against the baseline with its 95 % interval and verdict, and the share of the
baseline-to-oracle gap it closes, with its 95 % interval (a paired bootstrap over the users).

Usage: scripts/learning-curve.py [--binary PATH] [--workload NAME] [--seeds N] [--first-seed S]
                                  [--usage-log FILE] [--days D] [--baseline NAME] [--learners a,b]
                                  [--oracle NAME]
(a learner may be a policy file: Examples/policies/predictive-prewarm.yaml; the oracle may keep a
policy's lifecycle: --oracle oracle@predictive)
"""
import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "mempressure"))
    parser.add_argument("--workload", default="phone")
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--usage-log", help="a multi-day usage log (docs/usage-logs.md) instead of generated users")
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--baseline", default="jetsam")
    parser.add_argument("--learners", default="relaunch-aware,predictive")
    parser.add_argument("--oracle", default="oracle@predictive",
                        help="the gap's reference: oracle (ios4's lifecycle) or oracle@P (policy P's); "
                             "oracle-prewarm@P for a learner that prewarms")
    args = parser.parse_args()
    if not 1 <= args.days <= 365:
        sys.exit("learning-curve: --days must be 1...365")
    learners = [name for name in args.learners.split(",") if name]
    if not (args.oracle in ("oracle", "oracle-prewarm") or args.oracle.startswith(("oracle@", "oracle-prewarm@"))):
        sys.exit("learning-curve: --oracle must be oracle, oracle@P, oracle-prewarm or oracle-prewarm@P")
    policies = [args.baseline] + learners + [args.oracle]
    if args.usage_log and any(name.startswith("informed") for name in policies):
        sys.exit("learning-curve: informed knows a generated user's weights: it cannot run on --usage-log")
    # A learner given as a policy file is named in the report by the file's name without its
    # extension (which is its `name:` in the project's example files); oracle@FILE likewise.
    def label(name: str) -> str:
        if "@" in name:
            reference, base = name.split("@", 1)
            return f"{reference}@{label(base)}"
        return pathlib.Path(name).stem if name.endswith((".yaml", ".yml", ".json")) else name
    header = ["day", args.baseline] + [label(name) for name in learners] + [label(args.oracle)]
    header += [f"{label(name)} − {args.baseline} [95 %]" for name in learners]
    header += [f"gap closed: {label(name)}" for name in learners]
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for day in range(1, args.days + 1):
        command = [
            args.binary, "compare", "--workload", args.workload, "--policies", ",".join(policies),
            "--hours", str(24 * day), "--baseline", args.baseline, "--format", "json",
        ]
        if args.usage_log:
            command += ["--usage-log", args.usage_log, "--sample", "user"]
        else:
            command += ["--seeds", str(args.seeds), "--first-seed", str(args.first_seed)]
        if day > 1:
            command += ["--warm-up", str(24 * (day - 1))]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0 and args.usage_log and "ends within it" in result.stderr:
            # No user of the log has a day d: the curve ends at the log's longest history.
            print(f"\n(day {day}: no user of the log reaches it; the curve ends at day {day - 1})")
            break
        if result.returncode != 0:
            sys.exit(f"learning-curve: {' '.join(command)} failed: {result.stderr.strip()}")
        document = json.loads(result.stdout)
        by_name = {policy["name"]: policy for policy in document["policies"]}
        row = [str(day)]
        row += [f"{by_name[label(name)]['metrics']['launchWait']['mean']:.1f}" for name in policies]
        for name in learners:
            paired = by_name[label(name)]["paired"]["launchWait"]
            # One sample has no interval: its ends are null.
            ends = "" if paired["low"] is None else f" [{paired['low']:+.1f}, {paired['high']:+.1f}]"
            row.append(f"{paired['difference']:+.1f}{ends} {paired['verdict']}")
        for name in learners:
            gap = by_name[label(name)].get("gapToOracleClosed")
            interval = by_name[label(name)].get("gapToOracleClosedInterval")
            cell = "–" if gap is None else f"{gap * 100:.0f} %"
            if interval is not None:
                # An unbounded end is null (docs/statistics.md, "Share of the gap closed").
                low = "−∞" if interval[0] is None else f"{interval[0] * 100:.0f}"
                high = "∞" if interval[1] is None else f"{interval[1] * 100:.0f}"
                cell += f" [{low}, {high}]"
            row.append(cell)
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
