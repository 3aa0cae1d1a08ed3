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


# -----------------------------------------------------------------------------
# The significance layer against hand computations and independent library calls.


def test_holm_and_bh_by_hand():
    p = [0.01, 0.04, 0.03, 0.005]
    # Holm: sorted .005, .01, .03, .04 times 4, 3, 2, 1 -> .02, .03, .06, .04 -> running max.
    assert np.allclose(adjust_pvalues(p, "holm"), [0.03, 0.06, 0.06, 0.02])
    # BH: p * 4 / rank -> .02, .02, .04, .04, then running min from the top.
    assert np.allclose(adjust_pvalues(p, "bh"), [0.02, 0.04, 0.04, 0.02])
    assert np.allclose(adjust_pvalues(p, "none"), p)


@pytest.mark.parametrize(("ours", "theirs"), [("holm", "holm"), ("bh", "fdr_bh")])
def test_adjustments_equal_statsmodels_with_ties_zeros_and_ones(ours, theirs):
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(8)
    for m in (1, 2, 5, 40, 300):
        p = rng.choice([0.0, 1e-12, 0.01, 0.03, 0.5, 1.0], m) if m < 40 else rng.beta(0.4, 1.0, m)
        p[: m // 3] = p[0]  # ties
        np.testing.assert_allclose(adjust_pvalues(p, ours), multipletests(p, method=theirs)[1], rtol=1e-12, atol=0)


def test_holm_and_bh_hand_computed():
    p = np.array([0.01, 0.04, 0.03, np.nan])
    # Holm: 0.01*3 = 0.03; 0.03*2 = 0.06; max(0.04*1, 0.06) = 0.06
    assert np.allclose(adjust_pvalues(p, "holm")[:3], [0.03, 0.06, 0.06])
    # BH: 0.04*3/3 = 0.04; 0.03*3/2 = 0.045 -> min(0.045, 0.04) = 0.04; 0.01*3 = 0.03
    assert np.allclose(adjust_pvalues(p, "bh")[:3], [0.03, 0.04, 0.04])
    assert np.isnan(adjust_pvalues(p, "holm")[3])
