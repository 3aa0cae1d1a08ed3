"""Issue 45 item 4: one rule per question, every study through the same cases (:mod:`tests.contract._studies`).

(a) a pair of systems is compared on the items both have — ``diff`` is the difference of the two estimates on the
    shared items, computed here by hand from the case, its interval holds it, and a warning names how many items each
    system lacks (before the rule TGBI's ``diff`` was the difference of the systems' own estimates);
(b) "your systems" come from ``against=``, else from the user's inputs — never from a name (a user's ``google``);
(c) ``by=`` takes a column called ``group`` (the study's own word for its groups);
(d) ``read``'s table goes back into its study, through the API and the CLI, the user's columns kept;
(e) no comparison interval is a point, with both systems at 0 or at 1;
(f) ``family="metric"`` and ``"all"`` adjust exactly the rows statsmodels' ``multipletests`` adjusts together.

Deterministic checks (no Monte Carlo): each asserts exact values or bounds against the case. ~25 s in all.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

import stats_mtbias as smb
from stats_mtbias.errors import UsageError
from stats_mtbias.result import your_systems
from tests.contract import _studies as S

PAIR_WORDS = re.compile(
    r"systems cover different (?P<what>items|clusters): (?P<a>\S+) lacks (?P<na>[\d,]+) of (?P<b>\S+)'s (?P=what) and "
    r"(?P=b) (?P<nb>[\d,]+) of (?P=a)'s \((?P<n>[\d,]+) shared\)\. Each pair is compared on the (?P=what) both "
    r"have — its difference, interval and test alike"
)


def _row(result: smb.StudyResult, study: S.Study, a: str = "a", b: str = "b") -> pd.Series:
    cmp = result.compare()
    rows = cmp[
        (cmp["metric"] == study.metric) & (cmp["subset"] == study.subset) & (cmp["system_a"] == a) & (cmp["system_b"] == b)
    ]
    assert len(rows) == 1, cmp
    return rows.iloc[0]


def test_the_contract_knows_every_study():
    """Every study of the registry is in the contract (a new one by :func:`~tests.contract._studies.generic`), and
    the ones that compare systems are those with `family`."""
    from stats_mtbias.studies import STUDIES

    assert [s.name for s in S.STUDIES] == list(STUDIES)
    assert {s.name for s in S.SHIPPED} == {"rates", "tgbi", "winomt", "prates", "optimal"}
    assert {s.name for s in S.COMPARING} == {s.name for s in S.STUDIES if s.takes("family")}
    assert {s.name for s in S.COMPARING} == {s.name for s in S.STUDIES if s.takes("against")}


# ---------------------------------------------------------------- (a) pairs on the items both have


@pytest.mark.parametrize(("study", "options"), [p for s in S.COMPARING for p in s.params()])
def test_a_pair_is_compared_on_the_items_both_have(study, options):
    case = S.lacking()
    result, said = S.quietly(study.run, case, **options)
    row = _row(result, study)
    shared = case.shared("a", "b")
    by_hand = study.by_hand(case.outcomes["a"], shared) - study.by_hand(case.outcomes["b"], shared)
    own = study.by_hand(case.outcomes["a"], np.ones(case.n, bool)) - study.by_hand(case.outcomes["b"], shared)
    assert abs(own - by_hand) > 0.01  # the case tells the two rules apart
    assert row["diff"] == pytest.approx(by_hand, abs=1e-12)
    assert row["ci_low"] < row["diff"] < row["ci_high"]
    assert row["n"] == shared.sum()
    found = [m.groupdict() for m in map(PAIR_WORDS.search, said) if m]
    assert len(found) == 1, said
    words = found[0]
    assert words["a"].split("/")[0] == "a" and words["b"].split("/")[0] == "b"
    counts = (int(words["na"].replace(",", "")), int(words["nb"].replace(",", "")), int(words["n"].replace(",", "")))
    assert counts == (0, int(case.lacks["b"].sum()), int(shared.sum()))


def _two_languages(study: S.Study, case: S.Case) -> pd.DataFrame:
    """The case in two languages; b lacks its lacking items in ``yy`` only (it has them in ``xx``)."""
    parts = []
    for language in ("xx", "yy"):
        lacks = case.lacks if language == "yy" else {}
        frame = study.build(S.Case(case.outcomes, lacks=lacks))
        parts.append(frame.assign(language=language))
    return pd.concat(parts, ignore_index=True)


@pytest.mark.parametrize("study", [S.RATES.param(), S.PRATES.param()])
def test_an_item_lacking_in_one_group_only_is_left_out_of_that_group_alone(study):
    """The rule holds per cell: an occupation b lacks in one language only is compared in the other one."""
    case = S.lacking()
    options = {"by": "language"} if study.name == "rates" else {}
    result, said = S.quietly(study.call, _two_languages(study, case), **options)
    cmp = result.compare()
    rows = cmp[(cmp["metric"] == study.metric) & (cmp["system_a"] == "a")].set_index("language")
    every, shared = np.ones(case.n, bool), case.shared("a", "b")
    a, b = case.outcomes["a"], case.outcomes["b"]
    assert rows.loc["xx", "diff"] == pytest.approx(study.by_hand(a, every) - study.by_hand(b, every), abs=1e-12)
    assert rows.loc["yy", "diff"] == pytest.approx(study.by_hand(a, shared) - study.by_hand(b, shared), abs=1e-12)
    assert (rows.loc["xx", "n"], rows.loc["yy", "n"]) == (case.n, shared.sum())
    # Both languages together: every cell both have (all of xx, the shared part of yy).
    both = lambda o: (S._share(o) * case.n + S._share(o[shared]) * shared.sum()) / (case.n + shared.sum())  # noqa: E731
    assert rows.loc["all", "diff"] == pytest.approx(both(a) - both(b), abs=1e-12)
    assert (rows["ci_low"] < rows["diff"]).all() and (rows["diff"] < rows["ci_high"]).all()
    found = [m.groupdict() for m in map(PAIR_WORDS.search, said) if m]
    assert [(f["na"], f["nb"], f["n"]) for f in found] == [("0", str(case.lacks["b"].sum()), str(case.n + shared.sum()))]


@pytest.mark.parametrize("study", [s.param() for s in S.COMPARING])
def test_a_pair_on_the_same_items_is_not_warned_about(study):
    case = S.three(n=40)
    result, said = S.quietly(study.run, case)
    assert not [m for m in said if PAIR_WORDS.search(m)]
    table = result.table.set_index(["system", "subset", "metric"])["estimate"]
    row = _row(result, study)
    assert row["diff"] == pytest.approx(table["a", study.subset, study.metric] - table["b", study.subset, study.metric])


def test_a_study_without_comparisons_refuses_to_compare():
    result, _ = S.quietly(S.OPTIMAL.run, S.lacking())
    assert result.comparisons is None
    with pytest.raises(UsageError, match="compare"):
        result.compare()


# ---------------------------------------------------------------- (b) your systems


@pytest.mark.parametrize("study", [s.param() for s in S.STUDIES])
def test_your_systems_are_the_inputs_or_against_never_a_name(study):
    case = S.named()
    result, _ = S.quietly(study.run, case)
    # Every system is the user's, google too: none stands out as "yours" against a baseline.
    assert sorted(result.provenance["options"]["yours"]) == ["google", "mine"]
    assert your_systems(result) == [] and result.your_systems == []
    if study.takes("against"):
        against, _ = S.quietly(study.run, case, against=["google"])
        assert your_systems(against) == ["google"] == against.your_systems
        assert set(against.compare()["system_a"]) == {"google"}


# ---------------------------------------------------------------- (c) by= a column called group


BY = [S.RATES]


def test_the_studies_taking_a_by_column_are_known():
    """rates takes any column as `by`; prates' `by` is a choice among its own columns (language, category)."""
    assert {s.name for s in S.STUDIES if s.takes("by")} == {"rates", "prates"}
    with pytest.raises(UsageError, match="`by` must be one of"):
        S.quietly(S.PRATES.run, S.three(groups=True), by="group")
    assert not any(s.takes("strata") for s in S.STUDIES if s.name != "rates")


@pytest.mark.parametrize("study", BY, ids=[s.name for s in BY])
def test_by_takes_a_column_called_group(study):
    case = S.three(groups=True)
    result, _ = S.quietly(study.run, case, by="group")
    table = result.table[result.table["metric"] == "female"].set_index(["system", "subset"])
    for system in case.systems:
        for g in ("g1", "g2", "g3"):
            inside = case.group == g
            assert table.loc[(system, g), "group"] == g
            assert table.loc[(system, g), "estimate"] == pytest.approx(S._share(case.outcomes[system][inside]))
    assert set(result.compare()["subset"]) == {"g1", "g2", "g3", "all"}
    # With a second grouping column the user's `group` keeps its values, the subset joins both.
    case2 = S.Case(case.outcomes, group=case.group)
    frame = study.build(case2).assign(kind=lambda f: np.where(f["item"] < 40, "x", "y"))
    result2, _ = S.quietly(study.call, frame, by=["group", "kind"])
    rows = result2.table[result2.table["group"] != "all"]
    assert set(rows["group"]) == {"g1", "g2", "g3"} and set(rows["kind"]) == {"x", "y"}
    assert (rows["subset"] == rows["group"] + " | " + rows["kind"]).all()


# ---------------------------------------------------------------- (d) read → study


READ = {"tgbi": (lambda source, **o: smb.tgbi(outputs=source, **o), "--outputs"), "prates": (smb.prates, "--judgements")}


def _sampled_outputs(study: str) -> pd.DataFrame:
    """Two samples (column ``K``) of every output of a small benchmark, with a column of the user's own."""
    case = S.three(n=24)
    rows = case.rows()
    text = {"female": "She is here.", "male": "He is here.", "neutral": "They are here."}
    frame = pd.DataFrame(
        {"system": rows["system"], "set": "s1", "item": "w" + rows["i"].astype(str), "translation": rows["outcome"].map(text)}
    )
    frame = pd.concat([frame.assign(K="1"), frame.assign(K="2")], ignore_index=True).assign(note="mine")
    if study == "prates":
        frame = frame.rename(columns={"set": "category"}).assign(language="xx")
    return frame


@pytest.mark.parametrize("name", [pytest.param("tgbi"), pytest.param("prates", marks=pytest.mark.needs_data)])
def test_read_feeds_its_study_through_the_api(name):
    raw = _sampled_outputs(name)
    read, said = S.quietly(smb.read, name, raw, sample="K")
    assert not said
    assert "note" in read.columns and (read["note"] == "mine").all()
    assert sorted(read["K"].unique()) == ["1", "2"] and "sample" not in read.columns
    run = READ[name][0]
    direct, _ = S.quietly(run, raw, sample="K", n_boot=200, rng=0)
    again, _ = S.quietly(run, read, sample="K", n_boot=200, rng=0)
    pd.testing.assert_frame_equal(direct.table, again.table)
    assert (direct.table["n"] > 0).all()


@pytest.mark.parametrize("name", [pytest.param("tgbi"), pytest.param("prates", marks=pytest.mark.needs_data)])
def test_read_feeds_its_study_through_the_cli(name, tmp_path, capsys):
    from stats_mtbias.cli import main

    raw, read = tmp_path / "raw.csv", tmp_path / "read.csv"
    _sampled_outputs(name).to_csv(raw, index=False)
    option = READ[name][1]
    assert main(["read", name, option, str(raw), "--sample", "K", "--out", str(read)]) == 0
    header = pd.read_csv(read, dtype=str, keep_default_na=False)
    assert {"K", "note", "gender", "reason"} <= set(header.columns)
    capsys.readouterr()
    views = []
    for path in (raw, read):
        assert main([name, option, str(path), "--sample", "K", "--format", "json"]) == 0
        views.append(json.loads(capsys.readouterr().out))
    assert views[0] == views[1] and len(views[0])


@pytest.fixture(scope="module")
def winomt_file(tmp_path_factory, data_dir):
    """The first 200 lines of the shipped Google en-es translations, as a user's file."""
    from stats_mtbias.datasets.registry import open_store

    lines = open_store(data_dir).path("winomt/translations/google/en-es.txt").read_text("utf-8").splitlines(True)
    path = tmp_path_factory.mktemp("winomt") / "en-es.txt"
    path.write_text("".join(lines[:200]), "utf-8")
    return path


@pytest.mark.needs_data
def test_read_winomt_feeds_winomt_through_the_api_and_the_cli(winomt_file, tmp_path, capsys):
    """WinoMT's reading (aligned and read per item) is the judgement table: the same numbers as the translations."""
    from stats_mtbias.cli import main

    read, _ = S.quietly(smb.read, "winomt", winomt_file, name="mine")
    from_reading, _ = S.quietly(smb.winomt, judgements=read, n_boot=200, rng=0)
    from_text, _ = S.quietly(smb.winomt, translations={"mine": winomt_file}, n_boot=200, rng=0, adjectives=False)
    pd.testing.assert_frame_equal(from_reading.table, from_text.table)
    out = tmp_path / "read.csv"
    assert main(["read", "winomt", "--translations", str(winomt_file), "--system", "mine", "--out", str(out)]) == 0
    capsys.readouterr()
    views = []
    for argv in (["--judgements", str(out)], ["--translations", str(winomt_file), "--system", "mine", "--no-adjectives"]):
        assert main(["winomt", *argv, "--n-boot", "200", "--format", "json"]) == 0
        views.append(json.loads(capsys.readouterr().out))
    assert views[0] == views[1] and len(views[0])


# ---------------------------------------------------------------- (e) no interval is a point


@pytest.mark.parametrize("outcome", ["male", "female"])
@pytest.mark.parametrize(("study", "options"), [p for s in S.COMPARING for p in s.params()])
def test_no_comparison_interval_is_a_point_at_the_boundary(study, options, outcome):
    result, _ = S.quietly(study.run, S.boundary(outcome), **options)
    cmp = result.compare()
    rows = cmp[(cmp["n"] > 0) & cmp["diff"].notna()]
    assert len(rows)
    point = rows[~(rows["ci_high"] > rows["ci_low"])]
    assert point.empty, point.to_string()
    assert ((rows["ci_low"] <= rows["diff"]) & (rows["diff"] <= rows["ci_high"])).all()


# ---------------------------------------------------------------- (f) family


def _same_as_statsmodels(rows: pd.DataFrame, method: str) -> None:
    """``p_adjusted`` of `rows` is statsmodels' over the rows with a p-value (a row without one is in no family)."""
    p = rows["p_value"].to_numpy(dtype=float)
    tested = ~np.isnan(p)
    assert tested.sum() >= 2
    np.testing.assert_allclose(rows["p_adjusted"].to_numpy()[tested], multipletests(p[tested], method=method)[1], rtol=1e-12)
    assert np.isnan(rows["p_adjusted"].to_numpy()[~tested]).all()


@pytest.mark.parametrize("correction", ["holm", "bh"])
@pytest.mark.parametrize("study", [s.param() for s in S.COMPARING])
def test_family_means_the_same_everywhere(study, correction):
    method = {"holm": "holm", "bh": "fdr_bh"}[correction]
    case = S.three()
    result, _ = S.quietly(study.run, case, correction=correction)
    everything, _ = S.quietly(study.run, case, correction=correction, family="all")
    per_metric = result.compare()
    assert len(per_metric) >= 3
    for _, part in per_metric.groupby(["language", "subset", "metric"]):
        assert len(part) == 3  # the three system pairs of one estimate
        _same_as_statsmodels(part, method)
    all_rows = everything.compare()
    _same_as_statsmodels(all_rows, method)
    # compare(family=...) re-adjusts the same rows the same way.
    np.testing.assert_allclose(result.compare(family="all")["p_adjusted"], all_rows["p_adjusted"], rtol=1e-12)
    if study.name == "rates":  # its other family: the group pairs of one system × metric
        groups, _ = S.quietly(study.run, S.three(groups=True), correction=correction, by="group")
        diffs = groups.frame("group_differences")
        for _, part in diffs.groupby(["system", "metric"]):
            _same_as_statsmodels(part, method)
