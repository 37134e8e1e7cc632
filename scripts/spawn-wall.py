#!/usr/bin/python3
"""Wall time of a CPU-bound ~45 ms program outside perfgate and under `perfgate ab`, by way of
creating the child: clone3 into its cgroup sharing perfgate's memory until exec (default on
x86-64), fork + cgroup.procs write (PERFGATE_SPAWN=fork), no cgroups (PERFGATE_CGROUP=none). Medians of N samples, with the load
average beside each line: wall figures on a shared machine mean little without it.
  [CPU=k] /usr/bin/python3 scripts/spawn-wall.py [WORK=25000000] [N=20] [OTHER_PERFGATE_BINARY]"""
import json, os, statistics, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
burn = root + "/build/tests/tools/burn"
work = sys.argv[1] if len(sys.argv) > 1 else "25000000"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 20
cpu = os.environ.get("CPU", str(os.cpu_count() - 1))  # perfgate pins a one-CPU sample to the last CPU


def load():
    return open("/proc/loadavg").read().split()[0]


def outside():
    ws = []
    for _ in range(n):
        t = time.perf_counter()
        p = os.posix_spawn("/usr/bin/taskset", ["taskset", "-c", cpu, burn, work, "same"], os.environ,
                           file_actions=[(os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0)])
        os.waitpid(p, 0)
        ws.append((time.perf_counter() - t) * 1e3)
    return statistics.median(ws)


def under(pg, env):
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([pg, "ab", "--quiet", "--seed", "1", "--before", f"{burn} {work} same", "--after",
                        f"{burn} {work} same", "--min-rounds", str(n), "--max-rounds", str(n), "--cpus", cpu, "--json", d + "/r.json"],
                       env=dict(os.environ, **env), capture_output=True)
        doc = json.load(open(d + "/r.json"))
        s = [x for sc in doc["scenarios"] for x in sc["samples"] if not x.get("warmup")]
        return [statistics.median(x["metrics"][k]["value"] for x in s) for k in ("wall_ms", "cpu_ms", "ctx_involuntary")]


cases = [("perfgate clone3 vfork into cgroup", root + "/build/bin/perfgate", {}),
         ("perfgate fork+cgroup.procs", root + "/build/bin/perfgate", {"PERFGATE_SPAWN": "fork"}),
         ("perfgate PERFGATE_CGROUP=none", root + "/build/bin/perfgate", {"PERFGATE_CGROUP": "none"})]
if len(sys.argv) > 3:
    cases.append(("other binary, cgroups", sys.argv[3], {}))
print(f"{'outside (posix_spawn + taskset)':32s} wall {outside():6.1f} ms                        load {load()}")
for name, pg, env in cases:
    la = load()
    w, c, ic = under(pg, env)
    print(f"{name:32s} wall {w:6.1f} ms  cpu {c:6.1f} ms  invol {ic:3.0f}  load {la}")
print(f"{'outside (posix_spawn + taskset)':32s} wall {outside():6.1f} ms                        load {load()}")
