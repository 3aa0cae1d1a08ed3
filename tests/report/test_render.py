"""The report's building blocks: number formatting, tables in three formats, figures, section files."""

from __future__ import annotations

import base64
import io
import json

import matplotlib.image
import numpy as np
import pandas as pd
import pytest

from stats_mtbias.errors import UsageError
from stats_mtbias.report import figures
from stats_mtbias.report.document import Figure, Report, Section, Table
from stats_mtbias.report.formatting import format_cells, format_value
from stats_mtbias.report.render import (
    render_html,
    render_latex,
    render_markdown,
    table_latex,
    table_markdown,
    tex_escape,
    write_report,
    write_section,
)
from stats_mtbias.report.sections import Settings, build_section

FRAME = pd.DataFrame(
    {"system": ["a_b", "c|d"], "n": [10, 3], "p_s": [0.123456, np.nan], "p_value": [3.2e-9, 0.5], "ok": [True, False]}
)


def _png_array(data: bytes) -> np.ndarray:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return matplotlib.image.imread(io.BytesIO(data), format="png")


def test_format_value_rounds_and_keeps_small_pvalues():
    assert format_value(0.123456, "p_s", 3) == "0.123"
    assert format_value(3.2e-9, "p_value", 4) == "3.2e-09"
    assert format_value(3.2e-9, "p_s", 4) == "0.0000"  # only p-values switch notation
    assert format_value(0.0, "p_value", 4) == "0.0000"
    assert format_value(np.int64(7), "n") == "7"
    assert format_value(np.nan, "p_s") == ""
    assert format_value(np.bool_(True), "ok") == "yes"
    assert format_value(-3e-7, "diff", 4) == "0.0000"  # no "-0.0000"
    assert format_value(-1.2e-4, "diff", 4) == "-0.0001"
    # A cell is the CSV's number (ten significant digits) rounded: 0.12345000000049 is 0.1234500000 there.
    assert format_value(0.12345000000049, "p_s", 4) == format_value(0.12345, "p_s", 4)
    cells = format_cells(FRAME, ["n", "p_s"], 2)
    assert cells.to_dict("list") == {"n": ["10", "3"], "p_s": ["0.12", ""]}


def test_tex_escape_every_special_character():
    assert tex_escape("a_b & 5% #1 {x} $y$ ~ ^ \\") == (
        r"a\_b \& 5\% \#1 \{x\} \$y\$ \textasciitilde{} \textasciicircum{} \textbackslash{}"
    )


def test_table_markdown_and_latex_show_the_same_rounded_cells():
    table = Table("t", "T", FRAME, ["system", "n", "p_s", "p_value"], "cap", digits=3)
    md = table_markdown(table).splitlines()
    assert md[0] == "| system | n | p_s | p_value |"
    assert md[1] == "|:---|---:|---:|---:|"
    assert md[2] == "| a_b | 10 | 0.123 | 3.2e-09 |"
    assert md[3] == "| c\\|d | 3 |  | 0.500 |"
    tex = table_latex(table)
    assert r"\begin{longtable}{lrrr}" in tex
    assert r"a\_b & 10 & 0.123 & 3.2e-09 \\" in tex
    assert r"\caption*{cap}" in tex


def test_forest_heatmap_scatter_are_valid_reproducible_pngs():
    frame = pd.DataFrame(
        {"label": ["x", "y", "x", "y"], "group": ["g1", "g1", "g2", "g2"], "panel": ["p", "p", "q", "q"],
         "est": [0.1, 0.5, 0.2, 3.0], "lo": [0.0, 0.4, np.nan, 1.0], "hi": [0.2, 0.7, np.nan, 5000.0]}
    )  # fmt: skip
    png = figures.forest(frame, estimate="est", low="lo", high="hi", label="label", group="group", panel="panel",
                         xscale="symlog", xmax=1000.0)  # fmt: skip
    image = _png_array(png)
    assert image.shape[0] > 100 and image.shape[1] > 300
    assert image.std() > 0.05  # something is drawn, not a blank canvas
    again = figures.forest(frame, estimate="est", low="lo", high="hi", label="label", group="group", panel="panel",
                           xscale="symlog", xmax=1000.0)  # fmt: skip
    assert again == png  # no timestamps or software tags in the file
    matrix = pd.DataFrame([[1.0, np.nan], [50.0, 90.0]], index=["r1", "r2"], columns=["c1", "c2"])
    assert _png_array(figures.heatmap(matrix, vmin=0)).std() > 0.05
    assert _png_array(figures.scatter_reference([10, 50], [5, 20], xlabel="x", ylabel="y")).std() > 0.05


def test_forest_panels_share_one_x_axis_labelled_on_the_lowest_of_each_column():
    frame = pd.DataFrame({"label": ["x", "y"] * 3, "panel": ["p", "p", "q", "q", "r", "r"],
                          "est": [1.0, 2.0, 40.0, 50.0, 5.0, 6.0], "lo": [0.5, 1.5, 30.0, 45.0, 4.0, 5.0],
                          "hi": [1.5, 2.5, 55.0, 60.0, 7.0, 8.0]})  # fmt: skip
    fig = figures.forest_figure(frame, estimate="est", low="lo", high="hi", label="label", panel="panel", ncols=2,
                                xlabel="Acc")  # fmt: skip
    p, q, r, hidden = fig.axes
    assert p.get_xlim() == q.get_xlim() == r.get_xlim()
    lo, hi = p.get_xlim()
    assert lo <= 0.5 and hi >= 60.0  # every panel's intervals fit the shared axis
    assert not hidden.get_visible()
    # r is the lowest panel of column 1; q's column has nothing below it, so q keeps its own label.
    assert [ax.get_xlabel() for ax in (p, q, r)] == ["", "Acc", "Acc"]


def _section() -> Section:
    png = figures.scatter_reference([10, 50], [5, 20], xlabel="x", ylabel="y")
    return Section(
        "demo", "Demo <study>", methods=["P_S = √(p_w·p_m + p_n)."], notes=["a note"],
        tables=[Table("shown", "Shown table", FRAME, ["system", "n", "p_s"], "caption & more", digits=3),
                Table("csv_only", "", FRAME, list(FRAME.columns))],
        figures=[Figure("scatter", "A scatter", png, "dashed: y = x")],
        provenance={"run": {"seed": 1, "data": {"x.txt": "ab" * 32}}},
    )  # fmt: skip


def test_write_section_writes_full_precision_csv_and_shown_tex(tmp_path):
    section = _section()
    written = {p.name for p in write_section(section, tmp_path)}
    assert written == {"shown.csv", "shown.tex", "csv_only.csv", "scatter.png", "provenance.json", "report.md"}
    back = pd.read_csv(tmp_path / "shown.csv")
    pd.testing.assert_frame_equal(back, FRAME)  # every column, to ten significant digits (these have fewer)
    assert (tmp_path / "scatter.png").read_bytes() == section.figures[0].png
    assert json.loads((tmp_path / "provenance.json").read_text())["run"]["seed"] == 1
    md = (tmp_path / "report.md").read_text()
    assert "![A scatter](scatter.png)" in md and "| a_b | 10 | 0.123 |" in md and "csv_only" not in md.split("```json")[0]


def test_whole_report_in_three_formats(tmp_path):
    report = Report("Title", [_section()], {"n_boot": 10, "seed": 1, "level": 0.95}, {"package_version": "0"})
    html = render_html(report)
    assert "Demo &lt;study&gt;" in html  # escaped
    assert base64.b64encode(report.sections[0].figures[0].png).decode() in html
    assert '<table data-table="demo/shown">' in html and "<td class=\"num\">0.123</td>" in html
    assert "csv_only" not in html
    md = render_markdown(report)
    assert "![A scatter](demo/scatter.png)" in md and "1. [Demo <study>](#demo)" in md
    tex = render_latex(report)
    assert r"\input{demo/shown.tex}" in tex and r"\includegraphics" in tex and "csv\\_only" not in tex
    assert r"\section{Demo <study>}" in tex
    names = {p.relative_to(tmp_path).as_posix() for p in write_report(report, tmp_path, ["html", "md"])}
    assert {"report.html", "report.md", "demo/shown.csv"} <= names and "report.tex" not in names
    with pytest.raises(UsageError, match="`format` must be one of"):
        write_report(report, tmp_path, ["pdf"])


def test_settings_and_studies_are_validated():
    with pytest.raises(UsageError, match="n_boot"):
        Settings(n_boot=0)
    with pytest.raises(UsageError, match="`study` must be one of"):
        build_section("wino", Settings())


def test_a_bad_format_is_refused_before_any_study_runs(tmp_path, monkeypatch):
    from stats_mtbias.report import build

    def no_study(*args, **kwargs):
        raise AssertionError("a study ran before the format was checked")

    monkeypatch.setattr(build, "build_report", no_study)
    with pytest.raises(UsageError, match="`format` must be one of"):
        build.run(tmp_path, formats=["html", "pdf"])


def test_progress_is_a_line_per_stage_off_a_terminal_and_nothing_when_off(capsys):
    # capsys's stderr is not a terminal (as in CI logs or nohup): a line per stage with the elapsed seconds.
    assert list(Settings().iterate(["tgbi", "prates"], "report")) == ["tgbi", "prates"]
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 and lines[0].endswith("report: tgbi (1/2)") and "report: done in" in lines[2]
    assert lines[0].startswith("[") and " s] " in lines[0]
    assert list(Settings(progress=False).iterate(["tgbi"], "report")) == ["tgbi"]
    assert capsys.readouterr().err == ""
