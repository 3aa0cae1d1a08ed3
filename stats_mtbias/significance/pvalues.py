"""The one rule of every p-value the package reports: never an exact 0.

A p-value computed in double precision underflows to 0 (or to a subnormal
number that has lost its digits) below about 1e-308: a normal tail beyond
z ≈ 37.5 (a cluster-robust or resampling normal tail of two systems far apart),
Student's t tail of a jackknife difference on thousands of items, an exact
binomial tail over thousands of one-sided items, a chi-square test of a large
table — or a test whose statistic is degenerate (every item one way, no
variance). Such a p is not 0: it is smaller than the method can state. So every
p-value column a study reports (``p_value`` and ``p_adjusted`` of the
comparisons and of every frame: rates, tgbi, winomt, prates, optimal,
agreement) is floored at :data:`P_FLOOR` = 1e-300, a round number above the
underflow, and

- the table for a person (the command line, the Markdown/HTML/LaTeX report)
  shows it as ``< 1e-300`` (:data:`FLOOR_TEXT`), beside the row's ``method``
  that produced it;
- json and csv keep a number, 1e-300, never 0.0: a ``p_value`` equal to
  :data:`P_FLOOR` reads "below 1e-300".

The floor is applied before the multiplicity adjustment
(:func:`~stats_mtbias.significance.multitest.adjust_pvalues`), so a
``p_adjusted`` computed from floored p-values is the adjustment of that bound
(Holm over a family of m: at most ``m × 1e-300``), whichever way it is computed
(by the study, by ``res.compare(family=...)`` or again in the report).

Resampling p-values have their own, higher resolution: a permutation p-value is
at least ``1/(B + 1)`` (``(1 + #extreme) / (B + 1)``, as scipy's
``permutation_test``); the paired bootstrap's p-value
(:func:`stats_mtbias.studies._common.resample_pvalue`) reads the replicates'
tail where it is resolved and a normal tail of their spread beyond it, which is
where it can underflow and meet this floor.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

P_FLOOR = 1e-300
FLOOR_TEXT = "< 1e-300"
# The columns that hold p-values in the frames a study reports.
PVALUE_COLUMNS = ("p_value", "p_adjusted")


def floor_pvalues(pvalues) -> np.ndarray:
    """`pvalues` with every value below :data:`P_FLOOR` (0 included) raised to it; NaN stays NaN.

    >>> floor_pvalues([0.0, 3.9e-299, 1e-320, float("nan"), 0.5]).tolist()
    [1e-300, 3.9e-299, 1e-300, nan, 0.5]
    """
    p = np.asarray(pvalues, dtype=float)
    return np.where(p < P_FLOOR, P_FLOOR, p)  # NaN < x is False: NaN kept


def at_floor(value) -> bool:
    """Whether a p-value is the floor (or below it): shown as :data:`FLOOR_TEXT`."""
    try:
        return 0.0 <= float(value) <= P_FLOOR
    except (TypeError, ValueError):
        return False


def floor_frame(frame: pd.DataFrame | None, columns: Iterable[str] = PVALUE_COLUMNS) -> pd.DataFrame | None:
    """`frame` with its p-value `columns` floored (the same frame when none needs it)."""
    if not isinstance(frame, pd.DataFrame):
        return frame
    low = [
        c
        for c in columns
        if c in frame.columns
        and pd.api.types.is_numeric_dtype(frame[c])
        and bool((frame[c].to_numpy(dtype=float) < P_FLOOR).any())
    ]
    if not low:
        return frame
    out = frame.copy()
    for column in low:
        out[column] = floor_pvalues(out[column].to_numpy(dtype=float))
    return out
