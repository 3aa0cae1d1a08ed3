"""The p-value of a resampling distribution (bootstrap replicates of a difference), with no ``1/(B + 1)`` floor."""

from __future__ import annotations

import numpy as np
from scipy import special

from stats_mtbias.uncertainty.bootstrap import bootstrap_pvalue


def resample_pvalue(replicates: np.ndarray, estimate: np.ndarray | float, *, axis: int = 0) -> np.ndarray:
    """Two-sided p-value of ``estimate = 0`` from a resampling distribution of the estimate, with no floor.

    Where at least one replicate lies on the far side of 0, the percentile
    p-value ``2 · min(P*(d ≤ 0), P*(d ≥ 0))`` (the p-value that goes with the
    percentile interval: p < 1 − level exactly when that interval excludes 0).
    Where none does, the replicates cannot resolve p below ``2/(B + 1)``: the
    normal tail ``2 Φ(−|d| / se*)`` of their spread is used instead (capped at
    ``2/(B + 1)``, so the order of p-values and the interval's verdict are kept),
    so that a multiplicity correction over many comparisons is not made vacuous
    by the number of resamples.

    Examples
    --------
    >>> reps = np.random.default_rng(0).normal(0.3, 0.05, size=(1000, 1))
    >>> float(resample_pvalue(reps, np.array([0.3]))[0]) < 1e-8
    True
    """
    reps = np.moveaxis(np.asarray(replicates, dtype=float), axis, 0)
    estimate = np.asarray(estimate, dtype=float)
    p = bootstrap_pvalue(reps)
    floor = 2.0 / (np.sum(~np.isnan(reps), axis=0) + 1.0)
    at_floor = p <= floor * (1 + 1e-12)
    if np.any(at_floor):
        se = np.nanstd(reps, axis=0, ddof=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            tail = np.where(se > 0, 2 * special.ndtr(-np.abs(estimate) / np.where(se > 0, se, 1.0)), floor)
        p = np.where(at_floor, np.minimum(tail, floor), p)
    return np.where(np.isnan(estimate), np.nan, p)
