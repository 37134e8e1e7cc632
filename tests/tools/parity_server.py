#!/usr/bin/python3
"""A small media-library-shaped HTTP server for perfgate parity's tests (tests/e2e/test_parity.py).

It answers listings in Jellyfin's shape ({"Items": [...], "TotalRecordCount": n, "StartIndex": k})
from a deterministic library, and can be told to misbehave the ways parity must catch:
  --fill-people     fills Items[].People on requests that did not ask Fields=People
  --empty-lists     every list answered empty (TotalRecordCount still the true count)
  --hollow-after N  after N requests, every list answered empty (went hollow after agreement)
  --clock           a per-answer "ServerTime" (noise: differs between two answers of one server)
  --burn-first N    the first N requests each burn --burn-ms of CPU (work before the timed window)
  --linger-ms X     a background thread keeps a core busy until X ms after the latest answer
                    (work that outlives its requests, as a server that finishes what timed-out
                    clients gave up on: the capacity sweep must wait it out between steps)
  --mark-dir DIR    how far a run got, for a test to wait on: DIR/answered-PID once the server
                    has answered a request, DIR/loaded-PID once it has answered perfgate's load
                    generator (User-Agent perfgate-load: a timed window or a capacity step)
Prints {"listen": "127.0.0.1:PORT"} once listening (--port 0) or listens on --port.
"""
import argparse
import itertools
import json
import os
import signal
import sys
import time
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

KINDS = ["Movie", "Series", "Episode", "MusicAlbum"]
LIBRARY = [
    {
        "Name": f"Title {i:03d}",
        "SortName": f"title {i:03d}",
        "Type": KINDS[i % len(KINDS)],
        "ProductionYear": 1990 + i % 30,
        "Genres": [g for g in ("Drama", "Comedy", "Jazz") if (i + len(g)) % 2],
        "UserData": {"Played": i % 3 == 0, "PlayCount": i % 4, "IsFavorite": i % 5 == 0},
        "_people": [{"Name": f"Actor {(i * 7 + k) % 40}", "Role": f"Role {k}", "Type": "Actor"}
                    for k in range(i % 3)],
    }
    for i in range(60)
]


def listing(query, opts, hollow):
    kind = query.get("IncludeItemTypes", [None])[0]
    rows = [r for r in LIBRARY if kind is None or r["Type"] == kind]
    start = int(query.get("StartIndex", ["0"])[0])
    limit = int(query.get("Limit", ["20"])[0])
    fields = query.get("Fields", [""])[0].split(",")
    page = []
    for r in rows[start:start + limit]:
        item = {k: v for k, v in r.items() if not k.startswith("_")}
        if r["_people"] and ("People" in fields or opts.fill_people):
            item["People"] = r["_people"]
        page.append(item)
    return {"Items": [] if hollow else page, "TotalRecordCount": len(rows), "StartIndex": start}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--fill-people", action="store_true")
    ap.add_argument("--empty-lists", action="store_true")
    ap.add_argument("--hollow-after", type=int, default=-1)
    ap.add_argument("--clock", action="store_true")
    ap.add_argument("--burn-first", type=int, default=0)
    ap.add_argument("--burn-ms", type=float, default=50)
    ap.add_argument("--linger-ms", type=float, default=0)
    ap.add_argument("--tag", default="", help="ignored: lets a test find its own servers")
    ap.add_argument("--mark-dir", default="")
    opts = ap.parse_args()
    counter = itertools.count(1)
    lock = threading.Lock()
    linger_until = [0.0]

    def linger():
        while True:
            if time.monotonic() < linger_until[0]:
                end = time.monotonic() + 0.01
                while time.monotonic() < end:
                    pass
            else:
                time.sleep(0.01)

    if opts.linger_ms > 0:
        threading.Thread(target=linger, daemon=True).start()

    marked = set()

    def mark(what):
        if what not in marked:
            marked.add(what)
            with open(os.path.join(opts.mark_dir, f"{what}-{os.getpid()}"), "w"):
                pass

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body are separate writes: no 40 ms delayed-ACK stall

        def log_message(self, *args):
            pass

        def do_GET(self):
            with lock:
                n = next(counter)
            if n <= opts.burn_first:
                end = time.thread_time() + opts.burn_ms / 1000
                while time.thread_time() < end:
                    pass
            url = urlsplit(self.path)
            hollow = opts.empty_lists or (0 <= opts.hollow_after < n)
            if url.path == "/":
                body = {"Name": "parity test server"}
            elif url.path in ("/Items", "/Artists", "/Genres"):
                body = listing(parse_qs(url.query), opts, hollow)
            else:
                body = None
            if opts.clock and body is not None:
                body["ServerTime"] = time.monotonic_ns()
            data = json.dumps(body).encode() if body is not None else b"not found"
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("X-Perfgate-Statements", "1")
            self.end_headers()
            self.wfile.write(data)
            if opts.mark_dir:
                mark("answered")
                if self.headers.get("User-Agent") == "perfgate-load":
                    mark("loaded")
            if opts.linger_ms > 0:
                linger_until[0] = time.monotonic() + opts.linger_ms / 1000

    server = ThreadingHTTPServer(("127.0.0.1", opts.port), Handler)
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(json.dumps({"listen": f"127.0.0.1:{server.server_address[1]}"}), flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
