"""Small statistics over raw samples, as plain functions.

Conventions follow the C++ side (harness/src/stats): percentiles are Hyndman & Fan type 7
(numpy's default), MAD is the raw median absolute deviation (no 1.4826 factor), and the
Mann-Whitney U test is two-sided, exact without ties up to 50 observations a group, else the
normal approximation with tie correction and a 0.5 continuity correction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

EXACT_MAX_N = 50


def percentile(values: Sequence[float], p: float) -> float:
    """Type-7 percentile, p in [0, 100]."""
    if len(values) == 0:
        raise ValueError("percentile of an empty sample")
    return float(np.percentile(np.asarray(values, dtype=float), p))


def median(values: Sequence[float]) -> float:
    return percentile(values, 50.0)


def mad(values: Sequence[float]) -> float:
    """Raw median absolute deviation from the median."""
    m = median(values)
    return median([abs(v - m) for v in values])


def relative_spread(values: Sequence[float]) -> float | None:
    """MAD / |median|, or None when the median is 0 or there are fewer than 2 values."""
    if len(values) < 2:
        return None
    m = median(values)
    if m == 0:
        return None
    return mad(values) / abs(m)


def median_ci(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Distribution-free interval for the median from order statistics.

    Returns (lo, hi, achieved coverage). The interval is [x_(k), x_(n-k+1)] with the largest k
    whose coverage P(k <= B < n-k+1), B ~ Binomial(n, 1/2), is at least `confidence`. When even
    [min, max] covers less (n < 6 for 95%), returns [min, max] with its smaller coverage.
    """
    xs = sorted(float(v) for v in values)
    n = len(xs)
    if n == 0:
        raise ValueError("interval of an empty sample")
    if n == 1:
        return xs[0], xs[0], 0.0

    def coverage(k: int) -> float:  # P(k <= B <= n-k), 1-based order statistics k and n-k+1
        return sum(math.comb(n, i) for i in range(k, n - k + 1)) / 2.0**n

    best = 1
    for k in range(1, n // 2 + 1):
        if coverage(k) >= confidence:
            best = k
        else:
            break
    return xs[best - 1], xs[n - best], coverage(best)


@dataclass(frozen=True)
class TestResult:
    statistic: float
    p_value: float
    method: str  # "exact" or "normal"


def _midranks(pooled: Sequence[float]) -> tuple[list[float], list[int]]:
    order = sorted(range(len(pooled)), key=lambda i: pooled[i])
    ranks = [0.0] * len(pooled)
    ties: list[int] = []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and pooled[order[j + 1]] == pooled[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2.0 + 1.0
        if j > i:
            ties.append(j - i + 1)
        i = j + 1
    return ranks, ties


def _u_distribution(n1: int, n2: int) -> list[int]:
    """counts[u] = number of orderings of n1 x's and n2 y's with U_x = u (no ties)."""
    # f[i][j] is the distribution for i x's and j y's; recurrence on the largest element.
    prev_row = [[1] for _ in range(n2 + 1)]  # i = 0: U = 0 in exactly one way
    for i in range(1, n1 + 1):
        row = [[1]]  # j = 0
        for j in range(1, n2 + 1):
            # largest is an x (beats all j y's: +j) or a y (+0)
            a = prev_row[j]
            b = row[j - 1]
            size = max(len(a) + j, len(b))
            out = [0] * size
            for u, c in enumerate(a):
                out[u + j] += c
            for u, c in enumerate(b):
                out[u] += c
            row.append(out)
        prev_row = row
    return prev_row[n2]


def mann_whitney_u(x: Sequence[float], y: Sequence[float]) -> TestResult:
    """Two-sided Mann-Whitney U test; statistic is U of x (#x>y + 0.5 #x==y)."""
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        raise ValueError("Mann-Whitney U needs two non-empty groups")
    pooled = [float(v) for v in x] + [float(v) for v in y]
    if not all(math.isfinite(v) for v in pooled):
        raise ValueError("Mann-Whitney U of a non-finite value")
    ranks, ties = _midranks(pooled)
    r1 = sum(ranks[:n1])
    u = r1 - n1 * (n1 + 1) / 2.0
    if not ties and n1 <= EXACT_MAX_N and n2 <= EXACT_MAX_N:
        counts = _u_distribution(n1, n2)
        total = math.comb(n1 + n2, n1)
        ui = int(round(u))
        le = sum(counts[: ui + 1])
        ge = sum(counts[ui:])
        p = min(1.0, 2.0 * min(le, ge) / total)
        return TestResult(u, p, "exact")
    n = n1 + n2
    mean = n1 * n2 / 2.0
    tie_term = sum(t**3 - t for t in ties)
    var = n1 * n2 / 12.0 * ((n + 1) - tie_term / (n * (n - 1)))
    if var <= 0:
        return TestResult(u, 1.0, "normal")
    z = max(0.0, abs(u - mean) - 0.5) / math.sqrt(var)
    p = min(1.0, math.erfc(z / math.sqrt(2.0)))
    return TestResult(u, p, "normal")


def bootstrap_ratio_of_medians(
    a: Sequence[float],
    b: Sequence[float],
    *,
    seed: int = 1,
    resamples: int = 10_000,
    confidence: float = 0.95,
) -> tuple[float, float]:
    """Percentile bootstrap interval for median(b) / median(a).

    Each group is resampled on its own (the two runs are independent), with numpy's PCG64
    seeded with `seed`: same inputs and seed, same interval. A resample whose median of a is 0
    gives +-inf (or nan for 0/0, dropped).
    """
    av = np.asarray(a, dtype=float)
    bv = np.asarray(b, dtype=float)
    if av.size == 0 or bv.size == 0:
        raise ValueError("bootstrap of an empty group")
    rng = np.random.default_rng(seed)
    ma = np.median(av[rng.integers(0, av.size, size=(resamples, av.size))], axis=1)
    mb = np.median(bv[rng.integers(0, bv.size, size=(resamples, bv.size))], axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = mb / ma
    ratios = ratios[~np.isnan(ratios)]
    if ratios.size == 0:
        return math.nan, math.nan
    tail = (1.0 - confidence) / 2.0 * 100.0
    lo, hi = np.percentile(ratios, [tail, 100.0 - tail])
    return float(lo), float(hi)
