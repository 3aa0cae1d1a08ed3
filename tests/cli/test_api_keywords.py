"""Every keyword of every study's API function has its command-line option; the new ones give the API's numbers."""

from __future__ import annotations

import argparse
import inspect
import warnings

import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import build_parser

# API keyword → the CLI dest that carries it, where the two differ, and why.
RENAMED = {
    # Every study: the CLI takes an integer seed; a numpy Generator cannot be typed on a command line.
    "rng": "seed",
    # WinoMT: the "+Adj" files are read by default; the option is the way to turn them off.
    "adjectives": "no_adjectives",
    # model: fits are cached by default; --no-cache refits.
    "cache": "no_cache",
}
STUDIES = tuple(vocabulary.OPTIONS)  # every study with options: the shipped ones, agreement, model and any added
# smb.read(study, source, **options): the source's option, and the reader's keywords whose option is named otherwise.
READ_SOURCE = {"tgbi": "outputs", "prates": "judgements", "winomt": "translations"}
READ_RENAMED = {"name": "system"}  # winomt: the system's name, as --system names it in `stats-mtbias winomt`


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices


def _dests(parser: argparse.ArgumentParser) -> set[str]:
    return {a.dest for a in parser._actions if a.help != argparse.SUPPRESS}


@pytest.mark.parametrize("study", STUDIES)
def test_every_api_keyword_has_its_option(study):
    parser = _subparsers(build_parser())[study]
    keywords = set(inspect.signature(getattr(smb, study)).parameters)
    missing = sorted(k for k in keywords if RENAMED.get(k, k) not in _dests(parser))
    assert not missing, f"smb.{study} keywords without a `stats-mtbias {study}` option: {missing}"


@pytest.mark.parametrize("study", sorted(READ_SOURCE))
def test_every_reader_keyword_has_its_option(study):
    from stats_mtbias.studies import STUDIES as MODULES

    parser = _subparsers(_subparsers(build_parser())["read"])[study]
    reader = MODULES[study].read
    keywords = list(inspect.signature(reader).parameters)
    keywords = [READ_SOURCE[study], *keywords[1:]]  # the first parameter is the source
    missing = sorted(k for k in keywords if READ_RENAMED.get(k, k) not in _dests(parser))
    assert not missing, f"smb.read({study!r}) keywords without a `stats-mtbias read {study}` option: {missing}"


# ---------------------------------------------------------------- tgbi --outputs --sample

TEXT = {"female": "She is tired.", "male": "He is tired.", "neutral": "They are tired."}


def _benchmark(sets=("polite_hi", "impolite_winf"), n=12, k=1) -> pd.DataFrame:
    """Two systems, hand-set genders cycling through the items; `k` samples per item."""
    cycle = {"a": ["female", "male", "male", "neutral"], "b": ["male", "male", "male", "female"]}
    rows = [
        (system, name, f"w{i}", s, TEXT[cycle[system][(i + j + s) % 4]])
        for system in cycle
        for j, name in enumerate(sets)
        for i in range(n)
        for s in range(1, k + 1)
    ]
    return pd.DataFrame(rows, columns=["system", "set", "item", "k", "translation"])


def _tgbi(**kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return smb.tgbi(**kwargs)


@pytest.mark.parametrize(
    ("argv", "kwargs"),
    [
        ([], {}),
        (["--interval", "percentile", "--n-boot", "300", "--seed", "3"], {"interval": "percentile", "n_boot": 300, "rng": 3}),
        (["--lexicon", "cho2019", "--level", "0.9"], {"lexicon": "cho2019", "level": 0.9}),
        (["--both", "exclude"], {"both": "exclude"}),
    ],
)
def test_tgbi_outputs_is_the_apis(cli, tmp_path, argv, kwargs):
    path = tmp_path / "mine.csv"
    _benchmark().drop(columns="k").to_csv(path, index=False)
    records, _ = cli.json("tgbi", "--outputs", path, "--view", "table", *argv)
    api = _tgbi(outputs=path, **kwargs).table
    assert pd.DataFrame(records, columns=api.columns).equals(api.reset_index(drop=True))
    assert list(dict.fromkeys(api["subset"])) == ["polite_hi", "impolite_winf", "TGBI"]


def test_tgbi_outputs_sample_compare_and_parquet(cli, tmp_path):
    path = tmp_path / "mine.parquet"
    _benchmark(k=3).to_parquet(path, index=False)
    records, _ = cli.json("tgbi", "--outputs", path, "--sample", "k", "--view", "estimates")
    api = _tgbi(outputs=path, sample="k").frames["estimates"]
    assert pd.DataFrame(records, columns=api.columns).equals(api.reset_index(drop=True))
    assert set(api.loc[api["subset"] != "TGBI", "n"]) == {12}  # the items, not the 36 samples of each set
    records, _ = cli.json(
        "tgbi", "--outputs", path, "--sample", "k", "--compare", "--test", "permutation", "--n-permutations", "200"
    )
    api = _tgbi(outputs=path, sample="k", test="permutation", n_permutations=200).compare()
    assert pd.DataFrame(records, columns=api.columns).equals(api.reset_index(drop=True))
    # Percent in the table, shares in JSON.
    code, out, _ = cli("tgbi", "--outputs", path, "--sample", "k")
    assert code == 0 and "p_s %" in out.splitlines()[0]


def test_tgbi_own_sets_named_like_the_korean_ones_are_only_those(cli, tmp_path):
    """A benchmark whose sets carry Cho et al.'s names has its own sets only: no empty set, an index defined."""
    path = tmp_path / "mine.csv"
    _benchmark(sets=("formal", "informal")).drop(columns="k").to_csv(path, index=False)
    records, _ = cli.json("tgbi", "--outputs", path, "--view", "table")
    p_s = [r for r in records if r["metric"] == "p_s"]
    assert [r["subset"] for r in p_s if r["system"] == "a"] == ["informal", "formal", "TGBI"]  # Cho et al.'s order
    index = {r["system"]: r["estimate"] for r in p_s if r["subset"] == "TGBI"}
    sets = {(r["system"], r["subset"]): r["estimate"] for r in p_s if r["subset"] != "TGBI"}
    for system in ("a", "b"):
        assert index[system] == pytest.approx((sets[system, "formal"] + sets[system, "informal"]) / 2)


@pytest.mark.parametrize(
    ("argv", "code", "said"),
    [
        (["--outputs", "{missing}"], 66, "--outputs {missing}: no such file"),
        (["--outputs", "{path}", "--sample", "draw"], 65, "has no sample column 'draw'"),
        (["--outputs", "{path}", "--systems", "google"], 64, "cannot be mixed with the shipped"),
    ],
)
def test_tgbi_outputs_bad_inputs(cli, tmp_path, argv, code, said):
    path = tmp_path / "mine.csv"
    _benchmark().to_csv(path, index=False)
    names = {"path": path, "missing": tmp_path / "nope.csv"}
    got, out, err = cli("tgbi", *[a.format(**names) for a in argv])
    assert got == code and out == "", err
    assert said.format(**names) in err


def test_tgbi_sample_without_outputs_is_said(cli, data_dir):
    code, _, err = cli("tgbi", "--data-dir", data_dir, "--systems", "google", "--sample", "k", "--format", "json")
    assert code == 0 and "--sample has no effect here: it applies only with --outputs" in err


# ---------------------------------------------------------------- winomt --n-draws


def test_winomt_n_draws_is_the_apis(cli, data_dir, tmp_path):
    from stats_mtbias.datasets import winomt as data
    from stats_mtbias.datasets.registry import open_store

    items = data.read_items(open_store(data_dir))
    gold = items["gold"].to_numpy()
    read = pd.Series(gold).where(pd.Series(range(len(gold))) % 5 != 0, "unknown")
    judgements, labels = tmp_path / "judgements.csv", tmp_path / "labels.csv"
    pd.DataFrame({"item": items["item"], "system": "llm", "language": "el", "gender": read}).to_csv(judgements, index=False)
    human = [{"male": "M", "female": "F", "neutral": "N"}[g] for g in gold[:30]]
    pd.DataFrame({"item": range(30), "system": "llm", "language": "el", "gender": human}).to_csv(labels, index=False)
    argv = [
        "winomt",
        "--data-dir",
        data_dir,
        "--judgements",
        judgements,
        "--annotations",
        labels,
        "--n-boot",
        "200",
        "--view",
        "corrected",
    ]
    for draws in (200, 700):
        records, _ = cli.json(*argv, "--n-draws", draws)
        api = smb.winomt(judgements=judgements, annotations=labels, n_boot=200, n_draws=draws, data_dir=data_dir).frames[
            "corrected"
        ]
        assert pd.DataFrame(records, columns=api.columns).equals(api.reset_index(drop=True))
    code, _, err = cli(
        "winomt", "--data-dir", data_dir, "--judgements", judgements, "--n-boot", "200", "--n-draws", "500", "--format", "json"
    )
    assert code == 0 and "--n-draws has no effect here" in err
    with pytest.raises(SystemExit) as exc:
        cli(*argv, "--n-draws", "10")
    assert exc.value.code == 64


def test_rates_says_data_dir_has_no_effect(cli, tiny_judgements, tmp_path):
    path, _ = tiny_judgements
    code, _, err = cli("rates", "--judgements", path, "--interval", "score", "--data-dir", tmp_path, "--format", "json")
    assert code == 0 and "--data-dir has no effect here (rates reads only --judgements)" in err
