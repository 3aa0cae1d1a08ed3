"""McNemar's tests against scipy and hand formulas, and the labels of their results (mutation kills)."""

import numpy as np
import pytest
from scipy import optimize, special, stats

from stats_mtbias.errors import UsageError
from stats_mtbias.significance.mcnemar import MCNEMAR_METHODS, difference_test, mcnemar_test, paired_difference_test


def test_exact_statistic_is_n10_and_pvalues_match_scipy_binomtest():
    """The exact test's statistic is n10 and its p-values are scipy's binomtest with k = n10, p = 1/2."""
    for b, c in [(6, 16), (0, 5), (5, 0), (3, 3), (1, 9), (12, 4)]:
        for alt in ("two-sided", "less", "greater"):
            r = mcnemar_test(b, c, method="exact", alternative=alt)
            assert r.statistic == b
            assert r.pvalue == pytest.approx(stats.binomtest(b, b + c, 0.5, alternative=alt).pvalue, rel=1e-12)
    r = mcnemar_test([6, 0, 2], [16, 3, 2], method="mid-p")
    assert np.array_equal(r.statistic, [6, 0, 2])


def test_exact_tests_refuse_non_integer_counts_in_either_cell():
    """The exact and mid-p tests raise UsageError for a non-integer n10 or n01."""
    for method in ("exact", "mid-p"):
        with pytest.raises(UsageError):
            mcnemar_test(2.5, 3, method=method)
        with pytest.raises(UsageError):
            mcnemar_test(3, 2.5, method=method)


def test_continuity_corrected_test_is_edwards_normal_approximation():
    """asymptotic-cc: two-sided z = sign·max(|n10 − n01| − 1, 0)/√m; one-sided p = half-corrected normal tails."""
    for b in range(0, 12):
        for c in range(0, 12):
            m = b + c
            if m == 0:
                continue
            z = np.sign(b - c) * max(abs(b - c) - 1, 0) / np.sqrt(m)
            r = mcnemar_test(b, c, method="asymptotic-cc")
            assert r.statistic == pytest.approx(z, abs=1e-14)
            assert r.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-12)
            # Under H0, n10 ~ Bin(m, 1/2) ≈ N(m/2, m/4): P(X ≥ n10) with a half correction, and P(X ≤ n10).
            greater = stats.norm.sf(b - 0.5, loc=m / 2, scale=np.sqrt(m) / 2)
            less = stats.norm.cdf(b + 0.5, loc=m / 2, scale=np.sqrt(m) / 2)
            assert mcnemar_test(b, c, method="asymptotic-cc", alternative="greater").pvalue == pytest.approx(greater, rel=1e-10)
            assert mcnemar_test(b, c, method="asymptotic-cc", alternative="less").pvalue == pytest.approx(less, rel=1e-10)
    # Published: Cavo et al. (2012) in Fagerland, Lydersen & Laake (2017, ch. 8): asymptotic-cc p = 0.055009.
    assert mcnemar_test(6, 16, method="asymptotic-cc").pvalue == pytest.approx(0.055009, abs=5e-7)


def test_no_discordant_pair_gives_statistic_0_and_p_1():
    """With n10 = n01 = 0 the normal-approximation statistics are 0 and every p-value is 1."""
    for method in ("asymptotic", "asymptotic-cc"):
        for alt in ("two-sided", "less", "greater"):
            r = mcnemar_test(0, 0, method=method, alternative=alt)
            assert r.statistic == 0.0 and r.pvalue == 1.0
            r = mcnemar_test([0, 4], [0, 1], method=method, alternative=alt)
            assert r.statistic[0] == 0.0 and r.pvalue[0] == 1.0


def test_results_carry_their_method_and_alternative():
    """mcnemar_test's result names its method and alternative; difference_test's names its interval method."""
    for method in MCNEMAR_METHODS:
        for alt in ("two-sided", "less", "greater"):
            r = mcnemar_test(6, 16, method=method, alternative=alt)
            assert isinstance(r.method, str) and method in r.method
            assert r.alternative == alt
    for method in ("miettinen-nurminen", "newcombe", "agresti-caffo", "wald"):
        r = difference_test(3, 10, 5, 10, method=method)
        assert isinstance(r.method, str) and method in r.method


def test_newcombe_difference_test_statistic_has_the_sign_of_the_difference():
    """difference_test(method="newcombe")'s statistic is negative when p1 < p2 and positive when p1 > p2."""
    assert difference_test(0, 16, 15, 72, method="newcombe").statistic < 0
    assert difference_test(15, 72, 0, 16, method="newcombe").statistic > 0
    r = difference_test(3, 10, [1, 3, 5], 10, method="newcombe")
    assert np.array_equal(np.sign(r.statistic), [1.0, 0.0, -1.0])


def _newcombe_paired_hand_limits(a, b, c, d, z):
    """Newcombe (1998b) method 10 paired limits at critical value z, Wilson limits and corrected phi by hand."""
    n = a + b + c + d

    def wilson(k):
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return centre - half, centre + half

    p1, p2 = (a + b) / n, (a + c) / n
    (l1, u1), (l2, u2) = wilson(a + b), wilson(a + c)
    cross, margins = a * d - b * c, (a + b) * (c + d) * (a + c) * (b + d)
    phi = 0.0 if margins == 0 or 0 <= cross <= n / 2 else (cross - n / 2 if cross > 0 else cross) / np.sqrt(margins)
    dl1, du1, dl2, du2 = p1 - l1, u1 - p1, p2 - l2, u2 - p2
    low = p1 - p2 - np.sqrt(max(dl1**2 - 2 * phi * dl1 * du2 + du2**2, 0.0))
    high = p1 - p2 + np.sqrt(max(du1**2 - 2 * phi * du1 * dl2 + dl2**2, 0.0))
    return low, high


@pytest.mark.parametrize("table", [(59, 6, 16, 80), (80, 16, 6, 59), (10, 1, 7, 3), (3, 9, 0, 20)])
def test_paired_difference_test_by_default_inverts_newcombes_paired_interval(table):
    """The default paired test is Newcombe's: p = 2Φ(−z*), statistic sign(n10 − n01)·z*, z* where the hand interval touches 0."""
    a, b, c, d = table
    sign = np.sign(b - c)

    def touching(z):
        low, high = _newcombe_paired_hand_limits(a, b, c, d, z)
        return low if sign > 0 else -high

    z_star = optimize.brentq(touching, 1e-9, 30.0, xtol=1e-14)
    r = paired_difference_test(*table)
    assert r.statistic == pytest.approx(sign * z_star, rel=1e-9)
    assert r.pvalue == pytest.approx(2 * special.ndtr(-z_star), rel=1e-9)
    assert isinstance(r.method, str) and "newcombe" in r.method


def test_paired_difference_test_statistic_sign_and_labels_for_every_method():
    """paired_difference_test's statistic has the sign of n10 − n01 (arrays too) and its result names the method."""
    for method in ("newcombe", "tango", "agresti-min", "bonett-price", "wald"):
        r = paired_difference_test([59, 80, 40], [6, 16, 3], [16, 6, 3], [80, 59, 50], method=method)
        assert np.array_equal(np.sign(r.statistic), [-1.0, 1.0, 0.0])
        assert isinstance(r.method, str) and method in r.method


def test_paired_wald_test_uses_the_unpooled_paired_variance_below_one_discordant():
    """Wald paired test: z = (n10 − n01)/√(n10 + n01 − (n10 − n01)²/n) by hand, also when that variance is below 1."""
    for a, b, c, d in [(50, 1, 0, 49), (0, 1, 0, 1), (3, 0, 2, 5), (59, 6, 16, 80)]:
        n = a + b + c + d
        z = (b - c) / np.sqrt(b + c - (b - c) ** 2 / n)
        r = paired_difference_test(a, b, c, d, method="wald")
        assert r.statistic == pytest.approx(z, rel=1e-12)
        assert r.pvalue == pytest.approx(2 * special.ndtr(-abs(z)), rel=1e-12)
