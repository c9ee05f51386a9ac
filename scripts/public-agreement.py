#!/usr/bin/env python3
"""Agreement of `mempressure kill-order` with the real kills of every report in evidence/.

    scripts/public-agreement.py [PATH-TO-mempressure]     (default: .build/debug/mempressure)

Runs `kill-order FILE --format json` on every file of evidence/public/*/ (public reports from other
people's machines, each folder's manifest.json holding what the report itself says) and of
evidence/linux-oom and evidence/earlyoom (this machine), and prints, as Markdown:

- Linux: per origin (this machine, public) and kernel generation, how many reports were accepted,
  how many name a victim, and how often the kernel's victim is linux-oom's first choice where the
  report's task table can be ranked; every miss with its cause (the verdict kill-order printed);
- JetsamEvent, Android, earlyoom: files accepted, kills in the manifests, and kills marked (by pid,
  or by name where the report gives no pid); for earlyoom also kills invented (marked but not in
  the manifest).

It exits 1 if a file is refused. It reads nothing but the repository and the binary.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/mempressure")


def run(path):
    """The kill-order documents of `path` (a list), or the error text."""
    result = subprocess.run(
        [BINARY, "kill-order", path, "--format", "json"], capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        return None, result.stderr.strip()
    document = json.loads(result.stdout)
    return (document if isinstance(document, list) else [document]), None


def generation(kernel):
    """A kernel release's generation, for the table."""
    if not kernel:
        return "release not stated"
    try:
        major, minor = [int(x) for x in kernel.split("-")[0].split(".")[:2]]
    except ValueError:
        return "release not stated"
    if (major, minor) < (2, 7):
        return "2.6"
    if (major, minor) < (4, 15):
        return "3.x–4.14"
    if (major, minor) < (5, 9):
        return "4.15–5.8"
    return "5.9+"


def linux_rows():
    rows = {}  # (origin, generation) -> counters
    misses = []
    refused = []

    def count(origin, gen, key, by=1):
        rows.setdefault((origin, gen), {"reports": 0, "victims": 0, "rankable": 0, "first": 0})[key] += by

    public = os.path.join(ROOT, "evidence/public/linux")
    for entry in json.load(open(os.path.join(public, "manifest.json"))):
        path = os.path.join("evidence/public/linux", entry["file"])
        documents, error = run(path)
        if documents is None:
            refused.append((path, error))
            continue
        killed = {}
        for document in documents:
            for kill in document.get("evidence", {}).get("killed", []):
                killed[kill.get("pid")] = (kill.get("rank"), document["evidence"].get("verdicts", []))
        for report in entry.get("reports", []):
            gen = generation(report.get("kernel"))
            count("public", gen, "reports")
            pid = report.get("victim_pid")
            if pid is None:
                continue
            count("public", gen, "victims")
            if not report.get("table_present") or report.get("table_truncated"):
                continue
            if gen == "2.6":
                continue  # badness() of 2.6 kernels cannot be reproduced from a report (kill-order says so)
            count("public", gen, "rankable")
            rank, verdicts = killed.get(pid, (None, ["victim not read"]))
            if rank == 1:
                count("public", gen, "first")
            else:
                misses.append((path, report.get("kernel") or "not stated", pid, "; ".join(verdicts)))
    own = os.path.join(ROOT, "evidence/linux-oom")
    for name in sorted(os.listdir(own)):
        if not name.endswith(".log"):
            continue
        path = os.path.join("evidence/linux-oom", name)
        documents, error = run(path)
        if documents is None:
            refused.append((path, error))
            continue
        for document in documents:
            count("this machine", "5.9+", "reports")
            for kill in document.get("evidence", {}).get("killed", []):
                count("this machine", "5.9+", "victims")
                count("this machine", "5.9+", "rankable")
                if kill.get("rank") == 1:
                    count("this machine", "5.9+", "first")
                else:
                    misses.append((path, "6.18", kill.get("pid"), "; ".join(document["evidence"]["verdicts"])))
    return rows, misses, refused


def marked(folder, kills_key, pid_key="pid"):
    """Files accepted and kills marked for a folder whose manifest lists kills."""
    accepted = files = expected = found = invented = 0
    refused = []
    misses = []
    directory = os.path.join(ROOT, "evidence/public", folder)
    for entry in json.load(open(os.path.join(directory, "manifest.json"))):
        path = os.path.join("evidence/public", folder, entry["file"])
        documents, error = run(path)
        if "NOT a JetsamEvent" in (entry.get("form") or ""):
            # An adjacent format kept for contrast: it must be refused, by name.
            if documents is not None:
                refused.append((path, "accepted, but it is not a JetsamEvent report"))
            else:
                print(f"- `{path}` is not a JetsamEvent report and is refused as such: {error}\n")
            continue
        files += 1
        if documents is None:
            refused.append((path, error))
            continue
        accepted += 1
        got = []
        for document in documents:
            got += document.get("evidence", {}).get("killed", [])
        want = entry.get(kills_key) or []
        remaining = list(got)
        for kill in want:
            expected += 1
            match = next(
                (k for k in remaining
                 if (kill.get(pid_key) is not None and k.get("pid") == kill.get(pid_key))
                 or (kill.get(pid_key) is None and k.get("name") == kill.get("name"))), None)
            if match is not None:
                found += 1
                remaining.remove(match)
            else:
                misses.append((path, kill.get("name"), kill.get(pid_key)))
        invented += len(remaining)
    return files, accepted, expected, found, invented, refused, misses


def main():
    if not os.access(BINARY, os.X_OK):
        sys.exit(f"no mempressure binary at {BINARY}: build it first (swift build)")
    rows, misses, refused = linux_rows()
    print("### Linux kernel OOM reports\n")
    print("| origin | kernel | reports | with a victim line | rankable (table whole) | victim ranked first by linux-oom |")
    print("| --- | --- | --: | --: | --: | --: |")
    total = {"reports": 0, "victims": 0, "rankable": 0, "first": 0}
    order = ["2.6", "3.x–4.14", "4.15–5.8", "5.9+", "release not stated"]
    for (origin, gen) in sorted(rows, key=lambda k: (k[0] != "this machine", order.index(k[1]))):
        r = rows[(origin, gen)]
        for key in total:
            total[key] += r[key]
        print(f"| {origin} | {gen} | {r['reports']} | {r['victims']} | {r['rankable']} | {r['first']} of {r['rankable']} |")
    print(f"| all | | {total['reports']} | {total['victims']} | {total['rankable']} | "
          f"**{total['first']} of {total['rankable']}** |")
    print("\n2.6 kernels chose with `badness()` (CPU time, run time, children), which a report does not carry: "
          "their victims are marked, not ranked.\n")
    if misses:
        print("Misses:\n")
        for path, kernel, pid, why in misses:
            print(f"- `{path}` (kernel {kernel}), pid {pid}: {why}")
        print()
    all_refused = list(refused)
    for folder, key, title, pid_key in [
        ("jetsam", "killed", "iOS JetsamEvent reports", "pid"),
        ("android", "kills", "Android kill logs", "pid"),
        ("earlyoom", "kills", "earlyoom logs", "pid"),
    ]:
        files, accepted, expected, found, invented, refused, kill_misses = marked(folder, key, pid_key)
        all_refused += refused
        print(f"### {title}\n")
        print(f"{accepted} of {files} files accepted; {found} of {expected} kills marked"
              + (f"; {invented} kill(s) marked that the manifest does not list" if folder == "earlyoom" else "")
              + ".\n")
        for path, name, pid in kill_misses:
            print(f"- not marked: `{path}`: {name} (pid {pid})")
        if kill_misses:
            print()
    if all_refused:
        print("### Refused\n")
        for path, error in all_refused:
            print(f"- `{path}`: {error}")
        sys.exit(1)


if __name__ == "__main__":
    main()
