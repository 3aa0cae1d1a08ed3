"""``stats-mtbias read {tgbi,prates,winomt}``: the judgement table ``smb.read`` returns, written to CSV or Parquet."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.cli import main

BENCH = pd.DataFrame(
    {
        "system": ["llm"] * 4 + ["mt"] * 4,
        "set": ["s1", "s1", "s2", "s2"] * 2,
        "item": ["teacher", "nurse"] * 4,
        "translation": ["She teaches.", "They care.", "He teaches.", "", "He teaches.", "He cares.", "He teaches.", "She cares."],
    }
)
PRATES = pd.DataFrame(
    {
        "item": ["nurse", "nurse", "engineer", "engineer"],
        "language": ["fi", "fi", "tr", "tr"],
        "system": ["a", "b", "a", "b"],
        "translation": ["She is a nurse", "He is a nurse", "He is an engineer", "They are an engineer"],
    }
)


@pytest.fixture
def bench(tmp_path):
    path = tmp_path / "bench.csv"
    BENCH.to_csv(path, index=False)
    return path


def _as_csv(frame: pd.DataFrame) -> pd.DataFrame:
    """What a CSV keeps of a frame: strings, an empty cell for a missing value."""
    return frame.astype(object).where(frame.notna(), "").astype(str)


def _read(path) -> pd.DataFrame:
    if str(path).endswith(".csv"):
        return pd.read_csv(path, dtype=str, keep_default_na=False)
    return pd.read_parquet(path)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_read_tgbi_writes_the_apis_table(cli, bench, tmp_path, suffix):
    out = tmp_path / f"read{suffix}"
    code, stdout, err = cli("read", "tgbi", "--outputs", bench, "--out", out)
    assert code == 0, err
    api = smb.read("tgbi", bench)
    pd.testing.assert_frame_equal(_read(out), _as_csv(api) if suffix == ".csv" else api)
    # The counts per system and set are printed; the blank output is said.
    lines = stdout.splitlines()
    assert lines[0].split() == ["system", "set", "female", "male", "neutral", "both", "unknown", "n"]
    assert lines[1].split() == ["llm", "s1", "1", "0", "1", "0", "0", "2"]
    assert "unknown: 1 empty" in stdout and "blank output" in err
    assert not list(tmp_path.glob(".read*"))  # no temporary file left beside it


def test_read_tgbi_table_feeds_tgbi_back(cli, bench, tmp_path):
    out = tmp_path / "read.csv"
    assert cli("read", "tgbi", "--outputs", bench, "--out", out)[0] == 0
    direct, _ = cli.json("tgbi", "--outputs", bench, "--view", "table")
    again, _ = cli.json("tgbi", "--outputs", out, "--view", "table")
    assert direct == again


def test_read_tgbi_options_are_the_apis(cli, tmp_path):
    sampled = pd.concat([BENCH.assign(k=1), BENCH.assign(k=2)], ignore_index=True)
    path = tmp_path / "sampled.csv"
    sampled.to_csv(path, index=False)
    out = tmp_path / "read.parquet"
    assert cli("read", "tgbi", "--outputs", path, "--sample", "k", "--lexicon", "cho2019", "--out", out)[0] == 0
    pd.testing.assert_frame_equal(_read(out), smb.read("tgbi", path, sample="k", lexicon="cho2019"))


def test_read_prates(cli, tmp_path):
    path, out = tmp_path / "prates.csv", tmp_path / "read.csv"
    PRATES.to_csv(path, index=False)
    code, stdout, err = cli("read", "prates", "--judgements", path, "--out", out)
    assert code == 0, err
    pd.testing.assert_frame_equal(_read(out), _as_csv(smb.read("prates", path)))
    assert stdout.splitlines()[0].split() == ["system", "language", "female", "male", "neutral", "both", "unknown", "n"]


@pytest.mark.parametrize(
    ("argv", "code", "said"),
    [
        (["tgbi", "--outputs", "{missing}", "--out", "{out}"], 66, "--outputs {missing}: no such file"),
        (["tgbi", "--outputs", "{bench}", "--out", "{tmp}/r.txt"], 64, "name a .csv or .parquet file"),
        (["tgbi", "--outputs", "{bench}", "--out", "{tmp}/no/r.csv"], 64, "does not exist"),
        (["tgbi", "--outputs", "{bench}", "--out", "{bench}"], 64, "would overwrite the input"),
        (["tgbi", "--outputs", "{bench}", "--systems", "google", "--out", "{out}"], 64, "cannot be mixed"),
        (["tgbi", "--sample", "k", "--out", "{out}"], 64, "--sample names a column of --outputs"),
        (["tgbi", "--outputs", "{bench}", "--sample", "k", "--out", "{out}"], 65, "has no sample column 'k'"),
        (["prates", "--judgements", "{missing}", "--out", "{out}"], 66, "--judgements {missing}: no such file"),
        (["winomt", "--translations", "{missing}", "--out", "{out}"], 66, "--translations {missing}: no such file"),
    ],
)
def test_read_bad_inputs(cli, bench, tmp_path, argv, code, said):
    names = {"bench": bench, "missing": tmp_path / "nope.csv", "out": tmp_path / "out.csv", "tmp": tmp_path}
    got, out, err = cli("read", *[a.format(**names) for a in argv])
    assert got == code and out == "", err
    assert said.format(**names) in err
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("argv", [["tgbi"], ["prates", "--out", "x.csv"], ["nope", "--out", "x.csv"], []])
def test_read_usage(cli, argv):
    with pytest.raises(SystemExit) as exc:
        cli("read", *argv)
    assert exc.value.code == 64


@pytest.mark.needs_data
def test_read_prates_feeds_prates_judgements(tmp_path, capsys):
    """The README's round trip: `read prates` writes the table `prates --judgements` takes, gender and all."""
    raw = tmp_path / "raw.csv"
    raw.write_text(
        "item,language,translation\nNurse,Hungarian,She is a nurse\nEngineer,Hungarian,He is an engineer\n"
        "Teacher,Hungarian,They are a teacher\n",
        "utf-8",
    )
    read = tmp_path / "read.csv"
    assert main(["read", "prates", "--judgements", str(raw), "--out", str(read)]) == 0
    read.write_text(read.read_text("utf-8").replace("They are a teacher,neutral", "They are a teacher,female"), "utf-8")
    capsys.readouterr()
    assert main(["prates", "--judgements", str(read), "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["n_female"], row["n_male"], row["n_neutral"]) == (2, 1, 0)  # the corrected gender is the one used


def test_read_tgbi_referent(cli, tmp_path):
    two = pd.DataFrame(
        {
            "system": "mt",
            "set": "care",
            "item": ["a", "b"],
            "translation": ["Sir William met Lady Davis; she won.", "Sir William met Lady Davis."],
            "ref": ["Sir William met Lady Davis; [one] won."] * 2,
        }
    )
    path, out = tmp_path / "two.csv", tmp_path / "read.csv"
    two.to_csv(path, index=False)
    code, stdout, err = cli("read", "tgbi", "--outputs", path, "--referent", "ref", "--out", out)
    assert code == 0, err
    pd.testing.assert_frame_equal(_read(out), _as_csv(smb.read("tgbi", path, referent="ref")))
    assert _read(out)["gender"].tolist() == ["female", "unknown"] and "unknown: 1 referent_dropped" in stdout
    code, stdout, err = cli("tgbi", "--outputs", path, "--referent", "ref")
    assert code == 0, err
    assert "mt care: 1 lines referent_dropped" in stdout


def test_read_prates_referent(cli, tmp_path):
    two = PRATES.assign(
        translation=["Ben and his aunt met; she is a nurse", "Ben and his aunt met.", "He is an engineer", "They are"],
        reference=["Ben and his aunt met; [they] are a nurse"] * 2 + [""] * 2,
    )
    path, out = tmp_path / "two.csv", tmp_path / "read.csv"
    two.to_csv(path, index=False)
    code, stdout, err = cli("read", "prates", "--judgements", path, "--referent", "reference", "--out", out)
    assert code == 0, err
    pd.testing.assert_frame_equal(_read(out), _as_csv(smb.read("prates", path, referent="reference")))
    assert _read(out)["gender"].tolist() == ["female", "unknown", "male", "neutral"]
    assert "unknown: 1 referent_dropped" in stdout
