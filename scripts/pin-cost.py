#!/usr/bin/python3
"""What pinning a command to one CPU costs it: the measurement behind ab's default of every CPU
(docs/hyperfine.md, "Which CPUs"). Each command (default: `zstd -dc` of a ~50 MB file, which
reads and writes on a thread of its own, beside `zstd -dc --no-asyncio` and `gzip -dc`, which do
not) runs N times unpinned, N times pinned to each allowed CPU, the modes in a random order
round by round, stdout to /dev/null; wall from spawn to reap. Prints the minimum, 10th
percentile and median of each mode and the load average: a shared VM drifts by tens of percent
within a minute, so the low quantiles say more than the median.
  /usr/bin/python3 scripts/pin-cost.py [N=40] [COMMAND ...]"""
import os, random, statistics, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
allowed = sorted(os.sched_getaffinity(0))


def load():
    return open("/proc/loadavg").read().split()[0]


def commands(tmp):
    if len(sys.argv) > 2:
        return sys.argv[2:]
    path = os.path.join(tmp, "corpus")
    subprocess.run([root + "/scripts/vs-hyperfine.sh", "--corpus-only", path], check=True)
    return [f"zstd -dc {path}.zst", f"zstd -dc --no-asyncio {path}.zst", f"gzip -dc {path}.gz"]


def timed(argv, cpus, devnull):
    # The child inherits the affinity posix_spawn is called with; ours is put back after.
    os.sched_setaffinity(0, cpus)
    try:
        start = time.perf_counter()
        pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
        _, status = os.waitpid(pid, 0)
        wall = (time.perf_counter() - start) * 1e3
    finally:
        os.sched_setaffinity(0, allowed)
    if status != 0:
        sys.exit(f"pin-cost: {' '.join(argv)} failed (status {status})")
    return wall


def main():
    modes = {"every CPU": allowed, **{f"CPU {c}": [c] for c in allowed}}
    devnull = os.open(os.devnull, os.O_WRONLY)
    with tempfile.TemporaryDirectory(prefix="pin-cost-") as tmp:
        for cmd in commands(tmp):
            argv = cmd.split()
            la = load()
            walls = {m: [] for m in modes}
            timed(argv, allowed, devnull)  # warm the page cache
            for _ in range(n):
                order = list(modes)
                random.shuffle(order)
                for m in order:
                    walls[m].append(timed(argv, modes[m], devnull))
            print(f"{cmd}  ({n} runs per mode, load {la} -> {load()})")
            base = sorted(walls["every CPU"])
            for m, w in walls.items():
                w.sort()
                print(f"  {m:10s} min {w[0]:8.2f}  p10 {w[n // 10]:8.2f}  median {statistics.median(w):8.2f} ms"
                      f"  (p10 {w[n // 10] / base[n // 10] - 1:+.1%} against every CPU)")


main()
