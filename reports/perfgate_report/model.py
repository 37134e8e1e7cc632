"""What the report needs, read from one validated results document.

Nothing here formats or draws: it picks the key figures (the primary metric's BEFORE and
AFTER medians and the ratio the gates used), the raw non-warm-up values behind every plot, the
spread of each variant, the figures that fell back to a weaker source, and what was excluded.
Every figure is the harness's — medians, their intervals and spreads from `summaries` (what the
gates saw), ratios from `comparisons`; raw values from `samples` are only drawn. It computes no
statistic: a figure the results lack is shown as missing.
"""

from __future__ import annotations

import math
import shlex
from typing import Any

from .figures import Anchor, Exclusion, Fallback, KeyFigure
from .metrics import HARNESS_ORDER, RUSAGE_NATIVE, MetricInfo


def _outcome_of_an_older_gate(g: dict) -> str:
    """Files written before gates had an `outcome` said it as `passed` (true, false, null) and
    `cannot_tell`: the outcome they meant, which is all the report reads."""
    passed = g.get("passed")
    return ("cannot tell" if g.get("cannot_tell") else "undecided" if passed is None
            else "passed" if passed else "failed")


class ScenarioView:
    def __init__(self, raw: dict, index: int, run: RunView):
        self.raw = raw
        self.index = index
        self.run = run
        self.name: str = raw["name"]
        self.title: str = raw.get("title") or raw["name"]
        self.kind: str = raw["kind"]
        self.primary: str = raw["primary_metric"]
        self.variants: list[str] = [v["name"] for v in raw["variants"]]
        self.variant_info: dict[str, dict] = {v["name"]: v for v in raw["variants"]}
        self.error: dict | None = raw.get("error")
        for g in raw.get("gates", []):
            g.setdefault("outcome", _outcome_of_an_older_gate(g))
        self._values: dict[tuple[str, str], list[float]] = {}
        self._warmup: dict[tuple[str, str], list[float]] = {}
        self._rounds: dict[tuple[str, str], list[int]] = {}
        self.metric_info: dict[str, MetricInfo] = {}
        self._collect()

    # ----------------------------------------------------------------- raw samples
    def _collect(self) -> None:
        for s in self.raw["samples"]:
            ok = s["exit_code"] == 0
            for name, m in s["metrics"].items():
                info = self.metric_info.setdefault(name, MetricInfo(name, m.get("unit", ""), m.get("better", "lower")))
                info.sources.add(m.get("source", ""))
                if m.get("value") is None or not ok:
                    continue
                v = float(m["value"])
                if not math.isfinite(v):
                    continue
                key = (s["variant"], name)
                if s["warmup"]:
                    self._warmup.setdefault(key, []).append(v)
                else:
                    self._values.setdefault(key, []).append(v)
                    self._rounds.setdefault(key, []).append(s["round"])
        for variant, metrics in self.raw["summaries"].items():
            for name, summ in metrics.items():
                info = self.metric_info.setdefault(name, MetricInfo(name, summ.get("unit", ""), summ.get("better", "lower")))
                if summ.get("source"):
                    info.sources.add(summ["source"])
        for info in self.metric_info.values():
            info.sources.discard("")

    def values(self, variant: str, metric: str) -> list[float]:
        """Non-warm-up values of successful samples, in sample order."""
        return list(self._values.get((variant, metric), []))

    def warmup_values(self, variant: str, metric: str) -> list[float]:
        return list(self._warmup.get((variant, metric), []))

    @property
    def samples(self) -> list[dict]:
        return self.raw["samples"]

    @property
    def warmup_samples(self) -> list[dict]:
        return [s for s in self.samples if s["warmup"]]

    @property
    def warmup_rounds(self) -> list[int]:
        return sorted({s["round"] for s in self.warmup_samples})

    @property
    def failed_samples(self) -> list[dict]:
        return [s for s in self.samples if s["exit_code"] != 0]

    # ------------------------------------------------------------------ metrics
    def unit(self, metric: str) -> str:
        info = self.metric_info.get(metric)
        return info.unit if info else ""

    def better(self, metric: str) -> str:
        info = self.metric_info.get(metric)
        return info.better if info else "lower"

    def metrics(self) -> list[str]:
        """Primary first, then the program's own metrics, then the harness's, then the rest."""
        names = list(self.metric_info)
        harness = [m for m in HARNESS_ORDER if m in self.metric_info]
        own = [m for m in names if m not in HARNESS_ORDER]
        ordered = [self.primary] if self.primary in self.metric_info else []
        for m in own + harness:
            if m not in ordered:
                ordered.append(m)
        return ordered

    def summary(self, variant: str, metric: str) -> dict | None:
        return self.raw["summaries"].get(variant, {}).get(metric)

    def median(self, variant: str, metric: str) -> float | None:
        s = self.summary(variant, metric)
        return None if s is None else s.get("median")

    def median_interval(self, variant: str, metric: str) -> tuple[float, float, float] | None:
        """The harness's distribution-free interval of the median and its coverage
        (stats::median_interval_sorted); none in files written before it was recorded."""
        s = self.summary(variant, metric) or {}
        if s.get("median_ci") is None or s.get("median_ci_coverage") is None:
            return None
        return s["median_ci"][0], s["median_ci"][1], s["median_ci_coverage"]

    def spread(self, variant: str, metric: str) -> float | None:
        """MAD / |median| as the harness's summary holds it (`spread`); None when the median is 0
        or the file was written before summaries held it."""
        s = self.summary(variant, metric)
        return float(s["spread"]) if s is not None and isinstance(s.get("spread"), (int, float)) else None

    def spreads_recorded(self) -> bool:
        """Whether the summaries hold spreads: a file written before them holds none."""
        return any("spread" in s for metrics in (self.raw.get("summaries") or {}).values()
                   if isinstance(metrics, dict) for s in metrics.values() if isinstance(s, dict))

    def comparison(self, variant: str, metric: str, baseline: str | None = None) -> dict | None:
        for c in self.raw["comparisons"]:
            if c["variant"] == variant and c["metric"] == metric and (baseline is None or c["baseline"] == baseline):
                return c
        return None

    # ------------------------------------------------------------------ key figure
    @property
    def gated(self) -> list[dict]:
        """The gated comparisons: one, or one per benchmark of a Google Benchmark scenario."""
        return [c for c in self.raw["comparisons"] if c["gated"]]

    @property
    def key(self) -> KeyFigure:
        m = self.primary
        per_benchmark = [c for c in self.gated if c.get("ratio")]
        if len(self.gated) > 1 and per_benchmark:  # the benchmark that lost most: never a sum
            m = max(per_benchmark, key=lambda c: c["ratio"] if c["better"] != "higher" else 1 / c["ratio"])["metric"]
        before, after = self.median("before", m), self.median("after", m)
        c = self.comparison("after", m, "before")
        if c is not None and c.get("ratio") is not None:
            ci = tuple(c["ci"]) if c.get("ci") else None
            return KeyFigure(m, self.unit(m), c.get("better") or self.better(m), before, after, c["ratio"], ci, "paired", c["verdict"])
        return KeyFigure(m, self.unit(m), self.better(m), before, after, None, None, "none", c["verdict"] if c else None)

    # ------------------------------------------------------------------ anchors
    def anchors(self) -> list[Anchor]:
        out = []
        for a in self.raw.get("anchors") or []:
            metric = a["metric"]
            ours = a.get("ours") or {}
            ob = ours.get("before", self.median(a.get("before_variant", "before"), metric))
            oa = ours.get("after", self.median(a.get("after_variant", "after"), metric))
            oratio = ours.get("ratio")  # the harness's (ScenarioRun::fill_anchors); none when not measured
            out.append(
                Anchor(
                    label=a.get("label", ""),
                    metric=metric,
                    unit=a.get("unit") or self.unit(metric),
                    better=a.get("better") or self.better(metric),
                    before=float(a["before"]),
                    after=float(a["after"]),
                    ours_before=ob,
                    ours_after=oa,
                    ours_ratio=oratio,
                    raw=a,
                    factor=float(a["factor"]) if isinstance(a.get("factor"), (int, float)) and a["factor"] > 0 else None,
                )
            )
        return out

    def headline_anchor(self) -> Anchor | None:
        anchors = self.anchors()
        for a in anchors:
            if a.metric == self.primary:
                return a
        return anchors[0] if anchors else None

    # ------------------------------------------------------------------ gates and verdict
    @property
    def gates(self) -> list[dict]:
        return self.raw["gates"]

    def gates_with(self, outcome: str) -> list[dict]:
        """The gates whose outcome is `outcome`: passed, failed, cannot tell, undecided."""
        return [g for g in self.gates if g["outcome"] == outcome]

    @property
    def failed_gates(self) -> list[dict]:
        return self.gates_with("failed")

    @property
    def stop(self) -> dict:
        return self.raw["stop"]

    # ------------------------------------------------------------------ sweeps
    def sweep_variants(self) -> list[str]:
        return [v for v in self.variants if isinstance(self.variant_info[v].get("sweep"), dict) and self.variant_info[v]["sweep"]]

    def sweep(self, variant: str) -> dict:
        s = self.variant_info[variant].get("sweep")
        return s if isinstance(s, dict) else {}

    # ------------------------------------------------------------------ series, extra
    def series(self, variant: str) -> dict[str, dict]:
        s = (self.raw.get("series") or {}).get(variant)
        return s if isinstance(s, dict) else {}

    def series_names(self) -> list[str]:
        names: list[str] = []
        for v in self.variants:
            for n, ser in self.series(v).items():
                if isinstance(ser, dict) and isinstance(ser.get("values"), list) and n not in names:
                    names.append(n)
        return names

    def series_values(self, variant: str, name: str) -> list[float]:
        ser = self.series(variant).get(name)
        if not isinstance(ser, dict):
            return []
        return [float(x) for x in ser.get("values") or [] if isinstance(x, (int, float)) and math.isfinite(x)]

    def series_summary(self, variant: str, name: str) -> dict | None:
        """The harness's summary of one series of one variant: n, p50, p90, p95, p99, max, …"""
        s = (self.raw.get("series_summaries") or {}).get(variant)
        s = s.get(name) if isinstance(s, dict) else None
        return s if isinstance(s, dict) else None

    def explain(self, variant: str) -> str | None:
        e = (self.raw.get("extra") or {}).get(variant)
        if isinstance(e, dict) and isinstance(e.get("explain"), str) and e["explain"].strip():
            return e["explain"]
        return None

    # ------------------------------------------------------------------ caveats
    def exclusions(self) -> list[Exclusion]:
        out = [Exclusion(str(e["what"]), str(e["why"])) for e in self.raw["excluded"]]
        warm = self.warmup_samples
        listed = " ".join(f"{e['what']} {e['why']}" for e in self.raw["excluded"]).lower()
        if warm and "warm-up" not in listed and "warmup" not in listed:
            rounds = sorted({s["round"] for s in warm})
            out.append(
                Exclusion(
                    f"{len(warm)} warm-up sample(s) (round(s) {', '.join(map(str, rounds))})",
                    "warm-up rounds are run and discarded: they are in no summary, ratio or test",
                    derived=True,
                )
            )
        failed = self.failed_samples
        if failed:
            if "exit" not in listed and "failed" not in listed:
                which = ", ".join(f"{s['variant']} round {s['round']} (exit {s['exit_code']})" for s in failed[:5])
                out.append(Exclusion(f"{len(failed)} failed sample(s): {which}", "a failed sample has no figures", derived=True))
        return out

    def fallbacks(self) -> list[Fallback]:
        """Every metric of this scenario whose figure came from rusage where a cgroup was wanted."""
        found: dict[tuple[str, str], set[str]] = {}
        for s in self.samples:
            for name, m in s["metrics"].items():
                src = m.get("source", "")
                if name in RUSAGE_NATIVE or not src.startswith("rusage"):
                    continue
                found.setdefault((name, src), set()).add(s["variant"])
        for variant, metrics in self.raw["summaries"].items():
            for name, summ in metrics.items():
                src = summ.get("source") or ""
                if name not in RUSAGE_NATIVE and src.startswith("rusage"):
                    found.setdefault((name, src), set()).add(variant)
        out = []
        for (name, src), variants in sorted(found.items()):
            ordered = [v for v in self.variants if v in variants]
            mixed = sorted(self.metric_info[name].sources - {src}) if name in self.metric_info else []
            why = f"other samples used {', '.join(mixed)}" if mixed else ""
            out.append(Fallback(self.name, name, src, ordered, why))
        return out

    def mixed_sources(self) -> dict[str, list[str]]:
        return {m: sorted(i.sources) for m, i in self.metric_info.items() if len(i.sources) > 1}

    # ------------------------------------------------------------------ reproduce
    def reproduce(self) -> tuple[str, str]:
        """The command that re-runs exactly this scenario, and where it came from."""
        own = self.raw.get("reproduce")
        if isinstance(own, str) and own.strip():
            return own, "scenarios[].reproduce"
        cmd = self.run.raw["run"]["reproduce"]
        others = [s["name"] for s in self.run.raw["scenarios"] if s["name"] != self.name]
        if not others:
            return cmd, "run.reproduce"
        try:
            tokens = shlex.split(cmd)
        except ValueError:
            return cmd, "run.reproduce (could not narrow it: not a plain shell command)"
        names = set(others) | {self.name}
        if not any(t in names for t in tokens):
            return f"{cmd} {shlex.quote(self.name)}", "run.reproduce, with this scenario's name appended"
        kept: list[str] = []
        for t in tokens:
            if t in others:
                # `--scenario other`: drop the flag too when it is a flag that took this name
                if kept and kept[-1].startswith("-") and "=" not in kept[-1] and self._flag_takes_names(tokens, kept[-1], names):
                    kept.pop()
                continue
            kept.append(t)
        return shlex.join(kept), "run.reproduce, narrowed to this scenario"

    @staticmethod
    def _flag_takes_names(tokens: list[str], flag: str, names: set[str]) -> bool:
        follows = [tokens[i + 1] for i, t in enumerate(tokens[:-1]) if t == flag]
        return bool(follows) and all(f in names for f in follows)


class RunView:
    def __init__(self, raw: dict, path: str = "results.json"):
        self.raw = raw
        self.path = path
        self.run: dict = raw["run"]
        self.host: dict = raw["host"]
        self.outcome: dict = raw["outcome"]
        self.scenarios = [ScenarioView(s, i + 1, self) for i, s in enumerate(raw["scenarios"])]

    @property
    def options(self) -> dict:
        return self.run.get("options") or {}

    @property
    def noise_band(self) -> float:
        n = self.options.get("noise")
        return float(n) if isinstance(n, (int, float)) else 0.02

    def host_fallbacks(self) -> list[Fallback]:
        cg = self.host["cgroup"]
        out = []
        if str(cg.get("cpu_source", "")).startswith("rusage"):
            out.append(Fallback("host", "cpu_ms, user_ms, sys_ms", cg["cpu_source"], [], cg.get("note", "")))
        if str(cg.get("memory_source", "")).startswith("rusage"):
            out.append(Fallback("host", "peak_rss_kib", cg["memory_source"], [], cg.get("note", "")))
        return out

    def rounds_range(self) -> tuple[int, int] | None:
        rounds = [s.stop["rounds"] for s in self.scenarios]
        return (min(rounds), max(rounds)) if rounds else None

    def busy(self, load: Any) -> bool:
        """A 1-minute load average of half the cores or more: other work shared the machine."""
        cores = self.host.get("cores") or 1
        return isinstance(load, list) and len(load) >= 1 and load[0] >= 0.5 * cores
