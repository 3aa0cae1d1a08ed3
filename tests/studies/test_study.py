"""The one study protocol: each study a :class:`Study` record, one :func:`finish`, no private result objects."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias import options
from stats_mtbias.result import COMPARE_COLUMNS, TABLE_COLUMNS, StudyResult
from stats_mtbias.studies import ALL, NAMES, STUDIES
from stats_mtbias.studies._study import Study, finish


def test_the_registry_yields_one_record_per_study():
    assert list(STUDIES) == list(NAMES) and list(ALL) == [*NAMES, "agreement"]
    for name, study in ALL.items():
        assert isinstance(study, Study) and study.name == name and callable(study.evaluate)
        assert study.frames and len(set(study.frames)) == len(study.frames)
    assert all(callable(study.pilot) for study in STUDIES.values())
    assert {n for n, s in STUDIES.items() if s.read is not None} == {"tgbi", "winomt", "prates"}
    # The vocabulary's frames are the records' (no hand-kept copy).
    assert options.FRAMES == {name: study.frames for name, study in ALL.items()}
    with pytest.raises(KeyError):
        STUDIES["agreement"]


def test_a_result_has_no_private_object():
    assert "details" not in {f.name for f in dataclasses.fields(StudyResult)}


def _frame(n: int = 40) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "item": np.tile(np.arange(n), 2),
            "system": np.repeat(["a", "b"], n),
            "gender": rng.choice(["female", "male", "unknown"], size=2 * n),
        }
    )


def test_finish_orders_and_checks_the_parts():
    res = smb.rates(_frame(), interval="score")
    again = finish(
        "rates",
        res.table,
        res.comparisons.iloc[:, ::-1],  # any column order in, the one order out
        res.provenance,
        {**res.frames, "consistency": None},
        allowed=STUDIES["rates"].frames,
        correction=res.correction,
        family=res.family,
        notes=["said", "said", "other"],
        options={"against": ["a"]},
    )
    assert list(again.comparisons.columns) == COMPARE_COLUMNS
    pd.testing.assert_frame_equal(again.comparisons, res.comparisons)
    assert "consistency" not in again.frames and set(again.frames) == set(res.frames)
    assert again.notes == ["said", "other"]
    assert again.provenance["options"]["against"] == ["a"] and again.your_systems == ["a"]
    assert res.provenance["options"]["against"] is None  # the caller's record is not changed
    one = finish("rates", res.table, res.comparisons.iloc[:0], res.provenance, {}, allowed=())
    assert one.comparisons is None
    with pytest.raises(ValueError, match="declared"):
        finish("rates", res.table, None, res.provenance, {"mine": res.table}, allowed=STUDIES["rates"].frames)
    with pytest.raises(ValueError, match="ci_low"):
        finish("rates", res.table.drop(columns="ci_low"), None, res.provenance, {}, allowed=())
    assert list(res.table.columns[: len(TABLE_COLUMNS)]) == TABLE_COLUMNS


def test_the_rates_pilot_reads_the_public_result_alone():
    """A pilot rebuilt from nothing but the public parts plans exactly as the study's own result."""
    res = smb.rates(_frame(200), interval="score")
    public = StudyResult("rates", res.table, res.comparisons, res.provenance, {"judgements": res.frame("judgements")})
    kw = dict(metric="female", n=200, test="wald", n_sim=200, rng=0)
    assert smb.power(pilot=public, **kw).table.equals(smb.power(pilot=res, **kw).table)


def test_with_notes_keeps_each_warning_once_in_order():
    import warnings

    from stats_mtbias.errors import DataQualityWarning
    from stats_mtbias.studies._study import with_notes

    base = smb.rates(_frame(), interval="score")

    def study():
        for said in ("copy", "copy", "blank"):
            warnings.warn(said, DataQualityWarning, stacklevel=2)
        warnings.warn("not a note", UserWarning, stacklevel=2)
        return dataclasses.replace(base, notes=["own", "blank"])

    with pytest.warns(DataQualityWarning, match="copy"):  # raised on, not swallowed
        assert with_notes(study)().notes == ["copy", "blank", "own"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert with_notes(own_first=True)(study)().notes == ["own", "blank", "copy"]
