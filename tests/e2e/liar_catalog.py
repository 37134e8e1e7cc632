"""A user catalog of two tiny scenarios that can lie, for the end-to-end tests of the
equivalence gates, of a program's own "equivalent": false, and of `perfgate lies`.

liar_batch: writes `rows` lines to a file in its work dir, fsyncing each, and prints the
digest of what it wrote plus the fsync count. Lies (after + --lie NAME):
  drop-row      writes one row fewer (the digest changes)
  skip-fsync    skips the last row's fsync (same output, one fsync fewer: exact:fsyncs)
  stop-early    writes half the rows, notices it and reports "equivalent": false
  bare-divergent  reports "equivalent": false on a line without metrics
  no-op         does exactly the honest work (a lie that is not one: must be MISSED)

liar_service: an HTTP/1.1 keep-alive server of `items` paths /item/<i>. Lies:
  empty-hit     answers a path's second and later requests with an empty body
  error-rate    answers every 10th request with a 500
  self-report   serves honestly, then says "equivalent": false on its last line at SIGTERM
"""
import json
import pathlib

# catalog/threats.cpp's threat_classes(): every threat list answers each.
THREAT_CLASSES = ["cache.key", "cache.freshness", "cache.negative", "cache.concurrency", "query.columns",
                  "query.nulls", "query.ties", "query.last_page", "query.empty", "protocol.fields",
                  "protocol.headers", "protocol.status", "io.content", "io.order", "access.refusal",
                  "report.self", "callers.race", "input.errors", "work.deferred"]
# catalog/threats.cpp's asked_classes(): what a workload must ask (issue 49).
ASKED_CLASSES = ["cache.freshness", "access.refusal", "report.self", "query.ties", "callers.race", "input.errors",
                 "work.deferred"]

BATCH = r'''#!/usr/bin/python3
import hashlib, json, os, sys
args = sys.argv[1:]
lie = args[args.index("--lie") + 1] if "--lie" in args else ""
params = json.loads(args[args.index("--params") + 1]) if "--params" in args else {}
rows = int(params.get("rows", 200))
todo = rows - 1 if lie == "drop-row" else rows // 2 if lie == "stop-early" else rows
path = os.path.join(os.environ.get("PERFGATE_WORKDIR", "."), "rows.txt")
digest, fsyncs = hashlib.sha256(), 0
with open(path, "w") as f:
    for i in range(todo):
        line = f"row {i}\n"
        f.write(line)
        f.flush()
        digest.update(line.encode())
        if not (lie == "skip-fsync" and i == todo - 1):
            os.fsync(f.fileno())
            fsyncs += 1
out = {"digest": digest.hexdigest(), "metrics": {"fsyncs": {"value": fsyncs, "unit": "count"}}}
if todo != rows and lie == "stop-early":  # it checks its own answer and says so
    out.update({"equivalent": False, "equivalence_reason": f"wrote {todo} of {rows} rows"})
if lie in ("bare-divergent", "divergent-exit-1"):
    out = {"equivalent": False, "equivalence_reason": "the answer failed its own check"}
print(json.dumps(out))
if lie == "divergent-exit-1":  # says so and also fails: still "not the same work", not "could not run"
    sys.exit(1)
'''

SERVICE = r'''#!/usr/bin/python3
import http.server, json, os, signal, sys, threading
args = sys.argv[1:]
lie = args[args.index("--lie") + 1] if "--lie" in args else ""
seen, count, lock = set(), [0], threading.Lock()

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # one response, one segment: no 40 ms delayed-ACK stalls
    wbufsize = 1 << 16
    def log_message(self, *a):
        pass
    def do_GET(self):
        with lock:
            count[0] += 1
            n = count[0]
            hit = self.path in seen
            seen.add(self.path)
        status, body = 200, ("%s says hello\n" % self.path).encode() * 20
        if self.path == "/_stats":
            body = json.dumps({"requests": n}).encode()
        elif lie == "empty-hit" and hit:
            body = b""
        elif lie == "error-rate" and n % 10 == 0:
            status, body = 500, b"overloaded\n"
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
def stop(*_):
    if lie == "self-report":
        print(json.dumps({"equivalent": False, "equivalence_reason": "served 3 stale rows"}), flush=True)
    os._exit(0)
signal.signal(signal.SIGTERM, stop)
print(json.dumps({"listen": "127.0.0.1:%d" % server.server_address[1]}), flush=True)
server.serve_forever(poll_interval=0.05)
'''


def lie(name, caught_by="equivalence", what=None):
    return {"name": name, "args": ["--lie", name], "what": what or f"the {name} lie: does less than BEFORE",
            "caught_by": caught_by}


# An honest liar_batch run gated on its fsync count (200 on both sides, every round) with no wall
# guard: it passes whatever this machine's timing, where cpu_ms and the guard decide on noise.
EXACT = {"primary_metric": "fsyncs", "guard": {"metric": "none"}}


def add_batch(catalog, lies=None, primary_metric="cpu_ms", guard=None):
    d = pathlib.Path(catalog) / "liar_batch"
    d.mkdir(parents=True, exist_ok=True)
    (d / "liar.py").write_text(BATCH)
    (d / "liar.py").chmod(0o755)
    manifest = {
        "name": "liar_batch", "kind": "batch", "program": "liar.py", "policy": "no-regress",
        "primary_metric": primary_metric, "variants": [{"name": "before"}, {"name": "after"}],
        "profiles": {"quick": {"params": {"rows": 200}, "min_rounds": 3, "max_rounds": 3, "warmup": 0}},
        "lies": lies if lies is not None else [
            lie("drop-row"), lie("skip-fsync", "exact:fsyncs"), lie("stop-early")],
    }
    if guard is not None:
        manifest["guard"] = guard
    (d / "scenario.json").write_text(json.dumps(manifest))
    return d


def add_service(catalog, lies=None, items=40):
    d = pathlib.Path(catalog) / "liar_service"
    d.mkdir(parents=True, exist_ok=True)
    (d / "serve.py").write_text(SERVICE)
    (d / "serve.py").chmod(0o755)
    urls = d / "urls.txt"
    urls.write_text("".join(f"/item/{i}\n" for i in range(items)))
    manifest = {
        "name": "liar_service", "kind": "service", "program": "serve.py", "policy": "no-regress",
        "primary_metric": "rps", "service": {"ready_timeout_s": 20, "stats_path": "/_stats"},
        "workloads": {"all": {"urls": str(urls), "mix": "cycle"}},
        "variants": [{"name": "before", "workload": "all"}, {"name": "after", "workload": "all"}],
        "profiles": {"quick": {"params": {}, "min_rounds": 2, "max_rounds": 2, "warmup": 0,
                               "load": {"connections": 2, "duration_s": 0.4, "warmup_s": 0.2}}},
        "lies": lies if lies is not None else [lie("empty-hit"), lie("error-rate"), lie("self-report")],
    }
    (d / "scenario.json").write_text(json.dumps(manifest))
    return d
