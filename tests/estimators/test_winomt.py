"""WinoMT metrics from fractional, float32 and missing inputs, checked against the ratio definitions by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from stats_mtbias.estimators.winomt import FEATURES, METRICS, item_features, winomt_metrics
from stats_mtbias.uncertainty.bootstrap import resample_weights, weighted_sums


def _totals(**kw):
    """A feature-total vector with the given entries, zero elsewhere."""
    return np.array([kw.get(name, 0.0) for name in FEATURES])


def test_fractional_totals_below_one():
    """Weighted totals below one item are divided by their own size: Acc = correct/n, F1 = 2TP/(pred + gold)."""
    t = _totals(n=0.5, correct=0.25, tp_male=0.25, pred_male=0.25, gold_male=0.5, pro=0.4, correct_pro=0.1)
    got = dict(zip(METRICS, winomt_metrics(t), strict=True))
    assert got["acc"] == pytest.approx(0.25 / 0.5, rel=1e-12)
    assert got["f1_male"] == pytest.approx(2 * 0.25 / (0.25 + 0.5), rel=1e-12)
    assert got["acc_pro"] == pytest.approx(0.1 / 0.4, rel=1e-12)
    assert math.isnan(got["f1_female"]) and math.isnan(got["acc_anti"])


def test_float32_totals_computed_in_double():
    """float32 totals are converted to float64 before any sum, so pred + gold is not rounded to float32."""
    vals = dict(n=1.7, correct=0.9, tp_male=0.3, pred_male=0.1, gold_male=0.7, tp_female=0.2, pred_female=0.3, gold_female=0.6)
    t32 = _totals(**vals).astype(np.float32)
    v = {k: float(np.float32(x)) for k, x in vals.items()}  # the float32 values, exactly, in double
    got = winomt_metrics(t32)
    assert got.dtype == np.float64
    assert got[METRICS.index("f1_male")] == 2 * v["tp_male"] / (v["pred_male"] + v["gold_male"])
    assert got[METRICS.index("f1_female")] == 2 * v["tp_female"] / (v["pred_female"] + v["gold_female"])


def test_missing_gold_and_prediction_never_correct():
    """An item whose gold and predicted gender are both missing (NaN) is not counted as correct."""
    rows = item_features(["male", np.nan], ["male", np.nan], ["pro", "pro"])
    col = dict(zip(FEATURES, rows.T, strict=True))
    assert col["correct"].tolist() == [1.0, 0.0]
    assert col["correct_pro"].tolist() == [1.0, 0.0]


# -----------------------------------------------------------------------------
# WinoMT: metrics by hand, McNemar against statsmodels, reader on the shipped files, bootstrap coverage.


GOLD = ["male", "male", "female", "female", "neutral", "male"]
STEREO = ["pro", "anti", "pro", "anti", "none", "none"]
PRED = ["male", "female", "female", "unknown", "neutral", "male"]


def test_metrics_by_hand():
    values = dict(zip(METRICS, winomt_metrics(item_features(GOLD, PRED, STEREO).sum(axis=0))))
    assert values["acc"] == pytest.approx(4 / 6)
    # Male: TP 2, predicted 2, gold 3 -> P = 1, R = 2/3, F1 = 0.8. Female: TP 1, predicted 2, gold 2 -> 0.5.
    assert values["f1_male"] == pytest.approx(0.8) and values["f1_female"] == pytest.approx(0.5)
    precision, recall = 2 / 2, 2 / 3
    assert values["f1_male"] == pytest.approx(2 * precision * recall / (precision + recall))
    assert values["delta_g"] == pytest.approx(0.3)
    assert (values["acc_pro"], values["acc_anti"], values["delta_s"]) == (1.0, 0.0, 1.0)


def test_bootstrap_coverage_of_acc_and_delta_s():
    # 600 pro and 600 anti items; a system right with probability .85 on pro and .6 on anti items.
    rng = np.random.default_rng(4)
    reps, n = 400, 600
    stereo = np.array(["pro"] * n + ["anti"] * n)
    gold = np.array(["male", "female"] * n)
    truth = {"acc": (0.85 + 0.6) / 2, "delta_s": 0.85 - 0.6}
    hits = {k: 0 for k in truth}
    for r in range(reps):
        right = rng.random(2 * n) < np.where(stereo == "pro", 0.85, 0.6)
        pred = np.where(right, gold, np.where(gold == "male", "female", "male"))
        features = item_features(gold, pred, stereo)
        w = resample_weights(1000, strata=stereo, rng=r, dtype=np.float32)
        boot = winomt_metrics(weighted_sums(w, features, integer_weights=True))
        for k in truth:
            low, high = np.quantile(boot[:, METRICS.index(k)], [0.025, 0.975])
            hits[k] += low <= truth[k] <= high
    assert 0.93 <= hits["acc"] / reps <= 0.975 and 0.93 <= hits["delta_s"] / reps <= 0.975
    assert len(FEATURES) == 13
