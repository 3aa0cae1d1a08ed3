"""Cluster-robust variance of :mod:`stats_mtbias.uncertainty.linearization` against hand computations."""

from __future__ import annotations

import warnings

import numpy as np
from numpy.testing import assert_allclose

from stats_mtbias.uncertainty.linearization import ratio_influence, ratio_se_from_sums, robust_variance, weighted_sum

# Three clusters, two cells: column 0 has mean 3 and Σ(u − ū)² = 4 + 1 + 9 = 14,
# column 1 has mean 1 and Σ(u − ū)² = 1 + 1 + 4 = 6.
U = np.array([[1.0, 0.0], [2.0, 0.0], [6.0, 3.0]])


def test_unstratified_is_k_over_k_minus_one_times_centred_squares():
    """Without strata: 3/2 × Σ(u − ū)² per column (21 and 9)."""
    assert_allclose(robust_variance(U), [1.5 * 14, 1.5 * 6])


def test_frequency_counts_rows_as_identical_clusters():
    """Frequencies [2, 1, 1] give the variance of the expanded clusters [1, 1, 2, 6] (4/3 × 17)."""
    expected = 4 / 3 * np.sum((np.array([1.0, 1, 2, 6]) - 2.5) ** 2)
    assert_allclose(robust_variance(np.array([1.0, 2, 6]), frequency=np.array([2, 1, 1])), 68 / 3)
    assert_allclose(expected, 68 / 3)


def test_n_clusters_means_no_centring_and_nan_below_two_clusters():
    """With `n_clusters`: k/(k − 1) Σ u² per cell (u already centred), NaN for k = 1, silently."""
    u = np.array([[1.0, 0.0, 1.0], [2.0, 0.0, 0.0], [6.0, 3.0, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        var = robust_variance(u, n_clusters=np.array([3, 1, 2]))
    assert_allclose(var, [1.5 * (1 + 4 + 36), np.nan, 2.0 * 1.0])


def test_stratified_sums_within_stratum_variances_with_frequency():
    """Strata with frequencies: the sum of each stratum's expanded-cluster variance; a one-cluster stratum adds 0."""
    u = np.array([[0.0, 1.0], [1.0, 3.0], [5.0, 7.0], [2.0, 0.0], [4.0, 1.0], [6.0, 0.0]])
    strata = np.array(["c", "a", "b", "a", "c", "a"])
    frequency = np.array([1, 1, 1, 2, 1, 1])
    # a: clusters [1, 2, 2, 6] (mean 11/4: SS 236/16, × 4/3 = 59/3) and [3, 0, 0, 0] (mean 3/4: SS 27/4, × 4/3 = 9);
    # b: one cluster (0); c: [0, 4] (SS 8, × 2 = 16) and [1, 1] (0).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        var = robust_variance(u, strata=strata, frequency=frequency)
    assert_allclose(var, [59 / 3 + 16.0, 9.0 + 0.0])


def test_stratified_without_frequency_counts_rows():
    """Strata of 3 and 2 clusters (2 columns): 3/2 × SS of the first plus 2 × SS of the second."""
    u = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 0.0], [4.0, 1.0], [6.0, 3.0]])
    strata = np.array([0, 1, 0, 1, 0])
    # stratum 0: [1, 2, 6] → 1.5 × 14 = 21 and [0, 0, 3] → 1.5 × 6 = 9; stratum 1: [0, 4] → 2 × 8 = 16 and [1, 1] → 0.
    assert_allclose(robust_variance(u, strata=strata), [21.0 + 16.0, 9.0])


def test_stratified_all_single_clusters_gives_zero_of_the_cells_shape():
    """Every stratum a single cluster: no variance, an array of zeros shaped like one cluster's values."""
    var = robust_variance(np.array([[1.0, 2.0], [3.0, 5.0]]), strata=np.array([0, 1]))
    assert var.shape == (2,)
    assert_allclose(var, [0.0, 0.0])


def test_integer_values_do_not_overflow():
    """int16 values (200² overflows int16) give the float variance: 2 × 200² for one 200 over two clusters."""
    u = np.array([[200], [0]], dtype=np.int16)
    assert_allclose(robust_variance(u, n_clusters=2), [2.0 * 200**2])
    assert_allclose(robust_variance(u), [2.0 * 2 * 100**2])


def test_no_clusters_gives_nan_silently():
    """No cluster at all (an empty array): NaN per cell, without an error or a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        var = robust_variance(np.empty((0, 2)))
    assert var.shape == (2,)
    assert np.all(np.isnan(var))


# -----------------------------------------------------------------------------
# More hand checks of :func:`weighted_sum` and :func:`ratio_influence` (frequencies, small totals, overflow).


def test_weighted_sum_of_large_integers_is_a_float_sum():
    """Two int64 values 2**62 sum to 2**63 as floats (an int64 sum would wrap to −2**63)."""
    assert weighted_sum(np.array([2**62, 2**62], dtype=np.int64)) == 2.0**63


def test_ratio_influence_is_y_minus_theta_m_over_total():
    """u_i = (y_i − θ m_i) / Σ m by hand: y = [2, 1, 1, 1], m = 2 each, θ = 5/8 gives [0.75, −0.25, −0.25, −0.25] / 8."""
    u = ratio_influence(np.array([2.0, 1, 1, 1]), np.array([2.0, 2, 2, 2]), 5 / 8)
    assert_allclose(u, np.array([0.75, -0.25, -0.25, -0.25]) / 8, rtol=1e-14)


def test_ratio_influence_total_counts_frequencies():
    """Row frequencies [3, 1] enter Σ m: m = [2, 4] gives Σ m = 3·2 + 4 = 10, u = (y − θ m) / 10."""
    y, m = np.array([1.0, 3.0]), np.array([2.0, 4.0])
    theta = (3 * 1 + 3) / 10
    u = ratio_influence(y, m, theta, frequency=np.array([3, 1]))
    assert_allclose(u, [(1 - 0.6 * 2) / 10, (3 - 0.6 * 4) / 10], rtol=1e-14)


def test_ratio_influence_with_a_total_below_one():
    """Σ m = 1 (fractional sizes 0.25 + 0.75) is a valid denominator: u = y − θ m."""
    u = ratio_influence(np.array([0.25, 0.25]), np.array([0.25, 0.75]), 0.5)
    assert_allclose(u, [0.25 - 0.125, 0.25 - 0.375], rtol=1e-14)


def test_ratio_influence_is_nan_for_a_zero_total():
    """Σ m = 0: every linearised value is NaN (not ±inf), even where y − θ m is not 0."""
    u = ratio_influence(np.array([1.0, 2.0]), np.array([0.0, 0.0]), 0.5)
    assert np.isnan(u).all()


def test_ratio_influence_silent_for_an_infinite_theta():
    """θ = inf with an empty cluster (inf · 0) gives NaN there without a RuntimeWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        u = ratio_influence(np.array([1.0, 0.0]), np.array([1.0, 0.0]), np.inf)
    assert u[0] == -np.inf and np.isnan(u[1])


def _sums(num, den, weights):
    """The five weighted sums Σw·num, Σw·den, Σw·num², Σw·num·den, Σw·den² by plain Python."""
    return [
        sum(w * f(x, y) for x, y, w in zip(num, den, weights, strict=True))
        for f in (lambda x, y: x, lambda x, y: y, lambda x, y: x * x, lambda x, y: x * y, lambda x, y: y * y)
    ]


def test_ratio_se_from_sums_by_hand():
    """num [2, 1, 1, 1], den 2 each: R = 5/8, Σ(num − R den)² = 0.75, se = √(0.75 · 4/3) / 8 = 1/8."""
    ratio, se = ratio_se_from_sums(*_sums([2.0, 1, 1, 1], [2.0, 2, 2, 2], [1, 1, 1, 1]), 4)
    assert_allclose([ratio, se], [5 / 8, 1 / 8], rtol=1e-14)


def test_ratio_se_from_sums_with_replicate_weights_below_one_total():
    """Weights [1, 0, 2] on den 0.1, 0.3, 0.2 (Σ w·den = 0.5 < 1): R = 0.25/0.5 and se by the same hand formula."""
    num, den, w = [0.05, 0.9, 0.1], [0.1, 0.3, 0.2], [1, 0, 2]
    r = 0.25 / 0.5
    resid = sum(wi * (x - r * y) ** 2 for x, y, wi in zip(num, den, w, strict=True))
    ratio, se = ratio_se_from_sums(*_sums(num, den, w), 3)
    assert_allclose([ratio, se], [r, np.sqrt(resid * 3 / 2) / 0.5], rtol=1e-12)


def test_ratio_se_from_sums_nan_for_an_empty_denominator_silently():
    """Σ den = 0 (a replicate without any output): ratio and se are NaN, without a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ratio, se = ratio_se_from_sums(np.array([0.0]), np.array([0.0]), np.zeros(1), np.zeros(1), np.zeros(1), 3)
    assert np.isnan(ratio[0]) and np.isnan(se[0])


def test_ratio_se_from_sums_two_clusters_uses_m_over_m_minus_one():
    """Two clusters num [1, 0], den [1, 1]: R = 1/2, Σ(num − R den)² = 1/2, se = √(1/2 · 2/1) / 2 = 1/2."""
    ratio, se = ratio_se_from_sums(*_sums([1.0, 0.0], [1.0, 1.0], [1, 1]), 2)
    assert_allclose([ratio, se], [0.5, 0.5], rtol=1e-14)
