"""The report's per-phase table for a service with a phased load client (`service.load_client`,
docs/scenario-contract.md "Phased load clients"): for each phase — the harness's `startup`
first — and each variant, the server's CPU and memory sampled between phases, and the phase's
own figures (SELECT p50/p95, the burst's largest SELECT ...), medians over the measured rounds."""
from __future__ import annotations

from . import fmt

# Figures the harness adds to every phase; everything else under `<phase>_` is the client's.
SERVER = ("server_cpu_ms", "server_user_ms", "server_sys_ms", "server_rss_mean_mib", "server_rss_peak_mib",
          "server_mem_mean_mib", "server_mem_peak_mib", "wall_ms", "client_cpu_ms")


def _med(sc, variant: str, metric: str, unit: str = "") -> str:
    v = sc.median(variant, metric)
    return "—" if v is None else fmt.num(v) + unit


def _own_figures(sc, variant: str, phase: str) -> str:
    prefix = phase + "_"
    names = sorted(m for m in sc.metrics() if m.startswith(prefix) and m[len(prefix):] not in SERVER)
    shown = [f"{m[len(prefix):]} {_med(sc, variant, m, ' ' + sc.unit(m))}" for m in names
             if sc.median(variant, m) is not None]
    return "; ".join(shown) or "—"


def section(sc) -> list[str]:
    phases = sc.raw.get("phases") or []
    if not phases:
        return []
    variants = [v for v in sc.variants if any(sc.values(v, p + "_server_cpu_ms") for p in phases)]
    if not variants:
        return []
    sampling = next((x["server_sampling"] for x in (sc.raw.get("extra") or {}).values()
                     if isinstance(x, dict) and x.get("server_sampling")), None)
    lines = ["### Per phase", "",
             "Each sample is one server start and every phase in order; the server's cgroup is read between "
             "phases, so no phase's figures include another's (seeding and loading are `startup`). "
             "Medians over the measured rounds.", "",
             "| phase | variant | server CPU | RSS mean / peak | cgroup memory mean / peak | the phase's own figures |",
             "|---|---|---:|---:|---:|---|"]
    for phase in phases:
        for v in variants:
            rss = f"{_med(sc, v, phase + '_server_rss_mean_mib')} / {_med(sc, v, phase + '_server_rss_peak_mib')} MiB"
            mem = f"{_med(sc, v, phase + '_server_mem_mean_mib')} / {_med(sc, v, phase + '_server_mem_peak_mib')} MiB"
            own = _own_figures(sc, v, phase)
            if phase == "startup":
                own = f"listening after {_med(sc, v, 'startup_ms', ' ms')}"
            lines.append(f"| {phase} | {v} | {_med(sc, v, phase + '_server_cpu_ms', ' ms')} | {rss} | {mem} | "
                         f"{fmt.cell(own)} |")
    lines.append("")
    if sampling:
        lines += [f"Sources: CPU `{sampling.get('cpu')}`; RSS {sampling.get('rss')}; cgroup memory "
                  f"`{sampling.get('memory')}`; polled every {sampling.get('interval_ms')} ms and at each phase's ends.",
                  ""]
    return lines
