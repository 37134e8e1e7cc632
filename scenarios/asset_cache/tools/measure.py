#!/usr/bin/env python3
"""Measure asset_cache by hand, outside the harness: server pinned to one core, load to the other.

  tools/measure.py --build BUILD_DIR --fixture DIR effects      the write-up's effects, interleaved rounds
  tools/measure.py --build BUILD_DIR --fixture DIR wrk          perfgate-load vs wrk, same server/URLs/cores/concurrency
  tools/measure.py --build BUILD_DIR --fixture DIR sweep        cache x capacity x workload, one round
  tools/measure.py --build BUILD_DIR --fixture DIR generator    the open-loop generator's own CPU (its cgroup) per rate x tick

Every server is started fresh (`asset_cache serve`, taskset -c SERVER_CPU), driven, stopped with
SIGTERM. Server CPU comes from /proc/PID/task/*/schedstat (ns, every thread), the cache
counters from /_stats deltas over the measured window. Prints a table and writes JSON (--out).
"""
import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def server_cpu_ns(pid):
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except FileNotFoundError:
            pass
    return total


class Server:
    def __init__(self, args, cache, capacity):
        prog = os.path.join(args.build, "share/perfgate/scenarios/asset_cache/asset_cache")
        cmd = ["taskset", "-c", str(args.server_cpu), prog, "serve", "--variant", "m", "--fixture", args.fixture,
               "--listen", "127.0.0.1:0", "--cache", cache, "--capacity", str(capacity)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("server printed no listen line")
        self.port = int(json.loads(line)["listen"].rsplit(":", 1)[1])

    def stats(self):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/_stats") as r:
            return json.load(r)

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        rc = self.proc.wait(timeout=10)
        if rc != 0:
            raise RuntimeError(f"server exited {rc} on SIGTERM")


def ours(args, port, mix, connections, duration, warmup, extra=()):
    cmd = [os.path.join(args.build, "bin/perfgate-load"), "--port", str(port), "--urls", os.path.join(args.fixture, "urls.txt"),
           "--mix", mix, "-c", str(connections), "-d", str(duration), "--warmup", str(warmup), "--cpus", str(args.load_cpu),
           *extra]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out), cmd


def wrk(args, port, mode, connections, duration):
    cmd = ["taskset", "-c", str(args.load_cpu), "wrk", "-t1", f"-c{connections}", f"-d{int(duration)}s", "--latency", "-s",
           os.path.join(HERE, "urls.lua"), f"http://127.0.0.1:{port}", "--", os.path.join(args.fixture, "urls.txt"), mode]
    if args.gzip:
        cmd.append("gzip")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    rps = next(float(l.split()[1]) for l in out.splitlines() if l.startswith("Requests/sec:"))
    non2xx = sum(int(l.split()[-1]) for l in out.splitlines() if "Non-2xx" in l)
    return {"rps": rps, "non_2xx": non2xx, "raw": out}, cmd


def one(args, workload, cache, capacity, connections, duration, warmup, gzip=False):
    srv = Server(args, cache, capacity)
    try:
        mix = {"hot": "hot", "uniform": "uniform", "zipf": "zipf", "cycle": "cycle"}[workload]
        # Warm-up outside the window: the load tool's own --warmup, then counters and CPU snapshots.
        s0, c0, t0 = srv.stats(), server_cpu_ns(srv.proc.pid), time.monotonic()
        r, _ = ours(args, srv.port, mix, connections, duration, warmup, ["--gzip"] if gzip else [])
        s1, c1 = srv.stats(), server_cpu_ns(srv.proc.pid)
        served = s1["requests"] - s0["requests"]
        hits, misses = s1["hits"] - s0["hits"], s1["misses"] - s0["misses"]
        return {
            "workload": workload, "cache": cache, "capacity": capacity, "gzip": gzip,
            "rps": r["rps"], "p50_ms": r["latency_ms"]["p50"], "p99_ms": r["latency_ms"]["p99"],
            "errors": r["errors"] + r["timeouts"], "responses": r["responses"],
            "hit_ratio": hits / (hits + misses) if hits + misses else 0.0,
            "server_cpu_us_per_req": (c1 - c0) / 1000.0 / served if served else None,
            "server_cpu_util": (c1 - c0) / 1e9 / (time.monotonic() - t0),
            "client_cpu_util": r["client_cpu_utilization"], "digest": r["digest"], "paths": r["paths_answered"],
        }
    finally:
        srv.stop()


def effects(args):
    variants = [("hot", "none", 0), ("hot", "lru", 256), ("hot", "lru-scan", 256),
                ("uniform", "none", 0), ("uniform", "lru-scan", 256), ("uniform", "lru", 256),
                ("uniform", "lru-scan", 4096), ("uniform", "lru", 4096)]
    if args.gzip_variants:
        variants += [("uniform", "none", 0, True), ("hot", "none", 0, True)]
    rows = {v: [] for v in variants}
    for rnd in range(args.rounds):
        order = variants[rnd % len(variants):] + variants[:rnd % len(variants)]  # rotate the order each round
        for v in order:
            r = one(args, v[0], v[1], v[2], args.connections, args.duration, args.warmup, gzip=len(v) > 3)
            rows[v].append(r)
            print(f"round {rnd} {v}: rps {r['rps']:.0f} hit {r['hit_ratio']:.2f} srv {r['server_cpu_us_per_req']:.1f}us "
                  f"srvutil {r['server_cpu_util']:.2f} cli {r['client_cpu_util']:.2f}", file=sys.stderr, flush=True)
    summary = []
    for v, rs in rows.items():
        summary.append({"variant": v, "rps_median": statistics.median(r["rps"] for r in rs),
                        "rps": [round(r["rps"]) for r in rs],
                        "hit_ratio": statistics.median(r["hit_ratio"] for r in rs),
                        "p50_ms": statistics.median(r["p50_ms"] for r in rs), "p99_ms": statistics.median(r["p99_ms"] for r in rs),
                        "server_cpu_us_per_req": statistics.median(r["server_cpu_us_per_req"] for r in rs),
                        "server_cpu_util": statistics.median(r["server_cpu_util"] for r in rs),
                        "client_cpu_util": statistics.median(r["client_cpu_util"] for r in rs),
                        "errors": sum(r["errors"] for r in rs)})

    def paired(a, b):
        # Median over rounds of the paired change b vs a: in RPS, and in requests per server
        # CPU-second (1 / CPU per request: what the server's core would sustain if it had it to itself).
        rps = statistics.median(y["rps"] / x["rps"] for x, y in zip(rows[a], rows[b])) - 1
        cap = statistics.median(x["server_cpu_us_per_req"] / y["server_cpu_us_per_req"] for x, y in zip(rows[a], rows[b])) - 1
        lo, hi = min(y["server_cpu_us_per_req"] / x["server_cpu_us_per_req"] for x, y in zip(rows[a], rows[b])), \
            max(y["server_cpu_us_per_req"] / x["server_cpu_us_per_req"] for x, y in zip(rows[a], rows[b]))
        return {"rps_change": round(rps, 4), "req_per_cpu_s_change": round(cap, 4),
                "cpu_per_req_ratio_range": [round(lo, 3), round(hi, 3)]}

    comparisons = {
        "hot: lru 256 vs none": paired(("hot", "none", 0), ("hot", "lru", 256)),
        "hot: lru-scan 256 vs none": paired(("hot", "none", 0), ("hot", "lru-scan", 256)),
        "uniform: lru-scan 256 vs none": paired(("uniform", "none", 0), ("uniform", "lru-scan", 256)),
        "uniform: lru 256 vs none": paired(("uniform", "none", 0), ("uniform", "lru", 256)),
        "uniform: lru-scan 4096 (whole catalogue) vs none": paired(("uniform", "none", 0), ("uniform", "lru-scan", 4096)),
        "uniform: lru 4096 (whole catalogue) vs none": paired(("uniform", "none", 0), ("uniform", "lru", 4096)),
    }
    if args.gzip_variants:
        comparisons["uniform none: client accepts gzip vs not"] = paired(("uniform", "none", 0), ("uniform", "none", 0, True))
    return {"summary": summary, "comparisons": comparisons}


def vs_wrk(args):
    out = []
    gz = ["--gzip"] if args.gzip else []
    for rnd in range(args.rounds):
        for mode in ["cycle", "uniform"]:
            srv = Server(args, args.cache, args.capacity)
            try:
                # Same server process, back to back, the order alternating between rounds.
                def timed(fn, *a):
                    s0, c0 = srv.stats()["requests"], server_cpu_ns(srv.proc.pid)
                    res = fn(*a)
                    s1, c1 = srv.stats()["requests"], server_cpu_ns(srv.proc.pid)
                    res[0]["server_cpu_us_per_req"] = (c1 - c0) / 1000.0 / max(1, s1 - s0)
                    return res
                if rnd % 2 == 0:
                    w, wcmd = timed(wrk, args, srv.port, mode, args.connections, args.duration)
                    r, rcmd = timed(ours, args, srv.port, mode, args.connections, args.duration, 0, gz)
                else:
                    r, rcmd = timed(ours, args, srv.port, mode, args.connections, args.duration, 0, gz)
                    w, wcmd = timed(wrk, args, srv.port, mode, args.connections, args.duration)
            finally:
                srv.stop()
            row = {"mode": mode, "wrk_rps": w["rps"], "ours_rps": r["rps"], "ratio": r["rps"] / w["rps"],
                   "server_us_per_req_wrk": w["server_cpu_us_per_req"], "server_us_per_req_ours": r["server_cpu_us_per_req"],
                   "ours_client_cpu_util": r["client_cpu_utilization"], "wrk_non_2xx": w["non_2xx"], "ours_errors": r["errors"],
                   "wrk_cmd": " ".join(wcmd), "ours_cmd": " ".join(rcmd)}
            print(f"{mode}: wrk {w['rps']:.0f}  ours {r['rps']:.0f}  ratio {row['ratio']:.3f}  "
                  f"our cpu {r['client_cpu_utilization']:.2f}  server us/req wrk {w['server_cpu_us_per_req']:.1f} "
                  f"ours {r['server_cpu_us_per_req']:.1f}", file=sys.stderr, flush=True)
            out.append(row)
    return out


def cgroup_cpu_parent():
    """Where a child cgroup that counts CPU can be made: (dir, file with the usage, its unit in ns)."""
    own = {}
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, ctrls, path = line.rstrip("\n").split(":", 2)
            for c in ctrls.split(",") if ctrls else [""]:
                own[c] = path
    with open("/proc/self/mounts") as f:
        mounts = [l.split() for l in f]
    for _, point, fstype, opts, *_ in mounts:
        if fstype == "cgroup2":
            return os.path.join(point, own.get("", "/").lstrip("/")), "cpu.stat", 1000
    for _, point, fstype, opts, *_ in mounts:
        if fstype == "cgroup" and "cpuacct" in opts.split(","):
            return os.path.join(point, own.get("cpuacct", own.get("cpu,cpuacct", "/")).lstrip("/")), "cpuacct.usage", 1
    raise RuntimeError("no cgroup file system that counts CPU is mounted")


def in_own_cgroup(cmd, name):
    """Runs cmd in a cgroup of its own; returns (stdout, CPU seconds of everything it ran)."""
    parent, usage_file, unit_ns = cgroup_cpu_parent()
    group = os.path.join(parent, name)
    os.mkdir(group)
    try:
        procs = os.path.join(group, "cgroup.procs")

        def enter():
            with open(procs, "w") as f:
                f.write(str(os.getpid()))

        out = subprocess.run(cmd, check=True, capture_output=True, text=True, preexec_fn=enter).stdout
        with open(os.path.join(group, usage_file)) as f:
            text = f.read()
        used = int(text.split()[1]) if usage_file == "cpu.stat" else int(text)
        return out, used * unit_ns / 1e9
    finally:
        os.rmdir(group)


def generator(args):
    """The open-loop generator's CPU at each offered rate and tick, from its own cgroup (every
    thread it runs, the kernel's network work on its side included), against one server (the O(1)
    LRU holding the catalogue, so the server keeps up)."""
    rows = []
    srv = Server(args, "lru", 3000)
    try:
        for rate in args.rates:
            for tick in args.ticks:
                cmd = [os.path.join(args.build, "bin/perfgate-load"), "--port", str(srv.port), "--urls",
                       os.path.join(args.fixture, "urls.txt"), "--mix", "uniform", "-c", str(args.connections),
                       "-d", str(args.duration), "--warmup", str(args.warmup), "--cpus", str(args.load_cpu),
                       "--rate", str(rate), "--tick-us", str(tick)]
                t0 = time.monotonic()
                out, cpu_s = in_own_cgroup(cmd, f"perfgate-generator-{os.getpid()}-{rate}-{tick}")
                wall = time.monotonic() - t0
                r = json.loads(out)
                row = {"rate": rate, "tick_us": tick, "rps": round(r["rps"]), "cgroup_cpu_of_core": round(cpu_s / wall, 3),
                       "thread_cpu_of_core": round(r["client_cpu_utilization"], 3),
                       "wakeups_per_s": round(r["wakeups"] / r["client_wall_s"]),
                       "send_delay_us": r["send_delay_us"], "latency_ms": r["latency_ms"],
                       "errors": r["errors"] + r["timeouts"], "loadavg": os.getloadavg()[0]}
                print(json.dumps(row), file=sys.stderr, flush=True)
                rows.append(row)
        # The per-request floor any client pays: CPU per response of wrk and of ours, closed loop.
        if shutil.which("wrk"):
            for rnd in range(args.rounds if args.rounds < 5 else 2):
                cmd = ["taskset", "-c", str(args.load_cpu), "wrk", "-t1", f"-c{args.connections}", f"-d{int(args.duration)}s",
                       "-s", os.path.join(HERE, "urls.lua"), f"http://127.0.0.1:{srv.port}", "--",
                       os.path.join(args.fixture, "urls.txt"), "uniform"]
                out, cpu_s = in_own_cgroup(cmd, f"perfgate-generator-{os.getpid()}-wrk-{rnd}")
                rps = next(float(l.split()[1]) for l in out.splitlines() if l.startswith("Requests/sec:"))
                ours_cmd = [os.path.join(args.build, "bin/perfgate-load"), "--port", str(srv.port), "--urls",
                            os.path.join(args.fixture, "urls.txt"), "-c", str(args.connections), "-d", str(args.duration),
                            "--cpus", str(args.load_cpu)]
                o_out, o_cpu = in_own_cgroup(ours_cmd, f"perfgate-generator-{os.getpid()}-ours-{rnd}")
                r = json.loads(o_out)
                row = {"closed_loop": True, "wrk_us_per_response": round(cpu_s / (rps * int(args.duration)) * 1e6, 1),
                       "ours_us_per_response": round(o_cpu / (r["responses"] + r["warmup_responses"]) * 1e6, 1),
                       "wrk_rps": round(rps), "ours_rps": round(r["rps"]), "loadavg": os.getloadavg()[0]}
                print(json.dumps(row), file=sys.stderr, flush=True)
                rows.append(row)
    finally:
        srv.stop()
    return rows


def sweep(args):
    rows = []
    for workload in ["hot", "uniform", "zipf"]:
        for cache, cap in [("none", 0)] + [(c, n) for c in ["lru-scan", "lru"] for n in [64, 256, 1024, 4096]]:
            r = one(args, workload, cache, cap, args.connections, args.duration, args.warmup)
            print(json.dumps(r), file=sys.stderr, flush=True)
            rows.append(r)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["effects", "wrk", "sweep", "generator"])
    ap.add_argument("--build", required=True)
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--server-cpu", type=int, default=0)
    ap.add_argument("--load-cpu", type=int, default=1)
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument("--duration", type=float, default=5)
    ap.add_argument("--warmup", type=float, default=1)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--gzip-variants", action="store_true")
    ap.add_argument("--cache", default="none", help="wrk: the server's cache")
    ap.add_argument("--gzip", action="store_true", help="wrk: both clients send Accept-Encoding: gzip")
    ap.add_argument("--capacity", type=int, default=256, help="wrk: the server's cache capacity")
    ap.add_argument("--rates", type=int, nargs="+", default=[5000, 10000, 20000], help="generator: offered req/s")
    ap.add_argument("--ticks", type=float, nargs="+", default=[0, 500], help="generator: --tick-us values")
    ap.add_argument("--out")
    args = ap.parse_args()
    result = {"effects": effects, "wrk": vs_wrk, "sweep": sweep, "generator": generator}[args.what](args)
    result = {"what": args.what, "args": vars(args), "loadavg": os.getloadavg(), "result": result}
    text = json.dumps(result, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
