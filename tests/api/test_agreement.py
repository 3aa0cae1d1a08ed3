"""smb.agreement: two label columns of any benchmark, per group (issue 33 item 5), and WinoMT labels in any language."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.inter_rater import cohens_kappa as sm_kappa

import stats_mtbias as smb
from stats_mtbias.errors import DataError, UsageError


def _labels():
    # Greek: human M F F M N M, judge m f m m n m -> 5 of 6 agree; Finnish: 4 rows, one empty judge label.
    return pd.DataFrame(
        {
            "language": ["el"] * 6 + ["fi"] * 4,
            "system": ["a", "a", "a", "b", "b", "b", "a", "a", "b", "b"],
            "human": ["M", "F", "F", "M", "N", "M", "F", "F", "M", "B"],
            "judge": ["m", "f", "m", "m", "n", "m", "f", "error", "", "b"],
        }
    )


def test_agreement_by_hand_per_group_with_mapping_and_empty_labels():
    res = smb.agreement(_labels(), a="human", b="judge", by=["language"], mapping={"error": "unknown"})
    agree = res.table[res.table["metric"] == "agreement"].set_index("language")
    assert agree.loc["el", "estimate"] == pytest.approx(5 / 6) and agree.loc["el", "n"] == 6
    # Finnish: the empty judge label is left out (not a disagreement): f=f, f vs unknown, b=b -> 2 of 3.
    assert agree.loc["fi", "estimate"] == pytest.approx(2 / 3) and agree.loc["fi", "n"] == 3
    assert agree.loc["all", "estimate"] == pytest.approx(7 / 9)
    assert agree.loc["el", "ci_low"] < 5 / 6 < agree.loc["el", "ci_high"] <= 1
    acc = res.frames["accounting"].set_index(["language", "outcome"])["n"]
    assert acc[("fi", "judge missing")] == 1 and acc[("el", "compared")] == 6
    assert "1 row(s) with an empty label left out (lines 10)" in res.notes[0]
    # kappa: statsmodels' Cohen's kappa of the same Greek table (independent code).
    table = np.array([[1, 0, 0], [1, 3, 0], [0, 0, 1]])  # rows human f, m, n; columns judge f, m, n
    kappa = res.table.query("metric == 'kappa' and language == 'el'").iloc[0]
    assert kappa["estimate"] == pytest.approx(sm_kappa(table).kappa)
    assert kappa["ci_low"] < kappa["estimate"] < kappa["ci_high"] <= 1
    confusion = res.frames["confusion"]
    assert confusion.query("language == 'el' and human == 'f' and judge == 'm'")["n"].tolist() == [1]


def test_agreement_groups_keep_their_names_and_any_label_set(tmp_path):
    frame = _labels().assign(
        human=lambda f: f["human"].map({"M": "man", "F": "woman", "N": "none", "B": "both"}),
        judge=lambda f: f["judge"].map({"m": "man", "f": "woman", "n": "none", "b": "both", "error": "error", "": ""}),
    )
    res = smb.agreement(frame, a="human", b="judge", by=["language", "system"])
    assert {"system", "language", "subset"} <= set(res.table.columns)
    row = res.table.query("metric == 'agreement' and language == 'el' and system == 'b'").iloc[0]
    assert row["estimate"] == pytest.approx(1.0) and row["ci_high"] == 1.0 and row["ci_low"] < 1  # never a point
    path = tmp_path / "labels.csv"
    frame.to_csv(path, index=False)
    again = smb.agreement(path, a="human", b="judge", by=["language", "system"])
    pd.testing.assert_frame_equal(again.table, res.table)
    assert str(path) in again.provenance["data"]


def test_agreement_errors_name_the_problem(tmp_path):
    with pytest.raises(UsageError, match="same column"):
        smb.agreement(_labels(), a="human", b="human")
    with pytest.raises(DataError, match="lacks column"):
        smb.agreement(_labels(), a="human", b="llm")
    path = tmp_path / "empty.csv"
    path.write_text("human,judge\n", "utf-8")
    with pytest.raises(DataError, match="no labels"):
        smb.agreement(path, a="human", b="judge")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = smb.agreement(pd.DataFrame({"x": ["m"] * 5, "y": ["m"] * 5}), a="x", b="y")
    assert np.isnan(res.table.query("metric == 'kappa'")["estimate"].iloc[0])
    assert any("kappa is undefined" in str(w.message) for w in caught)


def test_winomt_judgements_and_labels_in_a_language_without_a_reader(data_dir):
    from stats_mtbias.datasets import winomt as data
    from stats_mtbias.datasets.registry import open_store

    items = data.read_items(open_store(data_dir))
    gold = items["gold"].to_numpy()
    read = np.where(np.arange(len(gold)) % 4 == 0, "unknown", gold)  # every fourth item unread
    frame = pd.DataFrame({"item": items["item"], "system": "llm", "language": "el", "gender": read})
    labels = pd.DataFrame(
        {
            "item": range(8),
            "system": "llm",
            "language": "el",
            "gender": [{"male": "M", "female": "F", "neutral": "N"}[g] for g in gold[:8]],
        }
    )
    res = smb.winomt(judgements=frame, annotations=labels, n_boot=200, data_dir=data_dir)
    acc = res.table.query("metric == 'acc'").iloc[0]
    assert acc["language"] == "el" and acc["estimate"] == pytest.approx(np.mean(read == gold))
    # The reader agrees with the labels on the six of eight labelled items it read (items 0 and 4 unread).
    assert res.frames["annotations"]["agreement"].iloc[0] == pytest.approx(6 / 8)
