#!/usr/bin/env python3
"""Runs the real earlyoom (Debian's package) against processes of known size and oom_score_adj
and keeps its log verbatim in evidence/earlyoom/.

Each scenario starts its processes ("hogs": a name, MiB touched, oom_score_adj), then earlyoom
with -d (its log then lists the processes it weighed before each kill) and its SIGTERM line at
99 % of memory (SIGKILL never), so that it kills at once, and stops it after `kills` processes
have exited. earlyoom chooses and signals every victim itself (kill.c, find_largest_process);
this script neither predicts nor picks them, and `kills` is less than the number of hogs, so
every victim is one. The log is copied as it is.

earlyoom prints a process's VmRSS, oom_score_adj and name only when the process may be the new
victim (its badness at least the victim's so far, in pid order); of the others it prints the
badness alone. So each scenario starts its hogs in ascending order of oom_score (and of size
among equal scores), which makes every hog's line complete: a reader of the log then sees all
of them. The order follows from the kernel's formula (fs/proc/base.c); earlyoom still chooses.

Scenarios (01 is the first one collected, by the version of this script in the commit that
added it, which set the SIGTERM line 1500 MiB above available memory in place of a kill count):
  01-three-hogs       3000/2000/1000 MiB with adj 0/300/500: adj against size
  02-equal-adj        400/800/1200/1600 MiB, adj 0: size alone
  03-adj-beats-size   2500 MiB adj 0, 1000 MiB adj 200, 500 MiB adj 700
  04-near-tie         300, 985 and 1020 MiB, adj 0: the last two share an oom_score, and VmRSS
                      breaks the tie
  05-graded           six hogs, 1200 MiB adj 0 to 200 MiB adj 600
  06-equal-scores     eight hogs of 300-307 MiB, adj 0, around an oom_score boundary
  07-rounded-tie      1015 MiB adj 30 and 1713 MiB adj 0: the kernel's own points rank the first
                      higher, /proc/PID/oom_score (x 2/3, rounded down) ties them, and VmRSS
                      picks the second
  08-prefer-avoid     --prefer and --avoid (+300 and -300 to a process's badness): the
                      smallest hog preferred, the largest avoided. The log does not show the
                      patterns; 08-prefer-avoid.policy.yaml beside it is earlyoom's policy with
                      them as `preferences`

Needs earlyoom on the PATH and about 5 GiB of free memory. Positive adj values only: negative
ones need CAP_SYS_RESOURCE. Usage:
  scripts/collect-earlyoom-log.py [--out evidence/earlyoom] [SCENARIO ...]   (default: 02 to 08)
"""
import argparse, os, subprocess, sys, time

CHILD = r"""
import ctypes, mmap, sys, time
name, size, adj = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ctypes.CDLL(None).prctl(15, name.encode(), 0, 0, 0)
open("/proc/self/oom_score_adj", "w").write(adj)
m = mmap.mmap(-1, size << 20)
for offset in range(0, size << 20, 4096): m[offset] = 1
print("ready", flush=True)
time.sleep(600)
"""

# name: (hogs as (process name, MiB, oom_score_adj) in the order they start, processes earlyoom
# kills[, earlyoom's own options])
SCENARIOS = {
    "01-three-hogs": ([("hog-3g-adj0", 3000, 0), ("hog-2g-adj300", 2000, 300), ("hog-1g-adj500", 1000, 500)], 2),
    "02-equal-adj": ([("hog-400m", 400, 0), ("hog-800m", 800, 0), ("hog-1200m", 1200, 0), ("hog-1600m", 1600, 0)], 3),
    "03-adj-beats-size": ([("hog-2500m-adj0", 2500, 0), ("hog-1000m-adj200", 1000, 200), ("hog-500m-adj700", 500, 700)], 2),
    "04-near-tie": ([("hog-300m", 300, 0), ("hog-985m", 985, 0), ("hog-1020m", 1020, 0)], 2),
    "05-graded": ([("hog-1200m-adj0", 1200, 0), ("hog-900m-adj100", 900, 100), ("hog-600m-adj200", 600, 200),
                   ("hog-400m-adj300", 400, 300), ("hog-300m-adj400", 300, 400), ("hog-200m-adj600", 200, 600)], 4),
    "06-equal-scores": ([("hog-%dm" % size, size, 0) for size in range(300, 308)], 4),
    "07-rounded-tie": ([("hog-1015m-adj30", 1015, 30), ("hog-1713m-adj0", 1713, 0)], 1),
    # The avoided hog's badness (about 421) falls below every other process's (666): it starts
    # first, and two kills leave hog-400m ahead of anything that is not a hog.
    "08-prefer-avoid": ([("hog-2000m-avoid", 2000, 0), ("hog-400m", 400, 0), ("hog-1500m", 1500, 0),
                         ("hog-700m-prefer", 700, 0)], 2,
                        ["--prefer", "^hog-700m-prefer$", "--avoid", "^hog-2000m-avoid$"]),
}

def run(name, out):
    hogs, kills = SCENARIOS[name][:2]
    options = SCENARIOS[name][2] if len(SCENARIOS[name]) > 2 else []
    assert kills < len(hogs), "every victim must be a hog"
    children, lines = [], []
    try:
        for process, size, adj in hogs:
            child = subprocess.Popen([sys.executable, "-c", CHILD, process, str(size), str(adj)],
                                     stdout=subprocess.PIPE, text=True)
            children.append(child)
            assert child.stdout.readline().strip() == "ready"
        # timeout: earlyoom never outlives the scenario, whatever happens to this script.
        command = ["earlyoom", "-d", "-r", "0", "-m", "99,0", "-s", "100"] + options
        log = subprocess.Popen(["timeout", "120"] + command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        exited = 0
        for line in log.stdout:
            lines.append(line)
            if line.startswith("process exited after"): exited += 1
            if exited == kills: break
        log.terminate()
        lines.append(log.communicate()[0])
        output = "".join(lines)
    finally:
        for child in children:
            if child.poll() is None: child.kill()
            child.wait()
    path = os.path.join(out, name + ".log")
    with open(path, "w") as f: f.write(output)
    index = os.path.join(out, "INDEX.tsv")
    rows = [l for l in open(index).read().splitlines()[1:] if not l.startswith(name + ".log\t")] if os.path.exists(index) else []
    rows.append("%s.log\t%s\t%s\t%s" % (name, output.splitlines()[0], os.uname().release, " ".join(command)))
    with open(index, "w") as f:
        f.write("file\tearlyoom\tkernel\tcommand\n" + "".join(r + "\n" for r in sorted(rows)))
    print(path, sum(1 for l in output.splitlines() if l.startswith("sending SIGTERM to") or l.startswith("sending SIGKILL to")), "kill(s)")

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "evidence", "earlyoom"))
    parser.add_argument("scenarios", nargs="*", default=[n for n in SCENARIOS if not n.startswith("01-")])
    args = parser.parse_args()
    unknown = [n for n in args.scenarios if n not in SCENARIOS]
    if unknown: raise SystemExit("unknown scenario(s) %s: expected some of %s" % (unknown, ", ".join(SCENARIOS)))
    os.makedirs(args.out, exist_ok=True)
    for name in args.scenarios: run(name, args.out)

if __name__ == "__main__":
    main()
