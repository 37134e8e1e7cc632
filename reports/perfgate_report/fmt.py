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
    if p is None:
        return "—"
    if p < 0.0001:
        return "<0.0001"
    if p < 0.001:
        return f"{p:.4f}"
    return f"{p:.3f}"


def percent(x: float | None, digits: int = 1) -> str:
    if x is None:
        return "—"
    return f"{x * 100:.{digits}f}%"


def cell(text: str) -> str:
    """Makes a string safe inside a markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")
