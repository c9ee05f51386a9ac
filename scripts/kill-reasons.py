#!/usr/bin/env python3
"""Why a policy kills: every kill of seeds FIRST … FIRST + N − 1 of a workload, counted by cause.

Runs `mempressure simulate --events-out` once per seed and tallies each kill event's reason: the
part before the first ": " when it names a cause the engine writes before the band's reason (a
compressor space shortage, compressor thrashing, the learnt kill-instead-of-compress switch), else
"band order" (a level's kill, a band's own threshold, a limit, a PSI rule).
Prints a Markdown table of causes with their counts and kills per user-day.

Usage: scripts/kill-reasons.py --policy NAME|FILE [--workload NAME] [--seeds N] [--first-seed S]
                               [--binary PATH]
Example (how often jetsam-compressor's thrashing kill fires on the phone user):
    scripts/kill-reasons.py --policy jetsam-compressor --workload phone --seeds 300
"""
import argparse
import collections
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Causes the engine writes before the band's own reason (MemoryCompression.shortageReason,
# .thrashingReason, ReusePrediction.killInsteadOfCompressingReason).
PREFIXES = ("compressor space shortage", "compressor thrashing",
            "unlikely to be reopened soon, killed instead of compressed")


def cause(reason: str) -> str:
    head = reason.split(": ", 1)[0]
    return head if head in PREFIXES else "band order"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--policy", required=True)
    parser.add_argument("--workload", default="phone")
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "mempressure"))
    args = parser.parse_args()
    if not 1 <= args.seeds <= 100_000:
        sys.exit("kill-reasons: --seeds must be 1...100000")
    if not pathlib.Path(args.binary).exists():
        sys.exit(f"kill-reasons: {args.binary} not found: build it with `swift build -c release`")
    counts: collections.Counter[str] = collections.Counter()
    with tempfile.TemporaryDirectory() as folder:
        events = pathlib.Path(folder) / "events.jsonl"
        for index, seed in enumerate(range(args.first_seed, args.first_seed + args.seeds)):
            run = subprocess.run(
                [args.binary, "simulate", "--policy", args.policy, "--workload", args.workload,
                 "--seed", str(seed), "--events-out", str(events)],
                capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"kill-reasons: seed {seed}: {run.stderr.strip()}")
            with events.open() as lines:
                for line in lines:
                    if '"type":"kill"' in line:
                        counts[cause(json.loads(line)["reason"])] += 1
            if (index + 1) % 50 == 0:
                print(f"kill-reasons: {index + 1}/{args.seeds} seeds", file=sys.stderr)
    print(f"| cause ({args.policy}, {args.workload}, seeds {args.first_seed}–{args.first_seed + args.seeds - 1}) "
          "| kills | per user-day |")
    print("| --- | --- | --- |")
    for name in ("band order",) + PREFIXES:
        print(f"| {name} | {counts[name]} | {counts[name] / args.seeds:.2f} |")


if __name__ == "__main__":
    main()
