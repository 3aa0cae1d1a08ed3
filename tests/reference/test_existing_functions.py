"""Existing functions against published values (found discrepancies are strict xfails, not edits).

Sources
-------
[N98a] Newcombe (1998a) Stat Med 17:873, Table II example (a) 56/70 vs 48/80,
       method 10: 0.0524 to 0.3339 (DescTools tests/misc.R; many re-implementations).
[RS]   ratesci tests/testthat/test3.R: Newcombe (1998b) table (20, 12, 2, 16),
       method 8 (plain phi) 0.0618 to 0.3242 and method 10 (corrected phi) 0.0562 to 0.3292.
[N98b] Newcombe (1998b) Stat Med 17:2635, method 10 for (36, 12, 2, 0): 0.0569 to 0.3404.
[SAS]  SAS PROC FREQ agreement output for the 3×3 table [[0, 4, 1], [0, 8, 0], [0, 1, 5]]
       (quoted in statsmodels stats/tests/test_inter_rater.py::TestUnweightedCohens):
       Kappa 0.4842, ASE 0.1380, 95% limits 0.2137 to 0.7547 (Fleiss, Cohen & Everitt 1969 ASE).

MOVER (Zou & Donner 2008, Stat Med 27:1693) for a difference ``θ1 − θ2`` of
correlated estimates with Wilson components and correlation φ is exactly
Newcombe's square-and-add (their section 3 and Newcombe 1998b), so Newcombe's
printed limits test ``mover_interval`` (weights (1, −1)), including a case with
positive correlation (φ = +0.497) where a sign error in the weights would move
both limits, and one with negative corrected φ.
"""

import numpy as np
import pytest
from scipy.stats import binomtest

from stats_mtbias.significance.agreement import cohens_kappa, kappa_interval
from stats_mtbias.significance.effect_sizes import paired_difference_in_proportions
from stats_mtbias.uncertainty.analytic import mover_interval
from stats_mtbias.uncertainty.differences import paired_difference_interval

HALF = 0.5e-4 + 1e-9


def _wilson(x, n):
    """Component intervals from scipy (independent of the package's own Wilson)."""
    ci = binomtest(x, n).proportion_ci(0.95, method="wilson")
    return ci.low, ci.high


def _mover_difference(x1, x2, n, phi):
    l1, u1 = _wilson(x1, n)
    l2, u2 = _wilson(x2, n)
    return mover_interval(
        np.array([x1 / n, x2 / n]), np.array([l1, l2]), np.array([u1, u2]), np.array([1.0, -1.0]), np.array([[1, phi], [phi, 1]])
    )


def test_mover_independent_difference_newcombe_1998a():  # [N98a]: correlation 0
    l1, u1 = _wilson(56, 70)
    l2, u2 = _wilson(48, 80)
    ci = mover_interval(np.array([0.8, 0.6]), np.array([l1, l2]), np.array([u1, u2]), np.array([1.0, -1.0]), np.eye(2))
    assert abs(ci.low - 0.0524) <= HALF and abs(ci.high - 0.3339) <= HALF


def test_mover_positive_correlation_newcombe_method_8():  # [RS]
    a, b, c, d = 20, 12, 2, 16
    phi = (a * d - b * c) / np.sqrt((a + b) * (c + d) * (a + c) * (b + d))  # +0.497
    ci = _mover_difference(a + b, a + c, 50, phi)
    assert abs(ci.low - 0.0618) <= HALF and abs(ci.high - 0.3242) <= HALF


def test_mover_negative_correlation_newcombe_method_10():  # [N98b]
    a, b, c, d = 36, 12, 2, 0
    phi = (a * d - b * c) / np.sqrt((a + b) * (c + d) * (a + c) * (b + d))  # A < 0: corrected phi = phi = -0.115
    ci = _mover_difference(a + b, a + c, 50, phi)
    assert abs(ci.low - 0.0569) <= HALF and abs(ci.high - 0.3404) <= HALF


def test_mover_broadcasts_over_leading_axes():  # the two cases above at once
    est = np.array([[0.64, 0.44], [0.96, 0.76]])
    lows, highs = zip(*[_wilson(32, 50), _wilson(22, 50), _wilson(48, 50), _wilson(38, 50)], strict=True)
    phis = [296 / np.sqrt(32 * 18 * 22 * 28), -24 / np.sqrt(48 * 2 * 38 * 12)]
    corr = np.array([[[1, p], [p, 1]] for p in phis])
    ci = mover_interval(est, np.reshape(lows, (2, 2)), np.reshape(highs, (2, 2)), np.array([1.0, -1.0]), corr)
    np.testing.assert_allclose(ci.low, [0.0618, 0.0569], atol=HALF)
    np.testing.assert_allclose(ci.high, [0.3242, 0.3404], atol=HALF)


# ------------------------------------------------------------------ the old paired interval
def test_effect_sizes_paired_interval_is_method_10():  # [RS]: Newcombe's method 10, 0.0562 to 0.3292
    ci = paired_difference_in_proportions(20, 12, 2, 16)
    assert abs(ci.low - 0.0562) <= HALF and abs(ci.high - 0.3292) <= HALF


def test_new_paired_interval_is_method_10():  # [RS], the same table
    ci = paired_difference_interval(20, 12, 2, 16, method="newcombe")
    assert abs(ci.low - 0.0562) <= HALF and abs(ci.high - 0.3292) <= HALF


# ------------------------------------------------------------------ Cohen's kappa
SAS_TABLE = [[0, 4, 1], [0, 8, 0], [0, 1, 5]]


def _labels(table, scale=1):
    a, b = [], []
    for i, row in enumerate(table):
        for j, count in enumerate(row):
            a += [f"c{i}"] * (count * scale)
            b += [f"c{j}"] * (count * scale)
    return np.array(a), np.array(b)


def test_cohens_kappa_sas():  # [SAS]
    a, b = _labels(SAS_TABLE)
    assert abs(cohens_kappa(a, b) - 0.4842) <= HALF
    kappa, low, high = kappa_interval(a, b)
    assert abs(kappa - 0.4842) <= HALF
    assert low < 0.4842 < high


def test_kappa_interval_large_sample_matches_published_ase():  # [SAS]
    # Its ASE (0.1380, SAS; Fleiss, Cohen & Everitt 1969) and kappa_variance agree; the interval is first-order it.
    from stats_mtbias.significance.agreement import kappa_variance

    assert kappa_variance(np.array(SAS_TABLE)) ** 0.5 == pytest.approx(0.1380, abs=5e-5)
    # The same proportions on 100 times the items: every consistent, first-order correct interval is then
    # kappa +- 1.96 * 0.1380 / sqrt(100) up to O(1/n) (Wilson's asymmetry at n = 1900 is below 0.001).
    a, b = _labels(SAS_TABLE, scale=100)
    kappa, low, high = kappa_interval(a, b)
    half = 1.959964 * 0.1380 / 10
    assert abs((kappa - low) - half) < 0.002 and abs((high - kappa) - half) < 0.002
