"""The small statistics behind the comparison of two runs, against published / reference values."""

from __future__ import annotations

import itertools
import math

import pytest

from perfgate_report import stats

# Reference p-values: SciPy 1.10 mannwhitneyu(x, y, alternative="two-sided", use_continuity=True),
# method "exact" without ties and n <= 50 a group, "asymptotic" otherwise -- the same rule as
# perfgate's C++ rank tests (harness/src/stats/rank_tests.hpp).
REFERENCE = [
    ("exact_small", [1.1, 2.3, 3.2, 4.8, 5.0], [6.1, 7.4, 8.2, 9.9], "exact", 0.0, 0.015873015873015872),
    ("exact_overlap", [19.1, 21.4, 20.2, 22.8, 18.7, 20.9], [20.5, 23.3, 22.1, 24.0, 21.9, 23.7], "exact", 5.0,
     0.04112554112554113),
    ("ties_normal", [1, 2, 2, 3, 3, 3, 4], [3, 4, 4, 5, 5, 6], "normal", 3.5, 0.012999854364387305),
    ("large_normal", [float(i % 17) + i * 0.01 for i in range(60)], [float(i % 13) + 2 + i * 0.013 for i in range(55)],
     "normal", 1553.5, 0.5909237552510148),
]


@pytest.mark.parametrize("name,x,y,method,u,p", REFERENCE, ids=[r[0] for r in REFERENCE])
def test_mann_whitney_matches_reference(name, x, y, method, u, p):
    r = stats.mann_whitney_u(x, y)
    assert r.method == method
    assert r.statistic == pytest.approx(u)
    assert r.p_value == pytest.approx(p, rel=1e-9)


def test_mann_whitney_is_symmetric():
    x, y = REFERENCE[1][1], REFERENCE[1][2]
    assert stats.mann_whitney_u(x, y).p_value == pytest.approx(stats.mann_whitney_u(y, x).p_value)


@pytest.mark.parametrize("n1,n2", [(1, 1), (2, 3), (4, 4), (5, 3)])
def test_exact_distribution_equals_enumeration(n1, n2):
    """The recurrence counts every ordering: compare with brute force over all C(n1+n2, n1)."""
    counts = stats._u_distribution(n1, n2)
    brute = [0] * (n1 * n2 + 1)
    n = n1 + n2
    for xs in itertools.combinations(range(n), n1):
        ys = [i for i in range(n) if i not in xs]
        brute[sum(1 for a in xs for b in ys if a > b)] += 1
    assert counts[: len(brute)] == brute
    assert sum(counts) == math.comb(n, n1)


def test_mann_whitney_rejects_empty_and_non_finite():
    with pytest.raises(ValueError):
        stats.mann_whitney_u([], [1.0])
    with pytest.raises(ValueError):
        stats.mann_whitney_u([1.0, math.nan], [2.0])


def test_all_tied_is_not_significant():
    assert stats.mann_whitney_u([3.0] * 5, [3.0] * 5).p_value == 1.0


def test_median_ci_order_statistics():
    # n = 5: only [min, max] is possible, covering 1 - 2/32 = 93.75%
    assert stats.median_ci([5, 1, 4, 2, 3]) == (1.0, 5.0, pytest.approx(0.9375))
    # n = 20: the 6th and 15th values cover 95.86% (the textbook pair)
    lo, hi, cov = stats.median_ci(list(range(1, 21)))
    assert (lo, hi) == (6.0, 15.0)
    assert cov == pytest.approx(0.9586105346679688)


def test_percentile_is_type_7():
    assert stats.percentile([1, 2, 3, 4], 50) == 2.5
    assert stats.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90) == pytest.approx(9.1)


def test_mad_is_raw():
    assert stats.mad([1, 2, 3, 4, 100]) == 1.0


def test_bootstrap_ratio_is_seeded_and_covers_the_ratio():
    a = [100.0, 101.0, 99.0, 100.5, 99.5, 100.2, 99.8]
    b = [50.0, 50.4, 49.7, 50.2, 49.9, 50.1, 49.8]
    one = stats.bootstrap_ratio_of_medians(a, b, seed=7)
    assert one == stats.bootstrap_ratio_of_medians(a, b, seed=7)
    assert one[0] < 0.5 < one[1]
    assert one[1] - one[0] < 0.02
