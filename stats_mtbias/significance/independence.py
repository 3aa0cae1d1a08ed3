"""Tests of independence for two-way contingency tables, and Cramér's V.

- ``chi2``: Pearson's chi-square (no continuity correction);
- ``g``: the likelihood-ratio G-test;
- ``exact``: Fisher's exact test for 2×2 tables; for larger tables the exact
  conditional test (margins fixed) by Monte Carlo: tables are drawn from the
  multivariate hypergeometric distribution given the margins
  (:class:`scipy.stats.random_table`, all at once) and the p-value is
  ``(1 + #{X²* >= X²}) / (n_resamples + 1)``;
- ``auto``: chi-square when Cochran's rule holds (no expected count below 1 and
  at most 20% below 5), otherwise exact.

Rows or columns with a zero total carry no information and are removed first
(the result's ``shape`` says what was tested). When the chi-square or G-test is
used where Cochran's rule fails, a :class:`SmallExpectedCountWarning` says so.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import stats

from stats_mtbias._validation import check_choice, check_positive_int, check_rng
from stats_mtbias.errors import SmallExpectedCountWarning, UsageError

INDEPENDENCE_METHODS = ("auto", "chi2", "g", "exact")


@dataclass(frozen=True)
class IndependenceResult:
    """Result of :func:`independence_test`.

    Attributes
    ----------
    statistic : float
        Pearson's X² (``chi2`` and ``exact``), G (``g``), or for a 2×2 exact test
        the sample odds ratio.
    pvalue : float
    dof : int
    method : str
        The method actually used (``auto`` resolved).
    cramers_v : float
        sqrt(X² / (n (min(r, c) − 1))), from Pearson's X² whatever the test.
    n : int
    shape : tuple of int
        Shape of the table tested (after removing empty rows and columns).
    min_expected : float
    cochran_ok : bool
        No expected count below 1 and at most 20% below 5.
    n_resamples : int or None
        Monte Carlo tables drawn (exact test on tables larger than 2×2).
    """

    statistic: float
    pvalue: float
    dof: int
    method: str
    cramers_v: float
    n: int
    shape: tuple[int, int]
    min_expected: float
    cochran_ok: bool
    n_resamples: int | None = None


def _pearson(observed: np.ndarray, expected: np.ndarray) -> np.ndarray:
    return np.sum((observed - expected) ** 2 / expected, axis=(-2, -1))


def _check_table(table) -> np.ndarray:
    observed = np.asarray(table)
    if observed.ndim != 2:
        raise UsageError("`table` must be a two-way (2-d) contingency table.")
    if not np.issubdtype(observed.dtype, np.number) or np.any(observed < 0) or np.any(observed != np.round(observed)):
        raise UsageError("`table` must hold non-negative integer counts.")
    observed = observed.astype(np.int64)
    return observed[observed.sum(axis=1) > 0][:, observed.sum(axis=0) > 0]


def independence_test(
    table,
    *,
    method: str = "auto",
    n_resamples: int = 9_999,
    rng: np.random.Generator | int | None = None,
) -> IndependenceResult:
    """Test independence of rows and columns of a contingency table.

    Parameters
    ----------
    table : array-like, shape (r, c)
        Counts.
    method : {"auto", "chi2", "g", "exact"}
    n_resamples : int
        Monte Carlo tables for the exact test of tables larger than 2×2.
    rng : Generator or int
        Needed (keyword-only) only when a Monte Carlo exact test is run.

    Raises
    ------
    ValueError
        If the table is not 2-d counts, or has fewer than two non-empty rows or columns.
    """
    check_choice(method, INDEPENDENCE_METHODS, "method")
    observed = _check_table(table)
    if min(observed.shape) < 2:
        raise UsageError(f"`table` needs at least two non-empty rows and columns to test independence (has {observed.shape}).")
    n = int(observed.sum())
    expected = stats.contingency.expected_freq(observed)
    cochran_ok = bool(expected.min() >= 1 and np.mean(expected < 5) <= 0.2)
    x2 = float(_pearson(observed, expected))
    dof = (observed.shape[0] - 1) * (observed.shape[1] - 1)
    cramers_v = float(np.sqrt(x2 / (n * (min(observed.shape) - 1))))
    resolved = method if method != "auto" else ("chi2" if cochran_ok else "exact")
    common = dict(
        dof=dof, cramers_v=cramers_v, n=n, shape=observed.shape, min_expected=float(expected.min()), cochran_ok=cochran_ok
    )
    if resolved in ("chi2", "g"):
        if not cochran_ok:
            warnings.warn(
                f"{'chi-square' if resolved == 'chi2' else 'G'} test on a table with small expected counts "
                f"(minimum {expected.min():.2g}, {np.mean(expected < 5):.0%} of cells below 5): its p-value is "
                "approximate; use method='exact'.",
                SmallExpectedCountWarning,
                stacklevel=2,
            )
        if resolved == "chi2":
            return IndependenceResult(x2, float(stats.chi2.sf(x2, dof)), method="chi2", **common)
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(observed > 0, observed * np.log(observed / expected), 0.0)
        g = float(2.0 * terms.sum())
        return IndependenceResult(g, float(stats.chi2.sf(g, dof)), method="g", **common)
    if observed.shape == (2, 2):
        res = stats.fisher_exact(observed)
        return IndependenceResult(float(res.statistic), float(res.pvalue), method="exact (Fisher)", **common)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    rng = check_rng(rng)
    draws = stats.random_table(observed.sum(axis=1), observed.sum(axis=0), seed=rng).rvs(size=n_resamples)
    # Ties up to round-off count as at least as extreme.
    extreme = _pearson(draws, expected) >= x2 * (1 - 1e-12)
    pvalue = (1.0 + extreme.sum()) / (n_resamples + 1.0)
    return IndependenceResult(x2, float(pvalue), method="exact (Monte Carlo, margins fixed)", n_resamples=n_resamples, **common)
