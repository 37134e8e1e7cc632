"""The report's section for a parity scenario (service.parity, docs/scenario-contract.md):
the agreement pass, statements per route, and each variant's measures beside each other."""
from __future__ import annotations

from . import fmt


def _n(v, unit: str = "") -> str:
    return "—" if v is None else fmt.num(v) + unit


def _agreement(ag: dict) -> list[str]:
    lines = [f"{ag.get('requests', 0)} requests sent to both variants (and again to each, for the noise): "
             f"{ag.get('agreeing', 0)} agree, {ag.get('dropped', 0)} disagree; "
             f"{ag.get('leaves_compared_agreeing', 0)} fields compared.", ""]
    noise = list((ag.get("noise_fields") or {}).keys())
    if noise:
        lines += ["Noise (differs within one server as often as between the two): "
                  + ", ".join(f"`{f}`" for f in noise) + ".", ""]
    return lines


def _statements(per_route: dict) -> list[str]:
    if not per_route:
        return []
    lines = ["| route | requests | statements/request before (max) | after (max) |", "|---|---:|---:|---:|"]
    for route, s in sorted(per_route.items()):
        def side(v):
            return "—" if not s.get(v) else f"{fmt.num(s[v]['mean'])} ({s[v]['max']})"
        lines.append(f"| `{route}` | {s.get('requests', 0)} | {side('before')} | {side('after')} |")
    return lines + [""]


def _measures(m: dict) -> list[str]:
    names = [v for v in ("before", "after") if v in m]
    if not names:
        return []
    rows = [
        ("CPU per request (µs, rounds' median)", lambda s: _n(s.get("cpu_us_per_request"))),
        ("plateau req/s (concurrency)",
         lambda s: f"{_n(s['plateau']['rps'])} ({s['plateau']['concurrency']})" if s.get("plateau") else "—"),
        ("cores ÷ CPU per request (plateau share)",
         lambda s: (f"{_n(s['arithmetic']['predicted_rps'])} ({fmt.num(s['arithmetic']['plateau_share_of_predicted'])})"
                    if s.get("arithmetic") else "—")),
        ("offered → achieved req/s: p50/p90/p99 ms",
         lambda s: "<br>".join(f"{_n(o['offered_rps'])} → {_n(o['achieved_rps'])}: {_n(o['p50_ms'])}/{_n(o['p90_ms'])}/"
                               f"{_n(o['p99_ms'])}" for o in s.get("offered", [])) or "—"),
        ("RSS idle / peak KiB (a page once per mapping)",
         lambda s: f"{_n(s.get('rss_idle_kib'))} / {_n(s.get('rss_peak_kib'))}"),
        ("PSS at the end KiB (a page once) / cgroup memory peak KiB",
         lambda s: f"{_n(s.get('pss_kib'))} / {_n(s.get('cgroup_memory_peak_kib'))}"),
        ("cold start to first answer (ms)", lambda s: _n(s.get("cold_start_ms"))),
        ("bytes per response", lambda s: _n(s.get("bytes_per_response"))),
    ]
    lines = ["| measure | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for label, get in rows:
        lines.append(f"| {label} | " + " | ".join(get(m[v]) for v in names) + " |")
    return lines + [""]


def section(raw: dict) -> list[str]:
    p = raw.get("parity")
    if not isinstance(p, dict):
        return []
    lines = ["### Parity: agreement, statements, capacity", ""]
    lines += _agreement(p)
    lines += _statements(p.get("statements") or {})
    lines += _measures(p.get("measures") or {})
    return lines
