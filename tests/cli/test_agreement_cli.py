"""``stats-mtbias agreement``: two label columns of a hand-made table, every option against ``smb.agreement``."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import stats_mtbias as smb

# Two languages × two systems; the LLM's "error" is a label of its own unless mapped; one empty human label.
LABELS = pd.DataFrame(
    {
        "language": ["el"] * 5 + ["fi"] * 5,
        "system": ["a", "a", "b", "b", "b", "a", "a", "b", "b", "b"],
        "human": ["M", "F", "F", "M", "N", "M", "F", "N", "M", ""],
        "llm": ["m", "f", "m", "m", "n", "m", "f", "n", "error", "f"],
    }
)


@pytest.fixture
def labels(tmp_path):
    path = tmp_path / "labels.csv"
    LABELS.to_csv(path, index=False)
    return path


def _frame(records, like: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(records, columns=like.columns)


def test_agreement_by_hand_in_shares(cli, labels):
    records, _ = cli.json("agreement", "--labels", labels, "--a", "human", "--b", "llm", "--by", "language", "--view", "table")
    got = {(r["language"], r["metric"]): r for r in records}
    # el: 4 of 5 equal; fi: 3 of 4 compared (the empty human label is left out; "error" ≠ "m").
    assert got[("el", "agreement")]["estimate"] == pytest.approx(4 / 5) and got[("el", "agreement")]["n"] == 5
    assert got[("fi", "agreement")]["estimate"] == pytest.approx(3 / 4) and got[("fi", "agreement")]["n"] == 4
    assert got[("all", "agreement")]["estimate"] == pytest.approx(7 / 9)
    for row in records:
        assert row["ci_low"] <= row["estimate"] <= row["ci_high"]
    api = smb.agreement(labels, a="human", b="llm", by="language").table
    assert _frame(records, api).equals(api.reset_index(drop=True))


@pytest.mark.parametrize(
    ("argv", "kwargs"),
    [
        ([], {}),
        (["--by", "language,system"], {"by": ["language", "system"]}),
        (["--mapping", "error=m"], {"mapping": {"error": "m"}}),
        (["--mapping", " error = m , x=y"], {"mapping": {"error": "m", "x": "y"}}),
        (["--level", "0.9"], {"level": 0.9}),
    ],
)
@pytest.mark.parametrize("view", ["agreement", "table", "confusion", "accounting"])
def test_agreement_options_and_views_are_the_apis(cli, labels, argv, kwargs, view):
    records, _ = cli.json("agreement", "--labels", labels, "--a", "human", "--b", "llm", "--view", view, *argv)
    res = smb.agreement(labels, a="human", b="llm", **kwargs)
    api = res.table if view == "table" else res.frames[view]
    assert _frame(records, api).equals(api.reset_index(drop=True)), view


def test_agreement_default_view_and_csv(cli, labels):
    api = smb.agreement(labels, a="human", b="llm", by=["system"]).frames["agreement"]
    records, _ = cli.json("agreement", "--labels", labels, "--a", "human", "--b", "llm", "--by", "system")
    assert _frame(records, api).equals(api.reset_index(drop=True))
    code, out, err = cli("agreement", "--labels", labels, "--a", "human", "--b", "llm", "--by", "system", "--format", "csv")
    assert code == 0, err
    back = pd.read_csv(pd.io.common.StringIO(out), dtype={"system": str})
    pd.testing.assert_frame_equal(back, api.reset_index(drop=True), check_dtype=False)


def test_agreement_table_shows_agreement_in_percent_and_kappa_as_is(cli, labels):
    code, out, err = cli("agreement", "--labels", labels, "--a", "human", "--b", "llm", "--view", "table")
    assert code == 0, err
    lines = out.splitlines()
    agreement = next(line for line in lines if "agreement %" in line)
    assert "77.78" in agreement  # 7 of 9
    kappa = smb.agreement(labels, a="human", b="llm").table.query("metric == 'kappa'")["estimate"].iloc[0]
    assert f"{kappa:.4f}" in next(line for line in lines if " kappa " in f" {line} ")
    # The default view: agreement in %, kappa as it is, the empty label accounted for in a note.
    code, out, _ = cli("agreement", "--labels", labels, "--a", "human", "--b", "llm")
    header = out.splitlines()[0]
    assert "agreement %" in header and "kappa %" not in header and "kappa" in header
    assert "1 row(s) with an empty label left out (lines 11)" in out


def test_agreement_mapping_file(cli, labels, tmp_path):
    expected = smb.agreement(labels, a="human", b="llm", mapping={"error": "m"}).table
    as_csv = tmp_path / "map.csv"
    as_csv.write_text("label,as\nerror,m\n", "utf-8")
    as_json = tmp_path / "map.json"
    as_json.write_text(json.dumps({"error": "m"}), "utf-8")
    for path in (as_csv, as_json):
        records, _ = cli.json("agreement", "--labels", labels, "--a", "human", "--b", "llm", "--mapping", path, "--view", "table")
        assert _frame(records, expected).equals(expected.reset_index(drop=True)), path


def test_agreement_out_file(cli, labels, tmp_path):
    out = tmp_path / "agreement.json"
    code, stdout, err = cli("agreement", "--labels", labels, "--a", "human", "--b", "llm", "--format", "json", "--out", out)
    assert code == 0 and stdout == "", err
    api = smb.agreement(labels, a="human", b="llm").frames["agreement"]
    assert _frame(json.loads(out.read_text("utf-8")), api).equals(api.reset_index(drop=True))
    assert (tmp_path / "agreement.json.provenance.json").exists()


@pytest.mark.parametrize(
    ("argv", "code", "said"),
    [
        (["--labels", "{missing}", "--a", "human", "--b", "llm"], 66, "--labels {missing}: no such file"),
        (["--labels", "{labels}", "--a", "human", "--b", "judge"], 65, "{labels}, line 1: header lacks column(s) judge"),
        (["--labels", "{labels}", "--a", "human", "--b", "llm", "--by", "lang"], 65, "lacks column(s) lang"),
        (["--labels", "{labels}", "--a", "human", "--b", "human"], 64, "name the same column"),
        (["--labels", "{labels}", "--a", "human", "--b", "llm", "--mapping", "error"], 66, "--mapping error: no such file"),
        (["--labels", "{labels}", "--a", "human", "--b", "llm", "--mapping", "a=b,c"], 64, "'c' is not LABEL=VALUE"),
        (["--labels", "{labels}", "--a", "human"], 64, "the following arguments are required: --b"),
        (["--labels", "{labels}", "--a", "human", "--b", "llm", "--view", "nope"], 64, "invalid choice"),
        (["--labels", "{labels}", "--a", "human", "--b", "llm", "--out", "{labels}"], 64, "would overwrite the input"),
    ],
)
def test_agreement_bad_inputs(cli, labels, tmp_path, argv, code, said):
    names = {"labels": labels, "missing": tmp_path / "nope.csv"}
    argv = [a.format(**names) for a in argv]
    if "required" in said or "invalid choice" in said:
        with pytest.raises(SystemExit) as exc:
            cli("agreement", *argv)
        assert exc.value.code == 64
        assert said in cli.capsys.readouterr().err
        return
    got, out, err = cli("agreement", *argv)
    assert got == code and out == ""
    assert said.format(**names) in err
