"""The full report from the shipped data (reduced resamples and draws): shape, files, numbers, figures, browser.

Every section has the shape of every report (headline first, appendix last); every
table number is checked against the public API called on its own, before rounding
(CSV, in shares) and after (HTML cells, in percent); every figure is a valid PNG
embedded in the HTML; the HTML's first screen, laid out by headless Chromium, shows
the first headline.
"""

from __future__ import annotations

import base64
import gzip
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

import stats_mtbias as smb
from stats_mtbias.report.formatting import format_cells, format_interval
from stats_mtbias.report.screenshot import find_browser, screenshot, table_layout
from stats_mtbias.reporting import STUDIES, Settings, build

# One worker builds the report once for the whole module (`--dist loadgroup` in the Makefile): it takes about a minute.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("full_report")]
ROOT = Path(__file__).resolve().parents[2]
N_BOOT, SEED, DRAWS = 200, 0, 150


@pytest.fixture(scope="module")
def built(tmp_path_factory, data_dir):
    out = tmp_path_factory.mktemp("report")
    settings = Settings(data_dir=data_dir, n_boot=N_BOOT, seed=SEED, draws=DRAWS, tune=DRAWS, progress=False)
    report, timing, written = build.run(out, STUDIES, settings)
    return out, report, timing, written


@pytest.fixture(scope="module")
def winomt_result(data_dir):
    return smb.winomt(data_dir=data_dir, n_boot=N_BOOT, rng=SEED, corrected=True, validate=True, explain=True)


class _Tables(html.parser.HTMLParser):
    """Cells of every <table data-table=...> in document order, plus every embedded image."""

    def __init__(self):
        super().__init__()
        self.tables, self.order, self.images, self._current, self._row, self._cell = {}, [], [], None, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and "data-table" in attrs:
            self._current = self.tables.setdefault(attrs["data-table"], [])
            self.order.append(attrs["data-table"])
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


def test_every_study_is_a_section_of_one_shape(built):
    out, report, timing, _written = built
    assert [s.key for s in report.sections] == list(STUDIES)
    assert list(timing["study"]) == list(STUDIES)
    for section in report.sections:
        assert section.lead and section.headline is not None and section.methods and section.provenance, section.key
        assert any(t.name == "accounting" for t in section.appendix) or section.key == "models"
        for table in section.tables:
            assert (out / section.key / f"{table.name}.csv").is_file()
        # Notes: each once.
        assert len(section.notes) == len(set(section.notes)), section.key
    expected_figures = {
        "tgbi": {"forest_comparisons", "figure_p_s"},
        "prates": {"figure_female", "heatmap_female_share", "translated_vs_bls"},
        "optimal": {"figure_minority", "sector_b"},
        "winomt": {"figure_acc", "figure_delta_g", "figure_delta_s", "pro_anti", "power_delta_g"},
        "models": {"calibration_slopes", "tgbi_posterior"},
    }
    found = {s.key: {f.name for f in s.figures} for s in report.sections}
    # WinoMT's comparisons outnumber a panel's 40 rows: they go on pages (forest_comparisons_1, _2, …), not dropped.
    pages = {name for name in found["winomt"] if name.startswith("forest_comparisons_")}
    assert len(pages) >= 2 and pages == {f"forest_comparisons_{k}" for k in range(1, len(pages) + 1)}
    assert {**found, "winomt": found["winomt"] - pages} == expected_figures
    for name in ("report.html", "report.md", "report.tex"):
        assert (out / name).stat().st_size > 10_000
    for study in ("tgbi", "prates", "optimal", "winomt"):
        assert (out / study / "items.csv.gz").is_file()


def test_the_papago_block_is_one_note_that_says_what_the_numbers_did(built):
    report = built[1]
    tgbi = next(s for s in report.sections if s.key == "tgbi")
    papago = [n for n in tgbi.notes if "total_papago_imp.txt" in n]
    assert len(papago) == 1 and "counted as unknown" in papago[0]
    assert not any("kept as they are" in n for n in tgbi.notes)
    # The authors' variant keeps the block, and says so beside its own table.
    assert "kept as translations" in tgbi.table("estimates_authors_rules").caption


def test_tables_equal_the_api_before_rounding(built, data_dir, winomt_result):
    out = built[0]
    t = smb.tgbi(data_dir=data_dir, n_boot=N_BOOT, rng=SEED)
    _same(_csv(out, "tgbi", "estimates"), t.table)
    _same(_csv(out, "tgbi", "headline"), t.table[t.table["metric"] == "p_s"])
    _same(_csv(out, "tgbi", "comparisons"), t.compare())
    _same(_csv(out, "tgbi", "estimates_wide"), t.frame("estimates").astype({"system": str}))
    boot = smb.tgbi(data_dir=data_dir, n_boot=N_BOOT, rng=SEED, interval="percentile")
    _same(_csv(out, "tgbi", "estimates_bootstrap"), boot.table[boot.table["metric"] == "p_s"])
    p = smb.prates(data_dir=data_dir, rng=SEED)
    _same(_csv(out, "prates", "headline"), p.table)
    cells = smb.prates(data_dir=data_dir, by="language,category", rng=SEED)
    _same(_csv(out, "prates", "tests_by_category"), cells.frame("tests"))
    _same(
        _csv(out, "prates", "calibration"),
        cells.frame("calibration"),
        [c for c in cells.frame("calibration").columns if c != "note"],
    )
    _same(_csv(out, "prates", "reference"), cells.frame("reference"))
    o = smb.optimal(data_dir=data_dir, n_boot=N_BOOT, rng=SEED)
    _same(_csv(out, "optimal", "sectors"), o.frame("sectors"))
    _same(
        _csv(out, "optimal", "headline"),
        o.table[o.table["metric"].isin(["minority", "he_given_female_dominated", "she_given_male_dominated"])],
    )
    # The BLS scatter rests on the occupations Prates compares at the occupation level.
    from stats_mtbias.reporting.sections.prates import occupation_shares

    occupation_level = cells.frame("reference").query("language == 'all' and level == 'occupation'").iloc[0]
    assert len(occupation_shares(o)) == occupation_level["n"]
    # WinoMT: the report's estimates are the API's; one file read on its own gives the same point estimates.
    w = winomt_result
    report_est = _csv(out, "winomt", "estimates_wide").fillna({"flag": ""})  # an empty flag reads back as NaN
    _same(report_est, w.frame("estimates"))
    _same(_csv(out, "winomt", "corrected"), w.frame("corrected"))
    _same(_csv(out, "winomt", "validation"), w.frame("validation"))
    alone = smb.winomt(["google"], languages=["es"], data_dir=data_dir, n_boot=N_BOOT, rng=SEED).frame("estimates")
    row = report_est[(report_est["system"] == "google") & (report_est["language"] == "es")]
    _same(row, alone, ["n", "n_unknown", "acc", "f1_male", "f1_female", "delta_g", "acc_pro", "acc_anti", "delta_s"])
    # The reader's validity: the unread share per system and language is the API's.
    validity = _csv(out, "winomt", "reader_validity").set_index(["system", "language"])
    est = w.frame("estimates").set_index(["system", "language"])
    np.testing.assert_allclose(validity.loc[est.index, "unread"], est["n_unknown"] / est["n"], rtol=1e-9)
    # items.csv.gz: one row per system × item of the judgements.
    items = pd.read_csv(io.BytesIO(gzip.decompress((out / "winomt" / "items.csv.gz").read_bytes())))
    assert len(items) == len(w.frame("judgements"))
    unread = items[items["gender"] == "unknown"]
    assert len(unread) == len(w.frame("unread")) and unread["why"].notna().all()  # why each one went unread
    # The planning table: the same simulation through smb.power, and every comparison carries its MDE.
    planned = _csv(out, "winomt", "planning")
    for row in planned.itertuples():
        plan = smb.power(
            pilot=w,
            systems=("google", "aws"),
            language="de",
            metric="delta_g",
            difference=row.difference,
            test="wald",
            n_sim=2000,
            rng=SEED,
        )
        assert row.n == plan.n and row.power == pytest.approx(plan.power, rel=1e-9)
    assert planned["n"].is_monotonic_decreasing  # larger differences need fewer items
    comparisons = _csv(out, "winomt", "comparisons")
    _same(comparisons, w.compare(), ["system_a", "system_b", "language", "metric", "diff", "ci_low", "ci_high", "p_adjusted"])
    width = comparisons["ci_high"] - comparisons["ci_low"]
    assert np.allclose(comparisons["mde"], width * 2.8016 / 3.9199, rtol=1e-4)
    # The calibration model refitted with the same seed gives the same posterior summary.
    calib = smb.model("prates", model="calibration", data_dir=data_dir, draws=DRAWS, tune=DRAWS, rng=SEED)
    _same(_csv(out, "models", "calibration_summary").fillna({"group": ""}), calib.summary.fillna({"group": ""}))


def test_html_cells_are_the_csv_numbers_rounded_in_percent_and_figures_are_embedded(built):
    out, report, _, _ = built
    parser = _Tables()
    parser.feed((out / "report.html").read_text("utf-8"))
    # The page's first table is the first section's headline.
    assert parser.order[0] == f"{report.sections[0].key}/headline"
    n_tables = 0
    for section in report.sections:
        for table in section.tables:
            if not table.title:
                assert f"{section.key}/{table.name}" not in parser.tables
                continue
            n_tables += 1
            rows = parser.tables[f"{section.key}/{table.name}"]
            if table.cells is not None:
                assert rows[1:] == table.cells.astype(str).values.tolist(), f"{section.key}/{table.name}"
                continue
            assert rows[0] == [table.headers.get(c, c) for c in table.columns]
            csv = _csv(out, section.key, table.name)
            # "901" in the CSV is the float 901.0 of the table (ten significant digits drop the ".0").
            csv = csv.astype({c: float for c in table.columns if table.frame[c].dtype.kind == "f"})
            expected = format_cells(csv, table.columns, table.digits, table.percent)
            assert rows[1:] == expected.values.tolist(), f"{section.key}/{table.name}"
    assert n_tables >= 30
    # A headline cell is the CSV's share × 100 with its interval: WinoMT's German Acc of Google.
    head = _csv(out, "winomt", "headline").query("system == 'google' and language == 'de' and metric == 'acc'").iloc[0]
    rows = parser.tables["winomt/headline"]
    header = rows[0]
    german = next(i for i, r in enumerate(rows) if r[0] == "German (de)")
    assert rows[german][1] == "google"
    assert rows[german][header.index("Acc (%)")] == format_interval(head["estimate"], head["ci_low"], head["ci_high"])
    embedded = {src.split(",", 1)[1] for src in parser.images if src.startswith("data:image/png;base64,")}
    assert len(parser.images) == len(embedded) == sum(len(s.figures) for s in report.sections)
    for section in report.sections:
        for figure in section.figures:
            data = (out / section.key / f"{figure.name}.png").read_bytes()
            image = matplotlib.image.imread(io.BytesIO(data), format="png")
            assert image.shape[0] > 200 and image.shape[1] > 400 and image.std() > 0.05, figure.name
            assert base64.b64encode(data).decode("ascii") in embedded


def test_markdown_and_latex_point_at_files_that_exist(built):
    out, report = built[0], built[1]
    n_figures = sum(len(s.figures) for s in report.sections)
    md = (out / "report.md").read_text("utf-8")
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert len(links) == n_figures and all((out / link).is_file() for link in links)
    assert md.index("## Appendix") > md.index("## Hierarchical Bayesian models")
    tex = (out / "report.tex").read_text("utf-8")
    inputs = re.findall(r"\\input\{([^}]+)\}", tex) + re.findall(r"\\includegraphics\[[^\]]*\]\{([^}]+)\}", tex)
    assert len(inputs) > 30 and all((out / name).is_file() for name in inputs)
    assert tex.count(r"\begin{figure}") == n_figures


def test_analyses_script_writes_the_same_section_files(built, tmp_path, data_dir):
    out = built[0]
    env = {**os.environ, "MTBIAS_DATA": str(data_dir)}
    subprocess.run(
        [sys.executable, str(ROOT / "analyses" / "tgbi.py"), "--out", str(tmp_path), "--n-boot", str(N_BOOT)],
        check=True,
        env=env,
        capture_output=True,
    )
    mine = sorted(p.name for p in tmp_path.iterdir())
    assert mine == sorted(p.name for p in (out / "tgbi").iterdir())
    for name in mine:
        assert (tmp_path / name).read_bytes() == (out / "tgbi" / name).read_bytes(), name


@pytest.mark.skipif(find_browser() is None and not os.environ.get("MTBIAS_REQUIRE_BROWSER"), reason="no Chromium on this machine")
def test_html_renders_in_headless_chromium_with_the_headline_on_the_first_screen(built, tmp_path):
    out = built[0]
    png = screenshot(out / "report.html", tmp_path / "report.png", width=1280, height=2400)
    image = matplotlib.image.imread(png)
    assert image.shape[:2] == (2400, 1280)
    # A rendered page, not a blank or error page: dark text and the blue headings on white.
    assert image.std() > 0.05
    assert (image[..., :3].mean(axis=2) < 0.3).mean() > 0.005
    (_, height), tables = table_layout(out / "report.html")
    assert tables[0][0] == "tgbi/headline" and tables[0][1] < height


def test_tgbi_model_predictive_check_is_reported(built):
    out = built[0]
    ppc = _csv(out, "models", "tgbi_predictive_check")
    assert len(ppc) == 21 and set(ppc["subset"]) == {
        "informal",
        "formal",
        "impolite",
        "polite",
        "negative",
        "positive",
        "occupation",
    }
    assert ((ppc["pred_low"] <= ppc["predicted"]) & (ppc["predicted"] <= ppc["pred_high"])).all()
    # The fit's observed P_S are the study's (same outputs, both counted as neutral).
    tgbi_est = _csv(out, "tgbi", "headline").set_index(["system", "subset"])["estimate"]
    observed = ppc.set_index(["system", "subset"])["observed"]
    assert np.allclose(observed, tgbi_est.loc[observed.index])
