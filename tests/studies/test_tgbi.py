"""The TGBI study's counting (:mod:`stats_mtbias.studies.tgbi`): the few-events fallback and sample weights.

A benchmark of one's own (genders given) on a handful of items; every value is computed here by hand.
No dataset is read.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats

from stats_mtbias.errors import DataQualityWarning
from stats_mtbias.studies import tgbi


def _hand_modified_wilson(k: float, n: float, level: float = 0.95) -> tuple[float, float]:
    """Wilson's interval widened to Garwood's Poisson bounds (chi-square form) at ten or fewer events (k < n / 2)."""
    z = float(special.ndtri(0.5 + level / 2))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = centre - half, centre + half
    if k <= 10:
        low = min(low, stats.chi2.ppf((1 - level) / 2, 2 * k) / 2 / n) if k > 0 else 0.0
        high = max(high, stats.chi2.ppf(1 - (1 - level) / 2, 2 * (k + 1)) / 2 / n)
    return low, high


def _benchmark(rows: list[tuple[str, str, str, str]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["system", "set", "item", "gender"])


def _analyse(outputs: pd.DataFrame, **options):
    judgements, _ = tgbi.load_judgements([], outputs=outputs, sample=options.pop("sample", None))
    return tgbi.analyse(judgements, compare=False, **options)[0].set_index("subset")


def test_a_set_with_few_minority_outputs_keeps_the_score_interval_under_the_bootstrap():
    """Set ``a``: 48 male and 2 neutral outputs on 50 items (one each): g = P_S² = 0.04, two minority outputs,
    at most BOUNDARY_COUNT, so ``interval="percentile"`` keeps the score interval and ``ci_method`` says ``score``.

    The score interval by hand: the design effect of one output per item is k/(k − 1) = 50/49 (the worst case,
    one output per item, is 1), so n_eff = 49 and the interval is the square root of Wilson widened to the
    Poisson bounds on 0.04 · 49 of 49. Set ``b`` (30 female, 30 male on 60 items) has 15 effective minority
    outputs and gets the bootstrap."""
    rows = [("s", "a", f"x{i}", "neutral" if i < 2 else "male") for i in range(50)]
    rows += [("s", "b", f"y{i}", "female" if i < 30 else "male") for i in range(60)]
    est = _analyse(_benchmark(rows), interval="percentile", n_boot=1000, rng=0)
    a, b = est.loc["a"], est.loc["b"]
    assert a["p_s"] == pytest.approx(0.2, abs=1e-12) and b["p_s"] == pytest.approx(0.5, abs=1e-12)
    assert a["ci_method"] == "score"
    assert b["ci_method"] == "bootstrap percentile" and est.loc["TGBI", "ci_method"] == "bootstrap percentile"
    low, high = _hand_modified_wilson(0.04 * 49, 49)
    assert (a["ci_low"], a["ci_high"]) == pytest.approx((np.sqrt(low), np.sqrt(high)), abs=1e-10)
    # The analytic run gives set a the same interval, named "score" too; the index is MOVER's.
    analytic = _analyse(_benchmark(rows), interval="score")
    assert analytic.loc["a", ["ci_low", "ci_high"]].tolist() == pytest.approx([np.sqrt(low), np.sqrt(high)], abs=1e-10)
    assert analytic["ci_method"].tolist() == ["score", "score", "MOVER"]


def test_ten_minority_outputs_is_still_few_and_eleven_is_not():
    """The boundary BOUNDARY_COUNT itself: with one output per item the effective minority count is
    ``minority · (k − 1) / k``, so 10 neutral of 200 (9.95) keeps the score interval and 11 (10.945) does not."""
    assert tgbi.BOUNDARY_COUNT == 10
    for neutral, method in ((10, "score"), (11, "bootstrap percentile")):
        rows = [("s", "a", f"x{i}", "neutral" if i < neutral else "male") for i in range(200)]
        est = _analyse(_benchmark(rows), interval="percentile", n_boot=200, rng=0)
        assert est.loc["a", "ci_method"] == method, neutral


def _sampled(rows: dict[str, list[str]]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"system": "s", "set": "a", "item": item, "sample": str(j), "gender": g}
            for item, genders in rows.items()
            for j, g in enumerate(genders)
        ]
    )


def test_unequal_samples_are_averaged_within_their_item():
    """Items of 2, 1 and 3 samples, none unknown — (female, male), (male), (neutral, neutral, male): each item
    weighs one, so the shares are the means of the items' shares, female 1/6, male (1/2 + 1 + 1/3)/3 = 11/18,
    neutral 2/9, and P_S = sqrt(p_w p_m + p_n). The unequal numbers are named in a warning."""
    outputs = _sampled({"i1": ["female", "male"], "i2": ["male"], "i3": ["neutral", "neutral", "male"]})
    with pytest.warns(DataQualityWarning, match="TGBI: items have 1–3 samples"):
        est = _analyse(outputs, sample="sample")
    a = est.loc["a"]
    assert (a["female"], a["male"], a["neutral"]) == pytest.approx((1 / 6, 11 / 18, 2 / 9), abs=1e-12)
    assert a["p_s"] == pytest.approx(np.sqrt(1 / 6 * 11 / 18 + 2 / 9), abs=1e-12)
    assert a["n"] == 3


def test_equal_samples_are_the_pooled_counts():
    """Two samples per item everywhere: the counts are the outputs themselves (no reweighting, no warning)."""
    outputs = _sampled({"i1": ["female", "male"], "i2": ["male", "male"], "i3": ["neutral", "female"]})
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataQualityWarning)
        est = _analyse(outputs, sample="sample")
    a = est.loc["a"]
    assert (a["n_female"], a["n_male"], a["n_neutral"]) == (2, 3, 1)
    assert a["p_s"] == pytest.approx(np.sqrt(2 / 6 * 3 / 6 + 1 / 6), abs=1e-12)


def test_average_samples_scales_each_cell_by_the_mean_over_its_size():
    """Cells of 2, 1 and 3 outputs (mean 2) are multiplied by 2/2, 2/1 and 2/3; an empty cell stays empty."""
    counts = np.zeros((4, 1, 1, 5))
    counts[0, 0, 0, :2] = 1  # female, male
    counts[1, 0, 0, 1] = 1  # male
    counts[2, 0, 0, [1, 2]] = [1, 2]  # male, two neutral
    with pytest.warns(DataQualityWarning):
        out = tgbi._average_samples(counts)
    np.testing.assert_allclose(out[0, 0, 0], [1, 1, 0, 0, 0])
    np.testing.assert_allclose(out[1, 0, 0], [0, 2, 0, 0, 0])
    np.testing.assert_allclose(out[2, 0, 0], [0, 2 / 3, 4 / 3, 0, 0])
    np.testing.assert_allclose(out[3, 0, 0], 0)
