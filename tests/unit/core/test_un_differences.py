"""Paired-difference intervals and tests against hand formulas (Tango by brentq, Wald), level validation."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import optimize, special

from stats_mtbias.errors import UsageError
from stats_mtbias.significance.mcnemar import paired_difference_test
from stats_mtbias.uncertainty.differences import paired_difference_interval, pvalue_from_interval


def _tango_hand(b, c, n, delta):
    """Tango's (1998) score statistic written out: restricted MLE of π01 from 2n π² + B π + C = 0."""
    big_b = -b - c + (2 * n - b + c) * delta
    big_c = -c * delta * (1 - delta)
    pi01 = (-big_b + np.sqrt(big_b**2 - 8 * n * big_c)) / (4 * n)
    return (b - c - n * delta) / np.sqrt(n * (2 * pi01 + delta * (1 - delta)))


TANGO_TABLES = [(5, 13, 0, 13), (0, 0, 1, 1), (5, 0, 13, 5), (0.1, 0.3, 0.2, 0.4), (0.5, 0.05, 0.1, 0.1), (0, 0.05, 0.01, 0.1)]


@pytest.mark.parametrize("table", TANGO_TABLES)
def test_tango_limits_solve_the_score_equation(table):
    """Tango limits are the roots of T(Δ) = ±z of a hand-written statistic (brentq), also at B² − 8nC < 1 and weighted counts."""
    a, b, c, d = table
    n = a + b + c + d
    z = special.ndtri(0.975)
    est = (b - c) / n
    low = -1.0 if est == -1 else optimize.brentq(lambda x: _tango_hand(b, c, n, x) - z, -1 + 1e-12, est, xtol=1e-15)
    high = optimize.brentq(lambda x: _tango_hand(b, c, n, x) + z, est, 1 - 1e-12, xtol=1e-15)
    ci = paired_difference_interval(a, b, c, d, method="tango")
    assert_allclose([ci.low, ci.high], [low, high], atol=1e-9)


def test_tango_pvalue_is_one_without_discordant_pairs():
    """n10 = n01 = 0: T(0) = 0, so every Tango interval holds 0 and the p-value by inversion is exactly 1."""
    p = pvalue_from_interval(paired_difference_interval, [30, 0, 4], [0, 0, 0], [0, 0, 0], [30, 1, 9], method="tango")
    assert_allclose(p, 1.0, rtol=0, atol=1e-13)


def test_wald_pvalue_from_interval_matches_the_wald_test_silently():
    """Inverting the Wald interval of 59/6/16/80 gives 2Φ(−|Δ/se|) by hand, with no warning of any kind."""
    b, c, n = 6.0, 16.0, 161.0
    se = np.sqrt(b + c - (b - c) ** 2 / n) / n
    expected = 2 * special.ndtr(-abs((b - c) / n) / se)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = pvalue_from_interval(paired_difference_interval, 59, 6, 16, 80, method="wald")
    assert_allclose(p, expected, rtol=1e-9)


def test_wald_statistic_is_minus_infinity_when_all_discordant_pairs_favour_the_second():
    """n01 = n with no spread (se = 0): the Wald z = Δ/se is −inf (Δ = −1 < 0), p = 0."""
    r = paired_difference_test(0, 0, 5, 0, method="wald")
    assert r.statistic == -np.inf and r.pvalue == 0.0


@pytest.mark.parametrize("level", [0.0, "high"])
def test_level_zero_or_not_a_number_is_a_usage_error(level):
    """level = 0 (outside the open interval) and a non-numeric level both raise UsageError."""
    with pytest.raises(UsageError):
        paired_difference_interval(59, 6, 16, 80, level=level)


def test_interval_names_its_method():
    """The returned EffectSize names the method it used (here Tango's score interval)."""
    assert "Tango" in paired_difference_interval(59, 6, 16, 80, method="tango").method


def test_non_numeric_count_is_a_usage_error():
    """A count that is not a number ("x") raises UsageError (a ValueError), not a numpy TypeError."""
    with pytest.raises(UsageError):
        paired_difference_interval("x", 6, 16, 80)


def test_array_results_are_writeable_copies():
    """Array estimates, limits and p-values are the caller's own writeable arrays (not read-only broadcast views)."""
    ci = paired_difference_interval([59, 10], [6, 3], [16, 1], [80, 5], method="tango")
    p = pvalue_from_interval(paired_difference_interval, [59, 10], [6, 3], [16, 1], [80, 5], method="wald")
    for arr in (ci.estimate, ci.low, ci.high, p):
        arr[0] = 0.5
        assert arr[0] == 0.5
