"""The report's content, independent of its format: sections of text, tables and figures.

A section is built once (:mod:`stats_mtbias.report.results` for any result,
:mod:`stats_mtbias.reporting.sections` for the project's full report) and then written as
HTML, Markdown or LaTeX (:mod:`stats_mtbias.report.render`). Tables keep the raw,
unrounded numbers (shares in [0, 1]) for their CSV files; only the renderers round
them, and only the documents a person reads show percent.

Every section has one shape, so that a reader finds the same thing in the same place:
its title and one line on what was measured, the **headline** table, the notes, the
**body** (comparisons, figures, the reader's validity, further tables) in order, the
methods, and an **appendix** (accounting of every input row, all estimates,
provenance) that the whole report gathers at its end.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd


@dataclass(frozen=True)
class Table:
    """One table of a section.

    Attributes
    ----------
    name : str
        File stem of the table's CSV and LaTeX files (``estimates``).
    title : str
        Heading shown above the table; an empty title writes the CSV only.
    frame : DataFrame
        The numbers (full precision, shares in [0, 1]); written whole to CSV.
    columns : sequence of str
        The columns of `frame` shown in the document (when `cells` is not given).
    caption : str
        What the rows are, the unit, how intervals were made and, for tests, the
        family the p-values were adjusted over.
    digits : int
        Decimals shown in the document.
    cells : DataFrame, optional
        The shown cells as text (e.g. ``61.2 [59.7, 62.7]``), made by
        :mod:`stats_mtbias.report.formatting`; the document shows them instead of
        `columns` of `frame` (which the CSV keeps, in shares).
    text : sequence of str
        Columns of `cells` that are words, aligned left (the others are numbers).
    percent : sequence of str
        Columns of `frame` shown ×100 (shares, or differences of shares, in points).
    headers : mapping
        Column → the header the document shows (default: the column's name).
    highlight : sequence of bool
        Rows shown emphasised (the user's own systems).
    """

    name: str
    title: str
    frame: pd.DataFrame
    columns: Sequence[str] = ()
    caption: str = ""
    digits: int = 4
    cells: pd.DataFrame | None = None
    text: Sequence[str] = ()
    percent: Sequence[str] = ()
    headers: Mapping[str, str] = field(default_factory=dict)
    highlight: Sequence[bool] = ()

    def shown(self) -> pd.DataFrame:
        """The shown part: `cells`, or the `columns` of `frame`."""
        return self.cells if self.cells is not None else self.frame[list(self.columns)]


@dataclass(frozen=True)
class Figure:
    """One figure: PNG bytes and what it shows."""

    name: str
    title: str
    png: bytes
    caption: str = ""


_NAMED = re.compile(r"(?P<name>[^\s:]+): (?P<body>.+)")


def collapse_notes(notes: Sequence[str]) -> list[str]:
    """Each note once, and notes that say the same of several names (``sys/lang: …``) as one line.

    Notes ``name: body`` whose bodies have the same shape (digits aside) are joined where the first
    of them stood: ``a, b: body`` when the bodies are equal, ``a: body; b: body`` otherwise.

    Examples
    --------
    >>> collapse_notes(["x/de: read 3, missing 2", "note", "y/de: read 5, missing 2", "z: no labels", "w: no labels"])
    ['x/de: read 3, missing 2; y/de: read 5, missing 2', 'note', 'z, w: no labels']
    """
    groups: dict[str, list[tuple[str, str]]] = {}
    order: list[str] = []
    for note in dict.fromkeys(" ".join(str(n).split()) for n in notes):
        if not note:
            continue
        named = _NAMED.fullmatch(note)
        key = "\0" + re.sub(r"\d+(?:\.\d+)?", "#", named["body"]) if named else note
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append((named["name"], named["body"]) if named else ("", note))
    lines = []
    for key in order:
        members = groups[key]
        if len(members) == 1:
            name, body = members[0]
            lines.append(f"{name}: {body}" if name else body)
        elif len({body for _, body in members}) == 1:
            lines.append(f"{', '.join(name for name, _ in members)}: {members[0][1]}")
        else:
            lines.append("; ".join(f"{name}: {body}" for name, body in members))
    return lines


@dataclass
class Section:
    """One study's (or one result's) part of the report.

    Attributes
    ----------
    key : str
        Short name (``tgbi``); also the directory of its files.
    title : str
        Heading.
    lead : str
        One line on what was measured, shown under the heading (the first screen).
    headline : Table, optional
        The table a reader looks at first: the headline metrics per system, the
        user's systems first, in percent with their intervals.
    notes : list of str
        Findings and caveats a reader must not miss, each once.
    body : list of Table and Figure
        Comparisons, figures, the reader's validity and further tables, in order.
    methods : list of str
        Paragraphs saying in plain words what was measured and how, with the definitions.
    appendix : list of Table
        Accounting of every input row, all estimates, details a reviewer checks.
    provenance : dict
        Input checksums, method, resamples, seed, versions, options (one entry per run of the study's API).
    attachments : dict of str to bytes
        Further files of the section's directory (``items.csv``: one row per system × item).
    """

    key: str
    title: str
    lead: str = ""
    headline: Table | None = None
    notes: list[str] = field(default_factory=list)
    body: list[Table | Figure] = field(default_factory=list)
    methods: list[str] = field(default_factory=list)
    appendix: list[Table] = field(default_factory=list)
    provenance: dict = field(default_factory=dict)
    attachments: dict[str, bytes] = field(default_factory=dict)

    @property
    def tables(self) -> list[Table]:
        """Every table: the headline, the body's, the appendix's."""
        head = [self.headline] if self.headline is not None else []
        return [*head, *(b for b in self.body if isinstance(b, Table)), *self.appendix]

    @property
    def figures(self) -> list[Figure]:
        """The body's figures, in order."""
        return [b for b in self.body if isinstance(b, Figure)]

    def table(self, name: str) -> Table:
        """The table called `name`."""
        for table in self.tables:
            if table.name == name:
                return table
        raise KeyError(f"section {self.key!r} has no table {name!r}; it has {[t.name for t in self.tables]}")

    def figure(self, name: str) -> Figure:
        """The figure called `name`."""
        for figure in self.figures:
            if figure.name == name:
                return figure
        raise KeyError(f"section {self.key!r} has no figure {name!r}; it has {[f.name for f in self.figures]}")


@dataclass
class Report:
    """Every section plus what the whole run shares (versions, settings).

    Attributes
    ----------
    title : str
        The document's title.
    sections : list of Section
    settings : dict
        ``n_boot``, ``seed``, ``level`` and what else the run shares.
    environment : dict
        Package, Python and dependency versions.
    lead : str
        One line under the title (what the report is, whose systems are marked).
    """

    title: str
    sections: list[Section]
    settings: dict
    environment: dict
    lead: str = ""
