"""One rule for samples in every study that takes ``sample=`` (issue 45): rates, TGBI (``outputs=``), WinoMT
(``judgements=``), Prates and the optimal translator, each through the same cases.

(a) An unknown sample is the same information as an absent one: extra unknown samples of an item with a known
    one change no estimate and no interval.
(b) ``n_outputs`` and ``n_unknown`` count outputs (rows), never item-equivalents.
(c) ``frames["consistency"]`` exists and is right on a hand-computed case.
(d) Unequal samples per item: each item weighs the same (a share is the mean of the items' means).

The design (one system; an item's samples, ``?`` unknown):

====  ==============  =====  ====================
item  samples         known  female mean
====  ==============  =====  ====================
0     f f             2      1
1     f m             2      1/2
2     m ?             1      0
3     ? ?             0      — (an unknown item)
4     m               1      0
5     m m m m m       5      0
====  ==============  =====  ====================

By hand: 11 known and 3 unknown outputs; 5 items with a known sample, 11/5 known samples each on average, 3 with
two or more of which 1 disagrees; the female share is the mean of the items' means, (1 + 1/2) / 5 = 0.3 (pooled
over the known outputs it would be 3/11); the male share 0.7.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.options import FRAMES
from stats_mtbias.studies._samples import average_cells, sample_weights

DESIGN = {
    0: ["female", "female"],
    1: ["female", "male"],
    2: ["male", "unknown"],
    3: ["unknown", "unknown"],
    4: ["male"],
    5: ["male"] * 5,
}
EXTRA_UNKNOWN = {0: 4, 4: 6}  # unknown samples added to items with a known one: (a) absent == unknown
KNOWN, UNKNOWN = 11, 3
FEMALE, MALE = 0.3, 0.7
CONSISTENCY = {"n": 5, "samples": 11 / 5, "n_several": 3, "disagree": 1 / 3, "female": 0.3, "male": 0.7}
STUDIES = ["rates", "tgbi", "winomt", "prates", "optimal"]


def _rows(extra: bool = False) -> pd.DataFrame:
    """``item`` (0…5), ``sample``, ``gender``: the design, with the extra unknown samples if `extra`."""
    rows = [(i, str(s), g) for i, genders in DESIGN.items() for s, g in enumerate(genders)]
    if extra:
        rows += [(i, f"x{s}", "unknown") for i, n in EXTRA_UNKNOWN.items() for s in range(n)]
    return pd.DataFrame(rows, columns=["item", "sample", "gender"])


@pytest.fixture(scope="module")
def names(data_dir):
    """Real item names the studies that need them read: WinoMT items of male gold, shipped occupations."""
    from stats_mtbias.datasets import winomt
    from stats_mtbias.datasets.registry import open_store

    gold = winomt.read_items(open_store(data_dir))
    items = gold[gold["gold"] == "male"]["item"].head(len(DESIGN)).tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        occupations = smb.optimal(n_boot=100).frames["occupations"].drop_duplicates("item")
    occupations = occupations[~occupations["occupation"].duplicated(keep=False)]["occupation"].head(len(DESIGN)).tolist()
    return {"winomt": items, "optimal": occupations}


def _frame(study: str, rows: pd.DataFrame, names) -> pd.DataFrame:
    """The design in the input format of `study`."""
    frame = rows.assign(system="llm")
    if study == "rates":
        return frame.assign(item="i" + frame["item"].astype(str))
    if study == "tgbi":
        return frame.assign(set="s1", item="w" + frame["item"].astype(str))
    if study == "winomt":
        return frame.assign(item=frame["item"].map(dict(enumerate(names["winomt"]))), language="es")
    if study == "prates":
        return frame.assign(item="occ" + frame["item"].astype(str), language="tr", category="c")
    return frame.assign(occupation=frame["item"].map(dict(enumerate(names["optimal"])))).drop(columns="item")


def _run(study: str, frame: pd.DataFrame):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if study == "rates":
            return smb.rates(frame, sample="sample", interval="score")
        if study == "tgbi":
            return smb.tgbi(outputs=frame, systems=[], sample="sample", interval="score", rng=0)
        if study == "winomt":
            return smb.winomt(judgements=frame, sample="sample", n_boot=200, rng=0)
        if study == "prates":
            return smb.prates(judgements=frame, sample="sample")
        return smb.optimal(judgements=frame, sample="sample", n_boot=200, rng=1)


def _counts(study: str, result) -> tuple[int, int]:
    """``(n_outputs, n_unknown)`` of the system as a whole, from the study's own frame."""
    if study == "rates":
        row = result.frames["estimates"].query("metric == 'female'").iloc[0]
    elif study == "tgbi":
        row = result.frames["estimates"].query("subset == 'TGBI'").iloc[0]
    elif study == "winomt":
        row = result.frames["estimates"].iloc[0]
    elif study == "prates":
        row = result.frames["rates"].query("category == 'all'").iloc[0]
    else:
        return tuple(int(v) for v in result.frames["occupations"][["n_outputs", "n_unknown"]].sum())
    return int(row["n_outputs"]), int(row["n_unknown"])


def _shares(study: str, result) -> tuple[float, float]:
    """``(female, male)`` of the system: the study's own shares (WinoMT: the consistency frame's female mean)."""
    if study == "rates":
        est = result.frames["estimates"].set_index("metric")["estimate"]
        return est["female"], est["male"]
    if study == "tgbi":
        row = result.frames["estimates"].query("subset == 's1'").iloc[0]
        return row["female"], row["male"]
    if study == "prates":
        row = result.frames["rates"].query("category == 'all'").iloc[0]
        return row["female"], row["male"]
    if study == "optimal":
        occ = result.frames["occupations"]
        known = occ[occ["n_outputs"] > 0]
        return known["n_female"].mean(), known["n_male"].mean()
    row = result.frames["consistency"].query("gold == 'all'").iloc[0]
    return row["female"], 1 - row["female"]


@pytest.mark.parametrize("study", STUDIES)
def test_unknown_samples_are_absent_ones(study, names):
    """(a) The extra unknown samples change no number of the table (estimates and intervals), nor any share."""
    base = _run(study, _frame(study, _rows(), names))
    extra = _run(study, _frame(study, _rows(extra=True), names))
    numbers = [c for c in ("estimate", "ci_low", "ci_high", "n") if c in base.table]
    pd.testing.assert_frame_equal(base.table[numbers], extra.table[numbers], check_exact=False, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_shares(study, extra), _shares(study, base), rtol=0, atol=1e-12)


@pytest.mark.parametrize("study", STUDIES)
def test_outputs_are_counted_as_rows(study, names):
    """(b) n_outputs and n_unknown are the rows: 11 and 3, then 11 and 13 with the ten extra unknown samples."""
    assert _counts(study, _run(study, _frame(study, _rows(), names))) == (KNOWN, UNKNOWN)
    extra = sum(EXTRA_UNKNOWN.values())
    assert _counts(study, _run(study, _frame(study, _rows(extra=True), names))) == (KNOWN, UNKNOWN + extra)


@pytest.mark.parametrize("study", STUDIES)
def test_consistency_frame_by_hand(study, names):
    """(c) The consistency of the known samples, counted by hand (module docstring)."""
    result = _run(study, _frame(study, _rows(), names))
    frame = result.frames["consistency"]
    group = {"rates": "group == 'all'", "tgbi": "subset == 'all'", "winomt": "gold == 'all'"}.get(study)
    row = (frame.query(group) if group else frame).iloc[0]
    assert row["system"] == "llm"
    for column, value in CONSISTENCY.items():
        if column in frame:
            assert row[column] == pytest.approx(value, abs=1e-12), column
    assert row["disagree_ci_low"] <= row["disagree"] <= row["disagree_ci_high"]
    assert row["female_ci_low"] <= row["female"] <= row["female_ci_high"]
    assert "consistency" in FRAMES[study]


@pytest.mark.parametrize("study", STUDIES)
def test_items_weigh_the_same(study, names):
    """(d) Items of 1, 2 and 5 known samples: the female share is the mean of the item means (0.3), not the pooled
    share of the known outputs (3/11)."""
    female, male = _shares(study, _run(study, _frame(study, _rows(), names)))
    assert female == pytest.approx(FEMALE, abs=1e-12)
    if study != "winomt":  # WinoMT's consistency gives the female mean only
        assert male == pytest.approx(MALE, abs=1e-12)


def test_winomt_accuracy_is_the_mean_of_the_items_known_samples(names):
    """(d) WinoMT's Acc (male gold): item means 0, 1/2, 1, (none known: wrong) 0, 1, 1 → 3.5 / 6, extra unknowns or not."""
    for extra in (False, True):
        result = _run("winomt", _frame("winomt", _rows(extra), names))
        acc = result.table.query("metric == 'acc'")["estimate"].iloc[0]
        assert acc == pytest.approx(3.5 / 6, abs=1e-12)


def test_the_rule_by_hand():
    """The shared weights and the cube version: an item of 1 female and 6 unknown samples is the female alone."""
    units = np.r_[np.zeros(7, int), np.ones(2, int), np.full(3, 2)]
    known = np.r_[True, np.zeros(6, bool), True, True, np.zeros(3, bool)]
    np.testing.assert_allclose(sample_weights(units, known), np.r_[1.0, np.zeros(6), 0.5, 0.5, np.full(3, 1 / 3)])
    # counted cells: (female, male, neutral, both, unknown); K̄ = mean known over items with one = (1 + 2) / 2
    cube = np.array([[1, 0, 0, 0, 6], [1, 1, 0, 0, 0], [0, 0, 0, 0, 3]], float)
    np.testing.assert_allclose(average_cells(cube), [[1.5, 0, 0, 0, 0], [0.75, 0.75, 0, 0, 0], [0, 0, 0, 0, 1.5]])


def test_rates_cli_sample_changes_the_result_as_the_api(tmp_path):
    """``rates --sample COLUMN`` gives the API's numbers with ``sample=``, and not those without it."""
    import contextlib
    import io
    import json

    from stats_mtbias.cli import main

    frame = _frame("rates", _rows(extra=True), None)
    path = tmp_path / "j.csv"
    frame.to_csv(path, index=False)

    def cli(*extra):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            main(["rates", "--judgements", str(path), "--interval", "score", "--format", "json", *extra])
        return pd.DataFrame(json.loads(out.getvalue())).set_index("metric")["estimate"]

    with_sample, without = cli("--sample", "sample"), cli()
    assert with_sample["female"] == pytest.approx(FEMALE, abs=1e-12)
    assert without["female"] == pytest.approx(3 / 11, abs=1e-12)  # pooled over the known outputs
    api = _run("rates", frame).table.set_index("metric")["estimate"]
    np.testing.assert_allclose(with_sample[api.index].to_numpy(float), api.to_numpy(float), rtol=0, atol=1e-12)


def test_rates_cli_view_consistency_is_the_frame(tmp_path):
    """``rates --sample COL --view consistency`` prints the API's consistency frame (by hand: module docstring)."""
    import contextlib
    import io
    import json

    from stats_mtbias.cli import main

    path = tmp_path / "j.csv"
    _frame("rates", _rows(), None).to_csv(path, index=False)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        main(["rates", "--judgements", str(path), "--sample", "sample", "--view", "consistency", "--format", "json"])
    row = pd.DataFrame(json.loads(out.getvalue())).iloc[0]
    for column, value in CONSISTENCY.items():
        assert float(row[column]) == pytest.approx(value, abs=1e-12), column
