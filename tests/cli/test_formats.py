"""Every row of docs/formats.md, end to end: a tiny valid input through the API and the CLI (the same numbers),
and bad variants giving the documented exit code (64 usage, 65 data, 66 missing input) with the file and the line.

A new row of the table without a case here fails ``test_every_row_has_a_case``.
"""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.errors import DataError, InputNotFoundError

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

DOC = Path(__file__).resolve().parents[2] / "docs" / "formats.md"


def doc_rows() -> set[tuple[str, str]]:
    """``(study, argument)`` of every row of the table in docs/formats.md (backticks dropped)."""
    rows = set()
    for line in DOC.read_text("utf-8").splitlines():
        if not line.startswith("| ") or line.startswith(("| study", "| ---")):
            continue
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        rows.add((cells[0], cells[1].replace("`", "")))
    return rows


# ---------------------------------------------------------------- helpers


def _plain(value):
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    return value


def same(records: list[dict], frame: pd.DataFrame) -> None:
    """The CLI's ``--format json`` records hold the API frame's numbers, row by row, column by column."""
    expected = frame.reset_index(drop=True).to_dict("records")
    assert len(records) == len(expected) > 0
    for got, exp in zip(records, expected):
        for column, value in exp.items():
            value, have = _plain(value), _plain(got[column])
            if isinstance(value, float) or (isinstance(value, int) and isinstance(have, float)):
                assert have == pytest.approx(value, rel=1e-12, abs=1e-15), column
            else:
                assert have == value, column


def bad(cli, argv, code: int, path: Path, line: int | None, words: str = "") -> None:
    """The CLI ends with ``code`` and names the file (and the line) of the problem, without a traceback."""
    got, _, err = cli(*argv)
    assert got == code, err
    assert "Traceback" not in err
    assert path.name in err, err
    if line is not None:
        assert f"{path.name}, line {line}" in err, err
    assert words in err, err


def raises(call, error, path: Path, line: int | None):
    """The API raises ``error`` naming the file and the line."""
    with pytest.raises(error) as caught:
        call()
    assert Path(caught.value.path).name == path.name
    assert caught.value.line == line, str(caught.value)
    return caught.value


def write(path: Path, text: str) -> Path:
    path.write_text(text, "utf-8")
    return path


# ---------------------------------------------------------------- TGBI


def tgbi_translations(tmp_path, cli, data_dir):
    from stats_mtbias.datasets import tgbi
    from stats_mtbias.datasets.registry import open_store

    mine = write(
        tmp_path / "mine.csv",
        "item,set,translation\n1,positive,She is kind\n2,positive,He is kind\n3,pos,They are kind\n1,formal,He left\n",
    )
    api = smb.tgbi([], translations={"me": mine}, data_dir=data_dir)
    records, _ = cli.json(
        "tgbi", "--data-dir", data_dir, "--systems", "", "--translations", mine, "--system", "me", "--view", "table"
    )
    same(records, api.table)
    same(records, smb.tgbi([], translations={"me": pd.read_csv(mine)}, data_dir=data_dir).table)
    positive = api.frames["estimates"].query("subset == 'positive'").iloc[0]
    assert positive["n_outputs"] == 3

    # A directory of total_<system>_<code>.txt files, laid out like the authors' (two sets of kakao's).
    directory = tmp_path / "outputs"
    directory.mkdir()
    store = open_store(data_dir)
    for code in ("pos", "neg"):
        shutil.copy(store.path(tgbi._rel(f"total_kakao_{code}")), directory / f"total_mine_{code}.txt")
    api = smb.tgbi([], translations={"mine": directory}, data_dir=data_dir)
    records, _ = cli.json(
        "tgbi", "--data-dir", data_dir, "--systems", "", "--translations", directory, "--system", "mine", "--view", "table"
    )
    same(records, api.table)
    shipped = smb.tgbi(["kakao"], data_dir=data_dir).frames["estimates"].set_index("subset")
    ours = api.frames["estimates"].set_index("subset")
    assert ours.loc["positive", "p_s"] == pytest.approx(shipped.loc["positive", "p_s"])

    argv = ("tgbi", "--data-dir", data_dir, "--systems", "", "--system", "me", "--translations")
    no_column = write(tmp_path / "no_column.csv", "item,set\n1,positive\n")
    bad(cli, [*argv, no_column], 65, no_column, 1, "translation")
    raises(lambda: smb.tgbi([], translations={"me": no_column}, data_dir=data_dir), DataError, no_column, 1)
    bad_set = write(tmp_path / "bad_set.csv", "item,set,translation\n1,positive,She\n2,nope,He\n")
    bad(cli, [*argv, bad_set], 65, bad_set, 3, "set 'nope'")
    raises(lambda: smb.tgbi([], translations={"me": bad_set}, data_dir=data_dir), DataError, bad_set, 3)
    bad(cli, [*argv, tmp_path / "absent.csv"], 66, tmp_path / "absent.csv", None)
    empty = tmp_path / "empty"
    empty.mkdir()
    bad(cli, [*argv, empty], 65, empty, None, "total_<system>_<set>.txt")


def tgbi_outputs(tmp_path, cli, data_dir):
    frame = pd.DataFrame(
        {
            "system": ["a"] * 4 + ["b"] * 4,
            "set": ["s1", "s1", "s2", "s2"] * 2,
            "item": ["x", "y", "x", "y"] * 2,
            "gender": ["female", "male", "male", "male", "male", "male", "neutral", "male"],
        }
    )
    path = tmp_path / "outputs.csv"
    frame.to_csv(path, index=False)
    api = smb.tgbi(outputs=path)
    records, _ = cli.json("tgbi", "--outputs", path, "--view", "table")
    same(records, api.table)
    for other in (frame, _parquet(frame, tmp_path / "outputs.parquet")):
        pd.testing.assert_frame_equal(smb.tgbi(outputs=other).table, api.table)
    # sample=: two identical samples of every output change no number.
    sampled = pd.concat([frame.assign(k=0), frame.assign(k=1)], ignore_index=True)
    sampled_path = tmp_path / "sampled.csv"
    sampled.to_csv(sampled_path, index=False)
    records, _ = cli.json("tgbi", "--outputs", sampled_path, "--sample", "k", "--view", "table")
    same(records, smb.tgbi(outputs=sampled_path, sample="k").table)
    same(records, api.table[["estimate"]])  # duplicated samples change no estimate

    bad_gender = write(tmp_path / "bad_gender.csv", "system,set,item,gender\na,s1,x,female\na,s1,y,blue\n")
    bad(cli, ["tgbi", "--outputs", bad_gender], 65, bad_gender, 3, "'blue'")
    raises(lambda: smb.tgbi(outputs=bad_gender), DataError, bad_gender, 3)
    no_column = write(tmp_path / "no_column.csv", "system,set,item\na,s1,x\n")
    bad(cli, ["tgbi", "--outputs", no_column], 65, no_column, 1, "gender")
    repeated = write(tmp_path / "repeated.csv", "system,set,item,gender\na,s1,x,female\na,s1,x,male\n")
    bad(cli, ["tgbi", "--outputs", repeated], 65, repeated, 3, "line 2")
    raises(lambda: smb.tgbi(outputs=repeated), DataError, repeated, 3)
    bad(cli, ["tgbi", "--outputs", tmp_path / "absent.csv"], 66, tmp_path / "absent.csv", None)


def _parquet(frame: pd.DataFrame, path: Path) -> Path:
    pytest.importorskip("pyarrow")
    frame.to_parquet(path, index=False)
    return path


# ---------------------------------------------------------------- WinoMT


def winomt_translations(tmp_path, cli, data_dir):
    shipped = (data_dir / "winomt/translations/google/en-es.txt").read_text("utf-8").splitlines()
    mine = write(tmp_path / "en-es.txt", "\n".join(shipped[:4]) + "\n")
    options = dict(languages=["es"], n_boot=200, rng=0, data_dir=data_dir)
    api = smb.winomt(translations={"mine": mine}, **options)
    records, _ = cli.json(
        "winomt",
        "--data-dir",
        data_dir,
        "--translations",
        mine,
        "--system",
        "mine",
        "--languages",
        "es",
        "--n-boot",
        "200",
        "--seed",
        "0",
        "--view",
        "table",
    )
    same(records, api.table)
    pairs = pd.DataFrame([line.split(" ||| ", 1) for line in shipped[:4]], columns=["source", "translation"])
    pd.testing.assert_frame_equal(smb.winomt(translations={"mine": pairs}, **options).table, api.table)

    stray = write(tmp_path / "en-es-bad.txt", "\n".join(shipped[:2]) + "\nNot a WinoMT sentence ||| Nada\n")
    bad(cli, ["winomt", "--data-dir", data_dir, "--translations", stray, "--system", "x", "--languages", "es"], 65, stray, 3)
    raises(lambda: smb.winomt(translations={"x": stray}, **options), DataError, stray, 3)
    absent = tmp_path / "en-de.txt"
    bad(cli, ["winomt", "--data-dir", data_dir, "--translations", absent, "--system", "x"], 66, absent, None)


WINOMT = (
    "item,system,language,gender\n0,a,es,male\n1,a,es,female\n2,a,es,male\n3,a,es,female\n"
    "0,b,es,female\n1,b,es,female\n2,b,es,male\n3,b,es,male\n"
)


def winomt_judgements(tmp_path, cli, data_dir):
    path = write(tmp_path / "judgements.csv", WINOMT)
    api = smb.winomt(judgements=path, n_boot=200, rng=0, data_dir=data_dir)
    records, _ = cli.json("winomt", "--data-dir", data_dir, "--judgements", path, "--n-boot", "200", "--view", "table")
    same(records, api.table)
    frame = pd.read_csv(path)
    for other in (frame, _parquet(frame, tmp_path / "judgements.parquet")):
        pd.testing.assert_frame_equal(smb.winomt(judgements=other, n_boot=200, rng=0, data_dir=data_dir).table, api.table)
    sampled = tmp_path / "sampled.csv"
    pd.concat([frame.assign(k=0), frame.assign(k=1)], ignore_index=True).to_csv(sampled, index=False)
    records, _ = cli.json(
        "winomt", "--data-dir", data_dir, "--judgements", sampled, "--sample", "k", "--n-boot", "200", "--view", "table"
    )
    same(records, smb.winomt(judgements=sampled, sample="k", n_boot=200, rng=0, data_dir=data_dir).table)
    same(records, api.table[["estimate"]])  # duplicated samples change no estimate

    argv = ("winomt", "--data-dir", data_dir, "--judgements")
    bad_gender = write(tmp_path / "bad_gender.csv", "item,system,language,gender\n0,a,es,male\n1,a,es,purple\n")
    bad(cli, [*argv, bad_gender], 65, bad_gender, 3, "'purple'")
    raises(lambda: smb.winomt(judgements=bad_gender, data_dir=data_dir), DataError, bad_gender, 3)
    no_column = write(tmp_path / "no_column.csv", "item,system,gender\n0,a,male\n")
    bad(cli, [*argv, no_column], 65, no_column, 1, "language")
    repeated = write(tmp_path / "repeated.csv", "item,system,language,gender\n0,a,es,male\n0,a,es,female\n")
    bad(cli, [*argv, repeated], 65, repeated, 3, "line 2")
    raises(lambda: smb.winomt(judgements=repeated, data_dir=data_dir), DataError, repeated, 3)
    bad(cli, [*argv, tmp_path / "absent.csv"], 66, tmp_path / "absent.csv", None)


def winomt_annotations(tmp_path, cli, data_dir):
    judgements = write(tmp_path / "judgements.csv", WINOMT)
    labels = write(
        tmp_path / "labels.csv",
        "item,system,language,gender,annotator\n0,a,es,M,p\n1,a,es,F,p\n2,a,es,F,p\n3,a,es,F,p\n0,b,es,F,p\n1,b,es,M,p\n",
    )
    options = dict(judgements=judgements, n_boot=200, n_draws=200, rng=0, data_dir=data_dir)
    api = smb.winomt(annotations=labels, **options)
    argv = ("winomt", "--data-dir", data_dir, "--judgements", judgements, "--n-boot", "200", "--n-draws", "200", "--annotations")
    records, _ = cli.json(*argv, labels, "--view", "annotations")
    same(records, api.frames["annotations"])
    assert records[0]["n_labelled"] == 4 and records[0]["agreement"] == pytest.approx(3 / 4)  # system a
    pd.testing.assert_frame_equal(
        smb.winomt(annotations=pd.read_csv(labels), **options).frames["annotations"], api.frames["annotations"]
    )

    bad_gender = write(tmp_path / "bad_gender.csv", "item,system,language,gender\n0,a,es,M\n1,a,es,Q\n")
    bad(cli, [*argv, bad_gender], 65, bad_gender, 3, "'Q'")
    raises(lambda: smb.winomt(annotations=bad_gender, **options), DataError, bad_gender, 3)
    no_column = write(tmp_path / "no_column.csv", "item,system,gender\n0,a,M\n")
    bad(cli, [*argv, no_column], 65, no_column, 1, "language")
    bad(cli, [*argv, tmp_path / "absent.csv"], 66, tmp_path / "absent.csv", None)


# ---------------------------------------------------------------- Prates

PRATES = (
    "item,language,gender\nnurse,Hungarian,female\ndoctor,Hungarian,male\nengineer,Hungarian,?\n"
    "nurse,Finnish,?\ndoctor,Finnish,male\nengineer,Finnish,male\n"
)


def prates_judgements(tmp_path, cli, data_dir):
    path = write(tmp_path / "judgements.csv", PRATES)
    api = smb.prates(path, data_dir=data_dir, n_boot=200)
    records, _ = cli.json("prates", "--data-dir", data_dir, "--judgements", path, "--n-boot", "200", "--view", "table")
    same(records, api.table)
    frame = pd.read_csv(path)
    for other in (frame, _parquet(frame, tmp_path / "judgements.parquet")):
        pd.testing.assert_frame_equal(smb.prates(other, data_dir=data_dir, n_boot=200).table, api.table)
    sampled = tmp_path / "sampled.csv"
    pd.concat([frame.assign(k=0), frame.assign(k=1)], ignore_index=True).to_csv(sampled, index=False)
    records, _ = cli.json(
        "prates", "--data-dir", data_dir, "--judgements", sampled, "--sample", "k", "--n-boot", "200", "--view", "table"
    )
    same(records, smb.prates(sampled, sample="k", data_dir=data_dir, n_boot=200).table)
    same(records, api.table[["estimate"]])  # duplicated samples change no estimate

    argv = ("prates", "--data-dir", data_dir, "--judgements")
    bad_gender = write(tmp_path / "bad_gender.csv", "item,language,gender\nnurse,Hungarian,female\ndoctor,Hungarian,zebra\n")
    bad(cli, [*argv, bad_gender], 65, bad_gender, 3, "'zebra'")
    raises(lambda: smb.prates(bad_gender, data_dir=data_dir), DataError, bad_gender, 3)
    no_column = write(tmp_path / "no_column.csv", "item,gender\nnurse,female\n")
    bad(cli, [*argv, no_column], 65, no_column, 1, "language")
    bad(cli, [*argv, tmp_path / "absent.csv"], 66, tmp_path / "absent.csv", None)
    # A repeated item is kept, with a warning naming its lines.
    repeated = write(tmp_path / "repeated.csv", "item,language,gender\nnurse,Hungarian,female\nnurse,Hungarian,male\n")
    code, _, err = cli(*argv, repeated)
    assert code == 0 and "'nurse' on lines 2, 3" in err


def prates_reference(tmp_path, cli, data_dir):
    from stats_mtbias.datasets import prates
    from stats_mtbias.datasets.registry import open_store

    shipped = open_store(data_dir).path(prates.BLS)
    path = tmp_path / "bls.tsv"
    shutil.copy(shipped, path)
    options = dict(data_dir=data_dir, languages=["Hungarian"], n_boot=200)
    api = smb.prates(reference=path, **options)
    argv = ("prates", "--data-dir", data_dir, "--languages", "Hungarian", "--n-boot", "200", "--reference")
    records, _ = cli.json(*argv, path, "--view", "reference")
    same(records, api.frames["reference"])
    same(records, smb.prates(**options).frames["reference"])  # the shipped table, copied: the same numbers

    lines = shipped.read_text("utf-8").splitlines()
    header = lines[0].split("\t")
    row = lines[1].split("\t")
    row[header.index("Women Participation (%)")] = "150"
    out_of_range = write(tmp_path / "out_of_range.tsv", "\n".join([lines[0], "\t".join(row), *lines[2:]]) + "\n")
    bad(cli, [*argv, out_of_range], 65, out_of_range, 2, "150")
    raises(lambda: smb.prates(reference=out_of_range, **options), DataError, out_of_range, 2)
    no_column = write(tmp_path / "no_column.tsv", "Expanded Occupation\nnurse\n")
    bad(cli, [*argv, no_column], 65, no_column, 1)
    bad(cli, [*argv, tmp_path / "absent.tsv"], 66, tmp_path / "absent.tsv", None)


# ---------------------------------------------------------------- optimal

OPTIMAL = "occupation,gender\nnurse,female\ndoctor,male\nengineer,male\nteacher,female\nnurse,male\ndoctor,female\n"
REFERENCE = "occupation,female_share\nnurse,0.9\ndoctor,0.4\nengineer,0.15\nteacher,0.7\n"


def optimal_judgements(tmp_path, cli, data_dir):
    path = write(tmp_path / "judgements.csv", OPTIMAL)
    reference = write(tmp_path / "reference.csv", REFERENCE)
    options = dict(reference=reference, n_boot=200, rng=0, data_dir=data_dir)
    api = smb.optimal(path, **options)
    argv = ("optimal", "--data-dir", data_dir, "--reference", reference, "--n-boot", "200", "--judgements")
    records, _ = cli.json(*argv, path, "--view", "table")
    same(records, api.table)
    frame = pd.read_csv(path)
    parts = tmp_path / "parts"
    parts.mkdir()
    frame.iloc[:3].to_csv(parts / "one.csv", index=False)
    frame.iloc[3:].to_csv(parts / "two.csv", index=False)
    for other in (frame, _parquet(frame, tmp_path / "judgements.parquet"), parts, str(parts / "*.csv")):
        # the same numbers (the system is named after the file or directory)
        pd.testing.assert_frame_equal(
            smb.optimal(other, **options).table.drop(columns="system"), api.table.drop(columns="system")
        )
    records, _ = cli.json(*argv, parts / "*.csv", "--view", "table")
    same(records, api.table.drop(columns="system"))
    sampled = tmp_path / "sampled.csv"
    pd.concat([frame.assign(k=0), frame.assign(k=1)], ignore_index=True).to_csv(sampled, index=False)
    records, _ = cli.json(*argv, sampled, "--sample", "k", "--view", "table")
    same(records, smb.optimal(sampled, sample="k", **options).table)

    bad_gender = write(tmp_path / "bad_gender.csv", "occupation,gender\nnurse,female\ndoctor,zebra\n")
    bad(cli, [*argv, bad_gender], 65, bad_gender, 3, "'zebra'")
    raises(lambda: smb.optimal(bad_gender, **options), DataError, bad_gender, 3)
    no_column = write(tmp_path / "no_column.csv", "occupation\nnurse\n")
    bad(cli, [*argv, no_column], 65, no_column, 1, "gender")
    bad(cli, [*argv, tmp_path / "absent.csv"], 66, tmp_path / "absent.csv", None)
    raises(lambda: smb.optimal(tmp_path / "absent.csv", **options), InputNotFoundError, tmp_path / "absent.csv", None)
    bad(cli, [*argv, tmp_path / "none*.csv"], 66, tmp_path / "none*.csv", None, "no file matches")


def optimal_reference(tmp_path, cli, data_dir):
    judgements = write(tmp_path / "judgements.csv", OPTIMAL)
    path = write(tmp_path / "reference.csv", REFERENCE)
    options = dict(n_boot=200, rng=0, data_dir=data_dir)
    api = smb.optimal(judgements, reference=path, **options)
    argv = ("optimal", "--data-dir", data_dir, "--judgements", judgements, "--n-boot", "200", "--reference")
    records, _ = cli.json(*argv, path, "--view", "table")
    same(records, api.table)
    pd.testing.assert_frame_equal(smb.optimal(judgements, reference=pd.read_csv(path), **options).table, api.table)

    out_of_range = write(tmp_path / "out_of_range.csv", "occupation,female_share\nnurse,0.9\ndoctor,1.4\n")
    bad(cli, [*argv, out_of_range], 65, out_of_range, 3, "1.4")
    raises(lambda: smb.optimal(judgements, reference=out_of_range, **options), DataError, out_of_range, 3)
    no_column = write(tmp_path / "no_column.csv", "occupation\nnurse\n")
    bad(cli, [*argv, no_column], 65, no_column, 1, "female_share")
    repeated = write(tmp_path / "repeated.csv", "occupation,female_share\nnurse,0.9\nnurse,0.4\n")
    bad(cli, [*argv, repeated], 65, repeated, 3, "line 2")
    raises(lambda: smb.optimal(judgements, reference=repeated, **options), DataError, repeated, 3)
    bad(cli, [*argv, tmp_path / "absent.csv"], 66, tmp_path / "absent.csv", None)


# ---------------------------------------------------------------- rates

RATES = (
    "item,system,language,gender\n1,a,de,male\n1,b,de,female\n2,a,de,male\n2,b,de,m\n3,a,es,f\n3,b,es,female\n"
    "4,a,es,male\n4,b,es,?\n"
)


def rates_judgements(tmp_path, cli, data_dir):
    path = write(tmp_path / "judgements.csv", RATES)
    options = dict(by=["language"], interval="score")
    api = smb.rates(path, **options)
    argv = ("rates", "--by", "language", "--interval", "score", "--view", "table", "--judgements")
    records, _ = cli.json(*argv, path)
    same(records, api.table)
    frame = pd.read_csv(path)
    parts = tmp_path / "parts"
    parts.mkdir()
    frame.iloc[:4].to_csv(parts / "one.csv", index=False)
    _parquet(frame.iloc[4:], parts / "two.parquet")
    pa = pytest.importorskip("pyarrow")
    feather = tmp_path / "judgements.feather"
    frame.to_feather(feather)
    with (
        pa.OSFile(str(tmp_path / "judgements.arrow"), "wb") as sink,
        pa.ipc.new_file(sink, pa.Table.from_pandas(frame).schema) as writer,
    ):
        writer.write_table(pa.Table.from_pandas(frame))
    for other in (frame, tmp_path / "judgements.arrow", feather, parts, str(parts / "*")):
        pd.testing.assert_frame_equal(smb.rates(other, **options).table, api.table)
    records, _ = cli.json(*argv, parts)
    same(records, api.table)
    sampled = tmp_path / "sampled.csv"
    pd.concat([frame.assign(k=0), frame.assign(k=1)], ignore_index=True).to_csv(sampled, index=False)
    records, _ = cli.json(*argv, sampled, "--sample", "k")
    same(records, smb.rates(sampled, sample="k", **options).table)

    bad_gender = write(tmp_path / "bad_gender.csv", "item,system,language,gender\n1,a,de,male\n2,a,de,zebra\n")
    bad(cli, [*argv, bad_gender], 65, bad_gender, 3, "'zebra'")
    raises(lambda: smb.rates(bad_gender), DataError, bad_gender, 3)
    bad(cli, [*argv, path, "--outcome", "nope"], 65, path, 1, "nope")
    bad(cli, [*argv, tmp_path / "absent.csv"], 66, tmp_path / "absent.csv", None)
    bad(cli, [*argv, tmp_path / "none*.csv"], 66, tmp_path / "none*.csv", None, "no file matches")
    raises(lambda: smb.rates(str(tmp_path / "none*.csv")), InputNotFoundError, tmp_path / "none*.csv", None)


# ---------------------------------------------------------------- agreement


def agreement_labels(tmp_path, cli, data_dir):
    path = write(
        tmp_path / "labels.csv", "language,human,llm\nel,M,m\nel,F,f\nel,F,m\nel,M,m\nfi,M,m\nfi,F,f\nfi,N,n\nfi,M,error\n"
    )
    api = smb.agreement(path, a="human", b="llm", by="language", mapping={"error": "unknown"})
    records, _ = cli.json(
        "agreement",
        "--labels",
        path,
        "--a",
        "human",
        "--b",
        "llm",
        "--by",
        "language",
        "--mapping",
        "error=unknown",
        "--view",
        "table",
    )
    same(records, api.table)
    frame = pd.read_csv(path)
    for other in (frame, _parquet(frame, tmp_path / "labels.parquet")):
        pd.testing.assert_frame_equal(
            smb.agreement(other, a="human", b="llm", by="language", mapping={"error": "unknown"}).table, api.table
        )

    no_column = write(tmp_path / "no_column.csv", "language,human\nel,M\n")
    bad(cli, ["agreement", "--labels", no_column, "--a", "human", "--b", "llm"], 65, no_column, 1, "llm")
    raises(lambda: smb.agreement(no_column, a="human", b="llm"), DataError, no_column, 1)
    absent = tmp_path / "absent.csv"
    bad(cli, ["agreement", "--labels", absent, "--a", "human", "--b", "llm"], 66, absent, None)
    with pytest.raises(SystemExit) as usage:  # no --b: a usage error
        cli("agreement", "--labels", path, "--a", "human")
    assert usage.value.code == 64


CASES = {
    ("TGBI", "translations={name: ...}"): tgbi_translations,
    ("TGBI", "outputs="): tgbi_outputs,
    ("WinoMT", "translations={name: ...}"): winomt_translations,
    ("WinoMT", "judgements="): winomt_judgements,
    ("WinoMT", "annotations="): winomt_annotations,
    ("Prates", "judgements="): prates_judgements,
    ("Prates", "reference="): prates_reference,
    ("optimal", "judgements="): optimal_judgements,
    ("optimal", "reference="): optimal_reference,
    ("rates", "judgements"): rates_judgements,
    ("agreement", "labels"): agreement_labels,
}


def test_every_row_has_a_case():
    assert set(CASES) == doc_rows()


@pytest.mark.parametrize("row", list(CASES), ids=lambda row: re.sub(r"\W+", "-", " ".join(row)).strip("-"))
def test_format(row, tmp_path, cli, data_dir):
    CASES[row](tmp_path, cli, data_dir)
