"""WinoMT analysis helpers on small synthetic tables: expected values by eye, by the ANOVA formula or by scipy."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from stats_mtbias.errors import DataQualityWarning
from stats_mtbias.estimators.winomt import FEATURES, METRICS
from stats_mtbias.studies.winomt import analysis as A

COLUMNS = ["system", "language", "item", "gold", "stereotype", "gender", "reason", "sample"]


def frame(rows):
    """A judgement table from tuples ``(system, language, item, gold, stereotype, gender, reason, sample)``."""
    return pd.DataFrame([list(r) for r in rows], columns=COLUMNS)


def _icc_hand(means, sizes):
    """(MSB − MSW) / (MSB + (k0 − 1) MSW) of the one-way ANOVA, unclipped, in plain Python floats."""
    g, total = len(means), float(sum(sizes))
    grand = sum(k * y for k, y in zip(sizes, means, strict=True)) / total
    msb = sum(k * (y - grand) ** 2 for k, y in zip(sizes, means, strict=True)) / (g - 1)
    msw = sum(k * y * (1 - y) for k, y in zip(sizes, means, strict=True)) / (total - g)
    k0 = (total - sum(float(k) ** 2 for k in sizes) / total) / (g - 1)
    return (msb - msw) / (msb + (k0 - 1) * msw)


def test_icc_of_float32_means_and_uint8_sizes():
    """float32 item means and uint8 sample sizes (k² beyond 255) give the double-precision ANOVA ICC of those numbers."""
    means32 = np.array([0.1, 0.7, 0.3, 0.9, 0.55], dtype=np.float32)
    sizes = [2, 3, 2, 4, 3]
    want = _icc_hand([float(m) for m in means32], sizes)  # the float32 values, exactly, in double
    assert 0 < want < 1
    assert A.icc_anova(means32, np.array(sizes)) == pytest.approx(want, rel=1e-14)
    means = [0.9, 0.1, 0.5, 0.75]
    sizes = [20, 16, 30, 24]
    want = min(max(_icc_hand(means, sizes), 0.0), 1.0)
    assert 0 < want < 1
    assert A.icc_anova(np.array(means), np.array(sizes, dtype=np.uint8)) == pytest.approx(want, rel=1e-12)


def test_icc_is_clipped_at_one():
    """The ratio is clipped to [0, 1] as documented, even where it exceeds one (means outside [0, 1])."""
    means, sizes = [2.0, 2.0, 0.0, 0.0], [3, 3, 3, 3]
    assert _icc_hand(means, sizes) == pytest.approx(5.5)  # MSB 4, MSW −1.5, k0 3
    assert A.icc_anova(np.array(means), np.array(sizes)) == 1.0


def test_shared_items_wrong_rule_keeps_every_language():
    """missing='wrong' keeps the rows of every language, not only of the first."""
    table = frame([(s, lang, i, "male", "pro", "male", "", 0) for lang in ("de", "fr", "es") for s in ("a", "b") for i in (1, 2)])
    got = A.shared_items(table, missing="wrong")
    assert len(got) == len(table) == 12
    assert sorted(got["language"].unique()) == ["de", "es", "fr"]


def test_check_samples_two_samples_each_and_order_of_notes():
    """Two samples per item are several samples; notes on unequal counts come in order of first appearance."""
    even = frame([("a", "de", i, "male", "pro", "male", "", s) for i in (1, 2) for s in (0, 1)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert A.check_samples(even) is True
    rows = [
        ("z", "fr", 1, "male", "pro", "male", "", 0),
        ("z", "fr", 1, "male", "pro", "male", "", 1),
        ("z", "fr", 2, "male", "pro", "male", "", 0),
        ("a", "de", 1, "male", "pro", "male", "", 0),
        ("a", "de", 1, "male", "pro", "male", "", 1),
        ("a", "de", 2, "male", "pro", "male", "", 0),
    ]
    notes = []
    with pytest.warns(DataQualityWarning):
        assert A.check_samples(frame(rows), notes) is True
    assert len(notes) == 2
    assert notes[0].startswith("WinoMT z/fr") and notes[1].startswith("WinoMT a/de")


def test_consistency_disagreement_interval_of_a_single_item():
    """One item with two samples read alike at level .5: 0 of n = 1, upper bound max(Wilson, Gamma.ppf(.75, 1)/1) → 1."""
    table = frame([("a", "de", 1, "male", "pro", "male", "", 0), ("a", "de", 1, "male", "pro", "male", "", 1)])
    got = A.consistency(table, level=0.5)
    row = got[got["gold"] == "all"].iloc[0]
    assert row["disagree"] == 0.0 and row["disagree_ci_low"] == 0.0
    # Garwood's upper bound for 0 events in 1 trial is ln 4 ≈ 1.39 > 1 (it would be ln 4 / 2 ≈ 0.69 with n = 2).
    assert stats.gamma.ppf(0.75, 1.0) == pytest.approx(math.log(4))
    assert row["disagree_ci_high"] == 1.0


def test_consistency_without_any_read_item_keeps_its_columns():
    """A table of absent items only gives an empty table that still has every consistency column."""
    table = frame([("a", "de", 1, "male", "pro", "", "missing", 0)])
    got = A.consistency(table)
    assert len(got) == 0
    assert list(got.columns) == A.CONSISTENCY_COLUMNS


def test_few_error_f1_with_a_gender_nobody_has():
    """F1(female) is undefined (NaN interval) for a system with no female item or reading; the other gets score bounds."""
    totals = np.zeros((2, len(FEATURES)))
    ix = {name: i for i, name in enumerate(FEATURES)}
    for s, (tp_m, pred_m, pred_f) in enumerate([(10, 10, 0), (9, 9, 1)]):  # 10 male items; system 1 says "she" once
        totals[s, [ix["tp_male"], ix["pred_male"], ix["gold_male"], ix["pred_female"]]] = tp_m, pred_m, 10, pred_f
    low, high = np.full((2, len(METRICS)), 0.5), np.full((2, len(METRICS)), 0.5)  # point intervals
    A._few_error_f1(totals, low, high, 0.95, None)
    f1m, f1f = METRICS.index("f1_male"), METRICS.index("f1_female")
    assert math.isnan(low[0, f1f]) and math.isnan(high[0, f1f])
    # System 1: F1(male) = 18/19, F1(female) = 0/1; both intervals contain their estimate.
    assert low[1, f1m] <= 18 / 19 <= high[1, f1m] and high[1, f1m] > low[1, f1m]
    assert low[1, f1f] == 0.0 and 0 < high[1, f1f] <= 1


def test_unread_flags_of_a_lone_system_are_silent():
    """A system alone in its language gets no flag and no warning (no median of an empty set is taken)."""
    est = pd.DataFrame({"language": ["de", "fr", "fr"], "n": [100] * 3, "n_unknown": [50, 1, 2]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert A.unread_flags(est) == ["", "", ""]
