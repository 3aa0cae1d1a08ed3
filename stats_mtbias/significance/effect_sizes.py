"""Effect sizes with intervals: differences in proportions, Cohen's h, odds ratios.

Differences in proportions use Newcombe's square-and-add intervals built from
Wilson limits, which stay inside [-1, 1] and behave at 0% and 100% where the
Wald interval collapses:

- independent samples (Newcombe 1998a, method 10)::

      L = d - sqrt((p1 - l1)^2 + (u2 - p2)^2),  U = d + sqrt((u1 - p1)^2 + (p2 - l2)^2)

- paired proportions on the same items (Newcombe 1998b, method 10), the same
  with the correlation phi of the paired 2×2 table::

      L = d - sqrt((p1 - l1)^2 - 2 phi (p1 - l1)(u2 - p2) + (u2 - p2)^2)

  with Newcombe's corrected phi (:mod:`stats_mtbias.uncertainty.differences`). For two exclusive outcomes
  of one output (male vs female pronoun of the same occupation) the table has
  no "both" cell and phi is negative, which widens the interval as it should.

Odds ratios: Woolf's log interval; with a zero cell, Haldane's 1/2 is added to
every cell (``correction="haldane"``, default) or the estimate is 0 or inf with
a one-sided open interval (``correction="none"``).
"""

from __future__ import annotations

import numpy as np
from scipy import special

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice, check_level
from stats_mtbias.errors import UsageError
from stats_mtbias.uncertainty.analytic import modified_wilson_interval, wilson_interval
from stats_mtbias.uncertainty.differences import paired_difference_interval
from stats_mtbias.uncertainty.intervals import EffectSize


def _counts(*values):
    arrays = [np.asarray(v, dtype=float) for v in values]
    for a in arrays:
        if np.any(a < 0):
            raise UsageError("counts must be non-negative.")
    return np.broadcast_arrays(*arrays)


def difference_in_proportions(x1, n1, x2, n2, *, level: float = _defaults.LEVEL, poisson_ends: bool = False) -> EffectSize:
    """``x1/n1 - x2/n2`` for independent samples, with Newcombe's hybrid score interval.

    ``poisson_ends=True`` takes each proportion's limits from
    :func:`~stats_mtbias.uncertainty.analytic.modified_wilson_interval` (exact
    Poisson bounds where ten or fewer successes or failures are seen), which
    keeps the coverage near 0 and 1; the default is Newcombe's own (Wilson).
    """
    level = check_level(level)
    x1, n1, x2, n2 = _counts(x1, n1, x2, n2)
    if np.any(x1 > n1) or np.any(x2 > n2) or np.any(n1 == 0) or np.any(n2 == 0):
        raise UsageError("need 0 <= x <= n and n > 0 in both samples.")
    p1, p2 = x1 / n1, x2 / n2
    limits = modified_wilson_interval if poisson_ends else wilson_interval
    w1, w2 = limits(x1, n1, level), limits(x2, n2, level)
    d = p1 - p2
    low = d - np.sqrt((p1 - w1.low) ** 2 + (w2.high - p2) ** 2)
    high = d + np.sqrt((w1.high - p1) ** 2 + (p2 - w2.low) ** 2)
    return EffectSize(d, low, high, "Newcombe hybrid score (independent samples)")


def paired_difference_in_proportions(both, first_only, second_only, neither, *, level: float = _defaults.LEVEL) -> EffectSize:
    """Difference of two proportions measured on the same items, with Newcombe's paired interval (method 10).

    Wilson limits of each margin combined with Newcombe's (1998) corrected φ; see
    :func:`stats_mtbias.uncertainty.differences.paired_difference_interval`, which
    also offers Tango's score and the Agresti–Min and Bonett–Price intervals.

    Parameters
    ----------
    both, first_only, second_only, neither : array-like
        The paired 2×2 table: items with both outcomes, only the first, only the
        second, neither. For exclusive outcomes ``both`` is 0.
    """
    level = check_level(level)
    a, b, c, d_ = _counts(both, first_only, second_only, neither)
    if np.any(a + b + c + d_ == 0):
        raise UsageError("the paired table is empty.")
    return paired_difference_interval(a, b, c, d_, level=level, method="newcombe")


def cohens_h(p1, p2) -> np.ndarray:
    """Cohen's h = 2 asin(sqrt(p1)) - 2 asin(sqrt(p2)) (0.2 small, 0.5 medium, 0.8 large)."""
    p1, p2 = np.asarray(p1, dtype=float), np.asarray(p2, dtype=float)
    if np.any((p1 < 0) | (p1 > 1) | (p2 < 0) | (p2 > 1)):
        raise UsageError("proportions must lie in [0, 1].")
    return 2 * np.arcsin(np.sqrt(p1)) - 2 * np.arcsin(np.sqrt(p2))


def odds_ratio(table, *, level: float = _defaults.LEVEL, correction: str = "haldane") -> EffectSize:
    """Sample odds ratio ``(a d) / (b c)`` of a 2×2 table with Woolf's log interval.

    Parameters
    ----------
    table : array-like, shape (2, 2)
        ``[[a, b], [c, d]]``: rows are the groups, columns outcome yes/no.
    correction : {"haldane", "none"}
        With a zero cell, add 1/2 to every cell (default) or report 0/inf.
    """
    level = check_level(level)
    check_choice(correction, ("haldane", "none"), "correction")
    t = np.asarray(table, dtype=float)
    if t.shape != (2, 2) or np.any(t < 0):
        raise UsageError("`table` must be a 2×2 table of non-negative counts.")
    zero = bool(np.any(t == 0))
    if zero and correction == "none":
        # The Woolf interval is unbounded; the estimate is 0, inf or undefined.
        with np.errstate(divide="ignore", invalid="ignore"):
            estimate = (t[0, 0] * t[1, 1]) / (t[0, 1] * t[1, 0])
        return EffectSize(np.asarray(estimate), np.asarray(0.0), np.asarray(np.inf), "sample odds ratio (zero cell, no interval)")
    if zero:
        t = t + 0.5
    (a, b), (c, d) = t
    z = special.ndtri(0.5 + level / 2)
    log_or = np.log(a * d / (b * c))
    se = np.sqrt(1 / a + 1 / b + 1 / c + 1 / d)
    method = "Woolf log interval" + (" (Haldane 1/2 added to every cell)" if zero else "")
    return EffectSize(np.exp(log_or), np.exp(log_or - z * se), np.exp(log_or + z * se), method)
