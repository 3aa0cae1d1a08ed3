"""No p-value is ever an exact 0 (issue 49, item 3): floored at 1e-300, shown as ``< 1e-300``.

Before: a p-value that underflowed (a normal tail beyond z ≈ 37.5, a jackknife t on thousands of items, a large
chi-square table, a test of every item one way) was 0.0 in json and csv and printed as ``0.0000`` beside ``3.9e-299``.
One rule (stats_mtbias.significance.pvalues), applied to every p-value column a study reports.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest

import stats_mtbias as smb
from stats_mtbias.cli import main
from stats_mtbias.report.formatting import format_p, format_value
from stats_mtbias.result import adjust
from stats_mtbias.significance.multitest import adjust_pvalues
from stats_mtbias.significance.pvalues import FLOOR_TEXT, P_FLOOR, floor_pvalues


def _p_columns(res) -> dict[str, pd.Series]:
    frames = dict(res.frames)
    if res.comparisons is not None:
        frames["comparisons"] = res.comparisons
        frames["compare()"] = res.compare()
        frames["compare(family='all')"] = res.compare(family="all")
    return {
        f"{name}.{c}": frame[c]
        for name, frame in frames.items()
        if isinstance(frame, pd.DataFrame)
        for c in frame.columns
        if str(c).startswith("p_") and pd.api.types.is_float_dtype(frame[c])
    }


def _never_zero(res) -> int:
    found = _p_columns(res)
    for name, values in found.items():
        values = values.dropna().to_numpy()
        assert (values > 0).all(), (res.study, name, values[values <= 0])
    return len(found)


def test_the_rule():
    assert floor_pvalues([0.0, 1e-320, 3.9e-299, np.nan, 1.0]).tolist()[:3] == [P_FLOOR, P_FLOOR, 3.9e-299]
    assert math.isnan(floor_pvalues([np.nan])[0])
    for method in ("holm", "bh", "none"):
        adjusted = adjust_pvalues([0.0, 0.0, 0.5], method)
        assert (adjusted >= P_FLOOR).all() and adjusted[2] >= 0.5
    # A p_adjusted is the same whether adjusted from the raw p or again from the floored one (res.compare, the report).
    frame = pd.DataFrame({"language": "x", "subset": "all", "metric": "m", "p_value": [0.0, 0.0, 0.2]})
    once = adjust(frame, "holm")
    assert (once["p_value"] == [P_FLOOR, P_FLOOR, 0.2]).all()
    assert once["p_adjusted"].tolist() == adjust(once.drop(columns=["p_adjusted", "family"]), "holm")["p_adjusted"].tolist()
    assert format_value(P_FLOOR, "p_value") == FLOOR_TEXT == format_p(P_FLOOR) == "< 1e-300"
    assert format_value(3.9e-299, "p_adjusted") == "3.9e-299" and format_p(3.9e-299) == "< 0.001"
    assert format_value(P_FLOOR, "diff") == "0.0000"  # only p-values are bounds


def _extreme(tmp_path, n: int = 3000):
    """Two systems at 0% and 100% female on the same 3,000 items: the analytic test's p underflows."""
    frame = pd.DataFrame({"system": ["a", "b"] * n, "item": np.repeat(np.arange(n), 2), "gender": ["female", "male"] * n})
    path = tmp_path / "extreme.csv"
    frame.to_csv(path, index=False)
    return path


def _far_apart(tmp_path, n: int = 3000):
    """90% against 10% on 3,000 items: the paired bootstrap's normal tail underflows (z ≈ 100)."""
    rng = np.random.default_rng(0)
    gender = np.where(np.r_[rng.random(n) < 0.9, rng.random(n) < 0.1], "female", "male")
    frame = pd.DataFrame({"system": np.repeat(["a", "b"], n), "item": np.tile(np.arange(n), 2), "gender": gender})
    path = tmp_path / "far.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.mark.parametrize(("data", "ci"), [(_extreme, "analytic"), (_far_apart, "analytic"), (_far_apart, "bootstrap")])
def test_an_underflowing_comparison_is_below_1e300_in_every_view(data, ci, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    path = data(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = smb.rates(path, interval="score" if ci == "analytic" else "percentile", n_boot=1000)
    female = res.compare().set_index("metric").loc["female"]
    assert female["p_value"] == P_FLOOR and female["p_adjusted"] == P_FLOOR  # was 0.0
    assert _never_zero(res)
    base = [
        "rates",
        "--judgements",
        str(path),
        "--compare",
        "--interval",
        "score" if ci == "analytic" else "percentile",
        "--n-boot",
        "1000",
    ]
    assert main(base) == 0
    out = capsys.readouterr().out
    header, row = out.splitlines()[0], next(line for line in out.splitlines() if " female " in line)
    assert row.count(FLOOR_TEXT) == 2 and "0.0000" not in row, out  # p_value and p_adjusted
    assert header.index("p_value") + len("p_value") == row.index(FLOOR_TEXT) + len(FLOOR_TEXT)  # in that column
    assert f"{FLOOR_TEXT}: below what double precision can state" in out  # the note, with the method
    assert main([*base, "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert all(r["p_value"] > 0 and r["p_adjusted"] > 0 for r in records)
    assert {r["metric"]: r["p_value"] for r in records}["female"] == 1e-300
    assert main([*base, "--format", "csv"]) == 0
    rows = list(pd.read_csv(pd.io.common.StringIO(capsys.readouterr().out)).itertuples())
    assert all(r.p_value > 0 and r.p_adjusted > 0 for r in rows)


def test_the_report_shows_it_in_markdown_html_and_latex(tmp_path):
    from stats_mtbias.report.results import write_results

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = smb.rates(_extreme(tmp_path), interval="score")
    write_results([res], tmp_path / "report", formats=("md", "html", "tex"))
    markdown = (tmp_path / "report" / "report.md").read_text("utf-8")
    assert "| < 1e-300 |" in markdown and "| 0.000 |" not in markdown
    assert "&lt; 1e-300" in (tmp_path / "report" / "report.html").read_text("utf-8")
    tex = "".join(p.read_text("utf-8") for p in (tmp_path / "report").rglob("*.tex"))
    assert "< 1e-300" in tex
    csv = pd.read_csv(tmp_path / "report" / "rates" / "comparisons.csv")
    assert (csv["p_value"] > 0).all() and (csv["p_adjusted"] > 0).all()


def test_no_p_value_of_any_study_is_exactly_zero_on_the_shipped_data(data_dir, monkeypatch):
    """TGBI, Prates (its language × gender chi-square was 0.0), WinoMT (bing − systran's F1 jackknife t was 0.0), optimal."""
    monkeypatch.setenv("MTBIAS_DATA", str(data_dir))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = [
            smb.tgbi(n_boot=200),
            smb.prates(),
            smb.optimal(n_boot=200),
            smb.winomt(["bing", "systran"], languages=["de"], n_boot=200, adjectives=False),
        ]
    checked = {res.study: _never_zero(res) for res in results}
    assert checked["prates"] and checked["winomt"] and checked["tgbi"]
    independence = results[1].frame("independence")
    assert (independence["p_value"] == P_FLOOR).any()  # the one that underflowed, now stated as a bound
    winomt = results[3].compare()
    assert (winomt["p_value"] == P_FLOOR).any()
