"""Issue 46 item 4: ``items=`` restricts every study with the same code (:func:`~stats_mtbias.studies._common.restrict_items`).

Each study runs on a case (:mod:`tests.contract._studies`) with ``items=`` a list, a file of ids and, where the study
names subsets, a named one; the table must equal the study run on its input filtered by hand (the same numbers: the
input is the same), the compared metric the value computed by hand on the kept items, every input row be in the
accounting (the rows left out under their own outcome), the provenance record the set, and an id the benchmark has
not be an error naming it. WinoMT's ``items="gendered"`` on the shipped Spanish outputs of one system equals Acc and
ΔG computed here by hand over the non-neutral items. Deterministic (no Monte Carlo); ~20 s in all.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import UsageError
from stats_mtbias.studies._common import ITEMS_LEFT_OUT
from tests.contract import _studies as S

NUMBERS = ["system", "language", "subset", "metric", "estimate", "ci_low", "ci_high", "n"]


def _ids(study: S.Study, case: S.Case, index: np.ndarray) -> list:
    """The study's own ids of the case's items `index` (as its input builder names them)."""
    if study.name == "tgbi":
        return [f"w{i}" for i in index]
    if study.name in ("prates", "optimal"):
        return [f"occ{i}" for i in index]
    if study.name == "winomt":
        return [int(x) for x in S.winomt_gold(case.n)[index, 0]]
    return [int(i) for i in index]


def _by_hand(study: S.Study, built, ids: list):
    """The study's input with only the rows of `ids`."""
    keep = {str(i) for i in ids}
    if study.name == "optimal":
        frame, reference = built
        return frame[frame["occupation"].astype(str).isin(keep)].reset_index(drop=True), reference
    return built[built["item"].astype(str).isin(keep)].reset_index(drop=True)


def _rows(study: S.Study, built) -> int:
    """How many rows (optimal: occupations of a system) the accounting counts in `built`."""
    return len(built[0]) if study.name == "optimal" else len(built)


@pytest.mark.parametrize("study", [s.param() for s in S.STUDIES])
def test_items_equal_the_input_filtered_by_hand(study, tmp_path):
    case = S.three(n=60)
    index = np.flatnonzero(np.arange(case.n) % 3 != 0)  # 40 of 60 items, spread over the benchmark
    ids = _ids(study, case, index)
    built = study.build(case)
    restricted, _ = S.quietly(study.call, built, items=ids)
    by_hand, _ = S.quietly(study.call, _by_hand(study, built, ids))
    pd.testing.assert_frame_equal(restricted.table[NUMBERS], by_hand.table[NUMBERS])
    if study.metric is not None:  # the compared metric of system a, by hand on the kept items
        row = restricted.table.query("system == 'a' and metric == @study.metric and subset == @study.subset")
        assert row["estimate"].item() == pytest.approx(study.by_hand(case.outcomes["a"], index), abs=1e-12)
        assert row["n"].item() == len(index)
    # Every input row is accounted for, the rows left out under their own outcome.
    everything, _ = S.quietly(study.call, built)
    counted = restricted.frames["accounting"]
    left = counted[counted["outcome"] == ITEMS_LEFT_OUT]
    assert counted["n"].sum() == everything.frames["accounting"]["n"].sum()
    kept = counted.loc[counted["outcome"] != ITEMS_LEFT_OUT, "n"].sum()
    if study.name == "winomt":  # a system's readings cover the whole catalogue, the items it lacks as missing
        assert kept == len(ids) * len(case.systems)
    else:
        assert counted["n"].sum() == _rows(study, built)
        assert kept == _rows(study, _by_hand(study, built, ids))
    assert set(left["system"]) == set(case.systems)
    # The provenance records the set: its size and the sha256 of the sorted ids.
    record = restricted.provenance["items"]
    chosen = sorted({str(i) for i in ids})
    assert record == {
        "subset": "list",
        "n_items": len(index),
        "n_ids": len(index),
        "sha256": hashlib.sha256("\n".join(chosen).encode()).hexdigest(),
    }
    assert everything.provenance["items"]["subset"] in ("all", "jobs")
    # A file of ids (one a line; a CSV with an item column) is the list.
    lines = tmp_path / "ids.txt"
    lines.write_text("\n".join(map(str, ids)) + "\n", "utf-8")
    table = tmp_path / "ids.csv"
    pd.DataFrame({"note": "x", "item": ids}).to_csv(table, index=False)
    for path in (lines, str(table)):
        from_file, _ = S.quietly(study.call, built, items=path)
        pd.testing.assert_frame_equal(from_file.table[NUMBERS], restricted.table[NUMBERS])
        assert from_file.provenance["items"]["sha256"] == record["sha256"]


@pytest.mark.parametrize("study", [s.param() for s in S.STUDIES])
def test_an_id_the_benchmark_has_not_is_an_error_naming_it(study):
    case = S.three(n=30)
    ids = [*_ids(study, case, np.arange(3)), "no-such-item"]
    with pytest.raises(UsageError, match="names 1 id\\(s\\) the benchmark has not: 'no-such-item'"):
        S.quietly(study.call, study.build(case), items=ids)
    with pytest.raises(UsageError, match="neither a named subset"):
        S.quietly(study.call, study.build(case), items="no-such-subset")


def test_agreement_items():
    labels = pd.DataFrame(
        {"item": np.arange(12), "human": list("mmffmfmmffmf"), "llm": list("mmffmmmfffmf"), "system": ["s", "t"] * 6}
    )
    keep = [0, 1, 2, 3, 4, 5, 6, 7]
    restricted = smb.agreement(labels, a="human", b="llm", by="system", items=keep)
    by_hand = smb.agreement(labels[labels["item"].isin(keep)].reset_index(drop=True), a="human", b="llm", by="system")
    pd.testing.assert_frame_equal(restricted.table, by_hand.table)
    counted = restricted.frames["accounting"]
    assert counted["n"].sum() == 12
    assert counted.loc[counted["outcome"] == ITEMS_LEFT_OUT, "n"].sum() == 4
    assert restricted.table.query("metric == 'agreement' and system == 'all'")["estimate"].item() == pytest.approx(6 / 8)


@pytest.mark.needs_data
def test_winomt_gendered_is_the_hand_filtered_computation():
    """Acc and ΔG of google's Spanish outputs on the items whose gold is male or female, by hand from its readings."""
    options = {"languages": ["es"], "n_boot": 200, "rng": 0, "adjectives": False}
    everything = smb.winomt(["google"], **options)
    gendered, _ = S.quietly(smb.winomt, ["google"], items="gendered", **options)
    readings = everything.frames["judgements"]
    kept = readings[(readings["gold"] != "neutral") & (readings["reason"] != "missing")]
    assert len(kept) < len(readings[readings["reason"] != "missing"])  # the subset leaves items out

    def f1(gender: str) -> float:
        hit = ((kept["gold"] == gender) & (kept["gender"] == gender)).sum()
        precision, recall = hit / (kept["gender"] == gender).sum(), hit / (kept["gold"] == gender).sum()
        return 2 * precision * recall / (precision + recall)

    table = gendered.table.set_index("metric")
    assert table.loc["acc", "estimate"] == pytest.approx((kept["gender"] == kept["gold"]).mean(), abs=1e-12)
    assert table.loc["acc", "n"] == len(kept)
    assert table.loc["delta_g", "estimate"] == pytest.approx(f1("male") - f1("female"), abs=1e-12)
    assert gendered.provenance["items"]["subset"] == "gendered"
    assert gendered.provenance["items"]["n_items"] == (readings["gold"] != "neutral").sum()
    counted = gendered.frames["accounting"]
    assert counted.loc[counted["outcome"] == ITEMS_LEFT_OUT, "n"].sum() == (readings["gold"] == "neutral").sum()
    assert counted["n"].sum() == len(readings)
