"""More hand checks of :func:`weighted_sum` and :func:`ratio_influence` (frequencies, small totals, overflow)."""

from __future__ import annotations

import warnings

import numpy as np
from numpy.testing import assert_allclose

from stats_mtbias.uncertainty.linearization import ratio_influence, ratio_se_from_sums, weighted_sum


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
