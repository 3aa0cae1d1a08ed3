"""Prates with ``referent=``: the translation's words aligned to a reference's [bracketed] ones, in the authors' scheme."""

from __future__ import annotations

import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import DataError, DataQualityWarning, UsageError

CARE = "Uncle Ben is a fisherman and his aunt is a nurse. [They] care for the sick."
WALK = "The king and the queen were walking, [one] is an engineer."
JUDGEMENTS = pd.DataFrame(
    {
        "item": ["nurse", "nurse", "engineer", "engineer", "clerk"],
        "language": ["fi", "fi", "tr", "tr", "tr"],
        "system": ["a", "b", "a", "b", "a"],
        "translation": [
            "Uncle Ben is a fisherman and his aunt is a nurse. She cares for the sick.",
            "Uncle Ben is a fisherman and his aunt is a nurse.",
            "The king and the queen were walking, the queen is an engineer.",
            "The king and the queen were walking, they are an engineer.",
            "He is a clerk.",
        ],
        "reference": [CARE, CARE, WALK, WALK, ""],
    }
)


def test_read_prates_reads_the_referent():
    read = smb.read("prates", JUDGEMENTS, referent="reference")
    assert read["gender"].tolist() == ["female", "unknown", "female", "neutral", "male"]
    assert read["reason"].tolist() == ["", "referent_dropped", "", "", ""]
    assert read["why"].tolist() == ["'she' for [they]", "[they]: not in the output", "'queen' for [one]", "'they' for [one]", ""]


def test_without_referent_the_first_cue_and_a_warning():
    with pytest.warns(DataQualityWarning, match="column 'reference' is ignored"):
        read = smb.read("prates", JUDGEMENTS)
    assert read["gender"].tolist() == ["male", "male", "unknown", "neutral", "male"]  # his → male; no pronoun
    assert "why" not in read


def test_a_neutral_slot_needs_a_neutral_pronoun():
    frame = JUDGEMENTS.iloc[[2]].assign(translation="The king and the queen were walking, the person is an engineer.")
    read = smb.read("prates", frame, referent="reference")
    assert (read["gender"].tolist(), read["reason"].tolist()) == (["unknown"], ["no_pronoun"])


def test_prates_counts_the_referent():
    res = smb.prates(JUDGEMENTS, referent="reference", languages=["fi", "tr"])
    female = res.table.query("metric == 'female'").set_index(["system", "language"])["estimate"]
    assert female[("a", "fi")] == 1 and female[("b", "tr")] == 0 and female[("a", "tr")] == 0.5
    assert pd.isna(female[("b", "fi")])  # its one output dropped the referent: unknown, not neutral


def test_errors(tmp_path):
    with pytest.raises(DataError, match="no reference column 'ref'"):
        smb.read("prates", JUDGEMENTS, referent="ref")
    bad = JUDGEMENTS.assign(reference=[CARE, "[one", WALK, WALK, ""])
    path = tmp_path / "bad.csv"
    bad.to_csv(path, index=False)
    with pytest.raises(DataError, match=r"bad\.csv, line 3: reference translation: unbalanced"):
        smb.read("prates", path, referent="reference")
    with pytest.raises(UsageError, match="`referent` names a column"):
        smb.prates(referent="reference")
