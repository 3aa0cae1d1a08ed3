"""The report's content, independent of its format: sections of text, tables and figures.

A study's section is built once (:mod:`stats_mtbias.report.sections`) and then
written as HTML, Markdown or LaTeX (:mod:`stats_mtbias.report.render`). Tables
keep the study's raw, unrounded numbers; only the renderers round them.
"""

from __future__ import annotations

from collections.abc import Sequence
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
        Heading shown above the table.
    frame : DataFrame
        The numbers as the study's API returned them (full precision); written whole to CSV.
    columns : sequence of str
        The columns shown in the document (the CSV keeps all of them).
    caption : str
        What the rows are, how intervals were made and, for tests, the family the
        p-values were adjusted over.
    digits : int
        Decimals shown in the document.
    """

    name: str
    title: str
    frame: pd.DataFrame
    columns: Sequence[str]
    caption: str = ""
    digits: int = 4

    def shown(self) -> pd.DataFrame:
        """The columns shown in the document."""
        return self.frame[list(self.columns)]


@dataclass(frozen=True)
class Figure:
    """One figure: PNG bytes and what it shows."""

    name: str
    title: str
    png: bytes
    caption: str = ""


@dataclass
class Section:
    """One study's part of the report.

    Attributes
    ----------
    key : str
        Short name (``tgbi``); also the directory of its files.
    title : str
        Heading.
    methods : list of str
        Paragraphs saying in plain words what was measured and how, with the definitions.
    tables, figures : list
        In the order they appear.
    notes : list of str
        Findings and caveats a reader must not miss (warnings raised by the study, targets missed).
    provenance : dict
        Input checksums, method, resamples, seed, versions, options (one entry per run of the study's API).
    """

    key: str
    title: str
    methods: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    provenance: dict = field(default_factory=dict)

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
    """Every section plus what the whole run shares (versions, settings)."""

    title: str
    sections: list[Section]
    settings: dict
    environment: dict
