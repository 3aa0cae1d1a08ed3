"""Multiple-comparison control across a stated family of tests."""

from __future__ import annotations

import numpy as np

from stats_mtbias import _defaults
from stats_mtbias._validation import check_choice
from stats_mtbias.significance.pvalues import floor_pvalues

# The names of _defaults.CORRECTIONS: statsmodels' name of each, and how documents name it.
CORRECTIONS = dict(zip(_defaults.CORRECTIONS, ("holm", "fdr_bh", None), strict=True))
CORRECTION_NAMES = dict(zip(_defaults.CORRECTIONS, ("Holm", "Benjamini–Hochberg", "no correction"), strict=True))


def adjust_pvalues(pvalues, method: str = "holm") -> np.ndarray:
    """Adjusted p-values over one family (all entries of `pvalues`).

    Parameters
    ----------
    pvalues : array-like
        The family's raw p-values; NaN entries are left NaN and are not part of it. A p-value below
        :data:`~stats_mtbias.significance.pvalues.P_FLOOR` (an underflow, 0 included) enters as that floor.
    method : {"holm", "bh", "none"}
        Holm's step-down (family-wise error) or Benjamini–Hochberg (false discovery rate).
    """
    check_choice(method, CORRECTIONS, "method")
    # Never an exact 0 (an underflow): adjusted from the floor, so adjusted p-values are never 0 either.
    p = floor_pvalues(pvalues)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if CORRECTIONS[method] is None or not ok.any():
        out[ok] = p[ok]
        return out
    # Written out rather than statsmodels' multipletests, which runs gc.collect() on every call
    # (60 ms in a large process, the whole cost of a small study run); tests hold the two equal.
    out[ok] = _holm(p[ok]) if method == "holm" else _benjamini_hochberg(p[ok])
    return out


def _holm(p: np.ndarray) -> np.ndarray:
    """Holm (1979): the i-th smallest p times (m − i + 1), made non-decreasing, capped at 1."""
    m = len(p)
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(np.maximum.accumulate((m - np.arange(m)) * p[order]), 1.0)
    out = np.empty(m)
    out[order] = stepped
    return out


def _benjamini_hochberg(p: np.ndarray) -> np.ndarray:
    """Benjamini & Hochberg (1995): the i-th smallest p times m / i, made non-increasing from the top, capped at 1."""
    m = len(p)
    order = np.argsort(p, kind="stable")
    scaled = p[order] * m / np.arange(1, m + 1)
    stepped = np.minimum(np.minimum.accumulate(scaled[::-1])[::-1], 1.0)
    out = np.empty(m)
    out[order] = stepped
    return out
