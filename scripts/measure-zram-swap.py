#!/usr/bin/env python3
"""Measures what swapping a real heap to zram costs, and what the kernel's PSI counts for it.

It swaps a real process's heap to zram on this machine and reads it back, and records what the
kernel's pressure stall information (PSI) counted.

The policies that swap to zram (`earlyoom-zram`, `android-lmkd-zram`, `android-lmkd-psi`,
Examples/policies/linux-oom-zram.yaml) state a compression ratio, a CPU cost per MiB compressed
and a wait per MiB decompressed as assumptions, and the simulator's "some" stall counts a resume's
decompression wait as memory stall (docs/compression.md, "Pressure signals"). This script puts
the kernel's figures beside them, for one real heap on one real machine:

1. /dev/zram0 becomes a swap device (1 GiB, with the algorithm asked for), and a fresh memory
   cgroup (v1, `/sys/fs/cgroup/memory`) gets a memory limit and a memory+swap limit above it.
2. A "pusher" allocates and touches anonymous memory in the empty cgroup, for the time its
   allocation takes without reclaim.
3. An "idle" process joins the cgroup and parses a JSON-lines file into Python objects, several
   times over: its heap (dicts, strings, integers, lists) is a real program's heap, not a filler.
   It walks every object twice, all resident, for the time of a walk.
4. The pusher runs again, beside it: the cgroup's reclaim moves the idle heap, least recently used
   first, to zram. Recorded: pages swapped out (`pswpout`), zram's `orig_data_size` and
   `compr_data_size` (the compression ratio of this heap), the pusher's extra time.
5. The pusher exits, and the idle process walks its objects again: every swapped page faults and
   is decompressed. Recorded: pages swapped in (`pswpin`), the walk's extra time, the change of
   `/proc/pressure/memory`'s `some` and `full` totals over the walk, and how many of the refaults
   the kernel recognised (`workingset_refault_anon`) and took for working set
   (`workingset_activate_anon`; only those are counted as stall: `psi_memstall_enter()` in
   `swap_read_folio()`, mm/page_io.c, runs for a folio marked workingset).
6. Thrashing: a pusher that touches its memory over and over runs beside two more walks, so that
   pages leave and are needed again while still in use. The same figures again.

`--busy` keeps a CPU-bound process running (outside the cgroup) while the pusher reclaims in
step 4: the stall is then "some" (one task waits) but not "full" (not every task waits).

The machine should be otherwise idle (PSI is read machine-wide: cgroup v1 has no per-cgroup
pressure file). Needs root and a writable cgroup-v1 memory controller; only processes it starts
are in the cgroup, and the swap device is taken down afterwards.

    sudo scripts/measure-zram-swap.py [--algorithm lzo-rle|lz4|…] [--input FILE] [--copies N]
        [--limit MiB] [--push MiB] [--runs N] [--busy] [--format table|json]
"""

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time

from memcg_zram import remove_cgroup, zram_swap

CGROUP_ROOT = "/sys/fs/cgroup/memory"
MIB = 1 << 20
PAGE = os.sysconf("SC_PAGE_SIZE")

# The idle process: joins the cgroup, parses the file `copies` times, says "ready" with its size,
# then walks every object once per line read from standard input and prints the walk's wall and
# CPU seconds.
IDLE = r"""
import json, os, sys, time
cgroup, path, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(cgroup + "/cgroup.procs", "w") as f: f.write(str(os.getpid()))
heap = [[json.loads(line) for line in open(path)] for _ in range(copies)]
def walk(value):
    if isinstance(value, dict):
        return sum(len(k) + walk(v) for k, v in value.items())
    if isinstance(value, list):
        return sum(walk(v) for v in value)
    return len(value) if isinstance(value, str) else 1
print("ready", flush=True)
for _ in sys.stdin:
    wall, cpu = time.perf_counter(), time.process_time()
    total = walk(heap)
    print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "total": total}), flush=True)
"""

# The pusher: joins the cgroup, touches `size` MiB of anonymous memory (one byte a page, so
# every page is its own and none is the zero page), prints the seconds it took, and waits.
PUSHER = r"""
import mmap, os, sys, time
cgroup, size = sys.argv[1], int(sys.argv[2]) << 20
with open(cgroup + "/cgroup.procs", "w") as f: f.write(str(os.getpid()))
m = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
m.madvise(mmap.MADV_NOHUGEPAGE)
start = time.perf_counter()
for offset in range(0, size, 4096): m[offset] = (offset >> 12) & 255 or 1
print(time.perf_counter() - start, flush=True)
if len(sys.argv) > 3:
    # Thrashing: touch every page again and again until told to stop.
    import select
    while not select.select([sys.stdin], [], [], 0)[0]:
        for offset in range(0, size, 4096): m[offset] = (m[offset] + 1) & 255 or 1
sys.stdin.readline()
"""


def read_pressure():
    """`/proc/pressure/memory`'s some and full totals, in seconds."""
    totals = {}
    with open("/proc/pressure/memory") as f:
        for line in f:
            kind, *fields = line.split()
            totals[kind] = int(dict(field.split("=") for field in fields)["total"]) / 1e6
    return totals


def read_vmstat(keys=("pswpin", "pswpout", "workingset_refault_anon", "workingset_activate_anon", "pgmajfault")):
    values = {}
    with open("/proc/vmstat") as f:
        for line in f:
            name, value = line.split()
            if name in keys:
                values[name] = int(value)
    return values


def read_zram():
    """zram's mm_stat: the bytes stored uncompressed, compressed, and the pool's memory."""
    with open("/sys/block/zram0/mm_stat") as f:
        fields = [int(x) for x in f.read().split()]
    return {"orig": fields[0], "compressed": fields[1], "pool": fields[2], "same_pages": fields[5]}


def status(pid):
    values = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmSwap:")):
                name, value, _ = line.split()
                values[name.rstrip(":")] = int(value) * 1024
    return values


def start(code, *arguments):
    return subprocess.Popen([sys.executable, "-c", code, *map(str, arguments)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def walk(idle):
    idle.stdin.write("walk\n")
    idle.stdin.flush()
    return json.loads(idle.stdout.readline())


def one_run(args, cgroup):
    os.mkdir(cgroup)
    children = []
    try:
        with open(cgroup + "/memory.limit_in_bytes", "w") as f: f.write(str(args.limit * MIB))
        with open(cgroup + "/memory.memsw.limit_in_bytes", "w") as f: f.write(str((args.limit + 1024) * MIB))
        # The pusher alone: its allocation's time without reclaim.
        alone = start(PUSHER, cgroup, args.push)
        children.append(alone)
        push_alone = float(alone.stdout.readline())
        alone.stdin.write("\n"); alone.stdin.flush(); alone.wait()
        idle = start(IDLE, cgroup, args.input, args.copies)
        children.append(idle)
        if idle.stdout.readline().strip() != "ready":
            raise RuntimeError("the idle process did not start")
        resident = status(idle.pid)
        walks = [walk(idle) for _ in range(3)]
        resident_walk = min(w["wall"] for w in walks[1:])
        resident_cpu = min(w["cpu"] for w in walks[1:])
        if args.busy:
            # A task that only computes, outside the cgroup, on the other core: PSI's "full"
            # counts time in which every non-idle task stalls, and this one never does.
            busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
            children.append(busy)
            time.sleep(0.2)
        vm0, zram0, psi0 = read_vmstat(), read_zram(), read_pressure()
        pusher = start(PUSHER, cgroup, args.push)
        children.append(pusher)
        push_time = float(pusher.stdout.readline())
        vm1, zram1, psi1 = read_vmstat(), read_zram(), read_pressure()
        swapped = status(idle.pid)
        pusher.stdin.write("\n"); pusher.stdin.flush(); pusher.wait()
        if args.busy:
            busy.kill()
            busy.wait()
        time.sleep(0.5)
        vm2, psi2 = read_vmstat(), read_pressure()
        back = walk(idle)
        vm3, psi3 = read_vmstat(), read_pressure()
        # Thrashing: a pusher that keeps touching its memory beside the walks, so that pages are
        # evicted and needed again while they are still in the working set.
        thrasher = start(PUSHER, cgroup, args.push, "loop")
        children.append(thrasher)
        thrasher.stdout.readline()
        vm4, psi4 = read_vmstat(), read_pressure()
        thrash_walks = [walk(idle) for _ in range(2)]
        vm5, psi5 = read_vmstat(), read_pressure()
        try:
            thrasher.stdin.write("\n")
            thrasher.stdin.flush()
        except BrokenPipeError:
            pass  # the cgroup's OOM killer took it during the walks (its exit status says so)
        thrasher_status = thrasher.wait()
        thrash_wall = sum(w["wall"] for w in thrash_walks)
        out_mib = (vm1["pswpout"] - vm0["pswpout"]) * PAGE / MIB
        in_mib = (vm3["pswpin"] - vm2["pswpin"]) * PAGE / MIB
        stored = zram1["orig"] - zram0["orig"]
        compressed = zram1["compressed"] - zram0["compressed"]
        wait = back["wall"] - resident_walk
        return {
            "heap_mib": resident["VmRSS"] / MIB,
            "swapped_mib": swapped.get("VmSwap", 0) / MIB,
            "swapped_out_mib": out_mib,
            "ratio": stored / compressed if compressed else None,
            "same_pages": zram1["same_pages"] - zram0["same_pages"],
            "push_seconds": push_time,
            "push_alone_seconds": push_alone,
            "compress_ms_per_mib": 1000 * (push_time - push_alone) / out_mib if out_mib else None,
            "psi_some_push": psi1["some"] - psi0["some"],
            "psi_full_push": psi1["full"] - psi0["full"],
            "resident_walk": resident_walk,
            "resident_walk_cpu": resident_cpu,
            "swapin_walk": back["wall"],
            "swapin_walk_cpu": back["cpu"],
            "swapped_in_mib": in_mib,
            "refaults": vm3["workingset_refault_anon"] - vm2["workingset_refault_anon"],
            "activations": vm3["workingset_activate_anon"] - vm2["workingset_activate_anon"],
            "major_faults": vm3["pgmajfault"] - vm2["pgmajfault"],
            "wait_seconds": wait,
            "wait_ms_per_mib": 1000 * wait / in_mib if in_mib else None,
            "psi_some_walk": psi3["some"] - psi2["some"],
            "psi_full_walk": psi3["full"] - psi2["full"],
            "thrash_walks": thrash_wall,
            "thrash_wait": thrash_wall - 2 * resident_walk,
            "thrash_swapped_in_mib": (vm5["pswpin"] - vm4["pswpin"]) * PAGE / MIB,
            "thrash_refaults": vm5["workingset_refault_anon"] - vm4["workingset_refault_anon"],
            "thrash_activations": vm5["workingset_activate_anon"] - vm4["workingset_activate_anon"],
            "psi_some_thrash": psi5["some"] - psi4["some"],
            "psi_full_thrash": psi5["full"] - psi4["full"],
            "thrasher_exit": thrasher_status,
        }
    finally:
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGKILL)
            child.wait()
        remove_cgroup(cgroup)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--algorithm", default="lzo-rle",
                        help="zram's compressor (one of /sys/block/zram0/comp_algorithm; default lzo-rle, the kernel's)")
    parser.add_argument("--input", required=True,
                        help="a JSON-lines file the idle process parses into its heap (for example a trace from "
                             "`mempressure simulate --workload server --hours 24 --seed 1 --trace-out FILE`)")
    parser.add_argument("--copies", type=int, default=3, help="how many times the idle process parses it, 1…100 (default 3)")
    parser.add_argument("--limit", type=int, default=256, help="the cgroup's memory limit, MiB, 64…4096 (default 256)")
    parser.add_argument("--push", type=int, default=224, help="MiB the pusher touches, 16…4096 (default 224)")
    parser.add_argument("--runs", type=int, default=3, help="runs, each in a fresh cgroup, 1…50 (default 3)")
    parser.add_argument("--busy", action="store_true",
                        help="keep a CPU-bound process (outside the cgroup) running while the pusher reclaims, to see "
                             "how PSI weighs a stall when another CPU has work")
    parser.add_argument("--format", choices=["table", "json"], default="table")
    args = parser.parse_args()
    if os.geteuid() != 0 or not os.access(CGROUP_ROOT, os.W_OK):
        sys.exit("measure-zram-swap: needs root and a writable %s (cgroup v1 memory controller)" % CGROUP_ROOT)
    if not os.path.isfile(args.input):
        sys.exit("measure-zram-swap: %s: no such file (--input: a JSON-lines file)" % args.input)
    if not 1 <= args.copies <= 100 or not 64 <= args.limit <= 4096 or not 16 <= args.push <= 4096 or not 1 <= args.runs <= 50:
        sys.exit("measure-zram-swap: --copies 1…100, --limit 64…4096, --push 16…4096, --runs 1…50")
    with open("/proc/swaps") as f:
        if "/dev/zram0" in f.read():
            sys.exit("measure-zram-swap: /dev/zram0 is already a swap device; this script makes and removes its own")
    if os.path.exists("/sys/block/zram0/comp_algorithm"):
        with open("/sys/block/zram0/comp_algorithm") as f:
            offered = f.read().replace("[", "").replace("]", "").split()
        if args.algorithm not in offered:
            sys.exit("measure-zram-swap: --algorithm %s: this kernel's zram offers %s" % (args.algorithm, ", ".join(offered)))
    zram_swap(True, args.algorithm)
    try:
        runs = [one_run(args, "%s/mp-zram-%d-%d" % (CGROUP_ROOT, os.getpid(), n)) for n in range(args.runs)]
    finally:
        zram_swap(False)
    if args.format == "json":
        print(json.dumps({"algorithm": args.algorithm, "kernel": os.uname().release, "busy": args.busy, "runs": runs}, indent=1))
        return
    print("zram %s, kernel %s, %d runs (median, then the range)" % (args.algorithm, os.uname().release, len(runs)))
    rows = [
        ("idle heap, MiB resident", "heap_mib"), ("swapped out, MiB (pswpout)", "swapped_out_mib"),
        ("compression ratio (orig_data_size / compr_data_size)", "ratio"),
        ("pusher's extra time per MiB swapped out, ms", "compress_ms_per_mib"),
        ("PSI some / full while pushing, s", "psi_some_push"), ("", "psi_full_push"),
        ("walk, all resident, s", "resident_walk"), ("walk after the swap-out, s", "swapin_walk"),
        ("swapped in, MiB (pswpin)", "swapped_in_mib"), ("the walk's wait, s", "wait_seconds"),
        ("wait per MiB swapped in, ms", "wait_ms_per_mib"),
        ("PSI some / full over that walk, s", "psi_some_walk"), ("", "psi_full_walk"),
        ("  of its refaults, recognised / activated as working set", "refaults"), ("", "activations"),
        ("two walks beside a pusher touching its memory throughout, s", "thrash_walks"),
        ("  their wait (beyond two resident walks), s", "thrash_wait"),
        ("  swapped in, MiB", "thrash_swapped_in_mib"),
        ("  refaults recognised / activated as working set", "thrash_refaults"), ("", "thrash_activations"),
        ("  PSI some / full over them, s", "psi_some_thrash"), ("", "psi_full_thrash"),
    ]
    for label, key in rows:
        values = [run[key] for run in runs if run[key] is not None]
        if not values:
            continue
        print("%-62s %9.3f  [%.3f, %.3f]" % (label or "      (the second)", statistics.median(values), min(values), max(values)))


if __name__ == "__main__":
    main()
