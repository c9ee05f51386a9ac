"""What the scripts that make real memory pressure share: a zram swap device they make and take
down again, and removing the memory cgroup a run made once its processes are gone.

Imported by collect-linux-oom-reports.py and measure-zram-swap.py (run from this folder, which
Python puts first on the module path).
"""

import os
import subprocess
import time

MIB = 1 << 20


def zram_swap(on, algorithm=None):
    """Makes /dev/zram0 a 1 GiB swap device (compressing with `algorithm`, or zram's default), or
    takes it down and resets it."""
    if on:
        if not os.path.exists("/sys/block/zram0"):
            subprocess.run(["modprobe", "zram", "num_devices=1"], check=True)
        if algorithm:
            with open("/sys/block/zram0/comp_algorithm", "w") as f: f.write(algorithm)
        with open("/sys/block/zram0/disksize", "w") as f: f.write(str(1024 * MIB))
        subprocess.run(["mkswap", "/dev/zram0"], check=True, capture_output=True)
        subprocess.run(["swapon", "/dev/zram0"], check=True)
    else:
        subprocess.run(["swapoff", "/dev/zram0"], capture_output=True)
        with open("/sys/block/zram0/reset", "w") as f: f.write("1")


def remove_cgroup(path):
    """Removes the cgroup at `path`, waiting up to 5 s for its killed processes to leave it."""
    for _ in range(50):
        try:
            os.rmdir(path)
            return
        except OSError:
            time.sleep(0.1)
