"""Bootstrap intervals and p-values of :mod:`stats_mtbias.uncertainty.bootstrap` against textbook formulas."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from scipy import stats

from stats_mtbias.cli import main
from stats_mtbias.errors import DataQualityWarning, UsageError
from stats_mtbias.uncertainty.bootstrap import (
    BootstrapResult,
    bootstrap_pvalue,
    cluster_bootstrap,
    paired_permutation,
    resample_weights,
    tail_resolution,
    weighted_sums,
)


def _reference_bca(estimate, replicates, jackknife, level):
    """BCa limits of one column (Efron & Tibshirani 1993, eqs. 14.10, 14.14-14.15), ties counted half."""
    below = np.mean(replicates < estimate) + 0.5 * np.mean(replicates == estimate)
    z0 = stats.norm.ppf(below)
    d = np.mean(jackknife) - jackknife
    a = np.sum(d**3) / (6.0 * np.sum(d**2) ** 1.5) if np.any(d != 0) else 0.0  # constant: no acceleration
    out = []
    for z in stats.norm.ppf([(1 - level) / 2, (1 + level) / 2]):
        out.append(np.quantile(replicates, stats.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z)))))
    return out


def _skewed_columns():
    """Discrete replicates (ties with the estimate) and skewed jackknife values, four columns."""
    rng = np.random.default_rng(7)
    replicates = np.column_stack(
        [
            rng.poisson(4.0, 301) / 2.0,  # estimate 2.0 is hit often: ties
            rng.gamma(2.0, 1.0, 301) + 5.0,  # every replicate above the estimate (0.0)
            -rng.gamma(2.0, 1.0, 301),  # every replicate below the estimate (1.0)
            rng.normal(0.0, 1.0, 301) ** 2,  # constant jackknife: no acceleration
        ]
    )
    estimate = np.array([2.0, 0.0, 1.0, 0.5])
    jack = np.array(
        [[0.0, 1.0, 1.0, 3.0], [0.2, 0.3, 2.5, 3.0], [1.0, 1.1, 1.2, 3.0], [9.0, 0.1, 0.4, 3.0], [0.5, 4.0, 0.9, 3.0]]
    )
    return estimate, replicates, jack


def test_bca_matches_the_textbook_formula_column_by_column():
    """BCa limits equal Efron–Tibshirani's z0/acceleration formula per column, and the limits 0/1 at the extremes."""
    estimate, replicates, jack = _skewed_columns()
    res = BootstrapResult(estimate, replicates, jack, 0.95, "bca")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = res.confidence_interval()
    for j in (0, 3):
        low, high = _reference_bca(estimate[j], replicates[:, j], jack[:, j], 0.95)
        assert_allclose([ci.low[j], ci.high[j]], [low, high], rtol=1e-10)
    # All replicates above (below) the estimate: z0 → −∞ (+∞), both adjusted levels → 0 (1), the smallest (largest) replicate.
    assert_allclose([ci.low[1], ci.high[1]], [replicates[:, 1].min()] * 2, rtol=1e-10)
    assert_allclose([ci.low[2], ci.high[2]], [replicates[:, 2].max()] * 2, rtol=1e-10)
    # Another level given to confidence_interval is used, not the result's own.
    low90, high90 = _reference_bca(estimate[0], replicates[:, 0], jack[:, 0], 0.80)
    ci80 = res.confidence_interval(level=0.80)
    assert_allclose([ci80.low[0], ci80.high[0]], [low90, high90], rtol=1e-10)


def test_bca_jackknife_weights_equal_repeated_values_and_nan_is_left_out():
    """Jackknife weights f count a value f times; a NaN jackknife value is left out (textbook on the expanded values)."""
    rng = np.random.default_rng(17)
    replicates = np.column_stack([rng.gamma(2.0, 1.0, 401), rng.normal(0.0, 1.0, 401)])
    estimate = np.array([1.8, 0.1])
    jack = np.array([[0.0, 1.0], [np.nan, 0.3], [1.0, 2.5], [9.0, 0.1], [0.5, 4.0]])
    weights = np.array([1.0, 3.0, 2.0, 1.0, 1.0])
    res = BootstrapResult(estimate, replicates, jack, 0.9, "bca", jackknife_weights=weights)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = res.confidence_interval()
    for j in (0, 1):
        expanded = np.repeat(jack[:, j], weights.astype(int))
        low, high = _reference_bca(estimate[j], replicates[:, j], expanded[~np.isnan(expanded)], 0.9)
        assert_allclose([ci.low[j], ci.high[j]], [low, high], rtol=1e-10)


def test_bca_interpolates_between_the_two_largest_replicates():
    """Five replicates: an adjusted level above 3/4 interpolates between the 4th and 5th order statistics."""
    replicates = np.array([3.0, 0.0, 10.0, 1.0, 2.0])
    jack = np.array([0.0, 0.1, 0.2, 0.3, 2.0])
    ci = BootstrapResult(np.array(2.5), replicates, jack, 0.8, "bca").confidence_interval()
    low, high = _reference_bca(2.5, replicates, jack, 0.8)
    assert 3.0 < high < 10.0
    assert_allclose([ci.low, ci.high], [low, high], rtol=1e-10)


def test_bca_all_nan_jackknife_column_has_no_acceleration_and_no_warning():
    """A column whose jackknife is all NaN gets acceleration 0 (bias-corrected percentile), silently."""
    estimate, replicates, jack = _skewed_columns()
    jack = jack.copy()
    jack[:, 0] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = BootstrapResult(estimate, replicates, jack, 0.95, "bca").confidence_interval()
    z0 = stats.norm.ppf(np.mean(replicates[:, 0] < 2.0) + 0.5 * np.mean(replicates[:, 0] == 2.0))
    expected = np.quantile(replicates[:, 0], stats.norm.cdf(2 * z0 + stats.norm.ppf([0.025, 0.975])))
    assert_allclose([ci.low[0], ci.high[0]], expected, rtol=1e-10)


def test_studentized_interval_is_the_bootstrap_t():
    """Bootstrap-t: [θ − q(1−α) se, θ − q(α) se] with q the quantiles of (θ* − θ)/se*; both SEs required."""
    rng = np.random.default_rng(3)
    replicates = rng.normal(1.0, 2.0, 400)
    replicate_se = rng.uniform(1.0, 3.0, 400)
    res = BootstrapResult(np.array(1.5), replicates, None, 0.9, "studentized", np.array(2.0), replicate_se)
    ci = res.confidence_interval()
    q_low, q_high = np.quantile((replicates - 1.5) / replicate_se, [0.05, 0.95])
    assert_allclose([ci.low, ci.high], [1.5 - q_high * 2.0, 1.5 - q_low * 2.0], rtol=1e-12)
    for se, rse in ((None, replicate_se), (np.array(2.0), None)):
        half = BootstrapResult(np.array(1.5), replicates, None, 0.9, "studentized", se, rse)
        with pytest.raises(ValueError):
            half.confidence_interval()


def test_percentile_all_nan_column_is_nan_without_warning():
    """Percentile limits of a column without any finite replicate are NaN, silently; other columns as np.quantile.

    31 replicates: 3.1 beyond each end of an 80% interval, enough to place it (uncertainty.bootstrap.tail_resolution).
    """
    reps = np.column_stack([np.arange(31.0), np.full(31, np.nan)])
    reps[3, 0] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ci = BootstrapResult(np.zeros(2), reps, None, 0.8, "percentile").confidence_interval()
    finite = np.delete(np.arange(31.0), 3)
    assert_allclose(ci.low, [np.quantile(finite, 0.1), np.nan])
    assert_allclose(ci.high, [np.quantile(finite, 0.9), np.nan])


def test_bootstrap_pvalue_counts_per_column_and_ignores_nan():
    """p = min(1, 2 min((#d ≤ 0 + 1)/(n + 1), (#d ≥ 0 + 1)/(n + 1))) per column, n the non-NaN replicates."""
    d = np.array([[-1.0, 1.0], [0.5, 2.0], [2.0, np.nan], [3.0, 4.0]])
    # column 0: below (1 + 1)/5, above (3 + 1)/5 → 0.8; column 1: n = 3, below 1/4, above 4/4 → 0.5.
    assert_allclose(bootstrap_pvalue(d), [0.8, 0.5])
    assert_allclose(bootstrap_pvalue(d, null=10.0), [2 * 1 / 5, 2 * 1 / 4])


def test_cluster_bootstrap_bca_jackknife_leaves_one_cluster_out():
    """method='bca' stores the leave-one-cluster-out statistic of every cluster (2-D data, per column)."""
    data = np.array([[1.0, 2.0], [3.0, 0.0], [5.0, 7.0]])
    res = cluster_bootstrap(data, lambda t: t, n_boot=20, rng=1, method="bca")
    assert_allclose(res.jackknife, [[8.0, 7.0], [6.0, 9.0], [4.0, 2.0]])


def test_weighted_sums_exact_where_float32_is_not():
    """Sums above 2**24 of odd integers (7 × (2**22 + 1), not a float32) and non-integer data are exact float64 sums."""
    v = 2.0**22 + 1
    sums = weighted_sums(np.ones((1, 7), dtype=np.int32), np.full((7, 1), v))
    assert sums[0, 0] == 7 * v  # 29,360,135 is odd and above 2**24: float32 cannot hold it
    sums = weighted_sums(np.ones((1, 7), dtype=np.int64), np.full((7, 2), v))
    assert np.all(sums == 7 * v)
    w = np.array([[1, 2, 0], [0, 1, 3]])
    x = np.array([0.1, 0.2, 0.3])
    assert_allclose(weighted_sums(w, x), [0.1 + 0.4, 0.2 + 0.9], rtol=1e-15)
    w_float = np.array([[0.1, 0.2, 0.0]])
    assert_allclose(weighted_sums(w_float, np.array([3.0, 5.0, 7.0])), [0.3 + 1.0], rtol=1e-15)


def test_weighted_sums_shape_and_empty_cells():
    """Replicate totals have shape (n_boot, *cells); data without cells give an empty (n_boot, 0) result."""
    w = np.array([[1, 0, 2], [3, 1, 0]])
    data = np.arange(12.0).reshape(3, 2, 2)
    expected = np.einsum("bc,cij->bij", w.astype(float), data)
    assert_allclose(weighted_sums(w, data), expected)
    assert weighted_sums(w, np.zeros((3, 0))).shape == (2, 0)


def test_resample_weights_keep_every_stratum_size():
    """Interleaved strata: every replicate draws each stratum's own size, from its own clusters only."""
    strata = np.array([0, 1, 1, 0, 2, 1])
    for method in ("index", "multinomial"):
        w = resample_weights(300, strata=strata, rng=5, method=method)
        assert w.shape == (300, 6)
        assert np.all(w[:, [0, 3]].sum(axis=1) == 2)
        assert np.all(w[:, [1, 2, 5]].sum(axis=1) == 3)
        assert np.all(w[:, 4] == 1)
        assert 0 < w[:, 0].mean() < 2  # both members of the split stratum {0, 3} get drawn
    w = resample_weights(50, 5, rng=1)
    assert w.shape == (50, 5) and np.all(w.sum(axis=1) == 5)
    assert resample_weights(3, 100, rng=1, dtype=np.float32).dtype == np.float32


def test_resample_weights_large_stratum_draws_every_cluster():
    """A stratum of 40,000 clusters (above int16's range) is drawn over all its clusters, counts summing to its size."""
    w = resample_weights(2, 40_000, rng=2)
    assert np.all(w.sum(axis=1) == 40_000)
    assert w[:, 35_000:].sum() > 0


def test_cluster_bootstrap_frequency_rows_with_strata_and_bca():
    """Rows standing for f clusters: estimate from Σ f·row, stratum totals kept in every replicate, jackknife leaves one out."""
    data = np.array([[1.0, 0.0, 2.0, 1.0], [1.0, 0.0, 5.0, 1.0], [0.0, 1.0, 1.0, 1.0]])
    frequency = np.array([2, 1, 3])
    strata = np.array(["x", "x", "y"])
    res = cluster_bootstrap(data, lambda t: t, frequency=frequency, strata=strata, n_boot=300, rng=4, level=0.9, method="bca")
    assert_allclose(res.estimate, [3.0, 3.0, 2 * 2 + 5 + 3 * 1, 6.0])
    assert res.replicates.shape == (300, 4) and np.all(res.replicates[:, 3] == 6)
    assert np.all(res.replicates[:, 0] == 3) and np.all(res.replicates[:, 1] == 3)  # 3 clusters per stratum
    assert np.all(np.isin(res.replicates[:, 2] - 9.0, [0.0, 3.0, 6.0, 9.0]))  # x: three of 2 or 5; y: three 1s
    assert abs(res.replicates[:, 2].mean() - 12.0) < 0.5
    assert_allclose(res.jackknife, [[2.0, 3.0, 10.0, 5.0], [2.0, 3.0, 7.0, 5.0], [3.0, 2.0, 11.0, 5.0]])
    assert_allclose(res.jackknife_weights, [2.0, 1.0, 3.0])
    assert res.level == 0.9 and res.method == "bca"
    plain = cluster_bootstrap(data, lambda t: t, frequency=frequency, n_boot=10, rng=4)
    assert plain.jackknife is None and plain.method == "percentile"


@pytest.mark.parametrize("frequency", [np.array([1.5, 1.0, 2.0]), np.array([1, 0, 2]), np.array([[1], [1], [2]])])
def test_cluster_bootstrap_refuses_bad_frequency(frequency):
    """Non-integer, zero or misshapen frequencies are refused with a ValueError naming `frequency`."""
    with pytest.raises(ValueError, match="frequency"):
        cluster_bootstrap(np.ones((3, 2)), lambda t: t, frequency=frequency, n_boot=10, rng=0)


def test_cluster_bootstrap_multinomial_weights_keep_strata():
    """weights='multinomial' with strata: every replicate keeps each stratum's size (indicator columns)."""
    strata = np.array([0, 1, 0, 1, 1])
    data = np.column_stack([strata == 0, strata == 1, [1.0, 2.0, 3.0, 4.0, 5.0]]).astype(float)
    res = cluster_bootstrap(data, lambda t: t, n_boot=200, rng=3, strata=strata, weights="multinomial")
    assert res.replicates.shape == (200, 3)
    assert np.all(res.replicates[:, 0] == 2) and np.all(res.replicates[:, 1] == 3)
    assert abs(res.replicates[:, 2].mean() - 15.0) < 1.0
    with pytest.raises(ValueError):
        cluster_bootstrap(data, lambda t: t, n_boot=10, rng=3, weights="bogus")


def test_cluster_bootstrap_exact_sums_above_float32_range():
    """Seven clusters of 2**22 + 1 (sums above 2**24): every replicate total is exactly 7 × (2**22 + 1)."""
    v = 2.0**22 + 1
    res = cluster_bootstrap(np.full((7, 1), v), lambda t: t, n_boot=50, rng=0)
    assert np.all(res.replicates == 7 * v)


def test_cluster_bootstrap_default_replicates():
    """Without n_boot the bootstrap draws 10,000 replicates; the estimate is a float even for integer data."""
    res = cluster_bootstrap(np.array([[1], [0], [1]]), lambda t: t[:, 0], rng=0)
    assert res.replicates.shape == (10_000,)
    assert res.estimate.dtype == float


def test_paired_permutation_matches_exact_enumeration():
    """8 discordant clusters all +1: |d*| ≥ |d| only when none or all swap, p → 2/256 (exact); bool data accepted."""
    a = np.ones((10, 1), dtype=bool)
    a[8:] = False
    b = np.zeros((10, 1), dtype=bool)
    observed, p = paired_permutation(a, b, lambda t: t[:, 0], n_perm=100_000, rng=11)
    assert_allclose(observed, 8.0)
    assert abs(float(p) - 2 / 256) < 0.1 * 2 / 256


def test_paired_permutation_p_values_per_cell():
    """Two cells: one discordant cluster (always as extreme) and no difference: both p-values 1, per cell."""
    a = np.array([[1.0, 0.0], [0.0, 0.0]])
    b = np.zeros((2, 2))
    observed, p = paired_permutation(a, b, lambda t: t, n_perm=50, rng=0)
    assert_allclose(observed, [1.0, 0.0])
    assert_allclose(p, [1.0, 1.0])


def test_bca_drops_an_infinite_jackknife_value_like_a_nan():
    """An infinite leave-one-out value is left out of the acceleration (as a NaN is), not turned into a point interval."""
    rng = np.random.default_rng(11)
    replicates = rng.gamma(2.0, size=(400, 1))
    jackknife = np.array([[1.0], [1.4], [np.inf], [0.7], [2.9], [-np.inf]])
    result = BootstrapResult(np.array([1.9]), replicates, jackknife, 0.9, "bca")
    ci = result.confidence_interval()
    low, high = _reference_bca(1.9, replicates[:, 0], np.array([1.0, 1.4, 0.7, 2.9]), 0.9)
    assert_allclose([ci.low[0], ci.high[0]], [low, high], rtol=1e-12)
    assert ci.high[0] - ci.low[0] > 0.5


def test_bootstrap_pvalue_is_computed_per_column():
    """Each column of 2-D replicates gets its own two-sided p-value, (1 + #beyond) / (n + 1) on its smaller side."""
    d = np.array([[-1.0, 1.0], [-2.0, 2.0], [-3.0, 3.0], [1.0, 4.0]])
    # Column 0: 3 of 4 at or below 0 and 1 at or above: min((3+1)/5, (1+1)/5) = 0.4, doubled 0.8.
    # Column 1: none at or below 0: min(1/5, 5/5) = 0.2, doubled 0.4.
    assert_allclose(bootstrap_pvalue(d), [0.8, 0.4], rtol=1e-15)


def test_paired_permutation_swaps_every_discordant_cluster():
    """The randomisation p-value matches its exact value by enumeration with 18 discordant clusters (bytes not full)."""
    # a − b per cluster: sixteen of +1 and two large ones of opposite signs. The two large ones cancel in the
    # observed difference (16); swapped together or apart they move it by 0 or ±20, so a test that never swaps
    # the last clusters gets p ≈ 0 where the exact p is about 0.45.
    diff = np.array([1.0] * 16 + [10.0, -10.0])
    a = np.where(diff > 0, diff, 0.0)
    b = np.where(diff > 0, 0.0, -diff)
    observed, p = paired_permutation(a, b, lambda t: t, n_perm=4000, rng=5)
    assert observed == pytest.approx(16.0)
    signs = np.array(np.meshgrid(*[[-1.0, 1.0]] * 2)).reshape(2, -1).T  # the two large clusters' signs
    ones = stats.binom.pmf(np.arange(17), 16, 0.5)  # j of the sixteen +1 keep their sign: sum 2j − 16
    exact = sum(0.25 * ones[np.abs(2 * np.arange(17) - 16 + 10 * s1 - 10 * s2) >= 16].sum() for s1, s2 in signs)
    assert exact == pytest.approx(0.5 * (1 - 6885 / 2**16) + 2**-16, rel=1e-12)  # P(j >= 6) or P(j <= 10), halves
    assert p == pytest.approx(exact, abs=4 * np.sqrt(exact * (1 - exact) / 4000))


def test_paired_permutation_default_draws_ten_thousand_permutations():
    """With the documented default n_perm = 10,000, a difference no swap reaches has p = 1 / 10,001."""
    a = np.ones(64)  # 64 clusters all in A's favour: |d*| >= 64 needs all 64 swaps equal (probability 2^-63)
    _, p = paired_permutation(a, np.zeros(64), lambda t: t, rng=0)
    assert p == pytest.approx(1.0 / 10_001, rel=1e-12)


def test_frequency_bootstrap_keeps_the_shape_of_three_dimensional_data():
    """Rows of (systems, features) with frequencies: the statistic sees (n_boot, systems, features) and the jackknife
    leaves out one cluster of each row (hand sums)."""
    data = np.array([[[1.0, 2.0], [0.0, 1.0]], [[3.0, 1.0], [2.0, 2.0]], [[0.0, 1.0], [1.0, 3.0]]])
    frequency = np.array([2, 1, 3])

    def ratio(x):
        return x[..., 0] / x[..., 1]

    res = cluster_bootstrap(data, ratio, frequency=frequency, n_boot=50, rng=2, method="bca")
    total = np.einsum("c,csf->sf", frequency.astype(float), data)
    assert res.replicates.shape == (50, 2)
    assert_allclose(res.estimate, ratio(total), rtol=1e-15)
    assert_allclose(res.jackknife, [ratio(total - data[c]) for c in range(3)], rtol=1e-15)


def test_multinomial_weights_without_strata_draw_every_cluster_count():
    """weights='multinomial' without strata: each replicate is 4 rows drawn with replacement from 4 (row sums by hand)."""
    data = np.arange(12.0).reshape(4, 3)  # row i is (3i, 3i + 1, 3i + 2)
    res = cluster_bootstrap(data, lambda t: t, n_boot=2000, rng=8, weights="multinomial")
    rep = res.replicates
    assert rep.shape == (2000, 3)
    # Column j of a replicate is sum_i w_i (3i + j) with sum_i w_i = 4: the columns differ by exactly 4,
    # column 0 is a multiple of 3 in [0, 36], and its mean is the estimate 18 (sd 3 sqrt(4 * 1.25 * 3/4) / sqrt(2000)).
    assert_allclose(rep[:, 1] - rep[:, 0], 4.0)
    assert_allclose(rep[:, 2] - rep[:, 0], 8.0)
    assert np.all(rep[:, 0] % 3 == 0) and rep[:, 0].min() >= 0 and rep[:, 0].max() <= 36
    assert rep[:, 0].mean() == pytest.approx(18.0, abs=4 * np.sqrt(9 * 4 * 1.25 * 0.75) / np.sqrt(2000))


# -----------------------------------------------------------------------------
# Bootstrap-t limits by hand and the float32 guard of :mod:`stats_mtbias.uncertainty.bootstrap`.


def test_studentized_limits_by_hand_with_unit_standard_error():
    """t* = 0, 1, …, 100 and se = 1: 90% limits are θ − 95 and θ − 5 (integer quantile positions)."""
    t = np.arange(101.0)
    replicates, replicate_se = 10.0 + 2.0 * t, np.full(101, 2.0)
    res = BootstrapResult(np.array(10.0), replicates, None, 0.9, "studentized", np.array(1.0), replicate_se)
    ci = res.confidence_interval()
    assert_allclose([ci.low, ci.high], [10.0 - 95.0, 10.0 - 5.0], rtol=1e-12)


def test_studentized_without_spread_is_the_estimate_silently():
    """se = 0 and every replicate equal with se* = 0 (t* = 0/0 for all): the interval is the point θ, no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = BootstrapResult(np.array(0.3), np.full(100, 0.3), None, 0.95, "studentized", np.array(0.0), np.zeros(100))
        ci = res.confidence_interval()
    assert ci.low == 0.3 and ci.high == 0.3


def test_studentized_drops_replicates_without_a_finite_t():
    """Replicates with se* = 0 (t* = ±inf or 0/0) are left out: the limits are those of the finite t* alone."""
    t = np.arange(101.0)
    replicates = np.concatenate([1.0 + t, [1.0, 5.0, -3.0]])
    replicate_se = np.concatenate([np.ones(101), np.zeros(3)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = BootstrapResult(np.array(1.0), replicates, None, 0.9, "studentized", np.array(0.5), replicate_se)
        ci = res.confidence_interval()
    assert_allclose([ci.low, ci.high], [1.0 - 95.0 * 0.5, 1.0 - 5.0 * 0.5], rtol=1e-12)


def test_float32_weights_refused_above_two_to_the_24_clusters():
    """A stratum of 2**24 + 1 clusters cannot have exact float32 counts: ValueError before anything is drawn."""
    with pytest.raises(ValueError, match="float32"):
        resample_weights(1, 2**24 + 1, rng=0, dtype=np.float32)


def test_weights_keep_stratum_sizes_and_are_seeded():
    strata = np.array([0] * 7 + [1] * 3 + [2] * 5)
    for method in ("index", "multinomial"):
        w = resample_weights(500, strata=strata, rng=3, method=method)
        assert w.shape == (500, 15)
        assert (w[:, :7].sum(1) == 7).all() and (w[:, 7:10].sum(1) == 3).all() and (w[:, 10:].sum(1) == 5).all()
        assert np.array_equal(w, resample_weights(500, strata=strata, rng=3, method=method))
        assert not np.array_equal(w, resample_weights(500, strata=strata, rng=4, method=method))


@pytest.mark.parametrize("method", ["index", "multinomial"])
def test_every_cluster_is_drawn_binomially_within_its_stratum(method):
    """Each cluster's weight is Binomial(n_h, 1/n_h): mean 1, variance 1 − 1/n_h, its own pmf (every cluster, both paths).

    (The mean over all weights is 1 by construction; only each cluster's own distribution shows a cluster that is
    never drawn, e.g. an off-by-one that skips the last cluster of a stratum.)
    """
    # Shuffled strata (the gather path), one stratum contiguous (the offset path), a stratum of two.
    strata = np.concatenate([np.random.default_rng(0).permutation([0] * 7 + [1] * 3 + [2] * 5), [3] * 6, [4] * 2])
    reps = 20_000
    w = resample_weights(reps, strata=strata, rng=7, method=method)
    sizes = np.array([np.sum(strata == s) for s in strata])
    mean = w.mean(axis=0)
    var = w.var(axis=0)
    se = np.sqrt((1 - 1 / sizes) / reps)
    assert np.all(np.abs(mean - 1) < 5 * se), mean
    assert np.all(np.abs(var - (1 - 1 / sizes)) < 0.06), var
    for j in (0, 9, 14, len(strata) - 1):  # a cluster's weights against the binomial pmf (chi-square)
        n_h = sizes[j]
        observed = np.bincount(w[:, j], minlength=n_h + 1)[: n_h + 1]
        expected = stats.binom.pmf(np.arange(n_h + 1), n_h, 1 / n_h) * reps
        keep = expected > 5
        chi2 = np.sum((observed[keep] - expected[keep]) ** 2 / expected[keep])
        assert stats.chi2.sf(chi2, keep.sum() - 1) > 1e-4, (j, observed, expected.round())


def test_cluster_bootstrap_draws_every_cluster_of_every_stratum():
    """The fused path of cluster_bootstrap (blocks multiplied as drawn), not resample_weights: data = identity."""
    strata = np.array(["a"] * 5 + ["b"] * 3 + ["a"] * 2)
    eye = np.eye(len(strata))
    res = cluster_bootstrap(eye, lambda t: t, n_boot=20_000, rng=3, strata=strata)
    sizes = np.where(strata == "a", 7, 3)
    assert np.all(np.abs(res.replicates.mean(axis=0) - 1) < 5 * np.sqrt((1 - 1 / sizes) / 20_000))
    assert np.all(res.replicates[:, strata == "a"].sum(axis=1) == 7)
    freq = cluster_bootstrap(np.eye(3), lambda t: t, frequency=np.array([2, 1, 1]), n_boot=20_000, rng=4)
    # Four clusters, rows standing for 2, 1, 1 of them: each row's weight has mean frequency, variance f (1 − f/4) (4/4).
    np.testing.assert_allclose(freq.replicates.mean(axis=0), [2, 1, 1], atol=0.05)
    np.testing.assert_allclose(freq.replicates.var(axis=0), [2 * (1 - 2 / 4), 1 - 1 / 4, 1 - 1 / 4], atol=0.05)


def test_weights_are_the_same_in_every_dtype_and_across_blocks():
    # 700 replicates span several counting blocks; a shuffled (non-contiguous) stratum takes the gather path.
    strata = np.random.default_rng(0).permutation(np.array([0] * 40 + [1] * 9 + [2] * 30))
    ints = resample_weights(700, strata=strata, rng=5)
    floats = resample_weights(700, strata=strata, rng=5, dtype=np.float32)
    assert floats.dtype == np.float32 and np.array_equal(ints, floats)
    for label, size in ((0, 40), (1, 9), (2, 30)):
        assert (ints[:, strata == label].sum(axis=1) == size).all()
    # Rows from different blocks are not copies of each other.
    assert not np.array_equal(ints[:256], ints[256:512])
    data = np.random.default_rng(1).integers(0, 5, size=(79, 3)).astype(float)
    assert np.array_equal(weighted_sums(floats, data, integer_weights=True), ints.astype(float) @ data)


def test_randomness_must_be_explicit():
    with pytest.raises(UsageError, match="`rng`"):
        resample_weights(10, 5, rng=None)


def test_bootstrap_of_mean_matches_scipy():
    x = np.random.default_rng(0).exponential(size=60)
    data = np.stack([x, np.ones_like(x)], axis=1)  # sufficient statistics: sum, count

    def mean(totals):
        return totals[..., 0] / totals[..., 1]

    ours = cluster_bootstrap(data, mean, n_boot=20_000, rng=1, method="bca")
    theirs = stats.bootstrap((x,), np.mean, n_resamples=20_000, rng=1, method="BCa")
    assert ours.estimate == pytest.approx(x.mean())
    ci = ours.confidence_interval()
    assert ci.low == pytest.approx(theirs.confidence_interval.low, abs=0.02)
    assert ci.high == pytest.approx(theirs.confidence_interval.high, abs=0.02)
    assert ours.standard_error == pytest.approx(theirs.standard_error, rel=0.03)
    pct = ours.confidence_interval(method="percentile")
    assert pct.low == pytest.approx(np.quantile(ours.replicates, 0.025))


def test_bootstrap_pvalue_hand_computed():
    d = np.array([-1.0, 0.5, 1.0, 2.0, 3.0])  # 1 of 5 at or below 0
    assert bootstrap_pvalue(d) == pytest.approx(2 * (1 + 1) / 6)
    assert bootstrap_pvalue(-d) == pytest.approx(2 * (1 + 1) / 6)
    assert bootstrap_pvalue(np.zeros(9)) == 1.0


def test_permutation_detects_a_real_difference_and_not_an_identical_one():
    rng = np.random.default_rng(5)
    a = np.zeros((200, 5))
    a[np.arange(200), rng.choice(2, 200, p=[0.5, 0.5])] = 1
    b = np.zeros((200, 5))
    b[:, 1] = 1  # all male: P_S = 0
    from stats_mtbias.estimators.tgbi import p_s

    diff, p = paired_permutation(a, b, p_s, n_perm=2000, rng=1)
    assert diff == pytest.approx(float(p_s(a.sum(0))))
    assert p < 0.001
    _, p_same = paired_permutation(a, a, p_s, n_perm=500, rng=1)
    assert p_same == 1.0


def test_bootstrap_blocks_equal_the_weight_matrix():
    # cluster_bootstrap multiplies each block of weights as it is drawn, clusters laid out by stratum:
    # the same replicates as the whole weight matrix of resample_weights, with interleaved strata.
    gen = np.random.default_rng(2)
    strata = gen.choice(["pro:f", "pro:m", "anti:f", "anti:m"], size=301)
    counts = gen.integers(0, 3, size=(301, 2, 3)).astype(float)
    for data in (counts, counts * 0.37):  # integer counts (float32 products) and any real data

        def total(t):
            return t.reshape(len(t), -1)

        fused = cluster_bootstrap(data, total, n_boot=700, rng=11, strata=strata).replicates
        matrix = total(weighted_sums(resample_weights(700, strata=strata, rng=11), data))
        np.testing.assert_allclose(fused, matrix, rtol=1e-13, atol=0)
        if data is counts:
            assert np.array_equal(fused, matrix)


def test_permutation_p_value_matches_exact_enumeration():
    # Twelve discordant clusters among 400: all 2**12 swaps enumerated give the exact p-value.
    gen = np.random.default_rng(8)
    a = np.zeros((400, 2))
    a[np.arange(400), gen.integers(0, 2, 400)] = 1
    b = a.copy()
    flip = gen.choice(400, 12, replace=False)
    b[flip] = 1 - b[flip]

    def share(t):
        return t[..., 0] / t.sum(axis=-1)

    observed = share(a.sum(0)) - share(b.sum(0))
    change = (b - a)[flip]
    signs = (np.arange(2**12)[:, None] >> np.arange(12)) & 1
    moved = signs @ change
    exact_d = share(a.sum(0) + moved) - share(b.sum(0) - moved)
    exact = np.mean(np.abs(exact_d) >= abs(observed) - 1e-12)
    d, p = paired_permutation(a, b, share, n_perm=40_000, rng=3)
    assert d == pytest.approx(observed)
    assert abs(p - exact) < 4 * np.sqrt(exact * (1 - exact) / 40_000) + 1 / 40_000
    # Identical clusters are never drawn: adding 600 more changes nothing, to the last bit.
    same = gen.integers(0, 2, (600, 2)).astype(float)
    _, p_more = paired_permutation(np.vstack([a, same]), np.vstack([b, same]), share, n_perm=40_000, rng=3)
    assert p_more == p


# -----------------------------------------------------------------------------
# A level whose tails the resamples cannot resolve is said (issue 49, item 4: parameters).
#
# ``--level 0.9999 --n-boot 200`` read a percentile interval off the two most extreme of 200 resamples — about a
# third too narrow — without a word. Rule (one place, stats_mtbias.uncertainty.bootstrap.tail_resolution): fewer than
# 2.5 resamples expected beyond each end (the resolution the package asks of a 95% interval with its minimum of 100
# resamples) is a DataQualityWarning naming the n_boot that resolves it.


@pytest.mark.parametrize(
    ("n", "level", "needed"), [(200, 0.9999, 50_000), (200, 0.99, 500), (1000, 0.999, 5000), (99, 0.95, 100), (9, 0.5, 10)]
)
def test_unresolved_tails_warn_naming_the_resamples_needed(n, level, needed):
    with pytest.warns(DataQualityWarning, match=f"n_boot ≥ {needed:,} resolves it") as record:
        tail_resolution(n, level)
    assert f"level {level:g} with n_boot={n:,}" in str(record[0].message)


@pytest.mark.parametrize(("n", "level"), [(100, 0.95), (10_000, 0.95), (10_000, 0.999), (500, 0.99), (50, 0.9)])
def test_resolved_tails_are_silent(n, level):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tail_resolution(n, level) is None


def test_an_unresolved_interval_is_too_narrow_and_every_interval_method_says_so():
    data = np.random.default_rng(1).normal(size=(400, 1))
    with pytest.warns(DataQualityWarning, match="n_boot ≥ 50,000"):
        few = cluster_bootstrap(data, lambda t: t[:, 0] / 400, n_boot=200, rng=0, level=0.9999)
        ci = few.confidence_interval()
    many = cluster_bootstrap(data, lambda t: t[:, 0] / 400, n_boot=50_000, rng=0, level=0.9999).confidence_interval()
    assert float(ci.high - ci.low) < 0.85 * float(many.high - many.low)  # the 200-resample interval is much too narrow
    jack = np.zeros((5, 1))
    for method in ("percentile", "bca"):
        with pytest.warns(DataQualityWarning, match=f"the {method} interval's ends"):
            BootstrapResult(np.zeros(1), np.zeros((200, 1)), jack, 0.999, method).confidence_interval()


def _judgements(tmp_path):
    rng = np.random.default_rng(0)
    rows = [(s, i, rng.choice(["female", "male"], p=[p, 1 - p])) for s, p in (("a", 0.6), ("b", 0.4)) for i in range(60)]
    path = tmp_path / "j.csv"
    pd.DataFrame(rows, columns=["system", "item", "gender"]).to_csv(path, index=False)
    return path


def test_the_command_line_says_it_once_and_strict_exits_65(tmp_path, capsys):
    path = _judgements(tmp_path)
    assert main(["rates", "--judgements", str(path), "--level", "0.9999", "--n-boot", "200", "--compare"]) == 0
    err = capsys.readouterr().err
    assert err.count("level 0.9999 with n_boot=200") == 1, err
    assert "n_boot ≥ 50,000 resolves it" in err
    assert main(["rates", "--judgements", str(path), "--level", "0.9999", "--n-boot", "200", "--strict"]) == 65
    capsys.readouterr()
    assert main(["rates", "--judgements", str(path), "--n-boot", "100", "--strict"]) == 0  # 95% on 100: resolved
    assert "resolves it" not in capsys.readouterr().err


def test_the_api_says_it_once_among_the_notes(tmp_path):
    import stats_mtbias as smb

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = smb.rates(_judgements(tmp_path), level=0.999, n_boot=400)
    said = [w for w in caught if "n_boot ≥ 5,000" in str(w.message)]
    assert len(said) == 1
    assert any("n_boot ≥ 5,000" in note for note in res.notes)
