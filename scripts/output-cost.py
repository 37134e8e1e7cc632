#!/usr/bin/python3
"""What a sample's stdout costs the program, by where it goes: the measurement behind ab's
--output default (docs/hyperfine.md, "Where the output goes"). `zstd -dc` of a ~50 MB file
(generated when none is given) pinned to the last CPU, its stdout to
  null   /dev/null (hyperfine's default; perfgate's --output null: outputs compared in digest runs)
  file   a regular file under $TMPDIR (perfgate before issue 26: the page cache paid by the program)
  memfd  an anonymous memory file (shmem pages, charged to the program's memory cgroup)
  pipe   a pipe drained by a thread on another CPU that hashes what it reads (--output pipe)
Outside perfgate (through taskset, the same for every mode): wall from spawn to reap and the
child's rusage CPU, medians of N runs, the
modes interleaved round by round. Then the same program under `perfgate ab --output MODE` for
null, pipe and a file: perfgate's own wall_ms and cpu_ms medians. The load average is printed
beside every figure: on a shared machine they mean little without it.
  /usr/bin/python3 scripts/output-cost.py [FILE.zst] [N=15]"""
import hashlib, json, os, statistics, subprocess, sys, tempfile, threading, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
perfgate = os.environ.get("PERFGATE", root + "/build/bin/perfgate")
n = int(sys.argv[2]) if len(sys.argv) > 2 else 15
cpu = os.cpu_count() - 1
tmp = tempfile.mkdtemp(prefix="output-cost-")


def load():
    return open("/proc/loadavg").read().split()[0]


def corpus():
    if len(sys.argv) > 1:
        return os.path.abspath(sys.argv[1])
    path = os.path.join(tmp, "corpus")
    subprocess.run([root + "/scripts/vs-hyperfine.sh", "--corpus-only", path], check=True)
    return path + ".zst"


def drain(fd, digest):
    os.sched_setaffinity(0, [c for c in range(os.cpu_count()) if c != cpu] or [cpu])
    h = hashlib.blake2b()
    while chunk := os.read(fd, 1 << 16):
        h.update(chunk)
    digest.append(h.hexdigest())


def one(mode, zst):
    reader = None
    if mode == "null":
        out = os.open("/dev/null", os.O_WRONLY)
    elif mode == "file":
        out = os.open(os.path.join(tmp, "stdout"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    elif mode == "memfd":
        out = os.memfd_create("stdout")
    else:
        r, out = os.pipe()
        digest = []
        reader = threading.Thread(target=drain, args=(r, digest))
        reader.start()
    t = time.perf_counter()
    pid = os.posix_spawn("/usr/bin/taskset", ["taskset", "-c", str(cpu), "zstd", "-dc", zst], os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, out, 1)])
    _, status, ru = os.wait4(pid, 0)
    wall = (time.perf_counter() - t) * 1e3
    os.close(out)
    if reader:
        reader.join()
        os.close(r)
    return wall, (ru.ru_utime + ru.ru_stime) * 1e3


def outside(zst):
    modes = ["null", "file", "memfd", "pipe"]
    got = {m: ([], []) for m in modes}
    la = load()
    for _ in range(n):
        for m in modes:
            w, c = one(m, zst)
            got[m][0].append(w)
            got[m][1].append(c)
    for m in modes:
        print(f"  outside  {m:6s} wall {statistics.median(got[m][0]):7.1f} ms  cpu {statistics.median(got[m][1]):7.1f} ms"
              f"  load {la}")


def under(zst, mode):
    la = load()
    out = os.path.join(tmp, "r.json")
    where = os.path.join(tmp, "out-file") if mode == "file" else mode
    r = subprocess.run([perfgate, "ab", "--quiet", "--seed", "1", "--runs", str(n), "--output", where,
                        "--json", out, f"zstd -dc {zst}", f"zstd -dc {zst}"], capture_output=True, text=True)
    doc = json.load(open(out))
    s = [x for x in doc["scenarios"][0]["samples"] if not x["warmup"]]
    w = statistics.median(x["metrics"]["wall_ms"]["value"] for x in s)
    c = statistics.median(x["metrics"]["cpu_ms"]["value"] for x in s)
    m = statistics.median(x["metrics"]["peak_rss_kib"]["value"] for x in s)
    print(f"  perfgate {mode:6s} wall {w:7.1f} ms  cpu {c:7.1f} ms  peak_rss {m / 1024:5.1f} MiB  exit {r.returncode}"
          f"  load {la}")


zst = corpus()
print(f"zstd -dc {zst} ({os.path.getsize(zst) / 1e6:.1f} MB compressed), {n} runs each, CPU {cpu}")
outside(zst)
for mode in ["null", "pipe", "file"]:
    under(zst, mode)
outside(zst)
