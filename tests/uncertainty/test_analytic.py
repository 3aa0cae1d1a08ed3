"""Analytic intervals (:mod:`stats_mtbias.uncertainty.analytic`) against hand formulas, scipy and invariants.

Every expected value here is computed independently of the package: Wilson's formula
written out, Garwood's exact Poisson bounds from scipy's chi-square quantiles, the
linearisation variance summed by hand, or an invariant (symmetry, bounds in [0, 1],
empty clusters change nothing, identical systems differ by exactly 0).
"""

from __future__ import annotations

import contextlib
import math
import warnings

import numpy as np
import pytest
from scipy import special, stats
from statsmodels.stats.proportion import proportion_confint

from stats_mtbias.errors import UsageError
from stats_mtbias.estimators.tgbi import p_s
from stats_mtbias.planning import closed
from stats_mtbias.uncertainty import analytic as an
from stats_mtbias.uncertainty.analytic import (
    clopper_pearson_interval,
    design_effect,
    jeffreys_interval,
    p_s_interval,
    proportion_interval,
    wilson_interval,
)

Z95 = float(special.ndtri(0.975))


def _wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval written out (Wilson 1927), without any clipping."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _garwood(k: float, n: float, level: float = 0.95) -> tuple[float, float]:
    """Garwood's exact Poisson bounds for a count k, as rates over n (chi-square form)."""
    alpha = 1 - level
    low = stats.chi2.ppf(alpha / 2, 2 * k) / 2 / n if k > 0 else 0.0
    return low, stats.chi2.ppf(1 - alpha / 2, 2 * k + 2) / 2 / n


def _counts(rows) -> np.ndarray:
    """Per-cluster GENDERS counts (female, male, neutral, both, unknown) from rows of (F, M, N)."""
    rows = np.asarray(rows, dtype=float)
    out = np.zeros((*rows.shape[:-1], 5))
    out[..., :3] = rows
    return out


@contextlib.contextmanager
def _no_warnings():
    """A context in which any warning is an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


# --- wilson_interval ---------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [0.5, 0.9, 0.95, 0.99])
def test_wilson_ends_are_exactly_0_and_1(level):
    """At k = 0 the lower bound is exactly 0, at k = n the upper exactly 1 (the formula misses them by round-off)."""
    n = np.arange(1.0, 301.0)
    assert np.all(an.wilson_interval(np.zeros_like(n), n, level).low == 0.0)
    assert np.all(an.wilson_interval(n, n, level).high == 1.0)


def test_wilson_bounds_stay_inside_unit_interval_for_fractional_counts():
    """Effective counts a hair above 0 or below n give bounds in [0, 1] (round-off pushes the formula past them)."""
    n = np.arange(1.0, 61.0)
    for k in (np.full_like(n, 1e-15), np.full_like(n, 1e-12), 1e-12 * n, n - 1e-15 * n, n - 1e-12, n - 1e-9):
        ci = an.wilson_interval(k, n)
        assert np.all(ci.low >= 0.0) and np.all(ci.high <= 1.0)
        assert np.all(ci.low <= ci.high)


def test_wilson_with_integer_trials_whose_square_overflows_int64():
    """Integer n = 2**31 (4 n² wraps to 0 in int64) gives Wilson's formula in floating point."""
    k, n = 2**30, 2**31
    ci = an.wilson_interval(np.int64(k), np.int64(n))
    low, high = _wilson(float(k), float(n))
    assert float(ci.low) == pytest.approx(low, rel=1e-12)
    assert float(ci.high) == pytest.approx(high, rel=1e-12)


def test_wilson_of_an_empty_set_is_0_1_without_warnings():
    """With no trials the interval is [0, 1] and no floating-point warning escapes."""
    with _no_warnings():
        ci = an.wilson_interval(0, 0)
        mw = an.modified_wilson_interval(0, 0)
    assert (float(ci.low), float(ci.high)) == (0.0, 1.0)
    assert (float(mw.low), float(mw.high)) == (0.0, 1.0)


# --- modified_wilson_interval -----------------------------------------------------------------------


def test_modified_wilson_takes_garwood_bounds_at_one_success():
    """k = 1 of 100: both bounds are Garwood's, the lower -ln(0.975)/n in closed form (Gamma(1) is exponential)."""
    ci = an.modified_wilson_interval(1, 100)
    assert float(ci.low) == pytest.approx(-math.log(0.975) / 100, rel=1e-10)
    assert float(ci.high) == pytest.approx(_garwood(1, 100)[1], rel=1e-10)
    assert float(ci.high) > _wilson(1, 100)[1]  # Garwood's upper bound is the outer one here


def test_modified_wilson_fractional_count_below_one():
    """An effective count of 0.5 takes Garwood's lower bound for a count of 0.5 (chi-square with 1 df)."""
    ci = an.modified_wilson_interval(0.5, 50)
    expected = min(_wilson(0.5, 50)[0], stats.chi2.ppf(0.025, 1) / 2 / 50)
    assert float(ci.low) == pytest.approx(expected, rel=1e-10)


@pytest.mark.parametrize("n", [50.0, 1000.0])
@pytest.mark.parametrize("k", [0.5, 1.0, 3.0, 10.0, 25.0])
def test_modified_wilson_is_symmetric_in_successes_and_failures(k, n):
    """The interval of n − k successes is 1 minus the interval of k successes, reflected."""
    ci, mirror = an.modified_wilson_interval(k, n), an.modified_wilson_interval(n - k, n)
    assert float(mirror.low) == pytest.approx(1 - float(ci.high), abs=1e-12)
    assert float(mirror.high) == pytest.approx(1 - float(ci.low), abs=1e-12)


def test_modified_wilson_at_ten_failures_takes_garwood():
    """Ten failures of 1000 (the threshold itself) take Garwood's bound for the failures."""
    ci = an.modified_wilson_interval(990, 1000)
    assert float(ci.low) == pytest.approx(1 - _garwood(10, 1000)[1], rel=1e-10)


@pytest.mark.parametrize("k", [0.0, 1.0, 2.0, 2.5, 3.0, 4.0, 5.0])
def test_modified_wilson_stays_inside_unit_interval_for_small_n(k):
    """With n = 5, where Garwood's bounds pass 0 and 1, the interval is clipped to [0, 1]."""
    ci = an.modified_wilson_interval(k, 5.0)
    assert 0.0 <= float(ci.low) <= k / 5 <= float(ci.high) <= 1.0


# --- design_effect ----------------------------------------------------------------------------------


def _hand_deff(x, m) -> float:
    """Robust over binomial variance of sum(x)/sum(m), the linearisation variance summed by hand."""
    x, m = np.asarray(x, float), np.asarray(m, float)
    total, k = m.sum(), len(m)
    p = x.sum() / total
    u = (x - p * m) / total
    robust = k / (k - 1) * np.sum((u - u.mean()) ** 2)
    return robust / (p * (1 - p) / total)


@pytest.mark.parametrize("x, m", [([1.0], [2.0, 2.0, 2.0]), ([[1.0, 0.0]], [[2.0, 2.0]])])
def test_design_effect_rejects_mismatched_or_2d_input(x, m):
    """Successes and trials of other shapes, or 2-d, raise ValueError."""
    with pytest.raises(ValueError):
        an.design_effect(x, m)


@pytest.mark.parametrize("x", [[0.0], [1.0], [3.0]])
def test_design_effect_of_one_cluster_is_1(x):
    """One cluster has no between-cluster variance to speak of: the design effect is 1."""
    assert an.design_effect(x, [3.0]) == 1.0


def test_design_effect_two_clusters_by_hand():
    """Two clusters of two, 2 and 0 successes: robust variance 0.25 over binomial 0.0625 = 4."""
    # u = (x - p m) / 4 = ±1/4; robust = 2/1 × 2/16 = 1/4; binomial = 0.5 × 0.5 / 4.
    assert an.design_effect([2.0, 0.0], [2.0, 2.0]) == pytest.approx(4.0, rel=1e-12)


@pytest.mark.parametrize("x", [[2.0, 3.0], [0.0, 0.0]])
def test_design_effect_at_0_or_100_percent_is_mean_cluster_size(x):
    """Where p is 0 or 1 the design effect is the mean cluster size (2.5 here)."""
    assert an.design_effect(x, [2.0, 3.0]) == 2.5


def test_design_effect_at_exactly_ten_successes_takes_mean_cluster_size():
    """Ten successes, each alone in a cluster of two (estimate below 1): the mean cluster size, 2."""
    x, m = np.zeros(50), np.full(50, 2.0)
    x[:10] = 1
    assert _hand_deff(x, m) < 1  # the estimate is floored at 1 and 10 / 1 = 10 is "ten or fewer"
    assert an.design_effect(x, m) == 2.0


def test_design_effect_few_successes_or_failures_takes_mean_cluster_size():
    """11 successes (or failures) of 100 with an estimated deff in (1.1, 5): the mean cluster size 5, both ways."""
    m = np.full(20, 5.0)
    x = np.zeros(20)
    x[:4] = [3, 3, 3, 2]
    deff = _hand_deff(x, m)
    assert 11 / 10 < deff < 5  # 11 / deff <= 10 (few) while 11 × deff > 10
    assert an.design_effect(x, m) == 5.0
    assert an.design_effect(m - x, m) == 5.0


# --- g's effective sample size and score interval ---------------------------------------------------


def _fmn(rows) -> np.ndarray:
    return np.asarray(rows, dtype=float)


def test_g_effective_without_delta_variance_is_number_of_outputs():
    """p_w = p_m = 1/2, no neutral: the delta-method variance of g is 0, n_eff is n (15 > 10 minority: not few)."""
    x = _fmn([[2, 0, 0], [0, 2, 0]] * 15)
    g, n_eff = an._g_effective(x)
    assert float(g) == 0.25 and float(n_eff) == 60.0


def test_g_effective_at_exactly_ten_minority_outputs_counts_clusters():
    """p_w = p_m = 1/2 over 40 outputs: g n = 10 is "ten or fewer", so the 20 clusters of two count as 20."""
    x = _fmn([[2, 0, 0], [0, 2, 0]] * 10)
    assert float(an._g_effective(x)[1]) == 20.0


@pytest.mark.parametrize("minority", [0, 2])  # female outputs among neutral ones (g near 1), neutral among male (g near 0)
def test_g_effective_few_minority_outputs_take_mean_cluster_size(minority):
    """8 minority outputs in 4 of 50 clusters of four: deff = mean cluster size 4, so n_eff = 200 / 4 = 50."""
    majority = 2 if minority == 0 else 1
    row_mixed, row_pure = [0, 0, 0], [0, 0, 0]
    row_mixed[minority], row_mixed[majority], row_pure[majority] = 2, 2, 4
    x = _fmn([row_mixed] * 4 + [row_pure] * 46)
    g, n_eff = an._g_effective(x)
    assert min(float(g), 1 - float(g)) == pytest.approx(0.04)
    # By hand: influences ±1.84/200 (4 mixed clusters) and ∓0.16/200 (46 pure ones), delta variance 0.04 × 0.96 / 200,
    # so the estimated deff is 50/49 × 14.72 / 7.68 ≈ 1.96 < 4 and 8 / 1.96 <= 10: few, deff = 4.
    assert float(n_eff) == pytest.approx(50.0, rel=1e-12)


def test_g_effective_without_worst_case_at_g_zero_is_number_of_outputs():
    """worst_case=False (inside MOVER): at g = 0 n_eff is the number of outputs."""
    x = _fmn([[0, 4, 0]] * 30)
    assert float(an._g_effective(x, worst_case=False)[1]) == 120.0


def test_g_effective_ignores_empty_clusters():
    """Clusters without outputs (an item absent from a set) change neither g nor n_eff."""
    rng = np.random.default_rng(3)
    x = rng.multinomial(6, [0.3, 0.5, 0.2], size=40).astype(float)
    padded = np.concatenate([x, np.zeros((10, 3))])
    g, n_eff = an._g_effective(x)
    g2, n_eff2 = an._g_effective(padded)
    assert float(g2) == pytest.approx(float(g), rel=1e-14)
    assert float(n_eff2) == pytest.approx(float(n_eff), rel=1e-12)


def test_g_effective_identical_clusters_without_warnings():
    """Every cluster of the same mix (estimated deff 0): n_eff is n and no floating-point warning escapes."""
    x = _fmn([[1, 1, 1]] * 20)
    with _no_warnings():
        g, n_eff = an._g_effective(x)
        an._g_estimates(np.zeros((3, 2, 3)))  # an empty set: 0 / 0 shares
        an._influence(np.zeros((3, 2, 3)), np.ones((2, 3)))
    assert float(g) == pytest.approx(1 / 9 + 1 / 3) and float(n_eff) == 60.0


@pytest.mark.parametrize("level", [0.9, 0.95])
def test_g_score_interval_all_male_clusters_count_as_one(level):
    """30 items of 4 male outputs: g = 0 and by default (worst case) n_eff = 30, the upper bound Garwood's or Wilson's."""
    x = _fmn([[0, 4, 0]] * 30)
    z = float(special.ndtri(0.5 + level / 2))
    g, ci = an.g_score_interval(x, level)
    expected = max(z * z / (30 + z * z), -math.log((1 - level) / 2) / 30)
    assert float(g) == 0.0 and float(ci.low) == 0.0
    assert float(ci.high) == pytest.approx(expected, rel=1e-10)


@pytest.mark.parametrize("level", [0.9, 0.95])
def test_index_interval_of_one_all_male_set_uses_all_outputs(level):
    """One set of 30 items × 4 male outputs: the index's interval is [0, sqrt(g's upper bound on n = 120)]."""
    counts = _counts([[[0, 4, 0]]] * 30)  # (clusters, 1 set, 5)
    z = float(special.ndtri(0.5 + level / 2))
    ci = an.tgbi_index_interval(counts, level=level)
    upper_g = max(z * z / (120 + z * z), -math.log((1 - level) / 2) / 120)
    assert float(np.ravel(ci.low)[0]) == 0.0
    assert float(np.ravel(ci.high)[0]) == pytest.approx(math.sqrt(upper_g), rel=1e-10)


def _random_counts(seed: int, shape, probs=(0.3, 0.4, 0.15, 0.1, 0.05), size: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.multinomial(size, probs, size=shape).astype(float)


def test_index_interval_exclude_both_equals_dropping_both_column():
    """both="exclude" gives the interval of the counts without their "both" outputs."""
    counts = _random_counts(1, (25, 3))
    dropped = counts.copy()
    dropped[..., 3] = 0
    ci, ref = an.tgbi_index_interval(counts, both="exclude"), an.tgbi_index_interval(dropped)
    assert np.allclose(ci.low, ref.low, rtol=1e-13) and np.allclose(ci.high, ref.high, rtol=1e-13)
    neutral = an.tgbi_index_interval(counts)
    assert not np.allclose(ci.low, neutral.low)


# --- _correlation -----------------------------------------------------------------------------------


def test_correlation_matches_pearson_and_zero_columns_are_uncorrelated():
    """Zero-mean influences give Pearson's correlation; a column without variance has 0 off the diagonal."""
    rng = np.random.default_rng(0)
    infl = rng.normal(size=(30, 2, 4, 3))  # batch axes (2, 4) before the K = 3 estimates
    infl -= infl.mean(axis=0)
    infl[..., 2] = 0.0
    with _no_warnings():
        corr = an._correlation(infl)
    assert corr.shape == (2, 4, 3, 3)
    for i in range(2):
        for j in range(4):
            expected = np.eye(3)
            expected[:2, :2] = np.corrcoef(infl[:, i, j, :2], rowvar=False)
            assert np.allclose(corr[i, j], expected, atol=1e-12)


# --- paired differences and their p-values ----------------------------------------------------------


@pytest.mark.parametrize("index", [False, True])
def test_identical_systems_differ_by_exactly_zero(index):
    """The same outputs for both systems: the difference is exactly 0 and the p-value 1, and its interval is not a
    point (issue 45: agreeing on 30 items is not agreeing everywhere) but symmetric about 0: the MOVER interval with
    the correlation left out (the systems' two equal intervals, combined as independent)."""
    counts = _random_counts(2, (30, 3))
    ci, p = an.paired_difference_analytic(counts, counts.copy(), index=index)
    assert np.all(ci.low < 0.0) and np.all(ci.high > 0.0)
    np.testing.assert_allclose(ci.low, -ci.high, rtol=1e-12)
    ps, low, high, _ = an._set_parts(an.tgbi_counts(counts, "neutral"), 0.95)
    if index:  # the mean of the sets: every set's two distances, each weighted 1/k, added in quadrature
        k = ps.shape[-1]
        half = np.sqrt(np.sum(((ps - low) / k) ** 2 + ((high - ps) / k) ** 2, axis=-1))
    else:
        half = np.sqrt((ps - low) ** 2 + (high - ps) ** 2)
    np.testing.assert_allclose(ci.high, half, rtol=1e-12)
    assert np.all(np.asarray(p, dtype=float) == 1.0)


def _p_s(counts, axis=0):
    """P_S = sqrt(p_w p_m + p_n) by hand from GENDERS counts summed over clusters ("both" as neutral)."""
    f, m, n, b = (counts[..., i].sum(axis=axis) for i in range(4))
    total = f + m + n + b
    return np.sqrt(f / total * m / total + (n + b) / total)


def test_paired_difference_per_set_point_only_where_sets_agree():
    """Two sets, the first identical for both systems: only the first is 0 with p = 1 (its interval symmetric)."""
    a = _random_counts(4, (30, 2))
    b = a.copy()
    b[:, 1] = _random_counts(5, (30,), probs=(0.1, 0.6, 0.2, 0.05, 0.05))
    ci, p = an.paired_difference_analytic(a, b)
    assert ci.low[0] == pytest.approx(-ci.high[0], rel=1e-12) and ci.high[0] > 0.0 and p[0] == 1.0
    diff = _p_s(a)[1] - _p_s(b)[1]
    assert ci.low[1] < diff < ci.high[1]


def test_paired_index_difference_with_a_batch_axis():
    """Counts (clusters, batch, sets, 5): per batch the index difference is the mean P_S difference; a tie is 0."""
    a = _random_counts(6, (30, 2, 3))
    b = a.copy()
    b[:, 1] = _random_counts(7, (30, 3), probs=(0.1, 0.6, 0.2, 0.05, 0.05))
    ci, p = an.paired_difference_analytic(a, b, index=True)
    assert ci.low.shape == (2,)
    assert ci.low[0] == pytest.approx(-ci.high[0], rel=1e-12) and ci.high[0] > 0.0 and p[0] == 1.0
    diff = _p_s(a)[1].mean() - _p_s(b)[1].mean()
    assert ci.low[1] < diff < ci.high[1]
    # The p-value is the normal one whose interval is ci on the side of 0.
    se = (diff - ci.low[1]) / Z95 if diff >= 0 else (ci.high[1] - diff) / Z95
    assert p[1] == pytest.approx(2 * stats.norm.sf(abs(diff) / se), rel=1e-10)


def test_paired_difference_of_a_single_set():
    """Counts (clusters, 5), no set axis: the interval surrounds the hand P_S difference."""
    a = _random_counts(8, (40,))
    b = _random_counts(9, (40,), probs=(0.05, 0.7, 0.15, 0.05, 0.05))
    ci, p = an.paired_difference_analytic(a, b)
    diff = _p_s(a) - _p_s(b)
    assert np.ndim(ci.low) == 0
    assert float(ci.low) < diff < float(ci.high)
    assert 0.0 <= float(p) <= 1.0


def test_paired_difference_exclude_both_equals_dropping_both_column():
    """both="exclude" applies to both systems: the result is that of the counts without "both" outputs."""
    a, b = _random_counts(10, (30, 2)), _random_counts(11, (30, 2), probs=(0.2, 0.4, 0.1, 0.25, 0.05))
    da, db = a.copy(), b.copy()
    da[..., 3] = db[..., 3] = 0
    ci, p = an.paired_difference_analytic(a, b, both="exclude")
    ref, p_ref = an.paired_difference_analytic(da, db)
    assert np.allclose(ci.low, ref.low, rtol=1e-12) and np.allclose(ci.high, ref.high, rtol=1e-12)
    assert np.allclose(p, p_ref, rtol=1e-12)


@pytest.mark.parametrize(
    "diff, low, high, expected",
    [
        (0.0, 0.0, 0.0, 1.0),  # a point at 0: no evidence of a difference
        (0.3, 0.3, 0.5, 0.0),  # no distance to the bound facing 0: the interval excludes 0 at every level
        (-0.3, -0.5, -0.3, 0.0),
        (0.3, 0.1, 0.5, 2 * stats.norm.sf(0.3 / (0.2 / Z95))),
    ],
)
def test_interval_pvalue_by_hand(diff, low, high, expected):
    """The p-value of the normal test whose interval is [low, high] on the side of 0."""
    p = an._interval_pvalue(np.asarray(diff), an.ConfidenceInterval(np.asarray(low), np.asarray(high)), Z95)
    assert float(p) == pytest.approx(expected, rel=1e-12, abs=1e-300)


def test_minority_count_is_about_the_outputs_off_the_majority():
    """``minority_count``: min(g, 1 − g) · n_eff with the design effect as estimated (not the worst case).

    About the number of outputs off the majority: 20 "she" among 1,000 single outputs; 10 "he" among 990 neutral
    (g near 1: its failures are counted); 500 "both" (neutral unless excluded: then g = 0 and no minority); 8 "she"
    spread over 8 of 200 clusters of 5 (no clustering: about 8, where the worst-case design effect of ten or fewer,
    the mean cluster size, would give 1.6); 20 "she" in 4 clusters of 5 identical outputs (about 4: they are 4 observations).
    """
    from stats_mtbias.uncertainty.analytic import minority_count

    def clusters(rows):
        return np.array([[f, m, n, b, 0] for f, m, n, b in rows], dtype=float)

    assert 17 <= float(minority_count(clusters([(1, 0, 0, 0)] * 20 + [(0, 1, 0, 0)] * 980))) <= 23
    assert 8 <= float(minority_count(clusters([(0, 0, 1, 0)] * 990 + [(0, 1, 0, 0)] * 10))) <= 12
    with_both = clusters([(0, 0, 0, 1)] * 500 + [(0, 1, 0, 0)] * 500)
    assert 450 <= float(minority_count(with_both)) <= 550
    assert float(minority_count(with_both, both="exclude")) == 0.0
    assert 6 <= float(minority_count(clusters([(1, 4, 0, 0)] * 8 + [(0, 5, 0, 0)] * 192))) <= 11
    assert 3 <= float(minority_count(clusters([(5, 0, 0, 0)] * 4 + [(0, 5, 0, 0)] * 196))) <= 5


# -----------------------------------------------------------------------------
# Hand formulas and independent implementations for the parts of the statistics core that mutation testing
# showed no fast test would miss (issue 38; docs/testing.md). Every expected value is computed here, from the
# formula or by scipy/statsmodels, never by the package function under test.


Z975 = stats.norm.ppf(0.975)


# ----------------------------------------------------------------------------- g = p_w p_m + p_n and its variance
def test_g_and_its_gradient():
    p = np.array([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]])
    g, grad = an._g_parts(p)
    np.testing.assert_allclose(g, [0.2 * 0.5 + 0.3, 0.1 * 0.1 + 0.8])
    np.testing.assert_allclose(grad, [[0.5, 0.2, 1.0], [0.1, 0.1, 1.0]])


def test_multinomial_variance_of_g_is_the_delta_method():
    p = np.array([0.2, 0.5, 0.3])
    n = 40.0
    # Var(g) of n multinomial draws, delta method: grad' (diag(p) − p p') grad / n, written out.
    grad = np.array([0.5, 0.2, 1.0])
    cov = (np.diag(p) - np.outer(p, p)) / n
    assert an._multinomial_var(p, grad, np.array(n)) == pytest.approx(grad @ cov @ grad)
    two = an._multinomial_var(np.stack([p, p[::-1]]), np.stack([grad, grad]), np.array([n, 2 * n]))
    assert two[1] == pytest.approx(grad @ ((np.diag(p[::-1]) - np.outer(p[::-1], p[::-1])) / (2 * n)) @ grad)


def test_influence_and_effective_size_of_g_by_hand():
    """Clusters of sentences: g's linearised values and n_eff = g (1 − g) / V by hand (V = k/(k−1) Σ u²)."""
    x = np.array([[2, 1, 1], [0, 3, 1], [1, 1, 0], [0, 0, 2], [3, 0, 1]], dtype=float)  # (clusters, f/m/n)
    n = x.sum()
    p = x.sum(0) / n
    g = p[0] * p[1] + p[2]
    grad = np.array([p[1], p[0], 1.0])
    u = (x - np.outer(x.sum(1), p)) @ grad / n  # per-cluster influence
    influence, k = an._influence(x, grad)
    np.testing.assert_allclose(influence, u)
    assert k == 5
    v = 5 / 4 * np.sum(u**2)
    g_hat, n_eff = an._g_effective(x, worst_case=False)
    assert g_hat == pytest.approx(g)
    assert n_eff == pytest.approx(g * (1 - g) / v)
    # Its score interval is the modified Wilson interval of g on that size, i.e. Wilson's here (no few events).
    _, ci = an.g_score_interval(x, worst_case=False)
    centre = (g + Z975**2 / (2 * n_eff)) / (1 + Z975**2 / n_eff)
    half = Z975 * np.sqrt(g * (1 - g) / n_eff + Z975**2 / (4 * n_eff**2)) / (1 + Z975**2 / n_eff)
    assert (float(ci.low), float(ci.high)) == pytest.approx((centre - half, centre + half))
    # A cluster without outputs changes neither g nor the cluster count.
    _, k_empty = an._influence(np.vstack([x, np.zeros((1, 3))]), grad)
    assert k_empty == 5


def test_effective_size_with_few_minority_outputs_takes_the_worst_case():
    """Two female outputs among 300 in clusters of three: the design effect is at least the cluster size."""
    x = np.zeros((100, 3))
    x[:, 1] = 3
    x[0] = [1, 2, 0]
    x[50] = [1, 2, 0]
    g, n_eff_est = an._g_effective(x, worst_case=False)
    _, n_eff_worst = an._g_effective(x, worst_case=True)
    assert n_eff_worst < n_eff_est
    # worst case: V = V_mult × max(deff, 3) with V_mult = Var of g from 300 outputs
    p = x.sum(0) / 300
    grad = np.array([p[1], p[0], 1.0])
    v_mult = (np.sum(p * grad**2) - np.sum(p * grad) ** 2) / 300
    u = (x - np.outer(x.sum(1), p)) @ grad / 300
    deff = 100 / 99 * np.sum(u**2) / v_mult
    assert n_eff_est == pytest.approx(g * (1 - g) / (v_mult * deff))
    assert n_eff_worst == pytest.approx(g * (1 - g) / (v_mult * max(deff, 3.0)))
    # g = 0 (every output male): n_eff is the number of outputs over the cluster size, and the interval is no point.
    zero = np.zeros((100, 3))
    zero[:, 1] = 3
    g0, n0 = an._g_effective(zero)
    assert g0 == 0 and n0 == pytest.approx(100.0)
    assert float(an.p_s_interval(np.concatenate([zero, np.zeros((100, 2))], axis=1)).high) > 0


def test_p_s_interval_is_the_square_root_of_g_and_both_rule():
    counts = np.zeros((60, 5))
    counts[:20, 0] = 1
    counts[20:50, 1] = 1
    counts[50:55, 3] = 1  # "both": neutral by default, left out with both="exclude"
    counts[55:, 2] = 1
    for both, fmn in (("neutral", [20, 30, 10]), ("exclude", [20, 30, 5])):
        ci = an.p_s_interval(counts, both=both)
        x = np.zeros((60, 3))
        x[:20, 0], x[20:50, 1] = 1, 1
        x[50:55, 2] = 1.0 if both == "neutral" else 0.0
        x[55:, 2] = 1
        _, g_ci = an.g_score_interval(x)
        assert (float(ci.low), float(ci.high)) == pytest.approx((np.sqrt(g_ci.low), np.sqrt(g_ci.high)))
        n = sum(fmn)
        assert float(p_s(counts.sum(0), both)) == pytest.approx(np.sqrt(fmn[0] * fmn[1] / n**2 + fmn[2] / n))


def test_proportion_interval_divides_by_the_design_effect():
    for method, ref in (
        ("wilson", an.modified_wilson_interval),
        ("jeffreys", an.jeffreys_interval),
        ("clopper-pearson", an.clopper_pearson_interval),
    ):
        ci = an.proportion_interval(30, 100, method=method, deff=2.0, level=0.9)
        expected = ref(15.0, 50.0, 0.9)
        assert (float(ci.low), float(ci.high)) == pytest.approx((float(expected.low), float(expected.high)))
    with pytest.raises(UsageError, match="method"):
        an.proportion_interval(3, 10, method="wald")


@pytest.mark.parametrize("k", [0, 1, 7, 50])
def test_jeffreys_and_clopper_pearson_by_the_beta_quantiles(k):
    n, level = 50, 0.9
    jl, jh = an.jeffreys_interval(k, n, level).low, an.jeffreys_interval(k, n, level).high
    assert float(jl) == pytest.approx(0.0 if k == 0 else stats.beta.ppf(0.05, k + 0.5, n - k + 0.5))
    assert float(jh) == pytest.approx(1.0 if k == n else stats.beta.ppf(0.95, k + 0.5, n - k + 0.5))
    cl, ch = an.clopper_pearson_interval(k, n, level).low, an.clopper_pearson_interval(k, n, level).high
    assert float(cl) == pytest.approx(0.0 if k == 0 else stats.beta.ppf(0.05, k, n - k + 1))
    assert float(ch) == pytest.approx(1.0 if k == n else stats.beta.ppf(0.95, k + 1, n - k))


def test_modified_wilson_takes_garwoods_poisson_ends_below_eleven():
    # 3 of 1000: each end the outer of Wilson's and Garwood's exact Poisson limit (Gamma.ppf(.025, 3)/n, (.975, 4)/n).
    ci = an.modified_wilson_interval(3, 1000)
    k, n = 3, 1000
    centre = (k / n + Z975**2 / (2 * n)) / (1 + Z975**2 / n)
    half = Z975 * np.sqrt(k / n * (1 - k / n) / n + Z975**2 / (4 * n * n)) / (1 + Z975**2 / n)
    assert float(ci.low) == pytest.approx(min(centre - half, stats.gamma.ppf(0.025, 3) / 1000))
    assert float(ci.high) == pytest.approx(max(centre + half, stats.gamma.ppf(0.975, 4) / 1000))
    assert float(ci.low) < centre - half  # the Poisson end is the outer one below
    # 997 of 1000 mirrors it; 11 of 1000 is Wilson's own.
    top = an.modified_wilson_interval(997, 1000)
    assert (float(top.low), float(top.high)) == pytest.approx((1 - float(ci.high), 1 - float(ci.low)))
    w = an.wilson_interval(11, 1000)
    eleven = an.modified_wilson_interval(11, 1000)
    assert (float(eleven.low), float(eleven.high)) == pytest.approx((float(w.low), float(w.high)))
    assert float(an.modified_wilson_interval(10, 1000).low) == pytest.approx(stats.gamma.ppf(0.025, 10) / 1000)


def test_defaults_and_levels_reach_the_formulas():
    """The default level is 0.95 and a level passed on is used (each checked against its formula)."""
    assert float(an.jeffreys_interval(7, 50).low) == pytest.approx(stats.beta.ppf(0.025, 7.5, 43.5))
    assert float(an.clopper_pearson_interval(7, 50).low) == pytest.approx(stats.beta.ppf(0.025, 7, 44))
    counts = np.zeros((60, 5))
    counts[:25, 0], counts[25:, 1] = 1, 1
    wide, narrow = an.p_s_interval(counts, 0.99), an.p_s_interval(counts, 0.8)
    usual = an.p_s_interval(counts)
    assert float(wide.high - wide.low) > float(usual.high - usual.low) > float(narrow.high - narrow.low)
    # The normal designs at alpha = 0.1, one-sided: (z_{0.9} + z_{0.8}) se, and the size that goes with it.
    one = stats.norm.ppf(0.9) + stats.norm.ppf(0.8)
    assert float(closed.normal_mde(0.1, alpha=0.1, alternative="one-sided")) == pytest.approx(one * 0.1)
    assert float(closed.normal_mde(0.1)) == pytest.approx((Z975 + stats.norm.ppf(0.8)) * 0.1)
    n = closed.normal_sample_size(0.05, 0.1, 100, alpha=0.1, alternative="one-sided")
    assert int(n) == int(np.ceil(100 * (one * 0.1 / 0.05) ** 2 - 1e-9))
    # An exact integer n·k: ceil leaves it (0.1 se at 100 units, difference = mde/2: n = 400 exactly).
    mde = float(closed.normal_mde(0.1))
    assert int(closed.normal_sample_size(mde / 2, 0.1, 100)) == 400


# -----------------------------------------------------------------------------
# The significance layer against hand computations and independent library calls.


def test_design_effect_and_clustered_intervals():
    assert design_effect([1, 0, 1, 0], [1, 1, 1, 1]) == 1.0  # one output per item
    # Items all-or-nothing over 6 outputs: each item is one effective draw -> deff = 6 * k/(k-1).
    x = np.array([6, 0, 6, 0, 0, 6])
    k = 6
    assert design_effect(x, np.full(6, 6)) == pytest.approx(6 * k / (k - 1))
    # No (or ten or fewer effective) successes: the robust variance rests on a handful of clusters, so the
    # design effect is at least the mean cluster size (the worst case: a cluster's outputs count as one).
    assert design_effect([0, 0, 0], [6, 6, 6]) == 6.0
    scattered = np.zeros(100)
    scattered[[3, 50]] = 1  # 2 successes in 600 outputs, each in its own cluster: robust deff ~ 1
    assert design_effect(scattered, np.full(100, 6)) == 6.0
    many = np.tile([1, 0, 0], 100)  # 100 successes in 600 outputs: enough to estimate the variance
    assert design_effect(many, np.full(300, 2)) < 2.0
    base = proportion_interval(30, 100)
    low, high = proportion_confint(30, 100, method="wilson")
    assert float(base.low) == pytest.approx(low) and float(base.high) == pytest.approx(high)
    wide = proportion_interval(30, 100, deff=2.0)
    assert float(wide.low) < float(base.low) and float(wide.high) > float(base.high)
    zero = proportion_interval(0, 931)
    assert float(zero.low) == 0.0 and 0.003 < float(zero.high) < 0.005
    jeff = proportion_interval(0, 931, method="jeffreys")
    assert float(jeff.high) == pytest.approx(stats.beta.ppf(0.975, 0.5, 931.5))


@pytest.mark.parametrize("k", [0, 1, 17, 99, 100])
def test_proportion_intervals_match_statsmodels(k):
    for ours, name in ((wilson_interval, "wilson"), (jeffreys_interval, "jeffreys"), (clopper_pearson_interval, "beta")):
        ci = ours(k, 100, 0.9)
        low, high = proportion_confint(k, 100, alpha=0.1, method=name)
        if name == "jeffreys":
            # Brown, Cai & DasGupta (2001): the Jeffreys ends are 0 at k = 0 and 1 at k = n.
            low, high = (0.0 if k == 0 else low), (1.0 if k == 100 else high)
        assert float(ci.low) == pytest.approx(low, abs=1e-9)
        assert float(ci.high) == pytest.approx(high, abs=1e-9)


def test_proportion_interval_at_zero_is_not_degenerate():
    ci = wilson_interval(0, 496)
    assert ci.low == 0.0 and 0.005 < ci.high < 0.01


def test_p_s_interval_inside_unit_interval_even_when_degenerate():
    for counts in ([0, 496, 0, 0, 0], [0, 0, 496, 0, 0], [248, 248, 0, 0, 0], [1, 495, 0, 0, 0]):
        one_hot = np.zeros((496, 5))
        labels = np.repeat(np.arange(5), counts)
        one_hot[np.arange(496), labels] = 1
        ci = p_s_interval(one_hot)
        assert 0.0 <= ci.low < ci.high <= 1.0
