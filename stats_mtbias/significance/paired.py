"""One-sided paired tests that one outcome outnumbers another on the same items.

Prates et al. ask, per language and occupation category, whether male pronouns
are more frequent than female ones over the same occupations. Each occupation
gives a pair of counts (male outputs, female outputs) — indicators for a
language with one output per occupation, counts over variants for Bengali.

- ``exact`` (default): the sign test on the per-item differences. Items where
  the two counts are equal carry no information; under H0 (the two outcomes are
  exchangeable within an item) each of the ``n_discordant`` others is positive
  with probability 1/2, so ``P(Bin(n_discordant, 1/2) >= n_positive)``. For
  paired binary data this is the exact McNemar test, the right test there.
- ``ttest``: the authors' paired t-test on the per-item differences (indicators
  averaged over variants), as an option for reproducing the paper.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from stats_mtbias._defaults import ALTERNATIVES
from stats_mtbias._validation import check_choice
from stats_mtbias.errors import UsageError

PAIRED_TESTS = ("exact", "ttest")  # names of _defaults.TESTS


def sign_test_pvalue(n_positive, n_negative, alternative: str = "greater") -> np.ndarray:
    """Exact sign-test p-values from counts of positive and negative differences (vectorised).

    Parameters
    ----------
    n_positive, n_negative : array-like of int
        Items where the first outcome is the larger / the smaller one.
    alternative : {"greater", "less", "two-sided"}
        ``greater``: the first outcome is the more frequent one.

    Returns
    -------
    numpy.ndarray
        p-values; 1 where there is no discordant item.
    """
    check_choice(alternative, ALTERNATIVES, "alternative")
    pos, neg = np.asarray(n_positive, dtype=float), np.asarray(n_negative, dtype=float)
    # Whole counts only: a fractional one (a mean over sampled outputs) would be truncated silently.
    if not (np.all(pos >= 0) and np.all(neg >= 0) and np.all(pos % 1 == 0) and np.all(neg % 1 == 0)):
        raise UsageError("`n_positive` and `n_negative` must be non-negative whole counts (the sign test counts items).")
    pos, neg = pos.astype(np.int64), neg.astype(np.int64)
    n = pos + neg
    greater = stats.binom.sf(pos - 1, n, 0.5)
    less = stats.binom.cdf(pos, n, 0.5)
    if alternative == "greater":
        p = greater
    elif alternative == "less":
        p = less
    else:
        p = np.minimum(1.0, 2.0 * np.minimum(greater, less))
    return np.where(n > 0, p, 1.0)


def _paired_t_pvalue(d: np.ndarray, alternative: str) -> tuple[float, float]:
    n = d.size
    if n < 2:
        return np.nan, np.nan
    mean, sd = d.mean(), d.std(ddof=1)
    if sd == 0:
        # Every difference equal: no spread, so the sign of the mean decides.
        if mean == 0:
            return 0.0, 1.0
        t = float(np.copysign(np.inf, mean))
        if alternative == "two-sided":
            return t, 0.0
        return t, 0.0 if (mean > 0) == (alternative == "greater") else 1.0
    t = float(mean / (sd / np.sqrt(n)))
    if alternative == "greater":
        return t, float(stats.t.sf(t, n - 1))
    if alternative == "less":
        return t, float(stats.t.cdf(t, n - 1))
    return t, float(2 * stats.t.sf(abs(t), n - 1))


@dataclass(frozen=True)
class PairedTestResult:
    """Result of :func:`paired_test`.

    Attributes
    ----------
    statistic : float
        ``exact``: the number of items where the first outcome is larger;
        ``ttest``: the t statistic.
    pvalue : float
    n : int
        Items (pairs).
    n_positive, n_negative : int
        Items where the first outcome is larger / smaller (the discordant pairs).
    mean_difference : float
        Mean per-item difference (first − second, after averaging over variants).
    method, alternative : str
    """

    statistic: float
    pvalue: float
    n: int
    n_positive: int
    n_negative: int
    mean_difference: float
    method: str
    alternative: str


def paired_test(first, second, *, trials=None, method: str = "exact", alternative: str = "greater") -> PairedTestResult:
    """Test that the first outcome is more frequent than the second over the same items.

    Parameters
    ----------
    first, second : array-like, shape (n_items,)
        Per-item counts (or 0/1 indicators) of the two outcomes.
    trials : array-like, optional
        Outputs per item (e.g. 6 for Bengali's variants); the t-test averages the
        difference over them, as the authors did. Default 1.
    method : {"exact", "ttest"}
        Exact sign test on the discordant items, or the paired t-test.
    alternative : {"greater", "less", "two-sided"}
    """
    check_choice(method, PAIRED_TESTS, "method")
    check_choice(alternative, ALTERNATIVES, "alternative")
    a = np.asarray(first, dtype=float)
    b = np.asarray(second, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise UsageError("`first` and `second` must be 1-d and of the same length (one entry per item).")
    m = np.ones_like(a) if trials is None else np.asarray(trials, dtype=float)
    if m.shape != a.shape or np.any(m <= 0):
        raise UsageError("`trials` must be positive, one entry per item.")
    d = (a - b) / m
    pos, neg = int(np.sum(d > 0)), int(np.sum(d < 0))
    if method == "exact":
        statistic, pvalue = float(pos), float(sign_test_pvalue(pos, neg, alternative))
    else:
        statistic, pvalue = _paired_t_pvalue(d, alternative)
    return PairedTestResult(statistic, pvalue, a.size, pos, neg, float(d.mean()) if d.size else np.nan, method, alternative)
