"""Holm and Benjamini–Hochberg adjusted p-values checked against statsmodels' multipletests."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

from stats_mtbias.significance.multitest import adjust_pvalues


def test_default_correction_is_holm():
    """Without a method the adjustment is Holm's step-down (statsmodels' 'holm')."""
    p = np.array([0.01, 0.04, 0.03, 0.2, 0.005])
    np.testing.assert_allclose(adjust_pvalues(p), multipletests(p, method="holm")[1], rtol=1e-12)


@pytest.mark.parametrize("method, sm_method", [("holm", "holm"), ("bh", "fdr_bh")])
def test_object_dtype_input_with_nan(method, sm_method):
    """p-values in an object-dtype column (NaN left out of the family) are adjusted as floats."""
    column = pd.Series([0.01, np.nan, 0.04, 0.03], dtype=object)
    got = adjust_pvalues(column, method)
    assert np.isnan(got[1])
    np.testing.assert_allclose(got[[0, 2, 3]], multipletests([0.01, 0.04, 0.03], method=sm_method)[1], rtol=1e-12)


@pytest.mark.parametrize("method", ["holm", "bh"])
def test_adjusted_pvalues_never_exceed_one(method):
    """A raw p-value one ulp above 1 (round-off of a two-sided p) still gives adjusted values capped at 1."""
    above_one = np.nextafter(1.0, 2.0)
    got = adjust_pvalues([0.01, above_one, 0.5], method)
    assert got.max() == 1.0
    assert got[1] == 1.0
