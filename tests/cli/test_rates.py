"""``stats-mtbias rates``: a judgement table counted by hand, and every option against ``smb.rates``."""

from __future__ import annotations

import json
import warnings

import pandas as pd
import pytest

import stats_mtbias as smb

# tiny_judgements (conftest): a = m m f | m m f, b = f m f | ? m m over items 1-3 (de) and 4-6 (es).
BY_HAND = {
    ("a", "all"): {"female": 2 / 6, "male": 4 / 6, "neutral": 0.0, "n": 6},
    ("b", "all"): {"female": 2 / 5, "male": 3 / 5, "neutral": 0.0, "n": 5},
    ("a", "de"): {"female": 1 / 3, "male": 2 / 3, "neutral": 0.0, "n": 3},
    ("a", "es"): {"female": 1 / 3, "male": 2 / 3, "neutral": 0.0, "n": 3},
    ("b", "de"): {"female": 2 / 3, "male": 1 / 3, "neutral": 0.0, "n": 3},
    ("b", "es"): {"female": 0.0, "male": 1.0, "neutral": 0.0, "n": 2},
}


def _api(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return smb.rates(*args, **kwargs)


def test_rates_by_hand(cli, tiny_judgements):
    path, _ = tiny_judgements
    records, _ = cli.json("rates", "--judgements", path, "--by", "language", "--interval", "score", "--view", "table")
    got = {(r["system"], r["language"], r["metric"]): r for r in records}
    for (system, language), expected in BY_HAND.items():
        for metric in ("female", "male", "neutral"):
            row = got[(system, language, metric)]
            assert row["estimate"] == pytest.approx(expected[metric]), (system, language, metric)
            assert row["n"] == expected["n"] and 0 <= row["ci_low"] <= row["estimate"] <= row["ci_high"] <= 1
        assert got[(system, language, "gap")]["estimate"] == pytest.approx(expected["male"] - expected["female"])
    # The same numbers as the API's, to the last digit.
    api = _api(path, by=["language"], interval="score").table
    assert pd.DataFrame(records)[list(api.columns)].equals(api.reset_index(drop=True))


def test_rates_table_shows_percent_and_accounts_for_unknowns(cli, tiny_judgements):
    path, _ = tiny_judgements
    code, out, err = cli("rates", "--judgements", path, "--interval", "score", "--view", "table")
    assert code == 0, err
    header = out.splitlines()[0]
    assert "estimate %" in header and "ci_low %" in header and "ci_high %" in header
    b_female = next(line for line in out.splitlines() if line.split()[:2] == ["b", "all"] and "female" in line)
    assert "40.00" in b_female  # 2 of 5, in percent
    assert "b: 1 judgements unknown (not in n)" in out


@pytest.mark.parametrize(
    ("argv", "kwargs"),
    [
        ([], {}),
        (["--interval", "score"], {"interval": "score"}),
        (["--interval", "bca", "--n-boot", "300", "--seed", "4"], {"interval": "bca", "n_boot": 300, "rng": 4}),
        (["--cluster", "", "--interval", "score"], {"cluster": None, "interval": "score"}),
        (["--system-column", "", "--interval", "score"], {"system": None, "interval": "score"}),
        (["--strata", "language", "--n-boot", "200"], {"strata": "language", "n_boot": 200}),
        (["--level", "0.9", "--interval", "score"], {"level": 0.9, "interval": "score"}),
        (["--engine", "arrow", "--interval", "score"], {"engine": "arrow", "interval": "score"}),
    ],
)
def test_rates_options_are_the_apis(cli, tiny_judgements, argv, kwargs):
    path, _ = tiny_judgements
    records, _ = cli.json("rates", "--judgements", path, "--view", "table", *argv)
    api = _api(path, **{"n_boot": 10_000, **kwargs}).table
    assert pd.DataFrame(records, columns=api.columns).equals(api.reset_index(drop=True))


def test_rates_outcome_column_and_compare_with_family_and_against(cli, tiny_judgements, tmp_path):
    _, frame = tiny_judgements
    renamed = tmp_path / "renamed.csv"
    frame.rename(columns={"gender": "read_as"}).assign(system=frame["system"].map({"a": "mine", "b": "base"})).to_csv(
        renamed, index=False
    )
    records, _ = cli.json(
        "rates",
        "--judgements",
        renamed,
        "--outcome",
        "read_as",
        "--interval",
        "score",
        "--compare",
        "--by",
        "language",
        "--family",
        "all",
        "--against",
        "mine",
    )
    api = _api(renamed, outcome="read_as", interval="score", by=["language"], family="all", against=["mine"]).compare()
    assert [list(r) for r in records] == [list(api.columns)] * len(api)
    assert {(r["system_a"], r["system_b"]) for r in records} == {("mine", "base")}
    assert {r["family"] for r in records} == {f"all ({len(api)} comparisons)"}
    assert [r["p_adjusted"] for r in records] == pytest.approx(api["p_adjusted"].tolist())
    code, out, _ = cli("rates", "--judgements", renamed, "--outcome", "read_as", "--interval", "score", "--compare")
    assert code == 0 and "p_adjusted: Holm within each family (language × subset × metric" in out


def test_rates_needs_judgements_and_names_a_bad_file(cli, tmp_path):
    with pytest.raises(SystemExit) as exc:
        cli("rates")
    assert exc.value.code == 64
    bad = tmp_path / "bad.csv"
    bad.write_text("item,system,gender\n1,a,male\n2,a,Femal\n", "utf-8")
    code, _, err = cli("rates", "--judgements", bad)
    assert code == 65 and "bad.csv" in err and "line 3" in err and "Traceback" not in err
    code, _, err = cli("rates", "--judgements", tmp_path / "nowhere.csv")  # missing input: said before the work
    assert code == 66 and f"--judgements {tmp_path / 'nowhere.csv'}: no such file or directory" in err


def test_the_signature_is_under_the_table_and_in_the_outputs_provenance(cli, tiny_judgements, tmp_path):
    """The API's signature, printed under a table (not with --quiet) and kept in FILE.provenance.json of csv/json."""
    path, _ = tiny_judgements
    expected = _api(path, ci="analytic", correction="bh").signature
    code, out, err = cli("rates", "--judgements", path, "--ci", "analytic", "--correction", "bh")
    assert code == 0, err
    assert out.rstrip().splitlines()[-1] == f"signature: {expected}"
    code, out, _ = cli("rates", "--judgements", path, "--ci", "analytic", "--correction", "bh", "--quiet")
    assert "signature" not in out
    for fmt in ("csv", "json"):
        target = tmp_path / f"out.{fmt}"
        code, _, err = cli(
            "rates", "--judgements", path, "--ci", "analytic", "--correction", "bh", "--format", fmt, "--out", str(target)
        )
        assert code == 0, err
        provenance = json.loads((tmp_path / f"out.{fmt}.provenance.json").read_text())
        assert provenance["signature"] == expected
        assert "signature" not in target.read_text()  # the records stay records


def test_rates_labels_column_not_a_file(cli, tmp_path):
    """``--labels COL`` is a column of the judgements (not the agreement study's file): the corrected figures,
    the same as the API's."""
    frame = pd.DataFrame(
        {
            "system": ["a"] * 8,
            "item": range(8),
            "gender": ["male", "male", "female", "male", "female", "male", "male", "female"],
            "human": ["male", "female", "female", "", "", "", "", ""],
        }
    )
    path = tmp_path / "judged.csv"
    frame.to_csv(path, index=False)
    records, _ = cli.json("rates", "--judgements", str(path), "--labels", "human", "--ci", "analytic", "--view", "table")
    api = _api(frame, labels="human", ci="analytic").table.set_index("metric")
    for row in records:
        assert row["corrected"] == pytest.approx(api.loc[row["metric"], "corrected"])
        assert row["n_labelled"] == 3 and row["n_unlabelled"] == 5


def test_rates_items_restricts_end_to_end(cli, tiny_judgements, tmp_path):
    """``--items`` (ids comma-separated, or a file of them): items 1-3 are the German ones, counted by hand."""
    path, _ = tiny_judgements
    ids = tmp_path / "ids.txt"
    ids.write_text("1\n2\n3\n", "utf-8")
    for given in ("1,2,3", str(ids)):
        records, _ = cli.json("rates", "--judgements", path, "--items", given, "--interval", "score", "--view", "table")
        got = {(r["system"], r["metric"]): r for r in records}
        for system in ("a", "b"):
            expected = BY_HAND[system, "de"]
            assert got[system, "female"]["estimate"] == pytest.approx(expected["female"])
            assert got[system, "female"]["n"] == expected["n"]
        api = _api(path, interval="score", items=[1, 2, 3]).table
        assert pd.DataFrame(records, columns=api.columns).equals(api.reset_index(drop=True))
    code, _, err = cli("rates", "--judgements", path, "--items", "1,9")
    assert code != 0 and "'9'" in err
