#!/usr/bin/python3
"""What a cgroup move costs the wall clock: fork, the child writes itself into no cgroup / a fresh v2
cgroup / a fresh v1 memory cgroup / both, then execs burn (CPU-bound). Interleaved, medians, load printed.
  /usr/bin/python3 scripts/cgroup-move-cost.py [WORK=25000000] [REPS=30]   (needs a writable hybrid hierarchy)"""
import os, sys, time, statistics, random
burn = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build/tests/tools/burn"); work = sys.argv[1] if len(sys.argv) > 1 else "25000000"
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 30
v2p = "/sys/fs/cgroup/unified"
mem = [l.split(":")[2].strip() for l in open("/proc/self/cgroup") if ":memory:" in l][0]
v1p = "/sys/fs/cgroup/memory" + mem
tag = f"perfgate-{os.getpid()}-0-movecost"
dirs = {"v2": os.path.join(v2p, tag), "v1mem": os.path.join(v1p, tag)}
for d in dirs.values(): os.makedirs(d, exist_ok=True)
modes = {"none": [], "v2": ["v2"], "v1mem": ["v1mem"], "both": ["v2", "v1mem"]}
res = {m: [] for m in modes}
inwrite = {m: [] for m in modes}  # time the child spent in its cgroup.procs writes
cpu = str(os.cpu_count() - 1)
os.sched_setaffinity(0, {int(cpu)})
try:
    for r in range(reps):
        order = list(modes); random.shuffle(order)
        for m in order:
            t = time.perf_counter()
            rfd, wfd = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(rfd)
                w0 = time.perf_counter()
                for k in modes[m]:
                    with open(os.path.join(dirs[k], "cgroup.procs"), "w") as f: f.write("0")
                os.write(wfd, ("%.3f" % ((time.perf_counter() - w0) * 1e3)).encode()); os.close(wfd)
                fd = os.open("/dev/null", os.O_WRONLY); os.dup2(fd, 1)
                os.execv(burn, [burn, work, "same"])
            os.close(wfd)
            moved = float(os.read(rfd, 64).decode()); os.close(rfd)
            os.waitpid(pid, 0)
            res[m].append((time.perf_counter() - t) * 1e3)
            inwrite[m].append(moved)
finally:
    for d in dirs.values():
        try: os.rmdir(d)
        except OSError: pass
print("load", open("/proc/loadavg").read().split()[:3])
for m, v in res.items():
    print(f"{m:6s} wall median {statistics.median(v):6.1f} ms  p25 {statistics.quantiles(v, n=4)[0]:6.1f}  p75 "
          f"{statistics.quantiles(v, n=4)[2]:6.1f}   of which in the cgroup.procs write(s): median {statistics.median(inwrite[m]):5.2f} ms")
