"""TGBI and ``smb.read("tgbi")`` with ``referent=``: a reference column with the asked-about words in [brackets]."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import DataError, DataQualityWarning, UsageError

pytestmark = pytest.mark.filterwarnings("ignore:.*blank output", "ignore::stats_mtbias.errors.SmallExpectedCountWarning")

REF = "The king and the queen were walking, [one] tripped over a stone."
TWO = pd.DataFrame(
    {
        "system": ["mt"] * 4 + ["llm"] * 4,
        "set": "care",
        "item": ["a", "b", "c", "d"] * 2,
        "translation": [
            "The king and the queen were walking, she tripped over a stone.",
            "Uncle Ben is a fisherman and his aunt is a florist. She arranges flowers.",
            "The king and the queen were walking.",
            "Sir William and Lady Davis met; he has won an award.",
            "The king and the queen were walking, they tripped over a stone.",
            "Uncle Ben is a fisherman and his aunt is a florist. They arrange flowers.",
            "The king and the queen were walking, he tripped over a stone.",
            "",
        ],
        "reference": [
            REF,
            "Uncle Ben is a fisherman and his aunt is a florist. [They] arrange flowers.",
            REF,
            "Sir William and Lady Davis met; [one] has won an award.",
            REF,
            "Uncle Ben is a fisherman and his aunt is a florist. [They] arrange flowers.",
            REF,
            REF,
        ],
    }
)


def test_read_reads_the_referent():
    read = smb.read("tgbi", TWO, referent="reference")
    assert read["gender"].tolist() == ["female", "female", "unknown", "male", "neutral", "neutral", "male", "unknown"]
    assert read["reason"].tolist() == ["", "", "referent_dropped", "", "", "", "", "empty"]
    assert read["why"].tolist()[:4] == ["'she' for [one]", "'she' for [they]", "[one]: not in the output", "'he' for [one]"]
    assert list(read.columns[:8]) == ["system", "set", "item", "sample", "translation", "gender", "reason", "why"]
    assert read["reference"].tolist() == TWO["reference"].tolist()  # the user's column comes along


def test_without_referent_nothing_changes_but_a_warning():
    with pytest.warns(DataQualityWarning, match="column 'reference' is ignored.*referent='reference'"):
        read = smb.read("tgbi", TWO)
    # The one-person reader: the first cue anywhere (his → male), a dropped clause neutral.
    assert read["gender"].tolist() == ["female", "male", "neutral", "male", "neutral", "male", "male", "unknown"]
    assert "why" not in read
    plain = smb.read("tgbi", TWO.drop(columns="reference"))
    pd.testing.assert_frame_equal(read.drop(columns="reference"), plain)


def test_tgbi_counts_the_referent():
    res = smb.tgbi(outputs=TWO, referent="reference")
    shares = res.table.query("metric in ['female', 'male', 'neutral'] and subset == 'care'").set_index(["system", "metric"])
    # mt: female, female, male of three known (one dropped); llm: neutral, neutral, male.
    assert np.allclose(shares.loc["mt", "estimate"].loc[["female", "male", "neutral"]], [2 / 3, 1 / 3, 0])
    assert np.allclose(shares.loc["llm", "estimate"].loc[["female", "male", "neutral"]], [0, 1 / 3, 2 / 3])
    accounting = res.frames["accounting"]
    assert "referent_dropped" in accounting.to_string()


def test_read_table_goes_back_without_warning():
    read = smb.read("tgbi", TWO, referent="reference")
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataQualityWarning)
        again = smb.read("tgbi", read)  # its gender column wins: the reference is not read again
    assert again["gender"].tolist() == read["gender"].tolist()


def test_errors_name_the_column_file_and_line(tmp_path):
    with pytest.raises(DataError, match="no reference column 'ref'"):
        smb.read("tgbi", TWO, referent="ref")
    bad = TWO.copy()
    bad.loc[2, "reference"] = "The king [one tripped."
    path = tmp_path / "bad.csv"
    bad.to_csv(path, index=False)
    with pytest.raises(DataError, match=r"bad\.csv, line 4: reference translation: unbalanced"):
        smb.read("tgbi", path, referent="reference")
    with pytest.raises(UsageError, match="`referent` names a column of `outputs`"):
        smb.read("tgbi", systems=["kakao"], referent="reference")
