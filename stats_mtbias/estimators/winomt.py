"""WinoMT metrics (docs/methods.md, "WinoMT") as pure functions of per-item sufficient statistics.

Each item contributes a vector of indicators (:data:`FEATURES`); sums over
items (or bootstrap-weighted sums) give every metric, as shares in [0, 1] (differences of shares for ΔG, ΔS):

- Acc: items whose found gender equals gold, over all items (``unknown`` is wrong);
- F1 of male and of female, each gender as the positive class, ΔG = F1(male) − F1(female);
- Acc on pro- and anti-stereotypical items and ΔS = Acc(pro) − Acc(anti)
  (accuracy, as the maintainers' code and answer say, not the paper's "F1").

All functions work on any leading (replicate, system) axes.
"""

from __future__ import annotations

import numpy as np

from stats_mtbias.errors import UsageError

FEATURES = (
    "n",
    "correct",
    "pro",
    "anti",
    "correct_pro",
    "correct_anti",
    "unknown",
    "tp_male",
    "pred_male",
    "gold_male",
    "tp_female",
    "pred_female",
    "gold_female",
)
METRICS = ("acc", "f1_male", "f1_female", "delta_g", "acc_pro", "acc_anti", "delta_s")
_I = {name: i for i, name in enumerate(FEATURES)}


def item_features(gold, predicted, stereotype) -> np.ndarray:
    """Indicators per item, shape ``(n_items, len(FEATURES))``.

    Parameters
    ----------
    gold : array of {"male", "female", "neutral"}
    predicted : array of {"male", "female", "neutral", "unknown"} (``both`` counts as wrong)
    stereotype : array of {"pro", "anti", "none"}
    """
    gold, predicted, stereotype = (np.asarray(a, dtype=object) for a in (gold, predicted, stereotype))
    if not gold.shape == predicted.shape == stereotype.shape:
        raise UsageError("`gold`, `predicted` and `stereotype` must have one entry per item.")
    correct = predicted == gold
    pro, anti = stereotype == "pro", stereotype == "anti"
    columns = {
        "n": np.ones(gold.shape, bool),
        "correct": correct,
        "pro": pro,
        "anti": anti,
        "correct_pro": correct & pro,
        "correct_anti": correct & anti,
        "unknown": predicted == "unknown",
        "tp_male": correct & (gold == "male"),
        "pred_male": predicted == "male",
        "gold_male": gold == "male",
        "tp_female": correct & (gold == "female"),
        "pred_female": predicted == "female",
        "gold_female": gold == "female",
    }
    return np.column_stack([columns[name] for name in FEATURES]).astype(float)


def _ratio(num, den):
    num, den = np.asarray(num, float), np.asarray(den, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def winomt_metrics(totals) -> np.ndarray:
    """Metrics (last axis: :data:`METRICS`) from feature totals (last axis: :data:`FEATURES`)."""
    t = np.asarray(totals, dtype=float)
    f = {name: t[..., i] for name, i in _I.items()}
    acc = _ratio(f["correct"], f["n"])
    # F1 = 2 TP / (predicted + gold): defined whenever the class occurs at all.
    f1_male = _ratio(2 * f["tp_male"], f["pred_male"] + f["gold_male"])
    f1_female = _ratio(2 * f["tp_female"], f["pred_female"] + f["gold_female"])
    acc_pro = _ratio(f["correct_pro"], f["pro"])
    acc_anti = _ratio(f["correct_anti"], f["anti"])
    return np.stack([acc, f1_male, f1_female, f1_male - f1_female, acc_pro, acc_anti, acc_pro - acc_anti], axis=-1)
