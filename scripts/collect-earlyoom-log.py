#!/usr/bin/env python3
"""Runs the real earlyoom (Debian's package) against processes of known size and oom_score_adj
and keeps its log verbatim in evidence/earlyoom/.

Three processes hold 3000, 2000 and 1000 MiB with oom_score_adj 0, 300 and 500; earlyoom is
started with its SIGTERM line above the memory then available (-m PERCENT computed from
/proc/meminfo so that two kills bring available memory back above it) and -d, so its log lists
every process it weighed before each kill. earlyoom chooses and signals the victims itself
(kill.c, find_largest_process); this script only starts the processes and copies the log.

Needs earlyoom on the PATH and about 6 GiB of free memory. The processes are ours: with the
adj values above they outrank every other process, and the threshold is met again as soon as
two of them are gone. Usage: scripts/collect-earlyoom-log.py [--out evidence/earlyoom]
"""
import argparse, ctypes, os, subprocess, sys, time

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

def available_mib():
    for line in open("/proc/meminfo"):
        if line.startswith("MemAvailable:"): return int(line.split()[1]) // 1024
    raise SystemExit("no MemAvailable in /proc/meminfo")

def total_mib():
    for line in open("/proc/meminfo"):
        if line.startswith("MemTotal:"): return int(line.split()[1]) // 1024

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "evidence", "earlyoom"))
    args = parser.parse_args()
    hogs = [("hog-3g-adj0", 3000, "0"), ("hog-2g-adj300", 2000, "300"), ("hog-1g-adj500", 1000, "500")]
    children = []
    try:
        for name, size, adj in hogs:
            child = subprocess.Popen([sys.executable, "-c", CHILD, name, str(size), adj], stdout=subprocess.PIPE, text=True)
            children.append(child)
            assert child.stdout.readline().strip() == "ready"
        total, available = total_mib(), available_mib()
        # SIGTERM line: halfway between available now and available once the two preferred
        # victims (1000 + 2000 MiB) are gone, as a percentage of the total.
        line = (available + 1500) * 100.0 / total
        command = ["earlyoom", "-d", "-r", "0", "-m", "%.2f,%.2f" % (line, line / 2), "-s", "100"]
        log = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        time.sleep(8)
        log.terminate()
        output = log.communicate()[0]
    finally:
        for child in children:
            if child.poll() is None: child.kill()
            child.wait()
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "01-three-hogs.log")
    with open(path, "w") as f: f.write(output)
    with open(os.path.join(args.out, "INDEX.tsv"), "w") as f:
        f.write("file\tearlyoom\tkernel\tcommand\n")
        f.write("01-three-hogs.log\t%s\t%s\t%s\n" % (output.splitlines()[0], os.uname().release, " ".join(command)))
    print(path, sum(1 for l in output.splitlines() if l.startswith("sending ")), "kill(s)")

if __name__ == "__main__":
    main()
