#!/usr/bin/python3
"""Statements per request of both variants, exactly, over a fixture's request set.

    scenarios/media_parity/tools/statements.py --profile quick|full [--fixture DIR] [--markdown]

Seeds the profile's library (into --fixture, default /tmp/media_parity-<profile>, reused when it
is there), starts a BEFORE and an AFTER server, sends every request of requests.txt to both
once, checks the two answers are byte-identical, and prints each request's
X-Perfgate-Statements for both and the per-route means; then a second pass, one request at a
time, timing each server's CPU (utime + stime from /proc/PID/stat, the write-up's own method)
per request. Exit 1 when any answer differs.
The tests import Server and requests_of from here.
"""
import argparse
import http.client
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
BIN = Path(os.environ.get("MEDIA_PARITY_BIN", ROOT / "build/share/perfgate/scenarios/media_parity/media_parity"))


class Server:
    """One `media_parity serve` on 127.0.0.1; stop() sends SIGTERM and returns the exit code."""

    def __init__(self, fixture, variant, *flags):
        self.proc = subprocess.Popen([str(BIN), "serve", "--variant", variant, "--fixture", str(fixture),
                                      "--listen", "127.0.0.1:0", *flags],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{variant} server did not start: {self.proc.stderr.read()}")
        self.port = int(json.loads(line)["listen"].rsplit(":", 1)[1])

    def get(self, path):
        """(status, body bytes, X-Perfgate-Statements or None)"""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        try:
            c.request("GET", path)
            r = c.getresponse()
            return r.status, r.read(), r.getheader("X-Perfgate-Statements")
        finally:
            c.close()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=30)

    def cpu_seconds(self):
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def requests_of(fixture):
    """[(name, path)] of the fixture's requests.txt, in order."""
    out, name = [], None
    for line in (Path(fixture) / "requests.txt").read_text().splitlines():
        if line.startswith("# name:"):
            name = line.split(":", 1)[1].strip()
        elif line.startswith("/"):
            out.append((name, line))
    return out


def seed(profile, fixture):
    manifest = json.loads((HERE.parent / "scenario.json").read_text())
    params = manifest["profiles"][profile]["params"]
    subprocess.run([str(BIN), "seed", "--profile", profile, "--target", str(fixture), "--params", json.dumps(params)],
                   check=True, stdout=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--profile", default="quick", choices=["quick", "full"])
    ap.add_argument("--fixture")
    ap.add_argument("--markdown", action="store_true", help="print the per-route table as markdown")
    a = ap.parse_args()
    fixture = Path(a.fixture or f"/tmp/media_parity-{a.profile}")
    if not (fixture / "library.db").exists():
        seed(a.profile, fixture)
    servers = {v: Server(fixture, v) for v in ("before", "after")}
    differ, routes = 0, {}
    try:
        for name, path in requests_of(fixture):
            answers = {v: s.get(path) for v, s in servers.items()}
            same = answers["before"][:2] == answers["after"][:2]
            differ += not same
            n = {v: int(answers[v][2]) for v in servers}
            if not a.markdown:
                print(f"{name:28s} before {n['before']:4d}  after {n['after']:3d}  {'' if same else 'DIFFERENT'}")
            r = routes.setdefault(path.split("?", 1)[0], {"requests": 0, "before": 0, "after": 0})
            r["requests"] += 1
            r["before"] += n["before"]
            r["after"] += n["after"]
        cpu = {}
        for v, s in servers.items():  # warm now: the pass above read every page once
            start = s.cpu_seconds()
            for _, path in requests_of(fixture):
                s.get(path)
            cpu[v] = (s.cpu_seconds() - start) * 1000 / len(requests_of(fixture))
    finally:
        for s in servers.values():
            s.kill()
    print("\n| route | requests | BEFORE statements/request | AFTER statements/request |\n|---|---|---|---|")
    for route, r in sorted(routes.items()):
        print(f"| {route} | {r['requests']} | {r['before'] / r['requests']:.1f} | {r['after'] / r['requests']:.1f} |")
    print(f"\nserver CPU per request, warm, one at a time: before {cpu['before']:.1f} ms, after {cpu['after']:.1f} ms"
          f" ({cpu['before'] / cpu['after']:.2f}x)")
    print(f"\n{differ} of {sum(r['requests'] for r in routes.values())} answers differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
