"""WinoMT's Acc corrected by prediction-powered inference (``acc_ppi``): the machinery of ``smb.rates(labels=)``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from stats_mtbias.studies.winomt import corrected_accuracy
from stats_mtbias.uncertainty.ppi import ppi_ratio


def _pairs(gold, human, automatic, system="s", language="nl"):
    return pd.DataFrame(
        {"system": system, "language": language, "item": range(len(gold)), "gold": gold, "human": human, "automatic": automatic}
    )


def test_acc_ppi_is_ppi_of_the_items():
    """40 labelled items (reader right on 30, people agree on 27 of them and on 4 of the 10 it got wrong) among 200
    evaluated items, 140 read right: the PPI++ estimate of the items' right/wrong by people."""
    auto = np.r_[np.ones(30), np.zeros(10)].astype(bool)
    human = np.r_[np.ones(27), np.zeros(3), np.ones(4), np.zeros(6)].astype(bool)
    gold = ["male"] * 40
    pairs = _pairs(gold, np.where(human, "male", "female"), np.where(auto, "male", "female"))
    est = pd.DataFrame({"system": ["s"], "language": ["nl"], "n": [200], "acc": [0.7]})
    out = corrected_accuracy(est, pairs, n_draws=500, rng=1).iloc[0]
    f = np.r_[auto.astype(float), np.ones(110), np.zeros(50)]  # the 160 unlabelled items: 140 - 30 read right
    y = np.r_[human.astype(float), np.zeros(160)]
    lab = np.arange(200) < 40
    one = np.ones(200)
    expected = ppi_ratio(y[None], one[None], f[None], one[None], lab, ~lab, share=True)
    assert (out["acc_ppi"], out["ppi_ci_low"], out["ppi_ci_high"]) == pytest.approx(
        (float(expected.estimate), float(expected.low), float(expected.high))
    )
    # Both corrections agree roughly on this sample (predictive values: 0.7 * 0.9 + 0.3 * 0.4 = 0.75).
    assert out["acc_corrected"] == pytest.approx(0.75)
    assert abs(out["acc_ppi"] - out["acc_corrected"]) < 0.05


def test_acc_ppi_with_a_sample_all_read_right():
    """No wrong reading among 25 labels: the predictive-value correction has nothing to go on; PPI still corrects,
    its interval kept open by the few-disagreements floor."""
    pairs = _pairs(["male"] * 25, ["male"] * 24 + ["female"], ["male"] * 25)
    est = pd.DataFrame({"system": ["s"], "language": ["nl"], "n": [300], "acc": [0.8]})
    out = corrected_accuracy(est, pairs, n_draws=500, rng=1).iloc[0]
    assert np.isnan(out["acc_corrected"])
    assert out["ppi_ci_low"] < out["acc_ppi"] < out["ppi_ci_high"]
    assert out["ppi_ci_high"] - out["ppi_ci_low"] > 0.1  # 25 labels: wide
