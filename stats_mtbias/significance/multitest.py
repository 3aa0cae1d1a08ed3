"""Multiple-comparison control across a stated family of tests."""

from __future__ import annotations

import numpy as np
from statsmodels.stats.multitest import multipletests

from stats_mtbias._validation import check_choice

CORRECTIONS = {"holm": "holm", "bh": "fdr_bh", "none": None}
# How documents name each correction.
CORRECTION_NAMES = {"holm": "Holm", "bh": "Benjamini–Hochberg", "none": "no correction"}


def adjust_pvalues(pvalues, method: str = "holm") -> np.ndarray:
    """Adjusted p-values over one family (all entries of `pvalues`).

    Parameters
    ----------
    pvalues : array-like
        The family's raw p-values; NaN entries are left NaN and are not part of it.
    method : {"holm", "bh", "none"}
        Holm's step-down (family-wise error) or Benjamini–Hochberg (false discovery rate).
    """
    check_choice(method, CORRECTIONS, "method")
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if CORRECTIONS[method] is None or not ok.any():
        out[ok] = p[ok]
        return out
    out[ok] = multipletests(p[ok], method=CORRECTIONS[method])[1]
    return out
