"""Intervals for differences of proportions against hand formulas, statsmodels and invariants (mutation kills)."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import optimize, special
from statsmodels.stats.proportion import proportion_confint

from stats_mtbias.errors import UsageError
from stats_mtbias.significance.mcnemar import difference_test, paired_difference_test
from stats_mtbias.uncertainty import differences as D
from stats_mtbias.uncertainty.differences import paired_difference_interval, pvalue_from_interval


def _wilson_sm(k, n, level):
    """Wilson limits from statsmodels (an independent implementation)."""
    low, high = proportion_confint(k, n, alpha=1 - level, method="wilson")
    return float(low), float(high)


def _newcombe_paired_hand(a, b, c, d, level=0.95):
    """Newcombe (1998b) method 10 written out by hand, with statsmodels' Wilson limits."""
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = _wilson_sm(a + b, n, level)
    l2, u2 = _wilson_sm(a + c, n, level)
    big_a = a * d - b * c
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    if margins == 0:
        phi = 0.0
    elif big_a > n / 2:
        phi = (big_a - n / 2) / np.sqrt(margins)
    elif big_a >= 0:
        phi = 0.0
    else:
        phi = big_a / np.sqrt(margins)
    dl1, du1, dl2, du2 = p1 - l1, u1 - p1, p2 - l2, u2 - p2
    low = p1 - p2 - np.sqrt(max(dl1**2 - 2 * phi * dl1 * du2 + du2**2, 0.0))
    high = p1 - p2 + np.sqrt(max(du1**2 - 2 * phi * du1 * dl2 + dl2**2, 0.0))
    return max(low, -1.0), min(high, 1.0)


def _newcombe_independent_hand(x1, n1, x2, n2, z):
    """Newcombe (1998a) method 10 at critical value z, Wilson limits written out by hand."""

    def wilson(k, n):
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return centre - half, centre + half

    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1)
    l2, u2 = wilson(x2, n2)
    return p1 - p2 - np.hypot(p1 - l1, u2 - p2), p1 - p2 + np.hypot(u1 - p1, p2 - l2)


def _mn_reference(x1, n1, x2, n2, level):
    """Miettinen–Nurminen limits: restricted MLE by root-finding the likelihood score, limits by brentq."""
    p1, p2, z = x1 / n1, x2 / n2, -special.ndtri((1 - level) / 2)

    def restricted_p2(delta):
        def score(q):
            return x1 / (q + delta) - (n1 - x1) / (1 - q - delta) + x2 / q - (n2 - x2) / (1 - q)

        lo, hi = max(0.0, -delta) + 1e-13, min(1.0, 1.0 - delta) - 1e-13
        return optimize.brentq(score, lo, hi, xtol=1e-15)

    def t(delta):
        q2 = restricted_p2(delta)
        q1 = q2 + delta
        var = (q1 * (1 - q1) / n1 + q2 * (1 - q2) / n2) * (n1 + n2) / (n1 + n2 - 1)
        return (p1 - p2 - delta) / np.sqrt(var)

    est = p1 - p2
    low = optimize.brentq(lambda x: t(x) - z, -1 + 1e-9, est, xtol=1e-13)
    high = optimize.brentq(lambda x: t(x) + z, est, 1 - 1e-9, xtol=1e-13)
    return low, high


def test_wilson_building_block_is_exactly_0_at_k_0_and_1_at_k_n():
    """The Wilson limits used by the Newcombe intervals end exactly at 0 (k = 0) and 1 (k = n)."""
    n = np.arange(1, 401, dtype=float)
    z = np.array([[0.6745], [1.6449], [1.96], [2.5758], [3.29], [5.0], [12.0], [38.0]])
    low0, high0 = D._wilson(np.zeros_like(n), n, z)
    low_n, high_n = D._wilson(n, n, z)
    assert np.all(low0 == 0.0) and np.all(high0 > 0.0)
    assert np.all(high_n == 1.0) and np.all(low_n < 1.0)


def test_restricted_mle_is_a_pair_of_probabilities_with_the_given_difference():
    """Farrington–Manning's p̃1, p̃2 lie in [0, 1] with p̃1 − p̃2 = Δ, also at 0/n, n/n and Δ near ±1."""
    rows = np.array(
        [(x1, n1, x2, n2) for n1 in range(1, 9) for n2 in range(1, 9) for x1 in range(n1 + 1) for x2 in range(n2 + 1)], float
    )
    x1, n1, x2, n2 = (v[:, None] for v in rows.T)
    delta = np.r_[np.linspace(-1, 1, 201), -1 + 1e-9, 1 - 1e-9][None, :]
    pt1, pt2 = D._farrington_manning(x1 / n1, x2 / n2, n1, n2, delta)
    assert np.all((pt1 >= 0) & (pt1 <= 1) & (pt2 >= 0) & (pt2 <= 1))
    assert np.allclose(pt1 - pt2, delta, atol=1e-15)


def test_miettinen_nurminen_test_statistic_is_the_pooled_score_statistic():
    """difference_test's default statistic is (p1 − p2)/√(p̄(1 − p̄)(1/n1 + 1/n2) N/(N − 1)) to 1e-12."""
    cases = [
        (0, 1, 1000, 1000),
        (1000, 1000, 0, 1),
        (0, 16, 15, 72),
        (56, 70, 48, 80),
        (3, 7, 5, 6),
        (1, 2, 0, 9),
        (5, 1000, 995, 1000),
    ]
    for x1, n1, x2, n2 in cases:
        pbar, big_n = (x1 + x2) / (n1 + n2), n1 + n2
        expected = (x1 / n1 - x2 / n2) / np.sqrt(pbar * (1 - pbar) * (1 / n1 + 1 / n2) * big_n / (big_n - 1))
        r = difference_test(x1, n1, x2, n2)
        assert r.statistic == pytest.approx(expected, rel=1e-12)
        assert r.pvalue == pytest.approx(2 * special.ndtr(-abs(expected)), rel=1e-9)
    # (0/1 against 1000/1000): the pooled variance is exactly 1/1000, so z = −√1000.
    assert difference_test(0, 1, 1000, 1000).statistic == pytest.approx(-np.sqrt(1000), rel=1e-13)


def test_newcombe_paired_interval_matches_the_hand_formula_with_corrected_phi():
    """Newcombe's paired interval equals method 10 by hand for every table with n ≤ 10 and weighted tables."""
    tables = [t for t in itertools.product(range(6), repeat=4) if 0 < sum(t) <= 10]
    # (4, 2, 2, 2): A = 4 between n/3 and n/2, so φ* = 0; (0, 1, 1, 0): margins product 1, φ* = −1.
    # Weighted (non-integer) counts: A = 0.5 in (0, n/2) gives φ* = 0; margins product 0.0625 < 1 keeps φ* = −1.
    tables += [(0.5, 0, 0, 1), (0, 0.5, 0.5, 0), (1.5, 0.5, 0.25, 2)]
    a, b, c, d = (np.array(v, float) for v in zip(*tables, strict=True))
    ci = D.paired_difference_interval(a, b, c, d, method="newcombe")
    expected = np.array([_newcombe_paired_hand(*t) for t in tables])
    assert np.allclose(ci.low, expected[:, 0], atol=1e-10)
    assert np.allclose(ci.high, expected[:, 1], atol=1e-10)
    # Published: Cavo et al. (2012) table, Fagerland, Lydersen & Laake (2017, §8.5): −0.0621 (−0.1186 to −0.0046).
    ci = D.paired_difference_interval(59, 6, 16, 80)
    assert (round(float(ci.low), 4), round(float(ci.high), 4)) == (-0.1186, -0.0046)


@pytest.mark.parametrize(
    ("x1", "n1", "x2", "n2", "level"),
    [([1, 2, 3], 5, 2, 5, 0.95), (56, 70, 48, 80, [0.9, 0.95, 0.99]), ([3, 9], [10, 12], 4, 11, [[0.8], [0.95]])],
)
def test_miettinen_nurminen_limits_broadcast_counts_and_levels(x1, n1, x2, n2, level):
    """The score interval of array counts and/or array levels equals the score-equation reference elementwise."""
    ci = D.difference_interval(x1, n1, x2, n2, level=level)
    shape = np.broadcast_shapes(np.shape(x1), np.shape(n1), np.shape(x2), np.shape(n2), np.shape(level))
    assert np.shape(ci.low) == shape and np.shape(ci.high) == shape
    args = np.broadcast_arrays(*(np.asarray(v, float) for v in (x1, n1, x2, n2, level)))
    for idx in np.ndindex(shape):
        low, high = _mn_reference(*(float(v[idx]) for v in args))
        assert ci.low[idx] == pytest.approx(low, abs=1e-8)
        assert ci.high[idx] == pytest.approx(high, abs=1e-8)
    # Published: Newcombe (1998a) example (a), 56/70 against 48/80, method 6: 0.0528 to 0.3382.
    if np.ndim(x1) == 0:
        assert (round(float(ci.low[1]), 4), round(float(ci.high[1]), 4)) == (0.0528, 0.3382)


def test_independent_interval_names_its_method():
    """The EffectSize of difference_interval carries the name of the method that made it."""
    words = {"miettinen-nurminen": "Miettinen", "newcombe": "Newcombe", "agresti-caffo": "Agresti", "wald": "Wald"}
    for method, word in words.items():
        name = D.difference_interval(3, 10, 5, 10, method=method).method
        assert isinstance(name, str) and word in name


def test_newcombe_tests_give_p_one_when_the_estimate_is_the_null():
    """Tests inverted from Newcombe's intervals give p = 1 and statistic 0 when p1 = p2 (also at 0/n and n/n)."""
    for x, n in [(0, 1), (0, 7), (7, 7), (1, 1), (3, 7), (500, 1000), (0, 1000), (1000, 1000)]:
        r = difference_test(x, n, x, n, method="newcombe")
        assert r.pvalue == 1.0 and r.statistic == 0.0
        r = difference_test(x, n, 2 * x, 2 * n, method="newcombe")
        assert r.pvalue == 1.0 and r.statistic == 0.0
    for table in [(100, 0, 0, 0), (0, 0, 0, 100), (7, 0, 0, 1), (1, 0, 0, 0), (40, 3, 3, 50), (1, 2, 2, 0)]:
        r = paired_difference_test(*table, method="newcombe")
        assert r.pvalue == 1.0 and r.statistic == 0.0


@pytest.mark.parametrize(("x1", "n1", "x2", "n2"), [(3, 10, 4, 10), (5, 12, 4, 11), (0, 16, 15, 72), (9, 10, 3, 10)])
def test_newcombe_independent_test_inverts_the_hand_interval(x1, n1, x2, n2):
    """difference_test(method="newcombe") is 2Φ(−z*) with z* where the hand-written interval touches 0."""
    sign = np.sign(x1 / n1 - x2 / n2)

    def touching(z):
        low, high = _newcombe_independent_hand(x1, n1, x2, n2, z)
        return low if sign > 0 else -high

    z_star = optimize.brentq(touching, 1e-9, 38.0, xtol=1e-14)
    r = difference_test(x1, n1, x2, n2, method="newcombe")
    assert r.statistic == pytest.approx(sign * z_star, rel=1e-9)
    assert r.pvalue == pytest.approx(2 * special.ndtr(-z_star), rel=1e-9)


def _wald_mean(estimate, se, level=0.95):
    """Wald interval of a normal mean, est ± z·se, as an object with low and high (z from scipy's upper tail, finite near 1)."""
    from types import SimpleNamespace

    from scipy import stats

    z = stats.norm.isf((1 - np.asarray(level)) / 2)
    return SimpleNamespace(low=np.asarray(estimate) - z * se, high=np.asarray(estimate) + z * se)


def test_pvalue_from_interval_inverts_a_wald_interval_to_the_z_test():
    """Inverting est ± z·se gives 2·Φ(−|est|/se), the z-test's p-value, to the default tolerance (either sign)."""
    from scipy import stats

    est = np.array([0.3, -0.3, 1.0, -2.5, 0.01])
    p = D.pvalue_from_interval(_wald_mean, est, 0.2)
    expected = 2 * stats.norm.sf(np.abs(est) / 0.2)
    assert p.shape == (5,)
    np.testing.assert_allclose(p, expected, rtol=0, atol=2e-12)
    assert np.all(p >= expected - 1e-15)  # the level is approached from the excluding side: p never below


def test_pvalue_from_interval_passes_keywords_and_the_null():
    """Keyword arguments reach the interval; `null` moves the hypothesis: p of est = 0.5 with est 0.8, se 0.1."""
    from scipy import stats

    p = D.pvalue_from_interval(_wald_mean, 0.8, null=0.5, se=0.1)
    assert isinstance(p, np.floating)
    assert p == pytest.approx(2 * stats.norm.sf(3.0), abs=2e-12)
    assert D.pvalue_from_interval(_wald_mean, 0.4, null=0.5, se=0.1) == pytest.approx(2 * stats.norm.sf(1.0), abs=2e-12)


def test_pvalue_from_interval_is_one_at_the_null_and_tiny_far_from_it():
    """est = null: inside every interval, p = 1; est 40 se away: outside every interval, p = the float below 1's gap."""
    p = D.pvalue_from_interval(_wald_mean, np.array([0.0, 8.0, 0.25]), 0.2, null=0.25 * np.array([0, 0, 1]))
    assert p[0] == 1.0 and p[2] == 1.0
    assert p[1] == np.finfo(float).epsneg


def test_pvalue_from_interval_tolerance_sets_the_precision():
    """tol = 1e-3 bisects to within 2⁻¹⁰ above the exact p; a tolerance outside (0, 0.1) is refused."""
    from scipy import stats

    exact = 2 * stats.norm.sf(0.37 / 0.2)
    coarse = float(D.pvalue_from_interval(_wald_mean, 0.37, 0.2, tol=1e-3))
    assert exact - 1e-15 <= coarse <= exact + 2.0**-10
    assert coarse != pytest.approx(exact, abs=1e-9)  # ten steps do not reach 1e-9
    for tol in (0.0, 0.1, -1e-3):
        with pytest.raises(D.UsageError, match="`tol` must be in"):
            D.pvalue_from_interval(_wald_mean, 0.37, 0.2, tol=tol)
    assert float(D.pvalue_from_interval(_wald_mean, 0.37, 0.2, tol=0.099)) == pytest.approx(exact, abs=0.1)


def test_pvalue_from_interval_ends_on_the_upper_end_of_the_final_bracket():
    """tol = 1e-3: ten halvings of (0, 1): p = 1 − ⌊L*·1024⌋/1024 with L* = 1 − exact p (not nine or eleven halvings)."""
    from scipy import stats

    exact = 1 - 959.7 / 1024  # L*·1024 = 959.7: nine halvings end on 958/1024, eleven on 1919/2048
    est = 0.2 * stats.norm.isf(exact / 2)
    p = float(D.pvalue_from_interval(_wald_mean, est, 0.2, tol=1e-3))
    assert p == pytest.approx(1 - 959 / 1024, abs=1e-12)


def test_pvalue_from_interval_near_one_and_near_the_floor():
    """p near 1 (est 1e-5, se 0.2: the null excluded only at levels below 1e-4), and p ≈ 1.6e-16, never below the exact."""
    from scipy import stats

    near_one = float(D.pvalue_from_interval(_wald_mean, 1e-5, 0.2))
    assert near_one == pytest.approx(2 * stats.norm.sf(5e-5), abs=2e-12)
    assert near_one < 1.0
    # 8.25 se: excluded at level 1 − 2⁻⁵² (z = 8.21) but not at 1 − 2⁻⁵³ (z = 8.29): not the floor, the bisection's end
    exact = 2 * stats.norm.sf(8.25)
    tail = float(D.pvalue_from_interval(_wald_mean, 8.25, 1.0))
    assert exact <= tail <= exact + 2e-12


def test_pvalue_from_interval_of_a_point_interval():
    """A point interval (se = 0) on the null: p = 1; off the null: excluded at every level, p = the floor 2⁻⁵³."""
    assert float(D.pvalue_from_interval(_wald_mean, 0.3, 0.0, null=0.3)) == 1.0
    assert float(D.pvalue_from_interval(_wald_mean, 0.3, 0.0)) == np.finfo(float).epsneg


# -----------------------------------------------------------------------------
# Paired-difference intervals and tests against hand formulas (Tango by brentq, Wald), level validation.


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
