"""Cluster-robust variance of :mod:`stats_mtbias.uncertainty.linearization` against hand computations."""

from __future__ import annotations

import warnings

import numpy as np
from numpy.testing import assert_allclose

from stats_mtbias.uncertainty.linearization import robust_variance

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
