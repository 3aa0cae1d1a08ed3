"""The exact sign test's p-values against scipy's binomtest, for every count dtype, and its refusals (mutation kills)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from stats_mtbias.errors import UsageError
from stats_mtbias.significance.paired import paired_test, sign_test_pvalue


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint64, np.int32, np.int64])
def test_sign_test_of_unsigned_and_signed_integer_counts_matches_binomtest(dtype):
    """Counts of any integer dtype (unsigned too, where n_positive − 1 would wrap) give binomtest's p-values."""
    pos = np.array([0, 0, 1, 3, 5, 9], dtype=dtype)
    neg = np.array([4, 0, 0, 3, 1, 2], dtype=dtype)
    for alt in ("greater", "less", "two-sided"):
        p = sign_test_pvalue(pos, neg, alternative=alt)
        expected = [stats.binomtest(int(k), int(k + m), 0.5, alternative=alt).pvalue if k + m else 1.0 for k, m in zip(pos, neg)]
        assert np.allclose(p, expected, rtol=1e-12, atol=0)


def test_sign_test_refuses_negative_and_missing_counts():
    """A negative count in either argument raises ValueError, and so does a NaN count (not a count)."""
    for pos, neg in [(-1, 3), (3, -1), (-1, -1), ([2, -1], [1, 1]), ([2, 1], [1, -1])]:
        with pytest.raises(ValueError):
            sign_test_pvalue(pos, neg)
    for pos, neg in [(np.nan, 3), (3, np.nan)]:
        with pytest.raises(ValueError):
            sign_test_pvalue(pos, neg)


def test_sign_test_refuses_fractional_counts_and_takes_whole_floats():
    """A fractional count (a mean over sampled outputs) is refused, not truncated; whole floats are counts."""
    for pos, neg in [(2.5, 3), (3, 0.4), ([2, 1.5], [1, 1])]:
        with pytest.raises(ValueError, match="whole counts"):
            sign_test_pvalue(pos, neg)
    assert float(sign_test_pvalue(7.0, 1.0)) == pytest.approx(stats.binomtest(7, 8, 0.5, alternative="greater").pvalue)


# -----------------------------------------------------------------------------
# Hand formulas and independent implementations for the parts of the statistics core that mutation testing
# showed no fast test would miss (issue 38; docs/testing.md). Every expected value is computed here, from the
# formula or by scipy/statsmodels, never by the package function under test.


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_paired_t_test_matches_scipy(alternative):
    rng = np.random.default_rng(4)
    first, second = rng.integers(0, 6, 30), rng.integers(0, 6, 30)
    res = paired_test(first, second, trials=np.full(30, 6), method="ttest", alternative=alternative)
    ref = stats.ttest_rel(first / 6, second / 6, alternative=alternative)
    assert res.statistic == pytest.approx(ref.statistic) and res.pvalue == pytest.approx(ref.pvalue)
    assert res.n == 30 and res.mean_difference == pytest.approx(np.mean((first - second) / 6))
    assert (res.n_positive, res.n_negative) == (int(np.sum(first > second)), int(np.sum(first < second)))
    assert res.method == "ttest" and res.alternative == alternative


def test_paired_t_test_without_spread_and_too_few_items():
    same = paired_test([1, 1, 1], [0, 0, 0], method="ttest", alternative="greater")
    assert same.statistic == np.inf and same.pvalue == 0.0
    assert paired_test([1, 1, 1], [0, 0, 0], method="ttest", alternative="less").pvalue == 1.0
    assert paired_test([0, 0, 0], [1, 1, 1], method="ttest", alternative="less").pvalue == 0.0
    assert paired_test([1, 1, 1], [0, 0, 0], method="ttest", alternative="two-sided").pvalue == 0.0
    tie = paired_test([1, 0, 1], [1, 0, 1], method="ttest", alternative="two-sided")
    assert (tie.statistic, tie.pvalue) == (0.0, 1.0)
    one = paired_test([1], [0], method="ttest")
    assert np.isnan(one.statistic) and np.isnan(one.pvalue)
    two = paired_test([1, 0], [0, 0], method="ttest", alternative="two-sided")
    assert two.pvalue == pytest.approx(stats.ttest_rel([1, 0], [0, 0]).pvalue)


def test_paired_exact_test_is_the_sign_test_and_refuses_bad_shapes():
    res = paired_test([3, 2, 0, 1, 5], [1, 2, 1, 0, 0], trials=[6, 6, 6, 6, 6])
    assert (res.statistic, res.n_positive, res.n_negative) == (3.0, 3, 1)
    assert res.pvalue == pytest.approx(stats.binomtest(3, 4, 0.5, alternative="greater").pvalue)
    assert paired_test([0, 1], [1, 1], alternative="less").pvalue == pytest.approx(0.5)
    with pytest.raises(ValueError, match="same length"):
        paired_test([1, 2], [1])
    with pytest.raises(ValueError, match="`trials`"):
        paired_test([1, 2], [1, 0], trials=[1, 0])
    with pytest.raises(ValueError, match="`trials`"):
        paired_test([1, 2], [1, 0], trials=[1])
    assert np.isnan(paired_test([], []).mean_difference)


# -----------------------------------------------------------------------------
# The significance layer against hand computations and independent library calls.


def test_sign_test_by_hand_and_against_scipy():
    # 4 items male-only, 1 female-only: P(Bin(5, 1/2) >= 4) = (5 + 1) / 32.
    assert sign_test_pvalue(4, 1) == pytest.approx(6 / 32)
    assert sign_test_pvalue(4, 1, "less") == pytest.approx(31 / 32)
    assert sign_test_pvalue(0, 0) == 1.0
    pos = np.array([0, 3, 10, 17, 40])
    neg = np.array([5, 3, 2, 20, 12])
    for alternative in ("greater", "less", "two-sided"):
        expected = [stats.binomtest(int(k), int(k + j), 0.5, alternative=alternative).pvalue for k, j in zip(pos, neg)]
        assert np.allclose(sign_test_pvalue(pos, neg, alternative), expected)


def test_paired_test_exact_and_t_by_hand():
    male = np.array([1, 1, 1, 0, 0, 1, 0])
    female = np.array([0, 0, 0, 1, 0, 0, 0])
    res = paired_test(male, female)
    assert (res.n, res.n_positive, res.n_negative) == (7, 4, 1)
    assert res.pvalue == pytest.approx(6 / 32)
    assert res.mean_difference == pytest.approx(3 / 7)
    t = paired_test(male, female, method="ttest")
    d = male - female
    t_hand = d.mean() / (d.std(ddof=1) / math.sqrt(7))
    assert t.statistic == pytest.approx(t_hand)
    assert t.pvalue == pytest.approx(stats.ttest_rel(male, female, alternative="greater").pvalue)
    assert t.pvalue == pytest.approx(stats.t.sf(t_hand, 6))


def test_paired_test_averages_variants_for_the_t_test():
    # Bengali-like: 6 outputs per item; the t-test uses (male - female) / 6 per item.
    male = np.array([6, 3, 2, 0])
    female = np.array([0, 1, 2, 3])
    res = paired_test(male, female, trials=[6, 6, 6, 6], method="ttest")
    assert res.statistic == pytest.approx(stats.ttest_1samp((male - female) / 6, 0).statistic)
    exact = paired_test(male, female, trials=[6, 6, 6, 6])
    assert (exact.n_positive, exact.n_negative) == (2, 1)


def test_t_test_without_spread():
    assert paired_test([1, 1, 1], [0, 0, 0], method="ttest").pvalue == 0.0
    assert paired_test([0, 0, 0], [0, 0, 0], method="ttest").pvalue == 1.0
    assert paired_test([0, 0, 0], [1, 1, 1], method="ttest").pvalue == 1.0


def test_paired_test_validates():
    with pytest.raises(ValueError, match="same length"):
        paired_test([1, 0], [1])
    with pytest.raises(UsageError, match="`method`"):
        paired_test([1], [0], method="wilcoxon")
