"""The full report from the shipped data (reduced resamples and draws): files, numbers, figures, browser.

Every table number in the documents is checked against the study's API called on
its own, before rounding (CSV) and after (HTML cells); every figure is a valid PNG
embedded in the HTML; the HTML is rendered and photographed in headless Chromium.
"""

from __future__ import annotations

import base64
import html.parser
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import matplotlib.image
import numpy as np
import pandas as pd
import pytest

from stats_mtbias.report import build
from stats_mtbias.report.formatting import format_cells
from stats_mtbias.report.screenshot import find_browser, screenshot
from stats_mtbias.report.sections import STUDIES, Settings

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
N_BOOT, SEED, DRAWS = 200, 0, 150


@pytest.fixture(scope="module")
def built(tmp_path_factory, data_dir):
    out = tmp_path_factory.mktemp("report")
    settings = Settings(data_dir=data_dir, n_boot=N_BOOT, seed=SEED, draws=DRAWS, tune=DRAWS, progress=False)
    report, timing, written = build.run(out, STUDIES, settings)
    return out, report, timing, written


class _Tables(html.parser.HTMLParser):
    """Cells of every <table data-table=...>, plus every embedded image."""

    def __init__(self):
        super().__init__()
        self.tables, self.images, self._current, self._row, self._cell = {}, [], None, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and "data-table" in attrs:
            self._current = self.tables.setdefault(attrs["data-table"], [])
        elif tag == "tr" and self._current is not None:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""
        elif tag == "img":
            self.images.append(attrs["src"])

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell)
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self._current.append(self._row)
            self._row = None
        elif tag == "table":
            self._current = None


def _csv(out: Path, study: str, name: str) -> pd.DataFrame:
    return pd.read_csv(out / study / f"{name}.csv", keep_default_na=True)


def _same(report_frame: pd.DataFrame, api_frame: pd.DataFrame, columns=None):
    columns = list(columns or api_frame.columns)
    left = report_frame[columns].reset_index(drop=True)
    right = api_frame[columns].reset_index(drop=True)
    # Every number as the CSV keeps it: ten significant digits (CSV_FLOAT_FORMAT), so equal to 1e-10 relative.
    pd.testing.assert_frame_equal(left, right, check_dtype=False, check_exact=False, rtol=1e-9, atol=0)


def test_every_study_is_a_section_with_tables_and_figures(built):
    out, report, timing, _written = built
    assert [s.key for s in report.sections] == list(STUDIES)
    assert list(timing["study"]) == list(STUDIES)
    for section in report.sections:
        assert section.methods and section.tables and section.figures and section.provenance, section.key
        for table in section.tables:
            assert (out / section.key / f"{table.name}.csv").is_file()
    expected_figures = {"tgbi": {"forest_p_s"}, "prates": {"heatmap_female_share", "translated_vs_bls", "forest_language"},
                        "optimal": {"sector_b"}, "winomt": {"pro_anti", "forest_delta_g", "power_delta_g"},
                        "models": {"calibration_slopes", "tgbi_posterior"}}  # fmt: skip
    assert {s.key: {f.name for f in s.figures} for s in report.sections} == expected_figures
    for name in ("report.html", "report.md", "report.tex"):
        assert (out / name).stat().st_size > 10_000


def test_tables_equal_the_api_before_rounding(built, data_dir):
    from stats_mtbias.datasets import winomt as winomt_data
    from stats_mtbias.datasets.registry import open_store
    from stats_mtbias.studies import models, optimal, prates, tgbi, winomt
    from stats_mtbias.studies.winomt import reading as winomt_reading
    from stats_mtbias.studies.winomt import validation as winomt_validation

    out = built[0]
    t = tgbi.run(data_dir=data_dir, n_boot=N_BOOT, rng=SEED, compare=True)
    _same(_csv(out, "tgbi", "estimates"), t.estimates.astype({"system": str}))
    _same(_csv(out, "tgbi", "comparisons"), t.comparisons.astype({"system_a": str, "system_b": str}))
    boot = tgbi.run(data_dir=data_dir, n_boot=N_BOOT, rng=SEED, compare=True, ci="bootstrap")
    _same(_csv(out, "tgbi", "estimates_bootstrap"), boot.estimates.astype({"system": str}))
    p = prates.run(data_dir=data_dir, by="language,category", rng=SEED)
    _same(_csv(out, "prates", "tests"), p.tests)
    _same(_csv(out, "prates", "rates"), p.rates[p.rates["category"] == "all"])
    _same(_csv(out, "prates", "calibration"), p.calibration, prates.CALIBRATION_COLUMNS)
    _same(_csv(out, "prates", "reference"), p.reference)
    o = optimal.run(data_dir=data_dir, n_boot=N_BOOT, rng=SEED)
    _same(_csv(out, "optimal", "sectors"), o.sectors)
    _same(_csv(out, "optimal", "headline"), o.headline)
    # WinoMT: the point estimates of one file read again on its own (intervals depend on the whole grid's stream).
    store = open_store(data_dir)
    items = winomt_data.read_items(store)
    alone, _ = winomt.analyse(winomt_reading.judge(store, "google", "es", items), n_boot=N_BOOT, rng=SEED)
    report_est = _csv(out, "winomt", "estimates").fillna({"flag": ""})  # an empty flag reads back as NaN
    row = report_est[(report_est["system"] == "google") & (report_est["language"] == "es")]
    _same(row, alone, ["n", "n_unknown", "acc", "f1_male", "f1_female", "delta_g", "acc_pro", "acc_anti", "delta_s"])
    validation = _csv(out, "winomt", "validation")
    human = store.path("winomt/data/human_annotations/es.in__es.in.csv")
    checked = winomt_validation.validate(store, human, items)
    mine = validation[validation["file"] == "es.in__es.in.csv"].iloc[0]
    assert (mine["agreement"], mine["kappa"]) == pytest.approx((checked["agreement"], checked["kappa"]), rel=1e-9)
    import stats_mtbias as smb

    again = smb.winomt(data_dir=data_dir, n_boot=N_BOOT, rng=SEED, corrected=True)
    _same(_csv(out, "winomt", "corrected"), again.frames["corrected"])
    _same(report_est, again.frames["estimates"])
    # The planning table: the same simulation through smb.power, and every comparison carries its MDE.
    planned = _csv(out, "winomt", "planning")
    for row in planned.itertuples():
        plan = smb.power(pilot=again, systems=("google", "aws"), language="de", metric="delta_g",
                         difference=row.difference, test="wald", n_sim=2000, rng=SEED)  # fmt: skip
        assert row.n == plan.n and row.power == pytest.approx(plan.power, rel=1e-9)
    assert planned["n"].is_monotonic_decreasing  # larger differences need fewer items
    comparisons = _csv(out, "winomt", "comparisons")
    width = comparisons["ci_high"] - comparisons["ci_low"]
    assert np.allclose(comparisons["mde"], width * 2.8016 / 3.9199, rtol=1e-4)
    # The calibration model refitted with the same seed gives the same posterior summary.
    calib = models.run("prates", model="calibration", data_dir=data_dir, draws=DRAWS, tune=DRAWS, rng=SEED)
    _same(_csv(out, "models", "calibration_summary").fillna({"group": ""}), calib.summary.fillna({"group": ""}))


def test_html_cells_are_the_csv_numbers_rounded_and_figures_are_embedded(built):
    out, report, _, _ = built
    parser = _Tables()
    parser.feed((out / "report.html").read_text("utf-8"))
    n_tables = 0
    for section in report.sections:
        for table in section.tables:
            if not table.title:
                assert f"{section.key}/{table.name}" not in parser.tables
                continue
            n_tables += 1
            rows = parser.tables[f"{section.key}/{table.name}"]
            assert rows[0] == list(table.columns)
            csv = _csv(out, section.key, table.name)
            # "901" in the CSV is the float 901.0 of the table (ten significant digits drop the ".0").
            csv = csv.astype({c: float for c in table.columns if table.frame[c].dtype.kind == "f"})
            expected = format_cells(csv, table.columns, table.digits)
            assert rows[1:] == expected.values.tolist(), f"{section.key}/{table.name}"
    assert n_tables >= 25
    embedded = {src.split(",", 1)[1] for src in parser.images if src.startswith("data:image/png;base64,")}
    assert len(parser.images) == len(embedded) == sum(len(s.figures) for s in report.sections)
    for section in report.sections:
        for figure in section.figures:
            data = (out / section.key / f"{figure.name}.png").read_bytes()
            image = matplotlib.image.imread(io.BytesIO(data), format="png")
            assert image.shape[0] > 200 and image.shape[1] > 400 and image.std() > 0.05, figure.name
            assert base64.b64encode(data).decode("ascii") in embedded


def test_markdown_and_latex_point_at_files_that_exist(built):
    out = built[0]
    md = (out / "report.md").read_text("utf-8")
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert len(links) == 10 and all((out / link).is_file() for link in links)
    tex = (out / "report.tex").read_text("utf-8")
    inputs = re.findall(r"\\input\{([^}]+)\}", tex) + re.findall(r"\\includegraphics\[[^\]]*\]\{([^}]+)\}", tex)
    assert len(inputs) > 30 and all((out / name).is_file() for name in inputs)
    assert tex.count(r"\begin{figure}") == 10


def test_analyses_script_writes_the_same_section_files(built, tmp_path, data_dir):
    out = built[0]
    env = {**os.environ, "MTBIAS_DATA": str(data_dir)}
    subprocess.run(
        [sys.executable, str(ROOT / "analyses" / "tgbi.py"), "--out", str(tmp_path), "--n-boot", str(N_BOOT)],
        check=True, env=env, capture_output=True,
    )  # fmt: skip
    mine = sorted(p.name for p in tmp_path.iterdir())
    assert mine == sorted(p.name for p in (out / "tgbi").iterdir())
    for name in mine:
        assert (tmp_path / name).read_bytes() == (out / "tgbi" / name).read_bytes(), name


@pytest.mark.skipif(
    find_browser() is None and not os.environ.get("MTBIAS_REQUIRE_BROWSER"), reason="no Chromium on this machine"
)
def test_html_renders_in_headless_chromium(built, tmp_path):
    out = built[0]
    png = screenshot(out / "report.html", tmp_path / "report.png", width=1280, height=2400)
    image = matplotlib.image.imread(png)
    assert image.shape[:2] == (2400, 1280)
    # A rendered page, not a blank or error page: dark text and the blue headings on white.
    assert image.std() > 0.05
    assert (image[..., :3].mean(axis=2) < 0.3).mean() > 0.005


def test_tgbi_model_predictive_check_is_reported(built):
    out = built[0]
    ppc = _csv(out, "models", "tgbi_predictive_check")
    assert len(ppc) == 21 and set(ppc["subset"]) == {"informal", "formal", "impolite", "polite", "negative", "positive",
                                                      "occupation"}  # fmt: skip
    assert ((ppc["pred_low"] <= ppc["predicted"]) & (ppc["predicted"] <= ppc["pred_high"])).all()
    # The fit's observed P_S are the study's (same outputs, both counted as neutral).
    tgbi_est = _csv(out, "tgbi", "estimates").set_index(["system", "subset"])["p_s"]
    observed = ppc.set_index(["system", "subset"])["observed"]
    assert np.allclose(observed, tgbi_est.loc[observed.index])
