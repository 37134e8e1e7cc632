"""Number and ratio formatting shared by every markdown writer."""

from __future__ import annotations

import math

MINUS = "\u2212"


COUNT_UNITS = {"", "count", "calls", "rows", "requests", "fetches", "bytes", "B", "KiB", "pages", "statements"}


def num(value: float | int | None, unit: str | None = None) -> str:
    """About three significant figures, thousands separated: 26.6, 1.30, 2,717, 0.000612.
    Whole numbers print without decimals when they are counts (unit None or a count unit) or
    at least 100; so 16 fetches stay 16 while a ratio of 1 prints 1.00."""
    if value is None:
        return "—"
    v = float(value)
    if math.isnan(v):
        return "—"
    if math.isinf(v):
        return "∞" if v > 0 else f"{MINUS}∞"
    sign = MINUS if v < 0 else ""
    a = abs(v)
    if a.is_integer() and a < 1e15 and (unit is None or unit in COUNT_UNITS or a >= 100):
        return f"{sign}{int(a):,}"
    if a >= 1000:
        text = f"{a:,.0f}"
    elif a >= 100:
        text = f"{a:.0f}"
    elif a >= 10:
        text = f"{a:.1f}"
    elif a >= 1:
        text = f"{a:.2f}"
    else:
        text = f"{a:#.3g}"
        if "e" in text:
            text = f"{a:.2e}"
    return sign + text


TIME_UNITS = ["ns", "µs", "ms", "s"]
BINARY_UNITS = ["B", "KiB", "MiB", "GiB", "TiB"]
SI_PREFIXES = ["", "k", "M", "G"]
PLAIN_UNITS = {"", "count", "ratio", "1"}


def _decimals(a: float) -> int | None:
    """Decimals for about three significant figures; None below 1 (then `#.3g`)."""
    r = float(f"{a:.3g}")
    return 0 if r >= 100 else 1 if r >= 10 else 2 if r >= 1 else None


def _displayed(a: float) -> float:
    d = _decimals(a)
    return a if d is None else float(f"{a:.{d}f}")


def _magnitude(a: float, whole: bool) -> str:
    if a == 0:
        return "0"
    if whole and a.is_integer() and a < 1e15:
        return f"{int(a):,}"
    d = _decimals(a)
    if d is not None:
        return f"{a:,.{d}f}"
    text = f"{a:#.3g}"
    return f"{a:.2e}" if "e" in text else text


def _scale(unit: str) -> tuple[list[str], float, int] | None:
    """The units a figure steps through, the step, and where `unit` sits among them."""
    if unit in ("ns", "us", "µs", "ms", "s"):
        return TIME_UNITS, 1000.0, {"ns": 0, "us": 1, "µs": 1, "ms": 2, "s": 3}[unit]
    rate = len(unit) > 2 and unit.endswith("/s")
    stem = unit[:-2] if rate else unit
    if stem == "bytes":
        stem = "B"
    if stem in BINARY_UNITS:
        return [u + "/s" if rate else u for u in BINARY_UNITS], 1024.0, BINARY_UNITS.index(stem)
    if rate or unit == "rps":
        return SI_PREFIXES, 1000.0, 0
    return None


def quantity(value: float | int | None, unit: str | None) -> str:
    """A measured figure with its unit, as people read it: time scaled to ns/µs/ms/s, bytes to
    B/KiB/MiB/GiB, rates per second (bytes/s binary, other rates with k/M/G), about three
    significant figures, thousands separated: 19.8 ms, 2.77 MiB, 566,112,320, 39.8k req/s.
    The twin of C++ common/number_format.cpp `format_quantity`; both are tested against
    tests/data/number_format.tsv."""
    if value is None:
        return "—"
    v = float(value)
    unit = unit or ""
    if math.isnan(v):
        return "—"
    sign = MINUS if v < 0 else ""
    if math.isinf(v):
        return sign + "∞"
    a = abs(v)
    if unit == "%":
        return sign + _magnitude(a, False) + "%"
    scale = _scale(unit)
    if scale is None:
        return sign + _magnitude(a, True) + ("" if unit in PLAIN_UNITS else f" {unit}")
    if a == 0:
        return f"0 {unit}"
    names, base, i = scale
    while i > 0 and a < 1:
        a *= base
        i -= 1
    while i + 1 < len(names) and _displayed(a) >= base:
        a /= base
        i += 1
    si = names[0] == ""
    number = sign + _magnitude(a, not si and base == 1024 and i == 0)
    if si:
        return number + names[i] + ("/s" if unit in ("1/s", "/s") else f" {unit}")
    return f"{number} {names[i]}"


def _number_and_unit(text: str) -> tuple[str, str]:
    number, _, unit = text.partition(" ")
    return number, unit


def arrow(before: float | None, after: float | None, unit: str | None) -> str:
    """`34.6 → 9.15 ms`: the unit said once when both figures scale alike, else each with its own
    (`999 µs → 1.20 ms`)."""
    b, a = quantity(before, unit), quantity(after, unit)
    bn, bu = _number_and_unit(b)
    if bu and bu == _number_and_unit(a)[1]:
        return f"{bn} → {a}"
    return f"{b} → {a}"


def with_interval(value: float | None, lo: float | None, hi: float | None, unit: str | None) -> str:
    """`34.6 ms [34.0, 35.7]`: the interval's ends in the value's own unit where they scale alike."""
    text = quantity(value, unit)
    if lo is None and hi is None:
        return text
    unit_text = _number_and_unit(text)[1]
    ends = []
    for x in (lo, hi):
        n, u = _number_and_unit(quantity(x, unit))
        ends.append(n if u == unit_text else quantity(x, unit))
    return f"{text} [{ends[0]}, {ends[1]}]"


def change(ratio: float | None) -> str:
    """The change of a figure nothing gates, without saying whether it is good: +29%, −89%."""
    if ratio is None or math.isnan(ratio):
        return "—"
    pct = (ratio - 1.0) * 100.0
    if abs(pct) < 0.05:
        return "±0%"
    digits = 0 if abs(pct) >= 10 else 1
    return ("+" if pct > 0 else MINUS) + f"{abs(pct):.{digits}f}%"


def with_unit(text: str, unit: str | None) -> str:
    if not unit or unit in ("count", "1", ""):
        return text
    if unit == "%":
        return text + "%"
    return f"{text} {unit}"


def factor(ratio: float | None, better: str) -> str:
    """The change AFTER/BEFORE as a reader of the write-ups expects it.

    An improvement of 1.5x or more is written as a factor in the better direction (19.5x: 19.5
    times less time, or 19.5 times the throughput). Anything else is the change of the metric
    itself in percent (+42% RPS, -11% RPS, +200% ms), so a regression never reads like a win.
    """
    if ratio is None or (isinstance(ratio, float) and math.isnan(ratio)):
        return "—"
    if ratio < 0:
        return f"×{num(ratio)}"
    improvement = (1.0 / ratio if ratio > 0 else math.inf) if better == "lower" else ratio
    if improvement >= 1.5:
        if math.isinf(improvement):
            return "∞x"
        return f"{improvement:.0f}x" if improvement >= 100 else f"{improvement:.1f}x"
    pct = (ratio - 1.0) * 100.0
    if abs(pct) < 0.05:
        return "±0%"
    digits = 0 if abs(pct) >= 10 else 1
    text = f"{abs(pct):.{digits}f}%"
    return ("+" if pct > 0 else MINUS) + text


def ratio_text(ratio: float | None) -> str:
    if ratio is None:
        return "—"
    r = float(ratio)
    if math.isnan(r):
        return "—"
    if math.isinf(r):
        return "∞"
    if r == 0:
        return "0"
    if abs(r) >= 100:
        return f"{r:.0f}"
    if abs(r) >= 0.1:
        return f"{r:.3f}"
    return f"{r:.3g}"


def interval(lo: float | None, hi: float | None, fn=num) -> str:
    """`[lo, hi]`; an end the harness could not compute (null) prints as —; nothing when neither."""
    if lo is None and hi is None:
        return ""
    return f"[{'—' if lo is None else fn(lo)}, {'—' if hi is None else fn(hi)}]"


def p_value(p: float | None) -> str:
    """Three decimals, scientific below 0.001: the twin of C++ common/number_format.cpp
    `format_p_value` (tests/data/number_format.tsv, unit "p-value"), so the report prints the
    p-values `perfgate compare` and the gates print."""
    if p is None or math.isnan(p):
        return "—"
    if p < 1e-15:
        return "<1e-15"
    return f"{p:.1e}" if p < 0.001 else f"{p:.3f}"


def percent(x: float | None, digits: int = 1) -> str:
    if x is None:
        return "—"
    return f"{x * 100:.{digits}f}%"


def cell(text: str) -> str:
    """Makes a string safe inside a markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")
