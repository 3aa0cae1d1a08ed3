"""Every view of every study subcommand is the public view of the API's result.

``--format json``: records whose keys are the frame's columns, in shares as the
API gives them; ``--format csv``: the same columns; ``--format table``: the share
columns in percent, labelled ``%`` in their header.
"""

from __future__ import annotations

import io
import math
import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias import options as vocabulary
from stats_mtbias.cli import optimal as cli_optimal
from stats_mtbias.cli import prates as cli_prates
from stats_mtbias.cli import rates as cli_rates
from stats_mtbias.cli import tgbi as cli_tgbi
from stats_mtbias.cli import winomt as cli_winomt
from stats_mtbias.cli._output import public
from stats_mtbias.cli._views import COMPARE_SHARES, TABLE_SHARES


@pytest.fixture(scope="module", autouse=True)
def _one_run_per_command():
    """Each study function remembers its results by arguments: every view and format of one command line is
    rendered from one run (the first, a real one), instead of one run per view and format."""
    with pytest.MonkeyPatch.context() as patch:
        for name in ("tgbi", "prates", "optimal", "rates", "winomt"):
            function, seen = getattr(smb, name), {}

            def remembered(*args, _function=function, _seen=seen, **kwargs):
                key = repr((args, sorted(kwargs.items())))
                if key not in _seen:
                    _seen[key] = _function(*args, **kwargs)
                return _seen[key]

            patch.setattr(smb, name, remembered)
        yield


def _api(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _without_samples(study: str) -> list[str]:
    """The study's frames but ``consistency``, which only a run with ``sample=`` has (tests/studies/test_samples_rule.py)."""
    return [name for name in vocabulary.FRAMES[study] if name != "consistency"]


def _view(res, name: str) -> pd.DataFrame:
    if name == "table":
        return res.table
    if name == "compare":
        return res.compare()
    return public(res.frames[name])


def _same(records: list[dict], frame: pd.DataFrame) -> None:
    """The records hold the frame: the same columns, rows and values (no scaling, nothing rounded)."""
    assert [list(r) for r in records] == [[str(c) for c in frame.columns]] * len(frame)
    got = pd.DataFrame(records, columns=frame.columns)
    for column in frame.columns:
        expected = frame[column]
        if pd.api.types.is_numeric_dtype(expected) and not pd.api.types.is_bool_dtype(expected):
            a = pd.to_numeric(got[column], errors="coerce").to_numpy(float)
            np.testing.assert_allclose(a, expected.to_numpy(float), rtol=1e-12, equal_nan=True, err_msg=column)
        else:
            left = ["" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v) for v in got[column]]
            right = ["" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v) for v in expected]
            assert left == right, column


def _header(text: str) -> list[str]:
    """The column labels of a table's first line (a label may be 'name %')."""
    words = text.splitlines()[0].split()
    out = []
    for word in words:
        if word == "%" and out:
            out[-1] += " %"
        else:
            out.append(word)
    return out


def _check(cli, argv: list, res, name: str, shares) -> None:
    frame = _view(res, name)
    flag = ["--compare"] if name == "compare" else ["--view", name]
    records, _ = cli.json(*argv, *flag)
    _same(records, frame)
    code, out, err = cli(*argv, *flag, "--format", "csv", "--quiet")
    assert code == 0, err
    assert pd.read_csv(io.StringIO(out)).columns.tolist() == [str(c) for c in frame.columns]
    code, out, err = cli(*argv, *flag, "--quiet")
    assert code == 0, err
    labels = _header(out)
    present = [c for c in shares if c in frame.columns]
    if name == "table" and "b" in set(frame["metric"]):  # optimal: B is no share; its share rows say % instead
        assert "estimate %" not in labels and " minority %" in out
    else:
        assert labels == [f"{c} %" if c in present else str(c) for c in frame.columns]


@pytest.fixture(scope="module")
def tgbi_res(data_dir):
    return _api(smb.tgbi, ["google", "kakao"], data_dir=data_dir)


@pytest.mark.parametrize("name", ["table", "compare", *_without_samples("tgbi")])
def test_tgbi_views(cli, data_dir, tgbi_res, name):
    argv = ["tgbi", "--data-dir", data_dir, "--systems", "google,kakao"]
    shares = {"table": TABLE_SHARES, "compare": COMPARE_SHARES}.get(name, cli_tgbi.SHARES.get(name, ()))
    _check(cli, argv, tgbi_res, name, shares)


@pytest.fixture(scope="module")
def prates_res(data_dir):
    return _api(smb.prates, data_dir=data_dir, languages=["Finnish"])


@pytest.mark.parametrize("name", ["table", *_without_samples("prates")])
def test_prates_views(cli, data_dir, prates_res, name):
    argv = ["prates", "--data-dir", data_dir, "--languages", "Finnish"]
    _check(cli, argv, prates_res, name, TABLE_SHARES if name == "table" else cli_prates.SHARES.get(name, ()))


@pytest.fixture(scope="module")
def optimal_res(data_dir):
    return _api(smb.optimal, data_dir=data_dir, languages=["Finnish"], n_boot=200)


@pytest.mark.parametrize("name", ["table", *_without_samples("optimal")])
def test_optimal_views(cli, data_dir, optimal_res, name):
    argv = ["optimal", "--data-dir", data_dir, "--languages", "Finnish", "--n-boot", "200"]
    _check(cli, argv, optimal_res, name, TABLE_SHARES if name == "table" else cli_optimal.SHARES.get(name, ()))


@pytest.fixture(scope="module")
def rates_res(tiny_judgements):
    path, _ = tiny_judgements
    return _api(smb.rates, path, by=["language"], n_boot=200)


@pytest.mark.parametrize("name", ["table", "compare", *_without_samples("rates")])
def test_rates_views(cli, tiny_judgements, rates_res, name):
    argv = ["rates", "--judgements", tiny_judgements[0], "--by", "language", "--n-boot", "200"]
    shares = {"table": TABLE_SHARES, "compare": COMPARE_SHARES}.get(name, cli_rates.SHARES.get(name, ()))
    _check(cli, argv, rates_res, name, shares)


@pytest.fixture(scope="module")
def winomt_readings(tmp_path_factory, data_dir):
    """Readings of two systems on Spanish (no text to read: no reader, aligner or cache involved)."""
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store

    items = winomt_data.read_items(open_store(data_dir))
    gold = items["gold"].to_numpy()
    rng = np.random.default_rng(3)
    rows = []
    for system, right in (("a", 0.7), ("b", 0.6)):
        guess = np.where(rng.random(len(gold)) < right, gold, rng.choice(["male", "female"], len(gold)))
        rows.append(pd.DataFrame({"item": items["item"], "system": system, "language": "es", "gender": guess}))
    path = tmp_path_factory.mktemp("winomt") / "readings.csv"
    pd.concat(rows).to_csv(path, index=False)
    return path


@pytest.fixture(scope="module")
def winomt_res(winomt_readings, data_dir):
    return _api(smb.winomt, judgements=winomt_readings, data_dir=data_dir, n_boot=200)


@pytest.mark.parametrize("name", ["table", "compare", "estimates", "accounting", "judgements"])
def test_winomt_views_of_judgements(cli, data_dir, winomt_readings, winomt_res, name):
    argv = ["winomt", "--data-dir", data_dir, "--judgements", winomt_readings, "--n-boot", "200"]
    metrics = dict.fromkeys(winomt_res.table["metric"])
    estimates = ("coverage", *[f"{m}{s}" for m in metrics for s in ("", "_ci_low", "_ci_high")])
    shares = {"table": TABLE_SHARES, "compare": COMPARE_SHARES, "estimates": estimates}.get(name, ())
    _check(cli, argv, winomt_res, name, shares)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "flag"), [("validation", "--validate"), ("corrected", "--corrected"), ("unread", "--explain"), ("adjectives", None)]
)
def test_winomt_views_of_shipped_translations(cli, data_dir, name, flag):
    pytest.importorskip("thot")
    res = _api(
        smb.winomt,
        ["google"],
        languages=["es"],
        data_dir=data_dir,
        n_boot=200,
        **({flag.strip("-").replace("explain", "explain"): True} if flag else {}),
    )
    argv = ["winomt", "--data-dir", data_dir, "--systems", "google", "--languages", "es", "--n-boot", "200"]
    _check(cli, argv, res, name, cli_winomt.SHARES.get(name, ()))
    if flag:  # the flag alone shows its view
        records, _ = cli.json(*argv, flag)
        _same(records, public(res.frames[name]))


def test_share_columns_are_columns_of_their_frames(tgbi_res, prates_res, optimal_res, rates_res, winomt_res):
    """The columns the CLI shows in percent exist, and hold shares (or differences of shares)."""
    for res, shares in (
        (tgbi_res, cli_tgbi.SHARES),
        (prates_res, cli_prates.SHARES),
        (optimal_res, cli_optimal.SHARES),
        (rates_res, cli_rates.SHARES),
    ):
        for name, columns in shares.items():
            frame = res.frames[name]
            for column in columns:
                assert column in frame, (res.study, name, column)
                values = frame[column].dropna().to_numpy(float)
                assert np.all((values >= -2) & (values <= 2)), (res.study, name, column)  # a difference of gaps: [-2, 2]
    assert set(cli_optimal.NOT_SHARES) <= set(optimal_res.table["metric"])
