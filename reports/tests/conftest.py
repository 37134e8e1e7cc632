"""A small generator of schema-v1 results documents with chosen medians, for the tests.

Every document it builds is validated against docs/results.schema.json with jsonschema, so the
generator stays true to the contract the C++ side writes. Values are deterministic: the n
non-warm-up values of a (variant, metric) are the chosen median times 1 + spread * t, with t
evenly spaced over [-1, 1] in a shuffled order, so their median is exactly the chosen one.
"""

from __future__ import annotations

import copy
import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import jsonschema
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "docs" / "results.schema.json"
REPORTS = ROOT / "reports"
PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable

HARNESS_UNITS = {
    "wall_ms": ("ms", "monotonic-clock"),
    "cpu_ms": ("ms", "cpu"),
    "user_ms": ("ms", "cpu"),
    "sys_ms": ("ms", "cpu"),
    "peak_rss_kib": ("KiB", "memory"),
    "syscalls": ("count", "proc-io"),
    "syscr": ("count", "proc-io"),
    "syscw": ("count", "proc-io"),
    "ctx_voluntary": ("count", "rusage"),
}
CPU_SOURCES = {"cgroup-v2": "cgroup-v2:cpu.stat", "cgroup-v1-cpuacct": "cgroup-v1:cpuacct", "rusage": "rusage"}
MEM_SOURCES = {"cgroup-v2": "cgroup-v2:memory.peak", "cgroup-v1-memory": "cgroup-v1:memory.max_usage_in_bytes", "rusage": "rusage"}


def spread_values(median: float, n: int, spread: float, rng: random.Random) -> list[float]:
    if n == 1:
        return [median]
    ts = [-1 + 2 * i / (n - 1) for i in range(n)]
    rng.shuffle(ts)
    return [median * (1 + spread * t) for t in ts]


def summarize(values: list[float], unit: str, better: str, source: str) -> dict:
    a = np.asarray(values, dtype=float)
    med = float(np.median(a))
    return {
        "n": len(values),
        "unit": unit,
        "better": better,
        "source": source,
        "median": med,
        "mean": float(a.mean()),
        "stddev": float(a.std(ddof=1)) if len(values) > 1 else 0.0,
        "mad": float(np.median(np.abs(a - med))),
        "min": float(a.min()),
        "max": float(a.max()),
        "p50": float(np.percentile(a, 50)),
        "p90": float(np.percentile(a, 90)),
        "p95": float(np.percentile(a, 95)),
        "p99": float(np.percentile(a, 99)),
        **median_interval(values),
        **({"spread": abs(float(np.median(np.abs(a - med))) / med)} if med else {}),
    }


def series_summaries(series: dict) -> dict:
    """What the harness writes of each series (store::summarize_series): the summary of its
    finite values, without the fields a metric's summary has and a series has not."""
    out: dict = {}
    for v, of_variant in series.items():
        out[v] = {}
        for name, ser in of_variant.items():
            vals = [float(x) for x in ser.get("values", []) if isinstance(x, (int, float)) and math.isfinite(x)]
            if vals:
                s = summarize(vals, ser.get("unit", ""), "lower", "")
                out[v][name] = {k: s[k] for k in ("n", "unit", "median", "mean", "stddev", "mad", "min", "max",
                                                 "p50", "p90", "p95", "p99")}
    return out


def median_interval(values: list[float], confidence: float = 0.95) -> dict:
    """The harness's interval of the median (stats::median_interval_sorted): order statistics
    k and n-k+1 with the largest k covering at least `confidence`; none for one value."""
    xs, n = sorted(values), len(values)
    if n < 2:
        return {}
    cover = lambda k: 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2**n  # noqa: E731
    k = 1
    while k + 1 <= n // 2 and cover(k + 1) >= confidence:
        k += 1
    return {"median_ci": [xs[k - 1], xs[n - k]], "median_ci_coverage": cover(k)}


def scenario(
    name: str,
    *,
    medians: dict[str, float] | None = None,
    primary: str = "wall_ms",
    unit: str = "ms",
    better: str = "lower",
    kind: str = "batch",
    rounds: int = 8,
    warmup: int = 1,
    spread: float = 0.02,
    spreads: dict[str, float] | None = None,
    sweeps: dict[str, dict] | None = None,
    compare_to: dict[str, str] | None = None,
    labels: dict[str, str] | None = None,
    metrics: dict[str, dict] | None = None,
    harness: bool = True,
    cpu_source: str = "cgroup-v2",
    memory_source: str = "cgroup-v2",
    anchors: list[dict] | None = None,
    excluded: list[dict] | None = None,
    series: dict | None = None,
    extra: dict | None = None,
    notes: list[str] | None = None,
    gates: list[dict] | None = None,
    error: dict | None = None,
    seed: int = 7,
) -> dict:
    """One scenario. `medians`: variant -> median of the primary metric (before/after first;
    more variants are sweep variants, their coordinates in `sweeps[variant]`). `metrics`: more
    metrics, name -> {"unit", "better", "source", "medians": {variant: median}}."""
    rng = random.Random(f"{name}-{seed}")
    medians = dict(medians or {"before": 100.0, "after": 20.0})
    sweeps = sweeps or {}
    spreads = spreads or {}
    variants = []
    for v in medians:
        base = None if v == "before" else (compare_to or {}).get(v, "before")
        entry = {"name": v, "label": (labels or {}).get(v, v.replace("-", " ")), "compare_to": None if base == v else base,
                 "sweep": sweeps.get(v), "gated": v in ("before", "after")}
        variants.append(entry)
    for v, sw in sweeps.items():
        if v not in medians:
            raise ValueError(f"sweep for unknown variant {v}")

    program_source = "load-generator" if kind == "service" else "program"
    metric_defs: dict[str, dict] = {}
    if primary not in HARNESS_UNITS:
        metric_defs[primary] = {"unit": unit, "better": better, "source": program_source, "medians": medians}
    for mname, mdef in (metrics or {}).items():
        metric_defs[mname] = {"unit": mdef.get("unit", ""), "better": mdef.get("better", "lower"),
                              "source": mdef.get("source", program_source), "medians": mdef["medians"]}
    if harness:
        for mname, (munit, src) in HARNESS_UNITS.items():
            if mname in metric_defs:
                continue
            source = {"cpu": CPU_SOURCES[cpu_source], "memory": MEM_SOURCES[memory_source]}.get(src, src)
            if mname == primary:
                meds = medians
            else:
                scale = {"wall_ms": 1.1, "cpu_ms": 0.9, "user_ms": 0.7, "sys_ms": 0.2, "peak_rss_kib": 40000.0,
                         "syscalls": 300.0, "syscr": 200.0, "syscw": 100.0, "ctx_voluntary": 12.0}[mname]
                base = medians["before"]
                meds = {v: round(scale * (m / base if better == "lower" else base / m) * 100.0, 3) for v, m in medians.items()}
            metric_defs[mname] = {"unit": munit, "better": "lower", "source": source, "medians": meds}

    samples = []
    values: dict[tuple[str, str], list[float]] = {}
    for mname, mdef in metric_defs.items():
        for v in medians:
            if v in mdef["medians"]:
                values[(v, mname)] = spread_values(mdef["medians"][v], rounds, spreads.get(v, spread), rng)
    for r in range(warmup + rounds):  # rounds are numbered from 1, warm-up first, as the harness does
        order = list(medians)
        rng.shuffle(order)
        for pos, v in enumerate(order):
            is_warm = r < warmup
            ms = {}
            for mname, mdef in metric_defs.items():
                if v not in mdef["medians"]:
                    continue
                val = mdef["medians"][v] * 1.3 if is_warm else values[(v, mname)][r - warmup]
                ms[mname] = {"value": val, "unit": mdef["unit"], "better": mdef["better"], "source": mdef["source"]}
            samples.append({"round": r + 1, "variant": v, "warmup": is_warm, "order": pos, "exit_code": 0,
                            "digest": "d1g35t", "metrics": ms})

    summaries: dict = {}
    for (v, mname), vals in values.items():
        mdef = metric_defs[mname]
        summaries.setdefault(v, {})[mname] = summarize(vals, mdef["unit"], mdef["better"], mdef["source"])

    comparisons = []
    for entry in variants:
        v = entry["name"]
        if entry["compare_to"] is None:
            continue
        base = entry["compare_to"]
        for mname, mdef in metric_defs.items():
            if (v, mname) not in values or (base, mname) not in values:
                continue
            bm = summaries[base][mname]["median"]
            ratio = summaries[v][mname]["median"] / bm if bm else None
            big = ratio is not None and ratio > 0 and abs(math.log(ratio)) > 0.05
            good = big and (ratio < 1) == (mdef["better"] == "lower")
            comparisons.append({
                "variant": v, "baseline": base, "metric": mname, "unit": mdef["unit"], "better": mdef["better"],
                "gated": entry["gated"] and mname == primary, "n": rounds, "ratio": ratio,
                "ci": [ratio * 0.97, ratio * 1.03] if ratio is not None else [None, None], "confidence": 0.95, "log_scale": True,
                "p_wilcoxon": 0.0078 if big else 0.64, "wilcoxon_method": "exact",
                "p_wilcoxon_adjusted": 0.031 if big else 1.0, "p_mann_whitney": 0.0002 if big else 0.71,
                "verdict": ("better" if good else "worse") if big else "no significant change",
            })
    key = next((c for c in comparisons if c["variant"] == "after" and c["metric"] == primary), None)
    if gates is None:
        gates = [
            {"kind": "equivalence", "name": "digest", "passed": True, "detail": "every sample printed digest d1g35t"},
            {"kind": "policy", "name": "improve", "passed": bool(key and key["verdict"] == "better"),
             "detail": f"after/before {primary} = {key['ratio']:.3f}" if key else "no comparison"},
        ]
    out_anchors = []
    for a in anchors or []:
        a = dict(a)
        ob = summaries.get(a.get("before_variant", "before"), {}).get(a["metric"], {}).get("median")
        oa = summaries.get(a.get("after_variant", "after"), {}).get(a["metric"], {}).get("median")
        a.setdefault("ours", {"before": ob, "after": oa, "ratio": (oa / ob) if ob and oa is not None else None})
        out_anchors.append(a)

    doc = {
        "name": name, "title": f"{name.replace('_', ' ').capitalize()} title", "source": "seed 000 [1]",
        "summary": f"What {name} changes: BEFORE rescans, AFTER seeks.", "kind": kind, "profile": "quick",
        "policy": "improve", "primary_metric": primary,
        "commands": {v: [f"/opt/perfgate/scenarios/{name}/{name}", "run", "--variant", v] for v in medians},
        "fixture": {"kind": "files", "digest": "abc123", "location": "/tmp/fx", "reused": True, "seed_seconds": 1.5, "figures": {}},
        "load_before": [0.2, 0.3, 0.3], "load_after": [0.4, 0.3, 0.3],
        "variants": variants, "samples": samples, "summaries": summaries, "comparisons": comparisons,
        "gates": gates, "anchors": out_anchors, "excluded": list(excluded or []),
        "stop": {"reason": f"clear at look 1 (round {rounds})", "rounds": rounds, "looks": [rounds]},
        "series": series or {}, "series_summaries": series_summaries(series or {}), "extra": extra or {}, "notes": list(notes or []),
    }
    if error is not None:
        doc["error"] = error
    return doc


def results(
    scenarios: list[dict],
    *,
    commit: str = "0123456789abcdef0123456789abcdef01234567",
    dirty: bool = False,
    cpu_source: str = "cgroup-v2",
    memory_source: str = "cgroup-v2",
    note: str = "",
    load_before=(0.52, 0.41, 0.30),
    load_after=(0.95, 0.60, 0.38),
    profile: str = "quick",
) -> dict:
    names = [s["name"] for s in scenarios]
    doc = {
        "schema_version": 1,
        "run": {
            "id": "20261129T190000Z-1a2b", "started_at": "2026-11-29T19:00:00Z", "finished_at": "2026-11-29T19:04:10Z",
            "command_line": ["perfgate", "run", "--profile", profile, "--seed", "42", *names],
            "reproduce": " ".join(["perfgate", "run", "--profile", profile, "--seed", "42", *names]),
            "perfgate_version": "0.1.0",
            "git": {"commit": commit, "dirty": dirty, "source": "/work/main"},
            "profile": profile, "seed": 42,
            "options": {"min_rounds": 5, "max_rounds": 30, "max_time_s": 600, "warmup": 1, "alpha": 0.05,
                        "noise": 0.02, "policy": None, "cpus": None, "timeout_s": 120},
            "stop_reason": "completed",
        },
        "host": {
            "fingerprint": "5f3c9a0b1d2e4f60", "hostname": "perf-vm-1", "cpu_model": "AMD EPYC 7B13", "cores": 4,
            "allowed_cpus": [0, 1, 2, 3], "kernel": "6.1.0-27-amd64", "memory_kib": 16303452,
            "cgroup": {"layout": "v2" if cpu_source == "cgroup-v2" else "none", "cpu_source": cpu_source,
                       "memory_source": memory_source, "writable": cpu_source != "rusage", "note": note},
            "load_before": list(load_before), "load_after": list(load_after),
        },
        "scenarios": scenarios,
        "outcome": {"exit_code": 0, "status": "passed", "message": "every gate passed", "failures": []},
    }
    validate(doc)
    return doc


_SCHEMA = None


def validate(doc: dict) -> None:
    global _SCHEMA
    if _SCHEMA is None:
        _SCHEMA = json.loads(SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator(_SCHEMA).validate(doc)


def write(doc: dict, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1))
    return path


def standard_run() -> dict:
    """Three scenarios shaped like the bundled ones: a PostgreSQL listing with EXPLAIN and
    per-page series, a buffer-size sweep, and a service with a cache sweep over capacity."""
    listing = scenario(
        "keyset_listing", primary="ms_per_page_p50", unit="ms", medians={"before": 26.6, "after": 1.30, "before-idx": 27.8},
        metrics={"ms_per_page_p99": {"unit": "ms", "medians": {"before": 33.5, "after": 1.81, "before-idx": 35.6}}},
        anchors=[{"metric": "ms_per_page_p50", "before": 26.6, "after": 1.30, "unit": "ms", "label": "ms/page p50, 20k files"}],
        series={v: {"page_ms": {"unit": "ms", "values": [m * (0.8 + 0.01 * i) for i in range(40)]}}
                for v, m in {"before": 26.6, "after": 1.30, "before-idx": 27.8}.items()},
        extra={"before": {"explain": "Limit  (actual time=28.9..29.0 rows=200 loops=1)\n  ->  Sort\n        ->  Seq Scan on files  (rows=20000)\n              Rows Removed by Filter: 17999\nBuffers: shared hit=565"},
               "after": {"explain": "Limit  (actual time=1.1..1.2 rows=200 loops=1)\n  ->  Index Scan using idx_files_folder_lname on files\nBuffers: shared hit=12"}},
    )
    spool = scenario(
        "upload_spool", primary="syscalls", unit="count", medians={"before": 2580, "after": 340, "read-256k": 660, "read-1m": 180},
        sweeps={"before": {"read_buffer_kib": 64}, "after": {"read_buffer_kib": 512}, "read-256k": {"read_buffer_kib": 256},
                "read-1m": {"read_buffer_kib": 1024}},
        metrics={"read_ms": {"unit": "ms", "medians": {"before": 250.8, "after": 108.8, "read-256k": 125.1, "read-1m": 111.3}}},
        anchors=[{"metric": "read_ms", "before": 250.8, "after": 108.8, "unit": "ms", "label": "read 16 x 10 MiB"}],
        cpu_source="rusage", excluded=[{"what": "read-1m round 3", "why": "exit code 1 (ENOSPC)"}],
    )
    # asset_cache as its manifest lays it out: workload x cache kind x capacity, no-cache at capacity 0
    cache_meds, cache_sweeps, hits, cmp, labels = {}, {}, {}, {}, {}
    base_rps = {"hot": 62100.0, "uniform": 62100.0, "zipf": 60000.0}
    for wl in ("hot", "uniform", "zipf"):
        for kind, cost in (("none", 0.0), ("lru-scan", 0.08), ("lru", 0.02)):
            for cap in ((0,) if kind == "none" else (64, 256, 1024, 4096)):
                name = {("hot", "none", 0): "before", ("hot", "lru", 256): "after"}.get((wl, kind, cap), f"{wl}-{kind}-{cap}")
                if kind == "none" and wl != "hot":
                    name = f"{wl}-none"
                cover = min(1.0, cap / 2500)
                h = 0.0 if kind == "none" else (cover if wl == "uniform" else min(1.0, 0.75 + 0.25 * cover))
                scan = cost * (cap / 256) ** 0.5
                cache_meds[name] = round(base_rps[wl] * (1 + 0.55 * h) * (1 - scan), 1)
                cache_sweeps[name] = {"workload": wl, "cache": kind, "capacity": cap}
                hits[name] = h
                if wl != "hot":
                    cmp[name] = f"{wl}-none"
    labels = {"before": "hot set 80/20, no cache", "uniform-none": "uniform, no cache", "zipf-none": "zipf, no cache"}
    order = ["before", "after"] + [v for v in cache_meds if v not in ("before", "after")]
    cache_meds = {v: cache_meds[v] for v in order}
    cache = scenario(
        "asset_cache", kind="service", primary="rps", unit="req/s", better="higher", medians=cache_meds, sweeps=cache_sweeps,
        compare_to=cmp, labels=labels,
        metrics={"hit_ratio": {"unit": "ratio", "better": "higher", "source": "server-stats", "medians": hits},
                 "latency_p50_ms": {"unit": "ms", "medians": {v: 200 / m * 1000 for v, m in cache_meds.items()}},
                 "latency_p99_ms": {"unit": "ms", "medians": {v: 900 / m * 1000 for v, m in cache_meds.items()}}},
        anchors=[{"metric": "rps", "before": 62100, "after": 91100, "unit": "req/s", "label": "80/20 hot set, capacity 256"},
                 {"metric": "rps", "before": 62100, "after": 55300, "unit": "req/s", "before_variant": "uniform-none",
                  "after_variant": "uniform-lru-scan-256", "label": "uniform, O(n) LRU 256 vs none: -11%"}],
        series={v: {"latency_ms": {"unit": "ms", "values": [200 / m * 1000 * (0.5 + (i % 97) / 40) for i in range(400)]}}
                for v, m in cache_meds.items() if v in ("before", "after", "uniform-none")},
        excluded=[{"what": "GET /assets/pkg-17/1.0.0/index.js", "why": "bodies differ between variants (content-length)"}],
        notes=["server pinned to CPU 0, load generator to CPU 1"],
    )
    return results([listing, spool, cache])


@pytest.fixture(scope="session")
def factory():
    """The generator, for tests: factory.scenario(...), factory.results([...]), factory.write(doc, path)."""

    class F:
        pass

    f = F()
    for fn in (scenario, results, write, validate, standard_run):
        setattr(f, fn.__name__, fn)
    return f


@pytest.fixture
def run_cli(tmp_path):
    """Runs `python -m perfgate_report ARGS` the way the C++ driver does (PYTHONPATH=reports)."""

    def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
        env = dict(os.environ, PYTHONPATH=str(REPORTS), MPLBACKEND="Agg")
        return subprocess.run([PYTHON, "-m", "perfgate_report", *map(str, args)], cwd=cwd or tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)

    return run


@pytest.fixture
def standard_doc():
    return copy.deepcopy(_STANDARD)


_STANDARD = standard_run()
