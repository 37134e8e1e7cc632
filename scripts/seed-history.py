#!/usr/bin/python3
"""Writes a realistic generated history (docs/history.md "A generated history"): results files of
RUNS runs of SCENARIOS scenarios on the machines of CLASSES host classes, recorded with `perfgate
history add` in batches, as CI would record them one by one. Not a test: it makes the input that
`history publish` and the site's pages are measured on, and the browser test's known history.

Each scenario's gated AFTER/BEFORE ratio has its own level per host class (ratios move by factors
between CPU classes), per-run noise (log-normal, 0.5-4%), and, unless --quiet-history, a slow drift
(a random walk whose steps are a tenth of the noise) and a few random code steps that hit every
class (each class by its own amount). --step adds a step where you say; the steps are written to
--truth as JSON: scenario, host class, the first run after the step and its commit.

  scripts/seed-history.py --db /tmp/h.sqlite                         # 10,000 runs x 25 scenarios x 2 classes
  scripts/seed-history.py --db h.sqlite --runs 60 --scenarios 3 --quiet-history \\
      --step scn_a:0:30:1.3 --truth truth.json                      # a known history for a test
Runs are generated in time order (30 minutes apart from 2026-01-01); a run is on one machine of one
class, chosen at random; most runs are of a new commit of main, some re-run a commit, a few are of
another branch, dirty, or failed (exit 1), as a CI history has them. Same --seed, same history.
"""
import argparse
import hashlib
import json
import math
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone

ROOT = pathlib.Path(__file__).resolve().parents[1]
BUNDLED = ["asset_cache", "auth_herd", "blob_stampede", "carddav_report", "dto_mapping", "folder_keyset",
           "imap_select", "keyset_listing", "media_parity", "photos_timeline", "s3_put", "search_cache", "upload_spool"]
# (metric, unit, better, exact): what a scenario gates on.
METRICS = [("cpu_ms", "ms", "lower", False), ("wall_ms", "ms", "lower", False), ("syscalls", "count", "lower", True),
           ("peak_rss_kib", "KiB", "lower", False), ("throughput_rps", "1/s", "higher", False)]
CLASSES = [("AMD EPYC (family 25 model 17)", 2), ("Intel(R) Xeon(R) Processor", 2), ("Apple M2", 8),
           ("AMD EPYC (family 25 model 1)", 4)]
ROUNDS = 6


def parse_step(text):
    try:
        scenario, cls, run, factor = text.split(":")
        return {"scenario": scenario, "class": None if cls == "*" else int(cls), "run": int(run), "factor": float(factor)}
    except ValueError:
        raise argparse.ArgumentTypeError(f"--step {text!r}: SCENARIO:CLASS:RUN:FACTOR (CLASS an index or *)")


def scenarios_of(count, rng):
    names = (BUNDLED + [f"scn_{chr(97 + i % 26)}{i // 26 or ''}" for i in range(count)])[:count] if count > 3 else \
        [f"scn_{chr(97 + i)}" for i in range(count)]
    out = []
    for i, name in enumerate(names):
        metric, unit, better, exact = METRICS[i % len(METRICS)]
        out.append({"name": name, "metric": metric, "unit": unit, "better": better, "exact": exact,
                    "before": rng.uniform(5, 500), "noise": 0.0 if exact else rng.uniform(0.005, 0.04),
                    "level": [rng.uniform(0.3, 1.1) for _ in CLASSES]})
    return out


class History:
    """The state of every series as time goes on: drift and the steps so far."""

    def __init__(self, args, rng, scenarios):
        self.args, self.rng, self.scenarios = args, rng, scenarios
        self.drift = {(s["name"], c): 0.0 for s in scenarios for c in range(args.classes)}
        self.random_steps = []
        if not args.quiet_history:
            for s in scenarios:  # about one code step per 2,500 runs per scenario, hitting every class
                for _ in range(max(1, args.runs // 2500)):
                    factor = math.exp(rng.choice([-1, 1]) * rng.uniform(0.08, 0.35))
                    at = rng.randrange(args.runs // 10, args.runs)
                    for c in range(args.classes):
                        self.random_steps.append({"scenario": s["name"], "class": c, "run": at,
                                                  "factor": factor ** rng.uniform(0.6, 1.4)})

    def ratio(self, s, cls, k):
        base = s["level"][cls]
        for st in self.args.step + self.random_steps:
            if st["scenario"] == s["name"] and st["class"] in (None, cls) and k >= st["run"]:
                base *= st["factor"]
        if not self.args.quiet_history and not s["exact"]:  # a count of the work does not drift
            key = (s["name"], cls)
            self.drift[key] += self.rng.gauss(0, s["noise"] / 10 + 0.0005)
            self.drift[key] *= 0.999  # a drift wanders, then comes back
            base *= math.exp(self.drift[key])
        return base * math.exp(self.rng.gauss(0, s["noise"]))


def scenario_doc(s, ratio, seed, run_seed, rng):
    half = 2.2 * s["noise"] / math.sqrt(ROUNDS) + (0 if s["exact"] else 0.002)
    lo, hi = ratio * math.exp(-half), ratio * math.exp(half)
    bad_lo, bad_hi = (lo, hi) if s["better"] == "lower" else (1 / hi, 1 / lo)
    verdict = "worse" if bad_lo > 1.02 else "better" if bad_hi < 0.98 else "no significant change"
    before = s["before"]
    after = before * ratio
    samples, metric = [], s["metric"]
    for i in range(ROUNDS):
        for variant, median in (("before", before), ("after", after)):
            value = median if s["exact"] else median * (1 + rng.uniform(-1, 1) * s["noise"])
            if s["exact"]:
                value = float(round(value))
            samples.append({"round": i + 1, "variant": variant, "warmup": False, "order": i % 2, "exit_code": 0,
                            "digest": "d", "metrics": {metric: {"value": value, "unit": s["unit"],
                                                                "better": s["better"], "source": "harness"}}})

    def summary(m):
        return {"n": ROUNDS, "unit": s["unit"], "better": s["better"], "source": "harness", "median": m, "mean": m,
                "p50": m, "p99": m, "exact": s["exact"]}
    return {
        "name": s["name"], "title": s["name"], "kind": "batch", "profile": "quick", "policy": "no-regress",
        "primary_metric": metric, "variants": [{"name": "before"}, {"name": "after", "compare_to": "before"}],
        "reproduce": f"perfgate run {s['name']} --profile quick --seed {run_seed}",
        "fingerprint": hashlib.sha256(f"{s['name']}-{seed}".encode()).hexdigest()[:16],
        "samples": samples, "summaries": {"before": {metric: summary(before)}, "after": {metric: summary(after)}},
        "comparisons": [{"variant": "after", "baseline": "before", "metric": metric, "unit": s["unit"],
                         "better": s["better"], "gated": True, "exact": s["exact"], "n": ROUNDS, "ratio": ratio,
                         "ci": [lo, hi], "confidence": 0.95, "log_scale": True, "p_wilcoxon": 0.03,
                         "wilcoxon_method": "exact", "p_wilcoxon_adjusted": 0.03, "p_mann_whitney": 0.03,
                         "verdict": verdict}],
        "gates": [{"kind": "equivalence", "name": "same work", "passed": True, "detail": "generated"}],
        "excluded": [], "stop": {"reason": "max rounds", "rounds": ROUNDS}}


def run_doc(k, when, commit, branch, dirty, exit_code, cls, machine, scenarios_figures, seed):
    cpu, cores = CLASSES[cls]
    fingerprint = hashlib.sha256(f"{cpu}/{cores}/{machine}".encode()).hexdigest()[:16]
    stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    run_seed = 1000 + k
    return {
        "schema_version": 1,
        "run": {"id": f"{stamp}-{k}", "started_at": stamp, "finished_at": stamp,
                "command_line": ["perfgate", "run", "--profile", "quick"],
                "reproduce": f"perfgate run --profile quick --seed {run_seed}",
                "git": {"commit": commit, "dirty": dirty}, "branch": branch, "profile": "quick", "seed": run_seed,
                "options": {}, "stop_reason": "completed"},
        "host": {"fingerprint": fingerprint, "hostname": f"perf-{cls}-{machine}", "cpu_model": cpu, "cores": cores,
                 "kernel": "Linux 6.1.0", "cgroup": {"layout": "v2", "cpu_source": "cgroup", "memory_source": "cgroup"},
                 "load_before": [0.1, 0.1, 0.1], "load_after": [0.2, 0.1, 0.1]},
        "scenarios": [scenario_doc(s, ratio, seed, run_seed, random.Random(f"{seed}/{k}/{s['name']}"))
                      for s, ratio in scenarios_figures],
        "outcome": {"exit_code": exit_code, "status": "passed" if exit_code == 0 else "failed",
                    "message": "generated", "failures": [] if exit_code == 0 else ["generated failure"]},
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True, help="the history database (a SQLite file or a PostgreSQL DSN)")
    ap.add_argument("--runs", type=int, default=10000)
    ap.add_argument("--scenarios", type=int, default=25)
    ap.add_argument("--classes", type=int, default=2, choices=range(1, len(CLASSES) + 1))
    ap.add_argument("--machines", type=int, default=2, help="machines per host class")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--step", type=parse_step, action="append", default=[], metavar="SCENARIO:CLASS:RUN:FACTOR")
    ap.add_argument("--quiet-history", action="store_true",
                    help="no drift, no random steps, no rerun, branch, dirty or failed runs: only --step moves a ratio")
    ap.add_argument("--truth", help="write the injected steps here (JSON)")
    ap.add_argument("--batch", type=int, default=500, help="results files per history add")
    ap.add_argument("--perfgate", default=str(ROOT / "build" / "bin" / "perfgate"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    scenarios = scenarios_of(args.scenarios, rng)
    names = {s["name"] for s in scenarios}
    for st in args.step:
        if st["scenario"] not in names or (st["class"] is not None and st["class"] >= args.classes):
            ap.error(f"--step {st}: scenarios are {sorted(names)}, classes 0..{args.classes - 1}")
    history = History(args, rng, scenarios)
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    commit, truth = None, []
    pending = [(st, c) for st in args.step for c in ([st["class"]] if st["class"] is not None else range(args.classes))]
    work = pathlib.Path(tempfile.mkdtemp(prefix="perfgate-seed-history-"))
    began, files, added = time.monotonic(), [], 0
    try:
        for k in range(args.runs):
            quiet = args.quiet_history
            cls = rng.randrange(args.classes)
            if commit is None or quiet or rng.random() > 0.2:  # a fifth of the runs re-run a commit
                commit = hashlib.sha1(f"{args.seed}/commit/{k}".encode()).hexdigest()
            branch = "main" if quiet or rng.random() > 0.05 else rng.choice(["feature-cache", "fix-spool"])
            dirty = not quiet and rng.random() < 0.005
            exit_code = 1 if not quiet and rng.random() < 0.01 else 0
            for st, c in list(pending):  # the first run of the class after the step: its commit made it
                if k >= st["run"] and c == cls:
                    truth.append({"scenario": st["scenario"], "host_class": f"{CLASSES[cls][0]} x{CLASSES[cls][1]}",
                                  "run": k, "commit": commit, "factor": st["factor"]})
                    pending.remove((st, c))
            figures = [(s, history.ratio(s, cls, k)) for s in scenarios]
            doc = run_doc(k, start + timedelta(minutes=30 * k), commit, branch, dirty, exit_code, cls,
                          rng.randrange(args.machines), figures, args.seed)
            path = work / f"run-{k:06d}.json"
            path.write_text(json.dumps(doc))
            files.append(str(path))
            if len(files) == args.batch or k == args.runs - 1:
                r = subprocess.run([args.perfgate, "history", "add", "--db", args.db, *files],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    sys.exit(f"seed-history: history add failed (exit {r.returncode}): {r.stderr.strip()}")
                added += len(files)
                for f in files:
                    os.unlink(f)
                files = []
                print(f"seed-history: {added}/{args.runs} runs recorded ({time.monotonic() - began:.0f} s)",
                      file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.truth:
        pathlib.Path(args.truth).write_text(json.dumps({"steps": truth, "random_steps": history.random_steps}, indent=1))
    print(f"seed-history: {args.runs} runs x {len(scenarios)} scenarios on {args.classes} host class(es) in "
          f"{args.db} ({time.monotonic() - began:.0f} s)")


if __name__ == "__main__":
    main()
