"""``smb.rates(..., labels=COL)``: shares corrected for the judge's errors by people's labels of a subset."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import DataError, DataQualityWarning, UsageError
from stats_mtbias.uncertainty.ppi import ppi_ratio


def _frame(seed=1, items=120, labelled=40):
    rng = np.random.default_rng(seed)
    rows = []
    for system, to_f, to_m in (("good", 0.05, 0.02), ("poor", 0.3, 0.1)):
        for i in range(items):
            truth = "female" if rng.random() < 0.3 else "male"
            misread = rng.random() < (to_m if truth == "female" else to_f)
            judged = ("male" if truth == "female" else "female") if misread else truth
            rows.append({"system": system, "item": i, "gender": judged, "human": truth if i < labelled else ""})
    return pd.DataFrame(rows)


def test_corrected_share_is_ppi_of_the_rows():
    """One output per item: the corrected female share is ppi_ratio on the labelled and unlabelled items."""
    frame = _frame()
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataQualityWarning)  # 40 labels each: no warning
        res = smb.rates(frame, labels="human", ci="analytic")
    for system in ("good", "poor"):
        rows = frame[frame["system"] == system]
        f = (rows["gender"] == "female").to_numpy(float)
        y = (rows["human"] == "female").to_numpy(float)
        lab = (rows["human"] != "").to_numpy()
        one = np.ones_like(f)
        expected = ppi_ratio(y[None], one[None], f[None], one[None], lab, ~lab, share=True)
        got = res.table.query("system == @system and metric == 'female'").iloc[0]
        assert got["corrected"] == pytest.approx(float(expected.estimate))
        assert got["corrected_ci_low"] == pytest.approx(float(expected.low))
        assert got["corrected_ci_high"] == pytest.approx(float(expected.high))
        assert got["estimate"] == pytest.approx(f.mean())  # the judge's figure beside it
        assert got["agreement"] == pytest.approx(float((rows["gender"] == rows["human"])[lab].mean()))
        assert (got["n_labelled"], got["n_unlabelled"]) == (40, 80)


def test_compare_is_on_corrected_values():
    frame = _frame()
    res = smb.rates(frame, labels="human", ci="analytic")
    row = res.compare().query("metric == 'female'").iloc[0]
    table = res.table.set_index(["system", "metric"])["corrected"]
    # Same labelled items for both systems: the difference's parts are the systems' own corrections (one λ).
    assert row["diff"] == pytest.approx(table["good", "female"] - table["poor", "female"], abs=0.03)
    assert row["method"].startswith("prediction-powered")
    assert row["ci_low"] < row["diff"] < row["ci_high"]


def test_few_labels_warned_by_system():
    frame = _frame(labelled=10)
    with pytest.warns(DataQualityWarning, match=r"fewer than 30 labelled items for good \(10\), poor \(10\)"):
        res = smb.rates(frame, labels="human", ci="analytic")
    assert any("fewer than 30 labelled" in note for note in res.notes)


def test_groups_and_samples():
    frame = _frame()
    frame["lang"] = np.where(frame["item"] % 2 == 0, "de", "fr")
    frame = pd.concat([frame.assign(sample=k) for k in range(3)], ignore_index=True)  # three samples per item
    with pytest.warns(DataQualityWarning, match=r"good \(de: 20\), good \(fr: 20\)"):  # 20 labelled items per language
        res = smb.rates(frame, labels="human", by="lang", sample="sample", ci="analytic")
    female = res.table.query("metric == 'female'")
    assert set(female["lang"]) == {"de", "fr", "all"}
    assert (female.query("lang == 'all'")["n_labelled"] == 40).all()  # items, not samples
    assert female["corrected_ci_low"].between(0, 1).all() and female["corrected_ci_high"].between(0, 1).all()


def test_bad_labels():
    frame = _frame()
    with pytest.raises(UsageError, match="people's labels need their own column"):
        smb.rates(frame, labels="gender")
    with pytest.raises(DataError, match="empty in every row"):
        smb.rates(frame.assign(human=""), labels="human")
    with pytest.raises(DataError, match="'maybe' is not a gender"):
        smb.rates(frame.assign(human=np.where(frame["item"] == 3, "maybe", frame["human"])), labels="human")
