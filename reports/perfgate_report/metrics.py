"""What perfgate knows of a metric by its name and unit: the harness's own metrics in table
order, which are CPU times, which come from rusage natively, percentiles and rates."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Harness-measured metrics, in the order the tables list them after the program's own.
HARNESS_ORDER = [
    "wall_ms",
    "cpu_ms",
    "user_ms",
    "sys_ms",
    "peak_rss_kib",
    "maxrss_kib",
    "syscalls",
    "syscr",
    "syscw",
    "rchar_kib",
    "wchar_kib",
    "ctx_voluntary",
    "ctx_involuntary",
]
# rusage is these metrics' own source, not a fallback.
RUSAGE_NATIVE = {"ctx_voluntary", "ctx_involuntary", "maxrss_kib"}
CPU_METRICS = {"cpu_ms", "user_ms", "sys_ms"}
PERCENTILE_RE = re.compile(r"^(?P<family>.*?)_?p(?P<pct>\d{2}(?:\.\d+)?|100)(?:_(?P<unit>ms|us|s|ns))?$")
TIME_UNITS = {"ms", "us", "µs", "s", "ns"}


def is_rate_metric(name: str, unit: str | None) -> bool:
    return name == "rps" or name.endswith("_rps") or name.startswith("rps_") or (unit or "") in ("req/s", "rps", "1/s")


def percentile_of(name: str) -> tuple[str, float] | None:
    """`latency_p99_ms` -> ("latency", 99.0); `ms_per_page_p50` -> ("ms_per_page", 50.0)."""
    m = PERCENTILE_RE.match(name)
    if not m or not m.group("family"):
        return None
    return m.group("family"), float(m.group("pct"))


@dataclass
class MetricInfo:
    name: str
    unit: str = ""
    better: str = "lower"
    sources: set[str] = field(default_factory=set)
