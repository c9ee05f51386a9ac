#!/usr/bin/env python3
"""Makes real Linux OOM kills inside memory cgroups and keeps the kernel's reports verbatim.

Each scenario starts processes of known sizes and oom_score_adj in a fresh memory cgroup (v1,
`/sys/fs/cgroup/memory`, with a hard limit), then a "trigger" process allocates until the cgroup
is out of memory. The kernel chooses and kills the victim itself (mm/oom_kill.c,
select_bad_process) and prints its report to the kernel log; this script copies the lines of
that report out of `dmesg` unchanged into evidence/linux-oom/NN-name.log and records the
scenario in evidence/linux-oom/INDEX.tsv. Nothing here decides or predicts the victim: the
report is the kernel's own.

Negative oom_score_adj values need CAP_SYS_RESOURCE; scenarios use 0 and positive values only,
so that they run where that capability is withheld (as on the machine the corpus was made on).

Needs root, a cgroup-v1 memory controller mounted read-write and a readable `dmesg`. Only the
processes it starts are ever in the cgroups it makes, so nothing else on the machine is at risk.

`--swap` runs the swap scenarios only: it makes /dev/zram0 a 1 GiB swap device (zram, as
Fedora and Android swap), gives each cgroup a `memory+swap` limit above its memory limit, and
starts the processes that should be swapped out first, so that the kernel's reclaim (least
recently used first) moves their pages to zram before the trigger fills memory and swap. The
kernel counts swap entries in oom_badness() (MM_SWAPENTS): the victim need not have the largest
rss. The swap device is taken down again afterwards. Every swap scenario keeps oom_score_adj 0:
a memory-cgroup report does not print the machine's total swap, on which the adj term's scale
then depends.

    sudo scripts/collect-linux-oom-reports.py [--only NAME] [--global] [--swap] [--out evidence/linux-oom]
"""

import argparse
import ctypes
import json
import mmap
import os
import random
import signal
import subprocess
import sys
import time

from memcg_zram import remove_cgroup, zram_swap

CGROUP_ROOT = "/sys/fs/cgroup/memory"
MIB = 1 << 20

# The process each scenario starts: it sets its name (prctl PR_SET_NAME, which the report's name
# column shows) and oom_score_adj, joins its cgroup, touches the memory it was asked for, says
# "ready" on standard output and sleeps; a trigger allocates step by step until `grow` MiB.
CHILD = r"""
import ctypes, mmap, os, sys, time, json
spec = json.loads(sys.argv[1])
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(15, spec["name"].encode()[:15], 0, 0, 0)
with open("/proc/self/oom_score_adj", "w") as f: f.write(str(spec["adj"]))
if spec.get("cgroup"):
    with open(spec["cgroup"] + "/cgroup.procs", "w") as f: f.write(str(os.getpid()))
keep = []
def touch(m, size, stride=4096):
    for offset in range(0, size, stride): m[offset] = 1
if spec.get("anon"):
    size = spec["anon"] << 20; m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    m.madvise(mmap.MADV_NOHUGEPAGE); touch(m, size); keep.append(m)
if spec.get("shmem"):
    path = "/dev/shm/mp-oom-%d" % os.getpid(); size = spec["shmem"] << 20
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600); os.ftruncate(fd, size)
    m = mmap.mmap(fd, size, flags=mmap.MAP_SHARED); os.unlink(path); touch(m, size); keep.append(m)
if spec.get("file"):
    path = "/var/tmp/mp-oom-file-%d" % os.getpid(); size = spec["file"] << 20
    with open(path, "wb") as f: f.write(b"x" * size)
    fd = os.open(path, os.O_RDONLY); m = mmap.mmap(fd, size, flags=mmap.MAP_SHARED, prot=mmap.PROT_READ)
    os.unlink(path)
    total = 0
    for offset in range(0, size, 4096): total += m[offset]
    keep.append(m)
if spec.get("sparse"):
    # One touched page per 2 MiB of address space: one page-table page for each page of data.
    pages = spec["sparse"] << 8; size = pages << 21
    m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_NORESERVE", 0x4000))
    m.madvise(mmap.MADV_NOHUGEPAGE); touch(m, size, 1 << 21); keep.append(m)
if spec.get("grow"):
    for step in range(spec["grow"]):
        m = mmap.mmap(-1, 1 << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        m.madvise(mmap.MADV_NOHUGEPAGE); touch(m, 1 << 20); keep.append(m)
    print("grown", flush=True)
    sys.exit(0)
print("ready", flush=True)
time.sleep(3600)
"""


def hog(name, adj=0, **memory):
    return dict(name=name, adj=adj, **memory)


# name, cgroup limit (MiB), the processes (with their sub-cgroup, if any), the trigger, and what
# the scenario exercises. Sizes are MiB; every process also holds its interpreter (~9 MiB), which
# its cgroup is not charged for (it joins after starting, and cgroup v1 does not move charges).
SCENARIOS = [
    ("lone-grower", 128, [], hog("grower", grow=400), "one process outgrows its cgroup"),
    ("largest-dies", 256, [hog("big", anon=120), hog("medium", anon=60), hog("small", anon=30)],
     hog("grower", grow=100), "three resident processes, the largest killed"),
    ("adj-beats-size", 256, [hog("large", anon=120), hog("adj500", adj=500, anon=40)],
     hog("grower", grow=100), "a smaller process with oom_score_adj 500 before a larger one"),
    ("shmem", 256, [hog("shm", shmem=120), hog("anon", anon=90)], hog("grower", grow=60),
     "shared memory (rss_shmem) counts in rss"),
    ("file-mapped", 256, [hog("mapped", file=120), hog("anon", anon=90)], hog("grower", grow=300),
     "file-backed mapped pages (rss_file) under memcg reclaim"),
    ("page-tables", 256, [hog("dense", anon=64), hog("sparse", sparse=48)], hog("grower", grow=120),
     "page tables (pgtables_bytes) make a smaller-rss process the victim"),
    ("many-small", 512, [hog("tiny%02d" % i, anon=10) for i in range(12)] + [hog("medium", anon=200)],
     hog("grower", grow=300), "thirteen residents; two OOM kills in one log"),
    ("adj-max-small", 256, [hog("adj1000", adj=1000, anon=10), hog("large", anon=150)],
     hog("grower", grow=100), "oom_score_adj 1000 makes a 10 MiB process the victim"),
    ("graded-adj", 256, [hog("adj100", adj=100, anon=60), hog("adj0", anon=80), hog("adj300", adj=300, anon=40)],
     hog("grower", grow=100), "three oom_score_adj values weighed against size"),
    ("grower-preferred", 320, [hog("big", anon=200), hog("mid", anon=80)], hog("grower", adj=600, grow=100),
     "the allocating task itself preferred by oom_score_adj 600"),
    ("equal-adj", 256, [hog("adj500-a", adj=500, anon=100), hog("adj500-b", adj=500, anon=120)],
     hog("grower", grow=100), "equal oom_score_adj: size decides"),
    ("close-call", 256, [hog("plain", anon=150), hog("adj200", adj=200, anon=90)], hog("grower", grow=100),
     "oom_score_adj 200 on 99 MiB against 159 MiB at 0: the adj term scaled by the limit decides"),
    ("large-limit", 1024, [hog("db", anon=400), hog("cache", anon=250, adj=200), hog("web", anon=150)],
     hog("grower", grow=400), "a 1 GiB cgroup"),
    ("many-tasks", 640, [hog("t%02d" % i, anon=2) for i in range(40)], hog("grower", grow=600),
     "forty resident tasks in the table"),
    ("mixed-kinds", 320, [hog("anon", anon=100), hog("shm", shmem=80), hog("sparse", sparse=24), hog("file", file=60)],
     hog("grower", grow=150), "anonymous, shared, page-table-heavy and file-backed processes side by side"),
]


def random_scenarios(count):
    """Seeded scenarios: 3-6 residents of random size and oom_score_adj (the kernel picks)."""
    adjs = [0, 0, 0, 0, 100, 200, 500, 900]
    result = []
    for seed in range(1, count + 1):
        rng = random.Random(seed)
        residents = [hog("r%d" % i, adj=rng.choice(adjs), anon=rng.randint(10, 90)) for i in range(rng.randint(3, 6))]
        grower = hog("grower", adj=rng.choice(adjs), grow=400)
        result.append(("random-%02d" % seed, 384, residents, grower, "seeded scenario %d: random sizes and adj" % seed))
    return result


def global_scenario():
    """A whole-machine OOM: 8 GiB at adj 0, 2 GiB at adj 700, then a process that allocates until
    MemTotal is nearly used up (no cgroup limit). With adj 700 the 2 GiB process outranks every
    other process of the machine, so the kernel's choice falls on one of ours."""
    total = int(open("/proc/meminfo").readline().split()[1]) >> 10
    residents = [hog("big-adj0", anon=8192), hog("small-adj700", adj=700, anon=2048)]
    return ("global", None, residents, hog("grower", grow=total - 8192 - 1024),
            "whole machine (CONSTRAINT_NONE): %d MiB of RAM, no swap" % total)


# name, memory limit (MiB), swap the cgroup may use beyond it (MiB), the processes in the order
# they start (the first ones idle longest, so reclaim swaps them first), the trigger, and what
# the scenario exercises.
SWAP_SCENARIOS = [
    ("swapped-idle", 256, 256, [hog("idle", anon=220), hog("active", anon=120)], hog("grower", grow=400),
     "zram swap: the idle process, mostly swapped out, has the most rss + swap entries"),
    ("swap-vs-resident", 200, 300, [hog("cold", anon=250), hog("hot", anon=150)], hog("grower", grow=400),
     "zram swap: a process larger than the cgroup's memory lives mostly in swap"),
    ("swap-graded", 256, 256, [hog("s%d" % size, anon=size) for size in (140, 120, 100, 80, 60)],
     hog("grower", grow=600), "zram swap: five processes, the oldest swapped first"),
]


def random_swap_scenarios(count):
    """Seeded swap scenarios: 3-5 residents of random size at oom_score_adj 0 (the kernel picks)."""
    result = []
    for seed in range(1, count + 1):
        rng = random.Random(1000 + seed)
        residents = [hog("w%d" % i, anon=rng.randint(20, 150)) for i in range(rng.randint(3, 5))]
        result.append(("random-swap-%02d" % seed, 256, 256, residents, hog("grower", grow=800),
                       "seeded zram-swap scenario %d: random sizes" % seed))
    return result


def kmsg(text):
    with open("/dev/kmsg", "w") as f:
        f.write(text + "\n")


def dmesg_lines():
    return subprocess.run(["dmesg"], capture_output=True, text=True, check=True).stdout.splitlines()


def run_scenario(name, limit, residents, trigger, cgroup, swap=None):
    if limit is None:
        cgroup = None
    else:
        os.mkdir(cgroup)
        with open(cgroup + "/memory.limit_in_bytes", "w") as f:
            f.write(str(limit * MIB))
        if swap is not None:
            with open(cgroup + "/memory.memsw.limit_in_bytes", "w") as f:
                f.write(str((limit + swap) * MIB))
    children = []
    try:
        for spec in residents:
            spec = dict(spec, cgroup=cgroup)
            child = subprocess.Popen([sys.executable, "-c", CHILD, json.dumps(spec)], stdout=subprocess.PIPE, text=True)
            children.append(child)
            if child.stdout.readline().strip() != "ready":
                raise RuntimeError("%s: resident %s did not start" % (name, spec["name"]))
        spec = dict(trigger, cgroup=cgroup)
        grower = subprocess.Popen([sys.executable, "-c", CHILD, json.dumps(spec)], stdout=subprocess.PIPE, text=True)
        children.append(grower)
        grower.wait(timeout=300)
        time.sleep(0.5)
    finally:
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGKILL)
            child.wait()
        if cgroup:
            remove_cgroup(cgroup)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "evidence", "linux-oom"))
    parser.add_argument("--only", help="run only the scenario with this name")
    parser.add_argument("--random", type=int, default=12, help="how many seeded random scenarios (default 12)")
    parser.add_argument(
        "--global", dest="whole", action="store_true",
        help="also run the whole-machine OOM last (fills RAM for a few seconds; run it on an idle machine)")
    parser.add_argument(
        "--swap", action="store_true",
        help="run the swap scenarios only, over a 1 GiB zram swap device made for them (/dev/zram0)")
    args = parser.parse_args()
    if os.geteuid() != 0 or not os.access(CGROUP_ROOT, os.W_OK):
        sys.exit("collect-linux-oom-reports: needs root and a writable %s (cgroup v1 memory controller)" % CGROUP_ROOT)
    os.makedirs(args.out, exist_ok=True)
    release = os.uname().release
    # Numbers follow the list whatever runs, so that a file keeps its number: the fixed and random
    # scenarios, the whole-machine one, then the swap ones.
    plain = [(n, l, None, r, t, a) for n, l, r, t, a in SCENARIOS + random_scenarios(args.random) + [global_scenario()]]
    scenarios = plain + SWAP_SCENARIOS + random_swap_scenarios(6)
    index_path = os.path.join(args.out, "INDEX.tsv")
    index = []
    if args.swap:
        zram_swap(True)
    try:
        for number, (name, limit, swap, residents, trigger, about) in enumerate(scenarios, start=1):
            if (args.only and name != args.only) or (swap is not None) != args.swap or (name == "global" and not args.whole):
                continue
            collect(args, number, name, limit, swap, residents, trigger, about, release, index)
    finally:
        if args.swap:
            zram_swap(False)
    rows = {}
    if os.path.exists(index_path):
        rows = {line.split("\t")[0]: line for line in open(index_path).read().splitlines()[1:]}
    rows.update({line.split("\t")[0]: line for line in index})
    with open(index_path, "w") as f:
        f.write("file\tscenario\tkernel\tlimit_mib\tkills\tabout\n" + "\n".join(rows[k] for k in sorted(rows)) + "\n")


def collect(args, number, name, limit, swap, residents, trigger, about, release, index):
    """Runs one scenario and keeps the kernel's report, if it made one."""
    marker = "mp-oom-corpus %d %s" % (os.getpid(), name)
    kmsg(marker + " begin")
    run_scenario(name, limit, residents, trigger, "%s/mp-oom-%s" % (CGROUP_ROOT, name), swap)
    kmsg(marker + " end")
    lines = dmesg_lines()
    begin = max(i for i, line in enumerate(lines) if line.endswith(marker + " begin"))
    end = max(i for i, line in enumerate(lines) if line.endswith(marker + " end"))
    report = lines[begin + 1:end]
    kills = sum(1 for line in report if "Killed process" in line)
    file = "%02d-%s.log" % (number, name)
    if kills == 0:
        # Reclaim kept the cgroup under its limit (clean file pages, say): no report to keep.
        print("%-28s no OOM kill: not kept" % file, flush=True)
        return
    with open(os.path.join(args.out, file), "w") as f:
        f.write("\n".join(report) + "\n")
    limits = str(limit or "-") if swap is None else "%d+%d swap" % (limit, swap)
    index.append("\t".join([file, name, release, limits, str(kills), about]))
    print("%-28s %d kill(s), %d lines" % (file, kills, len(report)), flush=True)


if __name__ == "__main__":
    main()
