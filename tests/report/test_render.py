"""The report's building blocks: number formatting, tables in three formats, figures, section files."""

from __future__ import annotations

import base64
import io
import json
import shutil
import subprocess

import matplotlib.image
import numpy as np
import pandas as pd
import pytest

from stats_mtbias.errors import UsageError
from stats_mtbias.report import figures
from stats_mtbias.report.document import Figure, Report, Section, Table
from stats_mtbias.report.formatting import format_cells, format_value
from stats_mtbias.report.render import (
    TEMPLATES,
    render_html,
    render_latex,
    render_markdown,
    table_latex,
    table_markdown,
    tex_escape,
    write_report,
    write_section,
)
from stats_mtbias.reporting import Settings
from stats_mtbias.reporting.sections import build_section

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
        {
            "label": ["x", "y", "x", "y"],
            "group": ["g1", "g1", "g2", "g2"],
            "panel": ["p", "p", "q", "q"],
            "est": [0.1, 0.5, 0.2, 3.0],
            "lo": [0.0, 0.4, np.nan, 1.0],
            "hi": [0.2, 0.7, np.nan, 5000.0],
        }
    )
    png = figures.forest(
        frame, estimate="est", low="lo", high="hi", label="label", group="group", panel="panel", xscale="symlog", xmax=1000.0
    )
    image = _png_array(png)
    assert image.shape[0] > 100 and image.shape[1] > 300
    assert image.std() > 0.05  # something is drawn, not a blank canvas
    again = figures.forest(
        frame, estimate="est", low="lo", high="hi", label="label", group="group", panel="panel", xscale="symlog", xmax=1000.0
    )
    assert again == png  # no timestamps or software tags in the file
    matrix = pd.DataFrame([[1.0, np.nan], [50.0, 90.0]], index=["r1", "r2"], columns=["c1", "c2"])
    assert _png_array(figures.heatmap(matrix, vmin=0)).std() > 0.05
    assert _png_array(figures.scatter_reference([10, 50], [5, 20], xlabel="x", ylabel="y")).std() > 0.05


def test_forest_panels_share_one_x_axis_labelled_on_the_lowest_of_each_column():
    frame = pd.DataFrame(
        {
            "label": ["x", "y"] * 3,
            "panel": ["p", "p", "q", "q", "r", "r"],
            "est": [1.0, 2.0, 40.0, 50.0, 5.0, 6.0],
            "lo": [0.5, 1.5, 30.0, 45.0, 4.0, 5.0],
            "hi": [1.5, 2.5, 55.0, 60.0, 7.0, 8.0],
        }
    )
    fig = figures.forest_figure(frame, estimate="est", low="lo", high="hi", label="label", panel="panel", ncols=2, xlabel="Acc")
    p, q, r, hidden = fig.axes
    assert p.get_xlim() == q.get_xlim() == r.get_xlim()
    lo, hi = p.get_xlim()
    assert lo <= 0.5 and hi >= 60.0  # every panel's intervals fit the shared axis
    assert not hidden.get_visible()
    # r is the lowest panel of column 1; q's column has nothing below it, so q keeps its own label.
    assert [ax.get_xlabel() for ax in (p, q, r)] == ["", "Acc", "Acc"]


def _section() -> Section:
    png = figures.scatter_reference([10, 50], [5, 20], xlabel="x", ylabel="y")
    headline = Table(
        "headline",
        "Headline",
        FRAME,
        caption="head",
        cells=pd.DataFrame({"system": ["a_b", "c|d"], "Acc (%)": ["61.2 [59.7, 62.7]", "1.0 [0.0, 3.0]"]}),
        text=["system"],
        highlight=[True, False],
    )
    return Section(
        "demo",
        "Demo <study>",
        lead="One line on what was measured.",
        headline=headline,
        methods=["P_S = √(p_w·p_m + p_n)."],
        notes=["a note"],
        body=[
            Table("shown", "Shown table", FRAME, ["system", "n", "p_s"], "caption & more", digits=3),
            Figure("scatter", "A scatter", png, "dashed: y = x"),
        ],
        appendix=[
            Table("accounting", "Every input accounted for", FRAME, ["system", "n"], digits=0),
            Table("csv_only", "", FRAME, list(FRAME.columns)),
        ],
        provenance={"run": {"seed": 1, "data": {"x.txt": "ab" * 32}}},
        attachments={"items.csv": b"system,item,gender\na_b,1,female\n"},
    )


def test_write_section_writes_full_precision_csv_and_shown_tex(tmp_path):
    section = _section()
    written = {p.name for p in write_section(section, tmp_path)}
    assert written == {
        "headline.csv",
        "headline.tex",
        "shown.csv",
        "shown.tex",
        "accounting.csv",
        "accounting.tex",
        "csv_only.csv",
        "scatter.png",
        "items.csv",
        "provenance.json",
        "report.md",
    }
    back = pd.read_csv(tmp_path / "shown.csv")
    pd.testing.assert_frame_equal(back, FRAME)  # every column, to ten significant digits (these have fewer)
    assert (tmp_path / "scatter.png").read_bytes() == section.figures[0].png
    assert (tmp_path / "items.csv").read_bytes() == section.attachments["items.csv"]
    assert json.loads((tmp_path / "provenance.json").read_text())["run"]["seed"] == 1
    md = (tmp_path / "report.md").read_text()
    assert "![A scatter](scatter.png)" in md and "| a_b | 10 | 0.123 |" in md and "csv_only" not in md.split("```json")[0]
    # The headline comes first, the user's row in bold; the appendix (accounting, provenance) last.
    assert md.index("| **a_b** | **61.2 [59.7, 62.7]** |") < md.index("a note") < md.index("Shown table")
    assert md.index("Shown table") < md.index("## Appendix") < md.index("Every input accounted for")
    assert "`items.csv`" in md


def test_percent_columns_are_shown_as_percent_and_kept_as_shares_in_csv(tmp_path):
    frame = pd.DataFrame({"system": ["a"], "share": [0.61234], "n": [10]})
    table = Table("t", "T", frame, ["system", "share", "n"], digits=1, percent=("share",), headers={"share": "share (%)"})
    assert table_markdown(table).splitlines()[:3] == ["| system | share (%) | n |", "|:---|---:|---:|", "| a | 61.2 | 10 |"]
    write_section(Section("s", "S", body=[table]), tmp_path)
    assert pd.read_csv(tmp_path / "t.csv")["share"].iloc[0] == pytest.approx(0.61234)


def test_whole_report_in_three_formats(tmp_path):
    report = Report(
        "Title", [_section()], {"n_boot": 10, "seed": 1, "level": 0.95}, {"package_version": "0"}, lead="Your systems: a_b."
    )
    html = render_html(report)
    assert "Demo &lt;study&gt;" in html  # escaped
    assert base64.b64encode(report.sections[0].figures[0].png).decode() in html
    assert '<table id="demo-shown" data-table="demo/shown">' in html and '<td class="num">0.123</td>' in html
    assert "csv_only" not in html
    # First the title, the lead, the section's one line and its headline; the appendix after every section.
    order = [
        html.index(x)
        for x in (
            "<h1>Title</h1>",
            "Your systems: a_b.",
            "One line on what was measured.",
            'data-table="demo/headline"',
            "a note",
            'data-table="demo/shown"',
            '<section id="appendix">',
            'data-table="demo/accounting"',
        )
    ]
    assert order == sorted(order)
    assert '<tr class="mine"><td class="text">a_b</td><td class="num">61.2 [59.7, 62.7]</td></tr>' in html
    md = render_markdown(report)
    assert "![A scatter](demo/scatter.png)" in md and "[Demo <study>](#demo)" in md
    assert md.index("## Appendix") > md.index("Shown table")
    tex = render_latex(report)
    assert r"\input{demo/shown.tex}" in tex and r"\includegraphics" in tex and "csv\\_only" not in tex
    assert r"\section{Demo <study>}" in tex
    assert tex.index(r"\input{demo/headline.tex}") < tex.index(r"\input{demo/shown.tex}") < tex.index(r"\appendix")
    assert tex.index(r"\appendix") < tex.index(r"\input{demo/accounting.tex}")
    names = {p.relative_to(tmp_path).as_posix() for p in write_report(report, tmp_path, ["html", "md"])}
    assert {"report.html", "report.md", "demo/shown.csv", "demo/items.csv"} <= names and "report.tex" not in names
    with pytest.raises(UsageError, match="`format` must be one of"):
        write_report(report, tmp_path, ["pdf"])


def test_settings_and_studies_are_validated():
    with pytest.raises(UsageError, match="n_boot"):
        Settings(n_boot=0)
    with pytest.raises(UsageError, match="`study` must be one of"):
        build_section("wino", Settings())


def test_a_bad_format_is_refused_before_any_study_runs(tmp_path, monkeypatch):
    from stats_mtbias.reporting import build

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


def test_a_screenshot_without_chromium_is_refused_before_any_study_runs(tmp_path, monkeypatch):
    from stats_mtbias.report import screenshot as browser
    from stats_mtbias.reporting import build

    def no_study(*args, **kwargs):
        raise AssertionError("a study ran before the screenshot was checked")

    monkeypatch.setattr(build, "build_report", no_study)
    monkeypatch.setattr(browser, "find_browser", lambda: None)
    with pytest.raises(UsageError, match="no Chromium on PATH"):
        build.run(tmp_path / "r", screenshot=tmp_path / "shot.png")
    with pytest.raises(UsageError, match="add 'html' to `formats`"):
        build.run(tmp_path / "r", formats=["md"], screenshot=tmp_path / "shot.png")
    assert not (tmp_path / "r").exists()


def test_the_module_entry_point_reports_a_usage_error_with_its_exit_code(tmp_path, capsys):
    from stats_mtbias.reporting.__main__ import main

    assert main(["--out", str(tmp_path / "r"), "--format", "pdf"]) == 64
    assert "`format` must be one of" in capsys.readouterr().err


def test_methods_prose_comes_from_the_templates_with_the_settings():
    from stats_mtbias.reporting.sections import METHODS, STUDIES, common, methods

    assert sorted(p.name for p in METHODS.glob("*.md.j2")) == sorted(f"{s}.md.j2" for s in STUDIES)
    tgbi = methods(
        "tgbi",
        **common(Settings(n_boot=2000, seed=7, level=0.9)),
        correction="Holm",
        family="set",
        family_size=3,
        n_comparisons=24,
    )
    assert len(tgbi) == 3 and "2,000 resamples, seed 7" in tgbi[2] and "Intervals (90%)" in tgbi[1]


def test_two_tables_of_one_name_are_refused_rather_than_one_csv_overwriting_the_other(tmp_path):
    section = Section("s", "S", body=[Table("t", "T", FRAME, ["n"])], appendix=[Table("t", "", FRAME, ["n"])])
    with pytest.raises(ValueError, match="two tables named t"):
        write_section(section, tmp_path)


def _wide_frame(columns: int, rows: int = 5, text: str = "") -> pd.DataFrame:
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.uniform(0, 1, (rows, columns)), columns=[f"share of column {j}" for j in range(columns)])
    if text:
        frame.insert(0, "note", [text] * rows)
    return frame


def test_a_narrow_table_keeps_the_normal_size():
    tex = table_latex(Table("t", "T", FRAME, ["system", "n", "p_s", "p_value"], "cap", digits=3))
    assert tex.startswith(r"\begin{longtable}") and r"\tabcolsep" not in tex


_TWO_LINES = r"\begin{tabular}[b]{@{}r@{}}share of \\ column 3\end{tabular}"
_FOUR_LINES = r"\begin{tabular}[b]{@{}r@{}}share \\ of \\ column \\ 3\end{tabular}"


@pytest.mark.parametrize(
    ("columns", "size", "header"),
    [(13, r"\footnotesize", _TWO_LINES), (16, r"\scriptsize", _TWO_LINES), (22, r"\tiny", _FOUR_LINES)],
)
def test_a_wide_table_is_set_smaller_to_fit_the_page(columns, size, header):
    frame = _wide_frame(columns)
    tex = table_latex(Table("t", "T", frame, list(frame.columns), "cap", digits=3))
    assert tex.startswith("{" + size + r"\setlength{\tabcolsep}") and tex.rstrip().endswith("}")
    # Headers wrap onto lines of at most max(their column, 10) characters, then, if that is not enough, word by word.
    assert header in tex


def test_a_table_too_wide_for_any_size_wraps_its_text_columns():
    frame = _wide_frame(10, text="a long note " * 30)
    tex = table_latex(Table("t", "T", frame, list(frame.columns), "cap", digits=3))
    spec = tex.split(r"\begin{longtable}{", 1)[1].split("}\n", 1)[0]
    assert spec.startswith("p{") and spec.count("p{") == 1 and spec.endswith("r" * 10)


@pytest.mark.skipif(shutil.which("lualatex") is None, reason="lualatex is not installed")
def test_wide_tables_compile_within_the_page(tmp_path):
    """Compiled with lualatex, no table is wider than the page (TeX reports an overfull box otherwise)."""
    tables = [_wide_frame(c) for c in (6, 10, 13, 16, 22)] + [_wide_frame(10, text="a long note " * 30)]
    body = "\n".join(table_latex(Table("t", "T", f, list(f.columns), "cap", digits=3)) for f in tables)
    template = (TEMPLATES / "report.tex.j2").read_text("utf-8")
    preamble = template[: template.index(r"\begin{document}")].split("\n", 1)[1]
    (tmp_path / "t.tex").write_text(preamble + "\\begin{document}\n" + body + "\\end{document}\n", "utf-8")
    done = subprocess.run(
        ["lualatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert "Overfull \\hbox" not in done.stdout, done.stdout[-3000:]
