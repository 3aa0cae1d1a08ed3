"""Effect sizes (Cohen's h, odds ratio, paired difference) checked against hand formulas."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import special, stats
from statsmodels.stats.contingency_tables import Table2x2
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from stats_mtbias.errors import UsageError
from stats_mtbias.significance.effect_sizes import (
    cohens_h,
    difference_in_proportions,
    odds_ratio,
    paired_difference_in_proportions,
)
from stats_mtbias.uncertainty import analytic as an


def test_cohens_h_in_double_precision_from_float32():
    """h = 2 asin(sqrt(p1)) − 2 asin(sqrt(p2)) evaluated in float64 whatever the input dtype."""
    p1, p2 = np.float32(0.3), np.float32(0.7)
    hand = 2 * math.asin(math.sqrt(float(p1))) - 2 * math.asin(math.sqrt(float(p2)))
    for a, b in [(p1, 0.7), (0.3, p2), (np.array([p1]), np.array([p2]))]:
        got = cohens_h(a, b)
        assert got.dtype == np.float64
        assert float(np.squeeze(got)) == pytest.approx(
            2 * math.asin(math.sqrt(float(np.squeeze(a)))) - 2 * math.asin(math.sqrt(float(np.squeeze(b)))), rel=1e-15
        )
    assert float(np.squeeze(cohens_h(np.array([p1]), np.array([p2])))) == pytest.approx(hand, rel=1e-15)


def test_odds_ratio_woolf_interval_from_float32_counts():
    """Woolf's interval exp(log OR ± z sqrt(Σ 1/cell)) by hand, in float64 from a float32 table."""
    a, b, c, d = 7.0, 13.0, 11.0, 3.0
    z = special.ndtri(0.975)
    log_or = math.log(a * d / (b * c))
    se = math.sqrt(1 / a + 1 / b + 1 / c + 1 / d)
    got = odds_ratio(np.array([[a, b], [c, d]], dtype=np.float32))
    assert float(got.estimate) == pytest.approx(a * d / (b * c), rel=1e-14)
    assert float(got.low) == pytest.approx(math.exp(log_or - z * se), rel=1e-14)
    assert float(got.high) == pytest.approx(math.exp(log_or + z * se), rel=1e-14)


@pytest.mark.parametrize("table", [(0, 0, 0, 0), ([3, 0], [1, 0], [2, 0], [4, 0])], ids=["scalar", "one-of-two"])
def test_paired_difference_refuses_an_empty_table(table):
    """An empty paired table (no item) is refused with a ValueError."""
    with pytest.raises(ValueError):
        paired_difference_in_proportions(*table)


def _newcombe_hand(x1, n1, x2, n2, level, poisson_ends=False):
    """Newcombe (1998a) hybrid score limits from statsmodels' Wilson, widened to Garwood's Poisson bounds if asked."""
    alpha = 1 - level

    def limits(x, n):
        low, high = (float(v) for v in proportion_confint(x, n, alpha=alpha, method="wilson"))
        if poisson_ends and x <= 10:
            high = max(high, stats.gamma.ppf(1 - alpha / 2, x + 1) / n)
            low = min(low, stats.gamma.ppf(alpha / 2, x) / n) if x > 0 else low
        if poisson_ends and n - x <= 10:
            low = min(low, 1 - stats.gamma.ppf(1 - alpha / 2, n - x + 1) / n)
            high = max(high, 1 - stats.gamma.ppf(alpha / 2, n - x) / n) if n > x else high
        return min(max(low, 0.0), 1.0), min(max(high, 0.0), 1.0)

    p1, p2 = x1 / n1, x2 / n2
    (l1, u1), (l2, u2) = limits(x1, n1), limits(x2, n2)
    d = p1 - p2
    return d, d - math.hypot(p1 - l1, u2 - p2), d + math.hypot(u1 - p1, p2 - l2)


@pytest.mark.parametrize("level", [0.95, 0.9, 0.5])
@pytest.mark.parametrize(("x1", "n1", "x2", "n2"), [(56, 70, 48, 80), (1, 100, 50, 100), (9, 10, 3, 12), (0, 1, 1, 1)])
def test_difference_in_proportions_is_newcombes_hybrid_score_interval(x1, n1, x2, n2, level):
    """Estimate and limits equal Newcombe's method 10 by hand at the given level, with Wilson or Poisson-widened ends."""
    for poisson_ends in (False, True):
        d, low, high = _newcombe_hand(x1, n1, x2, n2, level, poisson_ends)
        got = difference_in_proportions(x1, n1, x2, n2, level=level, poisson_ends=poisson_ends)
        assert float(got.estimate) == pytest.approx(d, rel=1e-14, abs=1e-15)
        assert float(got.low) == pytest.approx(low, rel=1e-9, abs=1e-12)
        assert float(got.high) == pytest.approx(high, rel=1e-9, abs=1e-12)
        assert got.method == "Newcombe hybrid score (independent samples)"


def test_difference_in_proportions_matches_newcombes_published_example():
    """Newcombe (1998a), example (a), 56/70 against 48/80, method 10: 0.0524 to 0.3339."""
    got = difference_in_proportions(56, 70, 48, 80)
    assert (round(float(got.low), 4), round(float(got.high), 4)) == (0.0524, 0.3339)


def test_poisson_ends_widen_the_interval_where_few_successes_are_seen():
    """At 1/100 against 50/100, poisson_ends=True gives a strictly wider upper limit than Wilson's ends."""
    wilson = difference_in_proportions(1, 100, 50, 100)
    poisson = difference_in_proportions(1, 100, 50, 100, poisson_ends=True)
    assert float(poisson.high) > float(wilson.high) and float(poisson.low) <= float(wilson.low)


def test_difference_in_proportions_in_double_precision_from_float32_counts():
    """float32 counts are computed in float64: 1/3 − 2/7 to double precision, limits as from float64 counts."""
    got = difference_in_proportions(np.float32(1), np.float32(3), np.array([2], np.float32), np.array([7], np.float32))
    _, low, high = _newcombe_hand(1, 3, 2, 7, 0.95)
    assert float(got.estimate[0]) == pytest.approx(1 / 3 - 2 / 7, rel=1e-14)
    assert float(got.low[0]) == pytest.approx(low, rel=1e-12)
    assert float(got.high[0]) == pytest.approx(high, rel=1e-12)


@pytest.mark.parametrize(
    ("x1", "n1", "x2", "n2"),
    [(4, 3, 1, 5), (1, 5, 6, 5), (0, 0, 1, 5), (1, 5, 0, 0), (-1, 5, 1, 5), (1, 5, 1, -2), ([1, 4], 3, 1, 5)],
    ids=["x1>n1", "x2>n2", "n1=0", "n2=0", "x1<0", "n2<0", "x1>n1-in-array"],
)
def test_difference_in_proportions_refuses_impossible_counts(x1, n1, x2, n2):
    """A count above its n, a zero n in either sample, or a negative count raises ValueError."""
    with pytest.raises(ValueError):
        difference_in_proportions(x1, n1, x2, n2)


def test_difference_in_proportions_accepts_single_item_samples():
    """n1 = 1 or n2 = 1 is a valid sample: 1/1 against 0/1 gives d = 1 with Wilson-based limits."""
    d, low, high = _newcombe_hand(1, 1, 0, 1, 0.95)
    got = difference_in_proportions(1, 1, 0, 1)
    assert float(got.estimate) == d == 1.0
    assert float(got.low) == pytest.approx(low, rel=1e-12) and float(got.high) == pytest.approx(high, rel=1e-12)
    assert float(difference_in_proportions(0, 4, 1, 1).estimate) == -1.0


# -----------------------------------------------------------------------------
# Hand formulas and independent implementations for the parts of the statistics core that mutation testing
# showed no fast test would miss (issue 38; docs/testing.md). Every expected value is computed here, from the
# formula or by scipy/statsmodels, never by the package function under test.


Z975 = stats.norm.ppf(0.975)


# ----------------------------------------------------------------------------- effect sizes and small tests
def test_cohens_h_refuses_shares_outside_the_unit_interval():
    assert cohens_h(1.0, 0.0) == pytest.approx(np.pi)
    assert cohens_h(0, 1) == pytest.approx(-np.pi)
    np.testing.assert_allclose(cohens_h([0.5, 0.9], 0.5), [0.0, 2 * np.arcsin(np.sqrt(0.9)) - np.pi / 2])
    for p1, p2 in ((-0.01, 0.5), (1.01, 0.5), (0.5, -0.01), (0.5, 1.01)):
        with pytest.raises(ValueError, match=r"\[0, 1\]"):
            cohens_h(p1, p2)


def test_odds_ratio_every_branch_by_hand():
    res = odds_ratio([[20, 10], [8, 16]], level=0.9)
    se = np.sqrt(1 / 20 + 1 / 10 + 1 / 8 + 1 / 16)
    z = stats.norm.ppf(0.95)
    assert float(res.estimate) == pytest.approx(4.0)
    assert (float(res.low), float(res.high)) == pytest.approx((4 * np.exp(-z * se), 4 * np.exp(z * se)))
    assert res.method == "Woolf log interval"
    zero = odds_ratio([[5, 0], [3, 4]])
    assert zero.method == "Woolf log interval (Haldane 1/2 added to every cell)"
    se0 = np.sqrt(1 / 5.5 + 1 / 0.5 + 1 / 3.5 + 1 / 4.5)
    assert float(zero.low) == pytest.approx(5.5 * 4.5 / (0.5 * 3.5) * np.exp(-Z975 * se0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(odds_ratio([[0, 5], [3, 4]], correction="none").estimate) == 0.0
        assert np.isinf(float(odds_ratio([[5, 0], [3, 4]], correction="none").estimate))
        assert float(odds_ratio([[5, 2], [0, 4]], correction="none").estimate) == np.inf
        assert np.isnan(float(odds_ratio([[0, 0], [3, 4]], correction="none").estimate))
    assert odds_ratio([[5, 0], [3, 4]], correction="none").method == "sample odds ratio (zero cell, no interval)"
    for bad in ([[1, 2, 3], [4, 5, 6]], [[1, -1], [2, 3]]):
        with pytest.raises(ValueError, match="2×2"):
            odds_ratio(bad)
    with pytest.raises(UsageError, match="correction"):
        odds_ratio([[1, 2], [3, 4]], correction="woolf")


def test_paired_difference_in_proportions_passes_its_level_and_refuses_an_empty_table():
    # Newcombe (1998b) method 10 at 90%: Wilson limits at z = 1.645 combined with the corrected phi, by hand.
    a, b, c, d, n = 20, 12, 2, 16, 50
    z = stats.norm.ppf(0.95)
    w = an.wilson_interval(np.array([a + b, a + c]), n, 0.9)
    p1, p2 = (a + b) / n, (a + c) / n
    phi = (a * d - b * c - n / 2) / np.sqrt((a + b) * (c + d) * (a + c) * (b + d))
    dl1, du1, dl2, du2 = p1 - w.low[0], w.high[0] - p1, p2 - w.low[1], w.high[1] - p2
    res = paired_difference_in_proportions(a, b, c, d, level=0.9)
    assert float(res.low) == pytest.approx(p1 - p2 - np.sqrt(dl1**2 - 2 * phi * dl1 * du2 + du2**2))
    assert float(res.high) == pytest.approx(p1 - p2 + np.sqrt(du1**2 - 2 * phi * du1 * dl2 + dl2**2))
    assert z < Z975
    with pytest.raises(ValueError, match="empty"):
        paired_difference_in_proportions(0, 0, 0, 0)
    with pytest.raises(ValueError, match="non-negative"):
        paired_difference_in_proportions(1, -1, 0, 2)
    # Tables of one or two items are not empty (whichever cells hold them).
    ok = paired_difference_in_proportions([0, 3, 0, 0, 1], [0, 1, 0, 1, 1], [1, 0, 1, 1, 0], [0, 0, 1, 0, 0])
    assert np.all(np.isfinite(ok.low)) and np.all(np.isfinite(ok.high))


def test_odds_ratio_without_correction_is_zero_or_infinite_and_its_interval_open():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = odds_ratio([[5, 2], [3, 0]], correction="none")  # a d = 0: the odds ratio is 0
    assert float(res.estimate) == 0.0 and float(res.low) == 0.0 and float(res.high) == np.inf


# -----------------------------------------------------------------------------
# The significance layer against hand computations and independent library calls.


def test_newcombe_independent_against_statsmodels():
    for x1, n1, x2, n2 in [(5, 50, 12, 60), (0, 30, 4, 25), (30, 30, 10, 40)]:
        ours = difference_in_proportions(x1, n1, x2, n2)
        low, high = confint_proportions_2indep(x1, n1, x2, n2, method="newcomb", compare="diff")
        assert float(ours.estimate) == pytest.approx(x1 / n1 - x2 / n2)
        assert float(ours.low) == pytest.approx(low) and float(ours.high) == pytest.approx(high)


def test_newcombe_paired_against_published_values():
    # Newcombe (1998b), Table II, method 10 (ratesci's tests): (36, 12, 2, 0) -> 0.0569, 0.3404; and the
    # Bentur et al. table of Fagerland, Lydersen & Laake (contingencytables): (1, 1, 7, 12) -> -0.507, -0.026.
    res = paired_difference_in_proportions(36, 12, 2, 0)
    assert float(res.estimate) == pytest.approx(10 / 50)
    assert (float(res.low), float(res.high)) == pytest.approx((0.0569, 0.3404), abs=6e-5)
    bentur = paired_difference_in_proportions(1, 1, 7, 12)
    assert (float(bentur.low), float(bentur.high)) == pytest.approx((-0.507, -0.026), abs=6e-4)
    # All discordant pairs one way: the interval stays inside [-1, 1] and excludes 0.
    edge = paired_difference_in_proportions(0, 20, 0, 0)
    assert float(edge.high) <= 1.0 and 0 < float(edge.low) < 1


def test_cohens_h_and_odds_ratio():
    assert cohens_h(0.5, 0.2) == pytest.approx(2 * math.asin(math.sqrt(0.5)) - 2 * math.asin(math.sqrt(0.2)))
    assert cohens_h(0.5, 0.2) == pytest.approx(0.6435, abs=1e-4)
    table = np.array([[20, 10], [8, 16]])
    res = odds_ratio(table)
    ref = Table2x2(table)
    assert float(res.estimate) == pytest.approx(ref.oddsratio)
    low, high = ref.oddsratio_confint()
    assert float(res.low) == pytest.approx(low) and float(res.high) == pytest.approx(high)
    zero = odds_ratio([[5, 0], [3, 4]])
    assert float(zero.estimate) == pytest.approx((5.5 * 4.5) / (0.5 * 3.5)) and "Haldane" in zero.method
    raw = odds_ratio([[5, 0], [3, 4]], correction="none")
    assert float(raw.estimate) == np.inf and float(raw.low) == 0.0
